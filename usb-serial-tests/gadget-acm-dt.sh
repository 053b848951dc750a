#!/bin/sh
# A W2SG0004 GPS on a CDC-ACM port, described by a device tree overlay
# applied with no gadget plugged in (dt-overlays/gps-acm-gadget.dtso): the
# overlay creates the port's nodes, named after where the ACM function is
# (dummy_hcd's first root hub port, interface 1.0:
# platform-dummy_hcd.0-usbv2-0-1-1.0/serial@0); gnss-sirf binds the GPS at
# each plug, gpsd gets a fix; unplugged while gpsd reads, the GPS goes with
# no tty count warning and the port's nodes stay; removing the overlay with
# the gadget plugged gives a plain ttyACMn back, carrying bytes.
#@ machines: q35
#@ timeout: 150
. /lib/ttyport/ktap.sh
. /lib/ttyport/gadget.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 25	# 4, round 1 of 9 and round 2 of 4, 8

unode=/serial-ports/platform-dummy_hcd.0-usbv2-0-1-1.0/serial@0/gnss
check "gps-acm-gadget.dtbo applies with no gadget plugged in" \
	ovl_apply gpsacm $dtbo/gps-acm-gadget.dtbo
check "it created the port's nodes" test -d $base$unode
check "no serdev device comes with no gadget plugged" no_serdev_dev
check "a gadget acm0 with an ACM function is made" gadget_create acm0 acm
far=/dev/far-acm0	# where gps_model_start puts the model
for round in 1 2; do
	gps_model_start
	check "round $round: acm0 plugs into dummy_udc.0" gadget_plug acm0 dummy_udc.0
	wait_for 20 "round $round: gnss-sirf binds the overlay's GPS at the plug" sirf_on $unode
	check_eq "round $round: the GPS is on the ACM port's controller" \
		"$(gadget_ctrl acm0)" "$(basename "$(dirname "$(readlink -f /sys/bus/serial/devices/$(gadget_serdev gnss-sirf acm0))")")"
	gnss=$(gnss_of $unode)
	[ $round = 1 ] && check_eq "round 1: ttyport-status shows the bound port by its interface: cdc-acm, gnss-sirf, DT" \
		"cdc-acm gnss-sirf DT" \
		"$(world_usb_of acm0 >/dev/null && ttyport-status | awk -v p="${world_usb##*/}:1.0" '$1 == p { print $2, $5, $6 }')"
	[ $round = 2 ] && {
		check "round $round: gpsd on /dev/$gnss reports a 3D fix" gps_fix_at_model /dev/$gnss
		break
	}
	gpsd_start /dev/$gnss
	check "round $round: gpsd on /dev/$gnss reports a 3D fix" gpsd_wait_fix 15
	check "round $round: the gadget unplugs while gpsd reads" gadget_unplug acm0
	wait_for 10 "round $round: the GPS is gone after the unplug" eval "! sirf_on $unode"
	check "round $round: the port's nodes stay" test -d $base$unode
	check "round $round: gpsd still runs" gpsd_alive
	gpsd_stop
	gps_model_stop
done
gps_model_stop
check "the overlay is removed with the gadget plugged" rmdir $ovl/gpsacm
wait_for 10 "the GPS goes away" eval "! sirf_on $unode"
# (gadget_use inside the poll: the ttyACM may come back a moment after)
wait_for 10 "the port's ttyACM comes back, a plain tty" \
	eval 'gadget_use acm0 && [ -n "$tty" ] && tty_back'
check "$tty carries bytes both ways" wire_carries $tty acm0
check "the port's nodes went with the overlay" test ! -e $base/serial-ports/platform-dummy_hcd.0-usbv2-0-1-1.0
check "the gadget unplugs" gadget_unplug acm0
check "the gadget comes apart" gadget_remove acm0
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
