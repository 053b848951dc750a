#!/bin/sh
# A W2SG0004 GPS behind a USB-serial adapter described by a device tree
# overlay applied with nothing plugged in (dt-overlays/gps-usb-port1.dtso):
# the overlay creates the port's nodes (pci-0000-00-03.0-usbv2-0-1-1.0/serial@0), the GPS binds
# when an adapter is plugged into USB port 1, again after a re-plug, with a
# gpsd fix each time; removing the overlay with the adapter plugged gives a
# plain ttyUSBn back, carrying bytes.  Shares the boot of the USB tests on q35
# (the same SSDTs: none describes USB port 1).
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb.asl acpi-tables/gps-usb-nolines.asl
#@ timeout: 180
. /lib/ttyport/ktap.sh
. /lib/ttyport/usb.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 20	# 3, round 1 of 7 and round 2 of 4, 6

# --- behind a USB-serial adapter, described before the plug ------------------------
unode=/serial-ports/pci-0000-00-03.0-usbv2-0-1-1.0/serial@0/gnss
check "gps-usb-port1.dtbo applies with nothing in USB port 1" \
	ovl_apply gpsusb $dtbo/gps-usb-port1.dtbo
check "it created the port's nodes" test -d $base$unode
check "no serdev device comes with no adapter plugged" no_serdev_dev
for round in 1 2; do
	check "round $round: the host plugs an adapter on usb0 into port 1" usb_plug usb0 1
	usb_use usb0
	gps_model_start
	wait_for 20 "round $round: gnss-sirf binds the overlay's GPS at the plug" sirf_on $unode
	wait_for 5 "round $round: /dev/$tty gives way" tty_gone
	gnss=$(gnss_of $unode)
	check "round $round: gpsd on /dev/$gnss reports a 3D fix" gps_fix_at_model /dev/$gnss
	gps_model_stop
	[ $round = 2 ] && break
	check "round $round: the host unplugs the adapter with the GPS bound" usb_unplug usb0
	wait_for 10 "round $round: the GPS is gone after the unplug" eval "! sirf_on $unode"
	check "round $round: the port's nodes stay" test -d $base$unode
done
check "the overlay is removed with the adapter plugged" rmdir $ovl/gpsusb
wait_for 10 "the GPS goes away" eval "! sirf_on $unode"
wait_for 10 "/dev/$tty comes back, a plain tty" tty_back
check "$tty carries bytes both ways" wire_carries $tty usb0
check "the host unplugs the adapter" usb_unplug usb0
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
