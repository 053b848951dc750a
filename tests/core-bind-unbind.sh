#!/bin/sh
# The GPS on COM2 described at boot (gps-com2.asl): gnss-sirf binds it, the
# console and the other ports are untouched; unbinding gnss-sirf through sysfs brings
# /dev/ttyS1 back (with its attributes, and working), binding takes it again;
# the controller announces each switch with a change uevent.
# Machine-independent (the bus core): q35 only, for the make-check budget.
#@ machines: q35
#@ ssdt: acpi-tables/gps-com2.asl
#@ timeout: 180
#@ console-expect: core-bind-unbind: console write
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
ktap_start

wait_for 20 "gnss-sirf binds the boot-time GPS" sirf_bound
wait_for 5 "/dev/$tty is gone" tty_gone
dev=$(serdev_devs)
check "the serdev device's firmware node is the SSDT's GPS0" \
	grep -qx '\\_SB_.GPS0' /sys/bus/serial/devices/$dev/firmware_node/path
wait_for 5 "/dev/gnss0 is a SiRF receiver" grep -qx SiRF /sys/class/gnss/gnss0/type
check "the console port /dev/ttyS0 is still a tty" test -c /dev/ttyS0
check "the console still takes writes" sh -c 'echo "core-bind-unbind: console write" >/dev/ttyS0'
check "COM3 (/dev/ttyS2), with no slave, is still a tty" test -c /dev/ttyS2
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
	check "round $round: /dev/gnss0 is gone" test ! -e /dev/gnss0
	check "round $round: $tty carries bytes both ways" tty_bytes
	check "round $round: bind" sh -c "echo $dev >$drv/bind"
	wait_for 5 "round $round: /dev/$tty is gone again" tty_gone
	wait_for 5 "round $round: /dev/gnss0 is back" test -c /dev/gnss0
	wait_for 5 "round $round: $ctrl says 'change SERDEV_PERSONALITY=serdev'" \
		uevent_seen "^change /.*/$ctrl SERDEV_PERSONALITY=serdev\$"
	check "round $round: and $tty's remove uevent came" uevent_seen "^remove /.*/tty/$tty\$"
done

ktap_done
