#!/bin/sh
# A GPS that no firmware describes, added by hand on COM2 through the
# controller's new_device file: the kernel describes it with a device tree
# node under COM2's port node (/serial-ports/acpi-.../serial@0/w2sg0004),
# gnss-sirf binds it from its OF match table, /dev/ttyS1 gives way and bytes
# flow through /dev/gnss0; delete_device takes it away, with its node, and
# the tty comes back.  Both files are root-only; bad specifications are
# refused, each with its error (a property given twice, a value that is
# neither a number nor a quoted string, a number over 32 bits), beside a
# control that is accepted.  Drivers that read more than properties bind
# too, since the node is a real one: w1-uart (of_property_read_u32()) and
# hci_mrvl (OF match data, which a software node never gave it).  The port
# stays a working tty.  Leading blanks before the compatible are skipped.
# Machine-independent (the bus core): q35 only, for the make-check budget.
#@ machines: q35
#@ timeout: 180
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/gps.sh
ktap_start
ktap_plan 71

ctrl=$(tty_ctrl $tty)
check "$tty's port has a serdev controller with new_device" test -e "$ctrl/new_device"
check_eq "new_device is write-only for root" 200 "$(stat -c %a $ctrl/new_device)"
check_eq "delete_device is write-only for root" 200 "$(stat -c %a $ctrl/delete_device)"

# refused_for_nobody FILE TEXT: as nobody, writing TEXT to FILE fails for
# want of permission (EACCES at open), not for some other reason
refused_for_nobody() {
	o=$(as_nobody "echo '$2' >$1") && { echo "the write succeeded"; return 1; }
	case "$o" in
	*"Permission denied"*) ;;
	*) echo "not refused for permission: $o"; return 1 ;;
	esac
}

check "an unprivileged user (setpriv to 65534) can write a file it owns" \
	nobody_writes_own
check "a non-root writer cannot add a device" \
	refused_for_nobody $ctrl/new_device wi2wi,w2sg0004
# (write_refused, serdev.sh: the write fails with that error, not any)
check "an empty specification is refused (EINVAL)" \
	write_refused $ctrl/new_device " " "Invalid argument"
check "a property named compatible is refused (EINVAL)" \
	write_refused $ctrl/new_device "wi2wi,w2sg0004 compatible=x" "Invalid argument"
check "no device was added by any of these" no_serdev_dev
# delete_dev DEV: delete_device DEV, which must be done within 10 s.  The
# write runs in the background: after an oops in a probe (hci_mrvl's, on a
# kernel without the refusal) it blocks for ever on the device lock, and the
# checks after it must still run.
delete_dev() {
	# not to stdout: a command substitution around this would wait for it
	sh -c "echo $1 >$ctrl/delete_device" >/tmp/delete.out 2>&1 &
	p=$!
	poll 10 eval "! kill -0 $p" ||
		{ echo "delete_device $1: still blocked after 10 s"; return 1; }
	wait $p || { cat /tmp/delete.out; return 1; }
}
# drop_dev: if a device is on the controller (a refusal that did not
# happen), delete it, so that the checks after it start from an empty slot
drop_dev() {
	d=$(serdev_devs)
	[ -n "$d" ] || return 0
	delete_dev "$d" >/dev/null && poll 10 no_serdev_dev && poll 10 tty_back
}

# The control of the refusals below: a specification the bus can serve,
# with a property, is accepted and bound, and goes again
check "new_device accepts a GPS with two properties (label=\"a b\" current-speed=9600)" \
	sh -c "echo 'wi2wi,w2sg0004 label=\"a b\" current-speed=9600' >$ctrl/new_device"
wait_for 20 "gnss-sirf binds the labelled GPS" sirf_bound
dev=$(serdev_devs)
node=/sys/bus/serial/devices/$dev/of_node
check_eq "its node holds the label as given, blank included" "a b" \
	"$(tr -d '\0' <$node/label 2>&1)"
check_eq "and current-speed as a 32-bit cell" "00002580" \
	"$(od -An -tx1 $node/current-speed 2>&1 | tr -d ' \n')"
check "delete_device removes the labelled GPS" sh -c "echo $dev >$ctrl/delete_device"
wait_for 10 "the controller is empty again" no_serdev_dev
wait_for 10 "/dev/$tty is back" tty_back

check "a property given twice is refused (EINVAL)" \
	write_refused $ctrl/new_device 'wi2wi,w2sg0004 label="a" label="b"' \
	"Invalid argument"
kmsg_mark values
check "a value that is neither a number nor quoted is refused (EINVAL)" \
	write_refused $ctrl/new_device "wi2wi,w2sg0004 label=gps" "Invalid argument"
check "the kernel says to quote a string" \
	log_since values "label: gps is not a number \\(a string goes in double quotes\\)"
check "a number over 32 bits is refused, not cut (ERANGE)" \
	write_refused $ctrl/new_device "wi2wi,w2sg0004 current-speed=4294967296" \
	"Numerical result out of range"
check "the kernel says it does not fit" \
	log_since values "current-speed: 4294967296 does not fit in 32 bits"
check "no device was added for any of the refused values" no_serdev_dev
drop_dev

# w1-uart reads its properties with of_property_read_u32(): on the node
# new_device makes, it binds and registers a 1-Wire bus master (with no
# chip at the far end, the master finds no slaves; the bind is the point)
check "w1-uart's driver is registered on the serial bus" \
	test -d /sys/bus/serial/drivers/w1-uart
check "new_device adds a w1-uart device" \
	sh -c "echo w1-uart >$ctrl/new_device"
