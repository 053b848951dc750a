#!/bin/sh
# Bind latency: from the action (a table written to configfs, a new_device
# line, an overlay, a USB-serial plug, a CDC-ACM gadget's plug) to the device on the bus, its driver
# bound and /dev/gnss0 there; and back.  The GPS has no sideband lines, so
# gnss-sirf's probe does not wait for the chip: what is measured is what the
# bus costs.  Booted with acpi-tables/xhci-rhub.asl and gps-usb-nolines.asl
# (a GPS on xHCI port 4).  Tables, overlays and new_device/delete_device
# lines are written by ttyport-bench itself (-W: one write() from a child
# process, timed from just before its fork), not by a shell running cat,
# whose fork and exec under TCG took several of the milliseconds timed.
. /lib/ttyport/bench.sh
. /lib/ttyport/hostctl.sh

tables=/sys/kernel/config/acpi/table
ovl=/sys/kernel/config/device-tree/overlays
why_stock="stock 6.12 does not add serdev devices after boot"

if patched; then
	ctrl=$(ctrl_of ttyS1)
	dev=$ctrl/${ctrl##*/}-0

	mkdir $tables/gps
	timed ssdt_device_ms ssdt_bound_ms ssdt_gnss0_ms ssdt_tty_gone_ms -- \
		-e "$dev" -e "$dev/driver" -e /dev/gnss0 -g /sys/class/tty/ttyS1 \
		-W /lib/ttyport/tables/runtime-gps-com2.aml $tables/gps/aml
	timed ssdt_remove_device_gone_ms ssdt_remove_tty_back_ms -- \
		-g "$dev" -e /dev/ttyS1 -- rmdir $tables/gps

	echo wi2wi,w2sg0004 >/tmp/new_device.txt
	timed newdev_device_ms newdev_bound_ms newdev_gnss0_ms -- \
		-e "$dev" -e "$dev/driver" -e /dev/gnss0 \
		-W /tmp/new_device.txt $ctrl/new_device
	echo ${dev##*/} >/tmp/delete_device.txt
	timed deldev_device_gone_ms deldev_tty_back_ms -- \
		-g "$dev" -e /dev/ttyS1 \
		-W /tmp/delete_device.txt $ctrl/delete_device

	mkdir $ovl/gps
	timed overlay_bound_ms overlay_gnss0_ms -- \
		-e "$dev/driver" -e /dev/gnss0 \
		-W /lib/ttyport/overlays/gps-com2-nolines.dtbo $ovl/gps/dtbo
	timed overlay_remove_tty_back_ms -- -e /dev/ttyS1 -- rmdir $ovl/gps
else
	for f in ssdt_bound_ms ssdt_remove_tty_back_ms newdev_bound_ms \
		deldev_tty_back_ms; do
		fig_skip $f "$why_stock"
	done
	fig_skip overlay_bound_ms "stock 6.12 has no overlay loader and no serdev OF_RECONFIG notifier"
	fig_skip overlay_remove_tty_back_ms "no overlay loader in stock 6.12"
fi

# USB-serial: a plain adapter (port 1, nothing described) on both kernels;
# the described one (port 4) binds the GPS on the patched kernel and is a
# plain ttyUSB0 on stock.
# (and to the first open() of it that returns: a described port is opened
# by its driver's probe, so "plug to a device in use" compares with that)
timed usb_plain_plug_tty_ms usb_plain_plug_open_ms -- -e /dev/ttyUSB0 -o /dev/ttyUSB0 -- \
	sh -c ". /lib/ttyport/hostctl.sh; host usb-add usb0 1"
timed usb_plain_unplug_gone_ms -- -g /dev/ttyUSB0 -- sh -c ". /lib/ttyport/hostctl.sh; host usb-del usb0"
if patched; then
	timed usb_plug_gnss0_ms -- -e /dev/gnss0 -- sh -c ". /lib/ttyport/hostctl.sh; host usb-add usb0 4"
	timed usb_unplug_gnss0_gone_ms -- -g /dev/gnss0 -- sh -c ". /lib/ttyport/hostctl.sh; host usb-del usb0"
else
	fig_skip usb_plug_gnss0_ms "stock 6.12 has no serdev on USB-serial ports"
	fig_skip usb_unplug_gnss0_gone_ms "stock 6.12 has no serdev on USB-serial ports"
	# The same port 4, where the table describes nothing stock can use: the
	# plain plug of the port the described one is timed on (ports differ
	# in their enumeration time, so port 1's figure is not its baseline)
	timed usb_port4_plug_tty_ms usb_port4_plug_open_ms -- -e /dev/ttyUSB0 -o /dev/ttyUSB0 -- \
		sh -c ". /lib/ttyport/hostctl.sh; host usb-add usb0 4"
	timed usb_port4_unplug_gone_ms -- -g /dev/ttyUSB0 -- sh -c ". /lib/ttyport/hostctl.sh; host usb-del usb0"
fi
# CDC-ACM: a gadget with an ACM function plugged into dummy_hcd (a UDC bind,
# docs/gadget.md) and unplugged (the unbind): a plain ttyACM0 on both
# kernels; on the patched one, with the overlay that describes a GPS at the
# gadget's place applied first, the GPS bound at the plug.
g=/sys/kernel/config/usb_gadget/acm0
mkdir $g $g/strings/0x409 $g/configs/c.1 $g/functions/acm.bench &&
	echo 0x1d6b >$g/idVendor && echo 0x0104 >$g/idProduct &&
	echo acm0 >$g/strings/0x409/serialnumber &&
	ln -s $g/functions/acm.bench $g/configs/c.1/ || bench_rc=1
timed acm_plain_plug_tty_ms acm_plain_plug_open_ms -- -e /dev/ttyACM0 -o /dev/ttyACM0 -- \
	sh -c "echo dummy_udc.0 >$g/UDC"
timed acm_plain_unplug_gone_ms -- -g /dev/ttyACM0 -- sh -c "echo >$g/UDC"
if patched; then
	mkdir $ovl/gpsacm &&
		cat /lib/ttyport/overlays/gps-acm-gadget.dtbo >$ovl/gpsacm/dtbo || bench_rc=1
	timed acm_plug_gnss0_ms -- -e /dev/gnss0 -- sh -c "echo dummy_udc.0 >$g/UDC"
	timed acm_unplug_gnss0_gone_ms -- -g /dev/gnss0 -- sh -c "echo >$g/UDC"
	rmdir $ovl/gpsacm
else
	fig_skip acm_plug_gnss0_ms "stock 6.12 has no serdev on CDC-ACM ports"
	fig_skip acm_unplug_gnss0_gone_ms "stock 6.12 has no serdev on CDC-ACM ports"
fi
exit $bench_rc
