#!/bin/sh
# Data path: the same W2SG0004 model streams NMEA into COM2 as fast as the
# wire takes it (w2sg0004 --flood); a reader takes it for TEST_SECONDS (10)
# from /dev/gnss0 when the boot describes the GPS (acpi-tables/gps-com2.asl,
# gnss-sirf holds the port), or from /dev/ttyS1 in raw mode when it does not
# (the tty and its N_TTY line discipline).  Figures: bytes/s, the share of
# the CPUs busy, and the reader's own CPU time.
. /lib/ttyport/bench.sh

secs=${TEST_SECONDS:-10}
w2sg0004 --uart /dev/far-com2 --lines gpsb --always-on --flood \
	2>>/tmp/chip-gpsb.log &
model=$!
if [ -e /sys/bus/serial/drivers/gnss-sirf ] &&
   [ -n "$(ls /sys/bus/serial/drivers/gnss-sirf | grep serial)" ]; then
	path=gnss dev=/dev/gnss0
else
	path=tty dev=/dev/ttyS1
fi
r=$(ttyport-bench read $dev "$secs" 9600) || { echo "bench: reading $dev failed" >&2; kill $model; exit 1; }
kill $model
wait $model 2>/dev/null
for kv in $r; do
	fig "${path}_${kv%%=*}" "${kv#*=}"
done
