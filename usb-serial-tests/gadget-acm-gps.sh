#!/bin/sh
# A GPS on a CDC-ACM port (drivers/usb/class/cdc-acm.c), in the gadget world
# (docs/gadget.md): the W2SG0004 model sits on the gadget side's ttyGSn, the
# host side's ttyACMn has a serdev controller for its port's life.  A GPS
# added through the controller's new_device binds gnss-sirf, the ttyACMn
# gives way, gpsd gets a fix through /dev/gnssN; delete_device gives the tty
# back.  A bind while the ttyACMn is open waits for its last close.  Added
# again, the GPS is unplugged (the gadget unbound from its UDC) while gpsd
# reads it: the serdev device, /dev/gnssN and the controller go, gpsd lives
# on, the host side has torn down within a second, and the tty core warns
# about no count (the device is removed before cdc-acm hangs the port up).
# Plugged again, the port is a plain tty (a hand-made device is the port's,
# not the gadget's); a GPS bound but closed goes with an unplug too.
#@ machines: q35
#@ timeout: 180
. /lib/ttyport/ktap.sh
. /lib/ttyport/gadget.sh
. /lib/ttyport/gps.sh
ktap_start
ktap_plan 46

new_gps() { # a GPS with no sideband lines on $ctrl
	echo wi2wi,w2sg0004 >$ctrl/new_device
}
stale_acm_busy() { # a node of $tty's number (cdc-acm: major 166) opens EBUSY
	mknod /tmp/stale-$tty c 166 ${tty#ttyACM} || return 1
	open_fails_busy /tmp/stale-$tty
	_r=$?
	rm -f /tmp/stale-$tty
	return $_r
}

check "a gadget acm0 with an ACM function is made" gadget_create acm0 acm
check "it plugs in" gadget_plug acm0
gadget_use acm0
ctrl=$(tty_ctrl $tty)
check "$tty's port has a serdev controller with new_device" test -n "$ctrl"
check "the controller is numbered as described by no firmware" gadget_ctrl_undescribed acm0
check_eq "the controller is a child of the ACM control interface" \
	"$(world_usb_of acm0):1.0" "$(basename "$(dirname "$ctrl")")"
check_eq "new_device is write-only for root" 200 "$(stat -c %a $ctrl/new_device 2>&1)"

# --- new_device -----------------------------------------------------------------------
gps_model_start
check "new_device adds a GPS with no sideband lines" new_gps
wait_for 20 "gnss-sirf binds it" gadget_bound gnss-sirf acm0
dev=$(gadget_serdev gnss-sirf acm0)
wait_for 5 "/dev/$tty gives way" tty_gone
wait_for 5 "/dev/gnss0 appears" test -c /dev/gnss0
check "opening a stale /dev/$tty node fails with EBUSY" stale_acm_busy
check "gpsd on /dev/gnss0 reports a 3D fix at the model's position" \
	gps_fix_at_model /dev/gnss0
gps_model_stop
check "bytes flow between /dev/gnss0 and the far end" gnss_data

check "delete_device removes it" sh -c "echo $dev >$ctrl/delete_device"
wait_for 10 "the serdev device goes away" gadget_no_serdev acm0
wait_for 10 "/dev/$tty comes back" tty_back
check "/dev/gnss0 is gone" test ! -e /dev/gnss0
check "$tty carries bytes both ways after delete_device" wire_carries $tty acm0

# --- a bind while the tty is open -------------------------------------------------------
exec 5<>/dev/$tty
kmsg_mark acm-open
check "new_device adds the GPS while /dev/$tty is open" new_gps
wait_for 10 "the bind is deferred while /dev/$tty is open" \
	log_since acm-open "$tty is open: binding gnss-sirf deferred until it is closed"
check "gnss-sirf is not bound while /dev/$tty is open" eval "! gadget_bound gnss-sirf acm0"
exec 5<&-
wait_for 20 "gnss-sirf binds it once /dev/$tty is closed" gadget_bound gnss-sirf acm0
dev=$(gadget_serdev gnss-sirf acm0)
wait_for 5 "/dev/gnss0 appears again" test -c /dev/gnss0

# --- unplugged while gpsd reads -------------------------------------------------------
gps_model_start
gpsd_start /dev/gnss0
check "gpsd on /dev/gnss0 reports a 3D fix" gpsd_wait_fix 15
check "the fix is at the model's position" tpv_at_model
gadget_log_mark acm-unplug
check "the gadget unplugs while gpsd reads /dev/gnss0" gadget_unplug_timed acm0
ms=$(cat /tmp/unplug.ms 2>/dev/null)
check "the host side tore the port down without waiting out a timeout: under 5 s (${ms:-?} ms)" \
	sh -c "[ -n '$ms' ] && [ '$ms' -lt 5000 ]"
wait_for 10 "/dev/gnss0 is gone" test ! -e /dev/gnss0
wait_for 10 "the serdev device is gone" eval "! test -e /sys/bus/serial/devices/$dev"
wait_for 10 "the controller is gone" eval "! test -e $ctrl"
check "gpsd still runs" gpsd_alive
check "gpsd still answers its clients" \
	sh -c 'timeout 5 gpspipe -w -n 1 127.0.0.1 | grep -q VERSION'
check "the kernel log shows the USB disconnect after the mark (control)" \
	gadget_log_since acm-unplug "usb [0-9]+-[0-9.]+: USB disconnect"
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings
gpsd_stop
gps_model_stop

# --- plugged again ------------------------------------------------------------------
check "the gadget plugs in again" gadget_plug acm0
gadget_use acm0
ctrl=$(tty_ctrl $tty)
check "the port registered with serdev again, as described by no firmware" \
	gadget_ctrl_undescribed acm0
check "the port has no serdev device" gadget_no_serdev acm0
check "/dev/$tty is a plain tty" tty_back
check "$tty carries bytes both ways" wire_carries $tty acm0

# --- unplugged with the GPS bound and closed ----------------------------------------
check "new_device adds the GPS again" new_gps
wait_for 20 "gnss-sirf binds it again" gadget_bound gnss-sirf acm0
dev=$(gadget_serdev gnss-sirf acm0)
check "the gadget unplugs with the GPS bound and /dev/gnss0 closed" gadget_unplug acm0
wait_for 10 "the serdev device goes with it" eval "! test -e /sys/bus/serial/devices/$dev"
wait_for 10 "/dev/gnss0 goes with it" test ! -e /dev/gnss0

check "the gadget comes apart" gadget_remove acm0
check "still no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