dev=$(serdev_devs)
wait_for 20 "w1-uart binds it" test -e /sys/bus/serial/drivers/w1-uart/$dev
check "a 1-Wire bus master is registered" \
	sh -c 'ls -d /sys/bus/w1/devices/w1_bus_master* >/dev/null'
check "delete_device removes the w1-uart device" delete_dev "$dev"
wait_for 10 "the w1-uart device is gone" no_serdev_dev
wait_for 10 "the 1-Wire bus master is gone" \
	sh -c '! ls -d /sys/bus/w1/devices/w1_bus_master* 2>/dev/null'
wait_for 10 "/dev/$tty is back after w1-uart" tty_back
check "/dev/$tty is still a tty after the refusals" tty_back
check "$tty carries bytes both ways after the refusals" tty_bytes

check "new_device adds a GPS with properties" \
	sh -c "echo 'wi2wi,w2sg0004 current-speed=9600 label=\"gps-by-hand\"' >$ctrl/new_device"
wait_for 20 "gnss-sirf binds the new device" sirf_bound
wait_for 5 "/dev/$tty gives way" tty_gone
wait_for 5 "/dev/gnss0 appears" test -c /dev/gnss0
dev=$(serdev_devs)
check_eq "its modalias is its node's: named after the model, with its compatible" \
	"of:Nw2sg0004T(null)Cwi2wi,w2sg0004" "$(cat /sys/bus/serial/devices/$dev/modalias)"
check "its node is a child of COM2's port node" \
	sh -c "readlink -f /sys/bus/serial/devices/$dev/of_node | grep -q '/serial-ports/acpi-[^/]*COM2/serial@0/w2sg0004\$'"
check "bytes flow between /dev/gnss0 and the far end" gnss_data
gps_model_start
check "gpsd on /dev/gnss0 reports a 3D fix from the GPS with no sideband lines" \
	gps_fix_at_model /dev/gnss0
gps_model_stop
check "a second device on the same controller is refused (EBUSY)" \
	write_refused $ctrl/new_device wi2wi,w2sg0004 "Device or resource busy"
check "delete_device refuses a name that is not its device (ENODEV)" \
	write_refused $ctrl/delete_device serial99-0 "No such device"
check "a non-root writer cannot delete it" refused_for_nobody $ctrl/delete_device $dev
check "the device is still bound" sirf_bound

check "delete_device removes it" sh -c "echo $dev >$ctrl/delete_device"
wait_for 10 "the serdev device goes away" no_serdev_dev
wait_for 10 "/dev/$tty comes back" tty_back
check "/dev/gnss0 is gone" test ! -e /dev/gnss0
check "$tty carries bytes both ways" tty_bytes

check "new_device works again after delete_device" \
	sh -c "echo wi2wi,w2sg0004 >$ctrl/new_device"
wait_for 20 "gnss-sirf binds it again" sirf_bound
dev=$(serdev_devs)
check "and delete_device again" sh -c "echo $dev >$ctrl/delete_device"
wait_for 10 "/dev/$tty comes back again" tty_back

# Leading blanks before the compatible are skipped, not an empty compatible
check "new_device accepts a specification with leading blanks" \
	sh -c "echo '  wi2wi,w2sg0004' >$ctrl/new_device"
wait_for 20 "gnss-sirf binds the device given with leading blanks" sirf_bound
dev=$(serdev_devs)
check "its compatible has no blanks" grep -qx 'of:Nw2sg0004T(null)Cwi2wi,w2sg0004' \
	/sys/bus/serial/devices/$dev/modalias
check "delete_device removes the device given with leading blanks" \
	sh -c "echo $dev >$ctrl/delete_device"
wait_for 10 "/dev/$tty comes back once more" tty_back
check "$tty carries bytes both ways after the leading-blanks device left" tty_bytes

# hci_mrvl takes its protocol from OF match data: with the software nodes
# of earlier versions it got NULL and dereferenced it.  On the node
# new_device makes it binds, registers an HCI device, and lets go of the
# port cleanly at delete_device (it opened the serdev device twice on stock
# 6.12: a fix in this series).  Last, as its bind is the riskiest.
kmsg_mark mrvl
check "hci_uart_mrvl is registered on the serial bus" \
	test -d /sys/bus/serial/drivers/hci_uart_mrvl
hcis0=$(ls /sys/class/bluetooth 2>/dev/null | tr '\n' ' ')
check "new_device adds a mrvl,88w8897 device" \
	sh -c "echo mrvl,88w8897 >$ctrl/new_device"
dev=$(serdev_devs)
wait_for 20 "hci_mrvl binds it (its match data found)" \
	test -e /sys/bus/serial/drivers/hci_uart_mrvl/$dev
wait_for 10 "it registers an HCI device" \
	sh -c "[ \"\$(ls /sys/class/bluetooth 2>/dev/null | tr '\n' ' ')\" != '$hcis0' ]"
check "delete_device removes the mrvl,88w8897 device" delete_dev "$dev"
wait_for 10 "the mrvl device is gone" no_serdev_dev
check_eq "its HCI device is gone" "$hcis0" "$(ls /sys/class/bluetooth 2>/dev/null | tr '\n' ' ')"
wait_for 10 "/dev/$tty is a tty after hci_mrvl" tty_back
check "$tty carries bytes both ways after hci_mrvl" tty_bytes
check "new_device still adds a GPS after hci_mrvl" \
	sh -c "echo wi2wi,w2sg0004 >$ctrl/new_device"
wait_for 20 "gnss-sirf binds the GPS added after hci_mrvl" sirf_bound
check "delete_device removes the GPS added after hci_mrvl" \
	delete_dev "$(serdev_devs)"
wait_for 10 "/dev/$tty is back at the end" tty_back

ktap_done
