#!/bin/sh
# A W2SG0004 GPS on COM3 described by an SSDT (gps-com3.asl), its on/off line
# on gpio-sim (gpio-sim.asl): gnss-sirf binds at boot, gpsd gets a 3D fix at
# the model's position through /dev/gnss0, the last close switches the chip
# off and the next open switches it on again.  COM4, with no slave, stays
# a tty and carries bytes both ways.  The boot is shared with acpi-nokia.sh
# (the same SSDTs and chips: the Nokia chips hold COM2 and the PCI 16550).
#@ machines: q35 pc
#@ firmware: bios uefi
# OVMF is covered on q35 (with the Nokia chips in the same boot) and SeaBIOS
# on pc: q35/bios and pc/uefi would each add a minute to make check and no
# path (q35/bios boots the other ACPI tests).
#@ skip: pc/uefi q35/bios
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb-nolines.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1 gps:com3:gps0
#@ timeout: 150
#@ console-expect: acpi-gps-com3: console write
. /lib/ttyport/ktap.sh
. /lib/ttyport/wire.sh
. /lib/ttyport/gps.sh
ktap_start
ktap_plan 21

log=/tmp/chip-gps0.log
count() { grep -c "$1" $log 2>/dev/null || true; }

# --- binding ------------------------------------------------------------------
wait_for 15 "gnss-sirf binds the GPS on COM3" \
	sh -c 'for d in /sys/bus/serial/drivers/gnss-sirf/serial*-*; do
		grep -qx "\\\\_SB_.GPS3" $d/firmware_node/path && exit 0; done; exit 1'
wait_for 5 "/dev/gnss0 exists" test -c /dev/gnss0
check_eq "gnss0 is the SSDT's GPS3" '\_SB_.GPS3' \
	"$(cat /sys/class/gnss/gnss0/device/firmware_node/path 2>/dev/null)"
check "gnss0 is a SiRF receiver" grep -qx SiRF /sys/class/gnss/gnss0/type
check "/dev/ttyS2 (COM3) gave way to the GPS" test ! -e /dev/ttyS2
check "gnss-sirf holds gps0-onoff as its on/off line" \
	sh -c 'gpioinfo | grep "\"gps0-onoff\"" | grep -q "\"sirf,onoff\".*output.*used"'
wait_for 10 "the model runs and found its lines" grep -q "up: uart /dev/far-com3" $log
# The driver's probe listens for 2 s and leaves a silent chip off.
check_eq "nobody has opened gnss0: the chip is off" 0 "$(count 'power on')"

# --- gpsd: a 3D fix at the model's position within 10 s -----------------------
check "gpsd reports a 3D fix within 10 s" gps_fix /dev/gnss0 10
echo "# the fix took $(cat /tmp/tpv.took) s"
check "the fix is at the model's latitude ($(tpv_field lat))" near "$(tpv_field lat)" $gps_lat
check "the fix is at the model's longitude ($(tpv_field lon))" near "$(tpv_field lon)" $gps_lon
check_eq "opening gnss0 switched the chip on once" 1 "$(count 'power on')"

# --- the last close switches the chip off --------------------------------------
wait_for 5 "closing gnss0 switches the chip off" \
	sh -c "[ \$(grep -c 'power off' $log) -ge 1 ]"
on=$(count 'power on')
sleep 2
check_eq "the chip stays off while gnss0 is closed" "$on" "$(count 'power on')"
check "the chip's last state is off (model log)" \
	sh -c "grep -e 'power on' -e 'power off' $log | tail -n 1 | grep -q 'power off'"

# --- reopening switches it on again ----------------------------------------------
timeout 4 cat /dev/gnss0 >/tmp/nmea.txt
check "reopened gnss0 delivers NMEA" grep -q '^\$GPGGA' /tmp/nmea.txt
check_eq "reopening switched the chip on again" $((on + 1)) "$(count 'power on')"
wait_for 5 "and closing it switched the chip off again" \
	sh -c "grep -e 'power on' -e 'power off' $log | tail -n 1 | grep -q 'power off'"

# --- ports with no slave ------------------------------------------------------
check "COM4 (/dev/ttyS3), no slave, is a tty" test -c /dev/ttyS3
check "COM4 carries bytes both ways" wire_carries ttyS3 com4
check "the console port /dev/ttyS0 still takes writes" \
	sh -c 'echo "acpi-gps-com3: console write" >/dev/ttyS0'

ktap_done
