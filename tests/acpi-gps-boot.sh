#!/bin/sh
# An SSDT given at boot describes a W2SG0004 GPS on COM2: gnss-sirf binds on
# the serdev device, /dev/gnss0 appears, /dev/ttyS1 gives way, and the console
# port ttyS0 is untouched.
#@ machines: q35 pc
#@ firmware: bios uefi
#@ ssdt: acpi-tables/gps-com2.asl
. /lib/ttyport/ktap.sh
ktap_start

wait_for 10 "gnss-sirf binds the GPS on COM2" \
	test -e /sys/bus/serial/drivers/gnss-sirf/serial0-0
check "the serdev device's firmware node is the SSDT's GPS0" \
	grep -qx '\\_SB_.GPS0' /sys/bus/serial/devices/serial0-0/firmware_node/path
wait_for 5 "/dev/gnss0 exists" test -c /dev/gnss0
check "/dev/gnss0 is a SiRF receiver" grep -qx SiRF /sys/class/gnss/gnss0/type
check "/dev/ttyS1 is gone while the GPS holds the port" test ! -e /dev/ttyS1
check "the console port /dev/ttyS0 is still a tty" test -c /dev/ttyS0
check "the console still takes writes" sh -c 'echo "acpi-gps-boot: console write" >/dev/ttyS0'
check "COM3 (/dev/ttyS2), with no slave, is still a tty" test -c /dev/ttyS2

ktap_done
