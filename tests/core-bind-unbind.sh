#!/bin/sh
# The GPS on COM2 described at boot (gps-com2.asl): gnss-sirf binds it, the
# console and the other ports are untouched; unbinding gnss-sirf through sysfs brings
# /dev/ttyS1 back (with its attributes, and working), binding takes it again;
# the controller announces each switch with a change uevent.
# Machine-independent (the bus core): q35 only, for the make-check budget.
# It shares the boot of acpi-bad (the same tables: a GPS on COM3 and bad
# descriptions beside its GPS), and runs after it.
#@ machines: q35
#@ firmware: bios
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/gps-com3.asl acpi-tables/bad-uart-controller.asl acpi-tables/bad-nokia-com4.asl acpi-tables/bad-gps-pci.asl acpi-tables/gps-com2.asl
#@ chips: gps:com3:gps0
#@ timeout: 180
#@ console-expect: core-bind-unbind: console write
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
ktap_start
ktap_plan 35	# 7, and 2 rounds of 14

wait_for 20 "the SSDT's GPS0 is a serdev device" serdev_of_node '\_SB_.GPS0'
dev=$(serdev_of_node '\_SB_.GPS0')
wait_for 20 "gnss-sirf binds it" test -e /sys/bus/serial/drivers/gnss-sirf/$dev
wait_for 5 "/dev/$tty is gone" tty_gone
g=$(gnss_of_dev $dev)
check "its GNSS device /dev/$g is a SiRF receiver" grep -qx SiRF /sys/class/gnss/$g/type
check "the console port /dev/ttyS0 is still a tty" test -c /dev/ttyS0
check "the console still takes writes" sh -c 'echo "core-bind-unbind: console write" >/dev/ttyS0'
check "COM4 (/dev/ttyS3), with no device bound, is still a tty" test -c /dev/ttyS3
ctrl=$(basename "$(readlink -f /sys/bus/serial/devices/$dev/..)")
drv=/sys/bus/serial/drivers/gnss-sirf

uevents_start
for round in 1 2; do
	: >/run/uevents
	check "round $round: unbind" sh -c "echo $dev >$drv/unbind"
	wait_for 5 "round $round: /dev/$tty comes back" tty_back
	wait_for 5 "round $round: $ctrl says 'change SERDEV_PERSONALITY=tty'" \
		uevent_seen "^change /.*/$ctrl SERDEV_PERSONALITY=tty\$"
	check "round $round: and $tty's add uevent came" uevent_seen "^add /.*/tty/$tty\$"
	check "round $round: $tty has its serial attributes" test -r /sys/class/tty/$tty/uartclk
	check "round $round: $tty's device is the port's" \
		test "$(readlink -f /sys/class/tty/$tty/device)" = "$(readlink -f /sys/bus/serial/devices/$ctrl/..)"
	check "round $round: /dev/$g is gone" test ! -e /dev/$g
	check "round $round: $tty carries bytes both ways" tty_bytes
	check "round $round: bind" sh -c "echo $dev >$drv/bind"
	wait_for 5 "round $round: /dev/$tty is gone again" tty_gone
	wait_for 5 "round $round: a GNSS device is back" gnss_of_dev $dev
	g=$(gnss_of_dev $dev)
	check "round $round: /dev/$g is there" test -c /dev/$g
	wait_for 5 "round $round: $ctrl says 'change SERDEV_PERSONALITY=serdev'" \
		uevent_seen "^change /.*/$ctrl SERDEV_PERSONALITY=serdev\$"
	check "round $round: and $tty's remove uevent came" uevent_seen "^remove /.*/tty/$tty\$"
done

ktap_done
