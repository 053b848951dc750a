#!/bin/sh
# The gadget world (docs/gadget.md): dummy_hcd's UDC takes a gadget made
# through configfs with an ACM and a generic serial (gser) function; bound,
# the host side enumerates it as a USB device on dummy_hcd's bus, cdc-acm
# makes a ttyACMn with a serdev controller for its port, and bytes pass
# both ways between ttyACMn and the gadget side's ttyGSn; unbound, it is
# gone on the host side within a second, the gadget side's ttyGSn stays.
# A plug again gives a ttyACMn that carries bytes; a reader that holds the
# plain ttyACMn across an unplug is hung up as on stock (no tty count
# warning); plug/unplug cycles leave nothing behind; the gadget comes apart.
#@ machines: q35
#@ timeout: 120
. /lib/ttyport/ktap.sh
. /lib/ttyport/gadget.sh
ktap_start
ktap_plan 29

has_dummy_udc() {
	gadget_udcs | grep -qx dummy_udc.0
}
drv_of() { # USB interface: its driver's name, or -
	_d=$(readlink "/sys/bus/usb/devices/$1/driver") && basename "$_d" || echo -
}
far_ends_gone_udc_free() {
	! test -e /dev/far-acm0 && ! test -e /dev/far-acm0.1 &&
		[ "$(gadget_free_udc)" = dummy_udc.0 ]
}

check "dummy_hcd's UDC dummy_udc.0 is there" has_dummy_udc
check "gadget configfs is there ($gadget_cfs)" test -d $gadget_cfs
check "a gadget acm0 with an ACM and a gser function is made" gadget_create acm0 acm gser
check "the ACM function's far end /dev/far-acm0 is a ttyGS" \
	sh -c 'test -c /dev/far-acm0 && readlink /dev/far-acm0 | grep -q "^/dev/ttyGS[0-9]"'
check "the gser function's far end /dev/far-acm0.1 is another ttyGS" \
	sh -c 'test -c /dev/far-acm0.1 && [ "$(readlink /dev/far-acm0.1)" != "$(readlink /dev/far-acm0)" ]'

# --- plugged ----------------------------------------------------------------------
check "acm0 plugs into dummy_udc.0" gadget_plug acm0 dummy_udc.0
check_eq "the gadget names the UDC, the UDC names the gadget" "dummy_udc.0 acm0" \
	"$(gadget_udc acm0) $(cat /sys/class/udc/dummy_udc.0/function)"
usb=$(world_usb_of acm0)
check "the host side has a USB device with serial number acm0 on dummy_hcd's bus" \
	sh -c "readlink -f /sys/bus/usb/devices/$usb | grep -q /dummy_hcd"
check_eq "cdc_acm serves its control and data interfaces" "cdc_acm cdc_acm" \
	"$(drv_of $usb:1.0) $(drv_of $usb:1.1)"
check_eq "the gser interface is vendor-specific, with no driver for these IDs" "ff -" \
	"$(cat /sys/bus/usb/devices/$usb:1.2/bInterfaceClass) $(drv_of $usb:1.2)"
gadget_use acm0
check "the host side's tty is a ttyACM ($tty)" sh -c "case '$tty' in ttyACM*) test -c /dev/$tty ;; *) false ;; esac"
check "its port has a serdev controller, numbered as described by no firmware" \
	gadget_ctrl_undescribed acm0
check "the controller has new_device" test -e "$(tty_ctrl $tty)/new_device"
check "$tty and the gadget's ttyGS carry bytes both ways" wire_carries $tty acm0

# --- unplugged ----------------------------------------------------------------------
check "the gadget unplugs" gadget_unplug_timed acm0
ms=$(cat /tmp/unplug.ms 2>/dev/null)
check "the host side's USB device went without waiting out a timeout: under 5 s (${ms:-?} ms)" \
	sh -c "[ -n '$ms' ] && [ '$ms' -lt 5000 ]"
check "/dev/$tty is gone" test ! -e /dev/$tty
check "the ttyGS far ends stay on the gadget side" sh -c 'test -c /dev/far-acm0 && test -c /dev/far-acm0.1'

# --- plugged again ----------------------------------------------------------------
check "acm0 plugs in again" gadget_plug acm0
gadget_use acm0
check "$tty carries bytes both ways again" wire_carries $tty acm0

# --- unplugged under a reader of the plain tty -------------------------------------
cat /dev/$tty >/dev/null 2>&1 &
reader=$!
sleep 0.3
check "a reader holds /dev/$tty" kill -0 $reader
check "the gadget unplugs under it" gadget_unplug acm0
check "the reader is hung up and ends" poll 5 eval "! kill -0 $reader"
wait $reader 2>/dev/null

# --- cycles -------------------------------------------------------------------------
cycles() {
	for _c in 1 2 3 4 5 6 7 8 9 10; do
		gadget_plug acm0 || { echo "plug $_c: failed"; return 1; }
		gadget_tty acm0 >/dev/null || { echo "plug $_c: no tty"; return 1; }
		gadget_ctrl acm0 >/dev/null || { echo "plug $_c: no controller"; return 1; }
		gadget_unplug acm0 || { echo "unplug $_c: failed"; return 1; }
	done
}
check "10 plug/unplug cycles each give a ttyACM with a controller, and take it" cycles
check "no ttyACM is left" sh -c '! ls /sys/class/tty | grep -q ttyACM'
check "no serdev controller is left under dummy_hcd" \
	sh -c '! readlink -f /sys/bus/serial/devices/* | grep -q dummy_hcd'

# --- taken apart --------------------------------------------------------------------
check "the gadget comes apart" gadget_remove acm0
check "its far ends are gone, and the UDC is free" far_ends_gone_udc_free
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
