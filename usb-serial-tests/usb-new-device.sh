#!/bin/sh
# A GPS that no firmware describes, added by hand on a USB-serial port through
# its controller's new_device file, as on ttyS (tests/core-new-device.sh):
# gnss-sirf binds it, the ttyUSBn gives way, gpsd gets a fix; delete_device
# brings the tty back, carrying bytes.  Added again and left bound, it goes
# with the adapter on unplug, and the replugged adapter is a plain tty (a
# hand-made device is the port's, not the adapter's).  The adapter is in
# port 1, which no table names.  Shares the boot of the other USB tests on
# q35 (the same SSDTs, which it does not need).
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb.asl acpi-tables/gps-usb-nolines.asl
#@ timeout: 150
. /lib/ttyport/ktap.sh
. /lib/ttyport/usb.sh
. /lib/ttyport/gps.sh
ktap_start
ktap_plan 28

check "the host plugs an adapter on usb1 into port 1" usb_plug usb1 1
usb_use usb1
ctrl=$(tty_ctrl $tty)
check "$tty's port has a serdev controller with new_device" test -n "$ctrl"
check_eq "new_device is write-only for root" 200 "$(stat -c %a $ctrl/new_device 2>&1)"

gps_model_start
check "new_device adds a GPS with no sideband lines" \
	sh -c "echo 'wi2wi,w2sg0004 current-speed=9600' >$ctrl/new_device"
wait_for 20 "gnss-sirf binds it" usb_bound gnss-sirf usb1
dev=$(usb_serdev gnss-sirf usb1)
wait_for 5 "/dev/$tty gives way" tty_gone
wait_for 5 "/dev/gnss0 appears" test -c /dev/gnss0
check_eq "ttyport-status: $tty, gnss-sirf, manual" "usb-serial $dev gnss-sirf manual" \
	"$(ttyport-status | awk -v t=$tty '$1 == t { print $2, $4, $5, $6 }')"
check "gpsd on /dev/gnss0 reports a 3D fix at the model's position" \
	gps_fix_at_model /dev/gnss0
gps_model_stop
check "bytes flow between /dev/gnss0 and the far end" gnss_data

check "delete_device removes it" sh -c "echo $dev >$ctrl/delete_device"
wait_for 10 "the serdev device goes away" usb_no_serdev usb1
wait_for 10 "/dev/$tty comes back" tty_back
check "/dev/gnss0 is gone" test ! -e /dev/gnss0
check "$tty carries bytes both ways after delete_device" wire_carries $tty usb1

# --- a hand-made device bound at unplug ------------------------------------------
check "new_device adds the GPS again" sh -c "echo wi2wi,w2sg0004 >$ctrl/new_device"
wait_for 20 "gnss-sirf binds it again" usb_bound gnss-sirf usb1
dev=$(usb_serdev gnss-sirf usb1)
check "the host unplugs the adapter with the hand-made GPS bound" usb_unplug usb1
wait_for 10 "the hand-made device goes with it" \
	eval "! test -e /sys/bus/serial/devices/$dev"
wait_for 10 "/dev/gnss0 goes with it" test ! -e /dev/gnss0
check "the host plugs the adapter into port 1 again" usb_plug usb1 1
usb_use usb1
wait_for 10 "the replugged port registered with serdev, numbered as described by no firmware" \
	usb_ctrl_undescribed usb1
check "the replugged port has no serdev device" usb_no_serdev usb1
check "/dev/$tty is a plain tty" tty_back
check "$tty carries bytes both ways" wire_carries $tty usb1
check "the host unplugs it" usb_unplug usb1
wait_for 10 "nothing is left on the usb-serial bus" no_usb_serial_ports
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
