#!/bin/sh
# A port's node is named after where the port is, not after the order in
# which ports register: two FTDI adapters are plugged into USB ports 3 and 1
# in one order, then in the other, so that their ttyUSBn names swap (the
# premise, checked); each time the overlay that describes a GPS on port 1's
# node (dt-overlays/gps-usb-port1.dtso) binds it on the adapter in port 1,
# whose controller gets that node, and the adapter in port 3 stays a plain
# tty.  The node's name, pci-0000-00-03.0-usbv2-0-1-1.0/serial@0, is made of
# the xHCI's PCI address, the USB port path and the port's index on its
# interface (serdev-of-ports.c).  Shares the boot of the USB tests on q35.
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb.asl acpi-tables/gps-usb-nolines.asl
#@ timeout: 150
. /lib/ttyport/ktap.sh
. /lib/ttyport/usb.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 20	# 9 in round 1, 10 in round 2, 1

pnode=/serial-ports/pci-0000-00-03.0-usbv2-0-1-1.0/serial@0
unode=$pnode/gnss

# ctrl_node WIRE: the device tree node of the serdev controller of WIRE's
# adapter's port, as a path in the live tree
ctrl_node() {
	_c=$(usb_ctrl "$1") || { echo "no serdev controller on $1's port"; return 1; }
	_n=$(readlink -f /sys/bus/serial/devices/$_c/of_node) ||
		{ echo "$_c has no of_node"; return 1; }
	echo "${_n#"$base"}"
}

round=0
first_tty=
for order in "usb1:3 usb0:1" "usb0:1 usb1:3"; do
	round=$((round + 1))
	for plug in $order; do
		check "round $round: the host plugs an adapter on ${plug%:*} into port ${plug#*:}" \
			usb_plug "${plug%:*}" "${plug#*:}"
	done
	usb_use usb0
	if [ $round = 1 ]; then
		first_tty=$tty
	else
		check "round $round: the adapter in port 1 registered first this time ($first_tty, now $tty)" \
			test "$tty" != "$first_tty"
	fi
	check "round $round: gps-usb-port1.dtbo applies" ovl_apply gpsusb $dtbo/gps-usb-port1.dtbo
	gps_model_start
	wait_for 20 "round $round: gnss-sirf binds the GPS on the adapter in port 1 ($tty)" \
		usb_bound gnss-sirf usb0
	check_eq "round $round: its controller has port 1's node" "$pnode" "$(ctrl_node usb0)"
	check "round $round: the adapter in port 3 has no serdev device" usb_no_serdev usb1
	gps_model_stop
	check "round $round: the overlay is removed" rmdir $ovl/gpsusb
	wait_for 10 "round $round: the GPS goes away" eval "! sirf_on $unode"
	check "round $round: the host unplugs both adapters" eval "usb_unplug usb0 && usb_unplug usb1"
done
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
