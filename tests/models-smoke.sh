#!/bin/sh
# The chip models in the guest, with libgpiod tools standing in for the drivers
# and a gpio-sim chip made through configfs standing in for the SoC's GPIO
# controller: a 100 ms pulse on the GPS model's on/off line starts its NMEA on
# the far end of COM2 (read on /dev/ttyS1), a second pulse stops it; releasing
# the Nokia model's reset line raises its host-wakeup line.
#@ machines: q35
#@ timeout: 120
. /lib/ttyport/ktap.sh
ktap_start
ktap_plan 10

# A gpio-sim chip whose lines carry the names the models look for.
sim=/sys/kernel/config/gpio-sim/smoke
mkdir $sim $sim/bank0
echo 8 >$sim/bank0/num_lines
n=0
for name in gps0-onoff gps0-wakeup bt0-reset bt0-host-wakeup bt0-bt-wakeup; do
	mkdir $sim/bank0/line$n
	echo $name >$sim/bank0/line$n/name
	n=$((n + 1))
done
echo 1 >$sim/live
chip=$(cat $sim/bank0/chip_name)
check "a gpio-sim chip with the models' line names is live" test -c /dev/$chip

# GPS: onoff is line 0, wakeup line 1.  The far end of COM2 is /dev/far-com2.
w2sg0004 --uart /dev/far-com2 --lines gps0 2>/tmp/gps0.log &
gps=$!
stty -F /dev/ttyS1 raw -echo 9600
cat /dev/ttyS1 >/tmp/nmea &
reader=$!
# (the model runs before its silence means anything; a model that started
# on would talk within its 1 s period)
wait_for 5 "the GPS model runs (its log says it is up)" grep -q "up: uart /dev/far-com2" /tmp/gps0.log
sleep 1.2
check "the GPS model starts off: no NMEA on ttyS1" test ! -s /tmp/nmea

pulse() { gpioset --mode=time --usec=100000 $chip 0=1; }
pulse
wait_for 3 "a 100 ms pulse on gps0-onoff starts NMEA on ttyS1" grep -q 'GGA,' /tmp/nmea
check "the model drives gps0-wakeup high while on" sh -c "[ \$(gpioget $chip 1) = 1 ]"
# (checksums and the fix are checked by the host tests, through real gpsd)
wait_for 3 "GGA, RMC, GSA and GSV sentences arrive" sh -c '
	for t in GGA RMC GSA GSV; do
		grep -aqE "^\\\$GP$t,.*\\*[0-9A-F]{2}" /tmp/nmea || { echo "no $t"; exit 1; }
	done'
pulse
sleep 0.3
size1=$(wc -c </tmp/nmea)
sleep 1.5
size2=$(wc -c </tmp/nmea)
check_eq "a second pulse silences it within 300 ms" "$size1" "$size2"
check "the model drives gps0-wakeup low while off" sh -c "[ \$(gpioget $chip 1) = 0 ]"
kill $reader $gps

# Nokia: reset is line 2 (physical 0 = in reset), host-wakeup line 3.
nokia-h4p --uart /dev/far-com3 --lines bt0 2>/tmp/bt0.log &
bt=$!
sleep 0.5
check "in reset, the Nokia model holds host-wakeup low" sh -c "[ \$(gpioget $chip 3) = 0 ]"
gpioset --mode=signal $chip 2=1 &
holder=$!
wait_for 2 "releasing reset raises host-wakeup" sh -c "[ \$(gpioget $chip 3) = 1 ]"
kill $holder $bt
wait 2>/dev/null

echo 0 >$sim/live
ktap_done
