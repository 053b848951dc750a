#!/bin/sh
# A GPS on the port of a second usb-serial driver: usb_serial_simple, which
# serves a generic serial (gser) function when the gadget has the IDs of one
# of its devices (libtransistor's 1209:8b00, one bulk pair).  Its ttyUSBn is
# a usb-serial port as ftdi_sio's are, with nothing of ftdi_sio's: no
# modem lines, no line coding (its speed cannot be set, so bytes are passed
# at whatever speed the tty says: WIRE_SPEED=).  The same GPS tests as on the FTDI and ACM
# ports: from new_device (gpsd gets a fix, delete_device gives the tty back)
# and from the overlay written for the ACM gadget at dummy_hcd's first root
# hub port, interface 1.0 (dt-overlays/gps-acm-gadget.dtso): a node names a
# place, so it describes whatever serial port is plugged in there.  Unplugged
# while gpsd reads, the GPS goes with no tty count warning.
#@ machines: q35
#@ timeout: 150
. /lib/ttyport/ktap.sh
. /lib/ttyport/gadget.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 38	# 9, new_device 11, overlay 16, 2

pnode=/serial-ports/platform-dummy_hcd.0-usbv2-0-1-1.0/serial@0
unode=$pnode/gnss

# if_driver WIRE: the driver of the first interface of WIRE's USB device
if_driver() {
	world_usb_of "$1" >/dev/null || return 1
	_d=$(readlink "$world_usb/$(basename "$world_usb"):1.0/driver") || return 1
	echo "${_d##*/}"
}

GADGET_IDS=0x1209:0x8b00
check "a gadget simple0 with a gser function and the IDs 1209:8b00 is made" \
	gadget_create simple0 gser
check "it plugs in" gadget_plug simple0
wait_for 10 "the host side has a ttyUSB port for it" gadget_tty simple0
check_eq "the interface's driver is usb_serial_simple" usb_serial_simple "$(if_driver simple0)"
gadget_use simple0
check "it is a usb-serial port ($tty)" eval 'case $tty in ttyUSB*) ;; *) false ;; esac'
ctrl=$(tty_ctrl $tty)
check "$tty's port has a serdev controller with new_device" test -n "$ctrl"
check "the controller is numbered as described by no firmware" gadget_ctrl_undescribed simple0
check "the port has no node while nothing describes a device on it" \
	test -d "$ctrl" -a ! -e "$ctrl/of_node"
WIRE_SPEED=
check "$tty carries bytes both ways" wire_carries $tty simple0

# --- new_device -----------------------------------------------------------------------
gps_model_start
check "new_device adds a GPS with no sideband lines" \
	sh -c "echo wi2wi,w2sg0004 >$ctrl/new_device"
wait_for 20 "gnss-sirf binds it" gadget_bound gnss-sirf simple0
dev=$(gadget_serdev gnss-sirf simple0)
wait_for 5 "/dev/$tty gives way" tty_gone
wait_for 5 "/dev/gnss0 appears" test -c /dev/gnss0
check_eq "new_device made the port's node, named after where the port is" \
	"$base$pnode" "$(readlink -f "$ctrl/of_node")"
check "gpsd on /dev/gnss0 reports a 3D fix at the model's position" \
	gps_fix_at_model /dev/gnss0
gps_model_stop
check "bytes flow between /dev/gnss0 and the far end" gnss_data
check "delete_device removes it" sh -c "echo $dev >$ctrl/delete_device"
wait_for 10 "the serdev device goes away" gadget_no_serdev simple0
wait_for 10 "/dev/$tty comes back" tty_back
check "$tty carries bytes both ways after delete_device" wire_carries $tty simple0

# --- the overlay, then the plug ------------------------------------------------------
check "the gadget unplugs" gadget_unplug simple0
check "gps-acm-gadget.dtbo applies with nothing plugged in" \
	ovl_apply gpssimple $dtbo/gps-acm-gadget.dtbo
check "no serdev device comes with nothing plugged" no_serdev_dev
gps_model_start
check "the usb_serial_simple gadget plugs into the place the overlay names" gadget_plug simple0
wait_for 20 "gnss-sirf binds the overlay's GPS on its ttyUSB port" sirf_on $unode
check_eq "the GPS is on that port's controller" \
	"$(gadget_ctrl simple0)" "$(basename "$(dirname "$(readlink -f /sys/bus/serial/devices/$(gadget_serdev gnss-sirf simple0))")")"
gnss=$(gnss_of $unode)
gpsd_start /dev/$gnss
check "gpsd on /dev/$gnss reports a 3D fix" gpsd_wait_fix 15
check "the fix is at the model's position" tpv_at_model
gadget_log_mark simple-unplug
check "the gadget unplugs while gpsd reads /dev/$gnss" gadget_unplug_timed simple0
ms=$(cat /tmp/unplug.ms 2>/dev/null)
check "the host side tore the port down without waiting out a timeout: under 5 s (${ms:-?} ms)" \
	sh -c "[ -n '$ms' ] && [ '$ms' -lt 5000 ]"
wait_for 10 "the GPS is gone after the unplug" eval "! sirf_on $unode"
check "the port's nodes stay" test -d $base$unode
check "gpsd still runs" gpsd_alive
check "the kernel log shows the USB disconnect after the mark (control)" \
	gadget_log_since simple-unplug "usb [0-9]+-[0-9.]+: USB disconnect"
gpsd_stop
gps_model_stop
check "the overlay is removed" rmdir $ovl/gpssimple
check "the port's nodes went with it" test ! -e "$base${pnode%/serial@0}"

check "the gadget comes apart" gadget_remove simple0
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
