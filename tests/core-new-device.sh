#!/bin/sh
# A GPS that no firmware describes, added by hand on COM2 through the
# controller's new_device file: gnss-sirf binds it (the software node's
# "compatible" matches its OF match table), /dev/ttyS1 gives way and bytes
# flow through /dev/gnss0; delete_device takes it away and the tty comes
# back.  Both files are root-only; bad specifications (a property given
# twice among them) are refused, and so is, with EOPNOTSUPP, a compatible
# whose driver cannot serve a device with no firmware node (hci_mrvl needs
# OF match data, w1-uart reads of_property_read_u32()); the port stays a
# working tty.  Leading blanks before the compatible are skipped.
# Machine-independent (the bus core): q35 only, for the make-check budget.
#@ machines: q35
#@ timeout: 180
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/gps.sh
ktap_start
ktap_plan 58

ctrl=$(tty_ctrl $tty)
check "$tty's port has a serdev controller with new_device" test -n "$ctrl"
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
check "new_device accepts a GPS with one property (label=a)" \
	sh -c "echo 'wi2wi,w2sg0004 label=a' >$ctrl/new_device"
wait_for 20 "gnss-sirf binds the label=a GPS" sirf_bound
dev=$(serdev_devs)
check "delete_device removes the label=a GPS" sh -c "echo $dev >$ctrl/delete_device"
wait_for 10 "the controller is empty again" no_serdev_dev
wait_for 10 "/dev/$tty is back" tty_back

check "a property given twice is refused (EINVAL)" \
	write_refused $ctrl/new_device "wi2wi,w2sg0004 label=a label=b" \
	"Invalid argument"
check "no device was added for the twice-given property" no_serdev_dev
drop_dev

# A compatible whose driver cannot serve a device with no firmware node:
# refused with EOPNOTSUPP and one kernel log line naming it, not added.
# The control: the driver is there (with no driver at all, the device
# would be added and stay unbound, as for any compatible nobody serves).
kmsg_mark w1
check "the kernel log shows the test's mark (control of the log checks)" \
	log_since w1 "ttyport-test: mark w1"
check "w1-uart's driver is registered on the serial bus" \
	test -d /sys/bus/serial/drivers/w1-uart
check "w1-uart is refused: it reads of_property_read_u32() (EOPNOTSUPP)" \
	write_refused $ctrl/new_device w1-uart "Operation not supported"
check "a kernel log line names w1-uart and new_device" \
	log_since w1 "new_device.*w1-uart|w1-uart.*new_device"
check "no device was added for w1-uart" no_serdev_dev
drop_dev
check "/dev/$tty is still a tty after the refusals" tty_back
check "$tty carries bytes both ways after the refusals" tty_bytes

check "new_device adds a GPS with properties" \
	sh -c "echo 'wi2wi,w2sg0004 current-speed=9600 label=gps-by-hand' >$ctrl/new_device"
wait_for 20 "gnss-sirf binds the new device" sirf_bound
wait_for 5 "/dev/$tty gives way" tty_gone
wait_for 5 "/dev/gnss0 appears" test -c /dev/gnss0
dev=$(serdev_devs)
check_eq "its modalias is the OF one of its compatible" \
	"of:NserdevT(null)Cwi2wi,w2sg0004" "$(cat /sys/bus/serial/devices/$dev/modalias)"
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
check "its compatible has no blanks" grep -qx 'of:NserdevT(null)Cwi2wi,w2sg0004' \
	/sys/bus/serial/devices/$dev/modalias
check "delete_device removes the device given with leading blanks" \
	sh -c "echo $dev >$ctrl/delete_device"
wait_for 10 "/dev/$tty comes back once more" tty_back
check "$tty carries bytes both ways after the leading-blanks device left" tty_bytes

# hci_mrvl takes its protocol from OF match data: with a software node it
# got NULL and dereferenced it (an oops in the async probe, which leaves the
# device lock held: so this refusal comes last)
kmsg_mark mrvl
check "hci_uart_mrvl is registered on the serial bus" \
	test -d /sys/bus/serial/drivers/hci_uart_mrvl
check "mrvl,88w8897 is refused: hci_mrvl needs OF match data (EOPNOTSUPP)" \
	write_refused $ctrl/new_device mrvl,88w8897 "Operation not supported"
check "a kernel log line names mrvl,88w8897 and new_device" \
	log_since mrvl "new_device.*mrvl,88w8897|mrvl,88w8897.*new_device"
check "no device was added for mrvl,88w8897" no_serdev_dev
drop_dev
check "/dev/$tty is still a tty after the mrvl,88w8897 refusal" tty_back
check "$tty carries bytes both ways after the mrvl,88w8897 refusal" tty_bytes
check "new_device still adds a GPS after the mrvl,88w8897 refusal" \
	sh -c "echo wi2wi,w2sg0004 >$ctrl/new_device"
wait_for 20 "gnss-sirf binds the GPS added after the mrvl,88w8897 refusal" sirf_bound
check "delete_device removes the GPS added after the mrvl,88w8897 refusal" \
	delete_dev "$(serdev_devs)"
wait_for 10 "/dev/$tty is back at the end" tty_back

ktap_done
