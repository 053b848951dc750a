#!/bin/sh
# A port's node name does not depend on the order in which USB host
# controllers probe.  USB bus numbers do: the xHCI (PCI 00:03.0) probes
# before dummy_hcd (the gadget world's host controller) at boot and takes
# buses 1 and 2.  Both are unbound and bound again in the other order, as a
# boot that probed them the other way round would have done, so that every
# bus number moves (the premise, checked).  An FTDI adapter in xHCI port 1
# and an ACM gadget on dummy_hcd's port 1 keep the nodes they had, and the
# overlays applied before the controllers went (dt-overlays/gps-usb-port1.dtso,
# gps-acm-gadget.dtso: they make the nodes) bind their GPS on both ports
# afterwards as before.  The names
# are the literal paths udev's path_id gives (by-path), so another boot
# names these ports the same.  Shares the boot of the USB tests on q35.
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb.asl acpi-tables/gps-usb-nolines.asl
#@ timeout: 120
. /lib/ttyport/ktap.sh
. /lib/ttyport/gadget.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 28	# 4, 8 as booted, 3 re-probing, 9 re-probed, 4

xhci=0000:00:03.0
usb_node=/serial-ports/pci-0000-00-03.0-usbv2-0-1-1.0/serial@0
acm_node=/serial-ports/platform-dummy_hcd.0-usbv2-0-1-1.0/serial@0

# node_of_ctrl CTRL: the live-tree path of serdev controller CTRL's node
node_of_ctrl() {
	[ -n "$1" ] || { echo "no serdev controller"; return 1; }
	_n=$(readlink -f /sys/bus/serial/devices/$1/of_node) ||
		{ echo "$1 has no of_node"; return 1; }
	echo "${_n#"$base"}"
}
busnum_of() { # WIRE: the USB bus number of WIRE's USB device
	world_usb_of "$1" >/dev/null && cat "$world_usb/busnum"
}
rebind() { # BUS DRIVER DEVICE unbind|bind: unbind DEVICE from DRIVER, or bind it
	echo "$3" >/sys/bus/$1/drivers/$2/$4
}
root_hubs() { # BUS DEVICE: the root hubs (usbN) of a host controller
	ls -d /sys/bus/$1/devices/$2/usb[0-9]* 2>/dev/null | sed 's|.*/||' | tr '\n' ' '
}

# plug_both ROUND: the adapter into xHCI port 1, the ACM gadget into dummy_hcd;
# record their bus numbers and the nodes of their ports' controllers
plug_both() {
	check "$1: an adapter on usb0 plugs into xHCI port 1" usb_plug usb0 1
	check "$1: the ACM gadget plugs into dummy_udc.0" gadget_plug acm0 dummy_udc.0
	usb_bus=$(busnum_of usb0)
	acm_bus=$(busnum_of acm0)
	check_eq "$1: the adapter's port has its place's node" "$usb_node" "$(node_of_ctrl "$(usb_ctrl usb0)")"
	check_eq "$1: the ACM port has its place's node" "$acm_node" "$(node_of_ctrl "$(gadget_ctrl acm0)")"
}

check "a gadget acm0 with an ACM function is made" gadget_create acm0 acm
check "gps-usb-port1.dtbo applies" ovl_apply gpsusb $dtbo/gps-usb-port1.dtbo
check "gps-acm-gadget.dtbo applies" ovl_apply gpsacm $dtbo/gps-acm-gadget.dtbo
check "the xHCI's root hubs are usb1 and usb2, as booted (control)" \
	test "$(root_hubs pci $xhci)" = "usb1 usb2 "

# --- as booted ----------------------------------------------------------------------
plug_both "as booted"
booted_usb_bus=$usb_bus booted_acm_bus=$acm_bus
usb_use usb0
gps_model_start
wait_for 20 "as booted: gnss-sirf binds the overlay's GPS on the adapter in port 1" \
	usb_bound gnss-sirf usb0
wait_for 20 "as booted: gnss-sirf binds the overlay's GPS on the ACM port" \
	gadget_bound gnss-sirf acm0
gps_model_stop
check "as booted: the adapter unplugs" usb_unplug usb0
check "as booted: the gadget unplugs" gadget_unplug acm0

# --- both host controllers probed again, in the other order ---------------------------
check "the xHCI and dummy_hcd are unbound" \
	eval "rebind pci xhci_hcd $xhci unbind && rebind platform dummy_hcd dummy_hcd.0 unbind"
check "dummy_hcd is bound first, then the xHCI" \
	eval "rebind platform dummy_hcd dummy_hcd.0 bind && rebind pci xhci_hcd $xhci bind"
check "the xHCI's root hubs are numbered after dummy_hcd's now (premise: bus numbers moved)" \
	eval "[ \"\$(root_hubs platform dummy_hcd.0)\" = 'usb1 ' ] && [ \"\$(root_hubs pci $xhci)\" = 'usb2 usb3 ' ]"

# --- re-probed --------------------------------------------------------------------
plug_both "re-probed"
check "re-probed: the adapter's bus number moved ($booted_usb_bus -> $usb_bus)" \
	eval "[ -n '$usb_bus' ] && [ -n '$booted_usb_bus' ] && [ '$usb_bus' != '$booted_usb_bus' ]"
check "re-probed: the ACM gadget's bus number moved ($booted_acm_bus -> $acm_bus)" \
	eval "[ -n '$acm_bus' ] && [ -n '$booted_acm_bus' ] && [ '$acm_bus' != '$booted_acm_bus' ]"
usb_use usb0
gps_model_start
wait_for 20 "re-probed: gnss-sirf binds the overlay's GPS on the adapter in port 1" \
	usb_bound gnss-sirf usb0
wait_for 20 "re-probed: gnss-sirf binds the overlay's GPS on the ACM port" \
	gadget_bound gnss-sirf acm0
gps_model_stop
check "re-probed: the adapter unplugs" usb_unplug usb0
check "the overlays are removed, the last applied first" rmdir $ovl/gpsacm $ovl/gpsusb
check "the gadget comes apart" gadget_remove acm0
# The tests after this one in the boot (usb-stress's "1-4") expect the
# xHCI's buses as booted: bind it first again.
rebind pci xhci_hcd $xhci unbind
rebind platform dummy_hcd dummy_hcd.0 unbind
rebind pci xhci_hcd $xhci bind
rebind platform dummy_hcd dummy_hcd.0 bind
check "the xHCI and dummy_hcd are bound again as booted: the xHCI's root hubs are usb1 and usb2" \
	test "$(root_hubs pci $xhci)" = "usb1 usb2 "
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
