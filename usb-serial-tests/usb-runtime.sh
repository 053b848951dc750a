#!/bin/sh
# A GPS behind a USB-serial adapter described by an SSDT loaded at runtime
# through configfs (runtime-gps-usb.asl, naming RHUB.PRT7: QMP port=3):
# loaded after the plug, gnss-sirf binds and the ttyUSBn gives way;
# unloaded, the ttyUSBn comes back and carries bytes both ways; loaded
# before the plug, the GPS binds at the plug.  The root hub's ports come
# from xhci-rhub.asl at boot.  The model is an always-on W2SG0004 (the
# table gives no lines) on the usb1 wire.  Shares the boot of the other USB
# tests on q35 (the same SSDTs).
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb.asl acpi-tables/gps-usb-nolines.asl
#@ timeout: 180
. /lib/ttyport/ktap.sh
. /lib/ttyport/usb.sh
. /lib/ttyport/gps.sh
ktap_start
ktap_plan 30

# --- the table after the plug -------------------------------------------------
check "the host plugs an adapter on usb1 into port 3" usb_plug usb1 3
usb_use usb1
check_eq "its ACPI node is RHUB.PRT7" "$usb_rhub.PRT7" "$(usb_fw usb1)"
check "/dev/$tty is a plain tty before the table" tty_back
check "no serdev device on it before the table" usb_no_serdev usb1
check "$tty carries bytes both ways before the table" wire_carries $tty usb1

gps_model_start
check "the GPS table loads through configfs" ssdt_load gpsusb runtime-gps-usb
wait_for 20 "gnss-sirf binds the runtime GPS on $tty" usb_bound gnss-sirf usb1
dev=$(usb_serdev gnss-sirf usb1)
check_eq "the serdev device is the table's GPRU" '\_SB_.GPRU' \
	"$(cat /sys/bus/serial/devices/$dev/firmware_node/path 2>/dev/null)"
wait_for 5 "/dev/$tty gives way" tty_gone
wait_for 5 "/dev/gnss0 appears" test -c /dev/gnss0
check "gpsd on /dev/gnss0 reports a 3D fix at the model's position" \
	gps_fix_at_model /dev/gnss0
gps_model_stop
check "bytes flow between /dev/gnss0 and the far end" gnss_data

check "the table unloads (rmdir)" ssdt_unload gpsusb
wait_for 10 "the serdev device goes away" usb_no_serdev usb1
wait_for 10 "/dev/$tty comes back" tty_back
check "/dev/gnss0 is gone" test ! -e /dev/gnss0
check "$tty carries bytes both ways after the GPS left" wire_carries $tty usb1
check "the host unplugs the adapter" usb_unplug usb1

# --- the table before the plug --------------------------------------------------
kmsg_mark before-plug
check "the GPS table loads with no adapter in port 3" ssdt_load gpsusb runtime-gps-usb
# (the kernel handled the table's device, and holds it for the port: only
# then does "no device" mean something)
wait_for 10 "the kernel says the GPS waits for a serial port at RHUB.PRT7" \
	log_since before-plug 'no serial port at .*RHUB\.PRT7 \(yet\)'
check "no serdev device comes with no adapter plugged" no_serdev_dev
gps_model_start
check "the host plugs the adapter into port 3" usb_plug usb1 3
usb_use usb1
wait_for 20 "gnss-sirf binds the GPS at the plug" usb_bound gnss-sirf usb1
wait_for 5 "/dev/$tty gives way" tty_gone
check "gpsd reports a 3D fix from the GPS bound at the plug" gps_fix_at_model /dev/gnss0
gps_model_stop
check "the host unplugs the adapter with the GPS bound" usb_unplug usb1
wait_for 10 "/dev/gnss0 is gone after the unplug" test ! -e /dev/gnss0
check "the table unloads with no adapter plugged" ssdt_unload gpsusb
wait_for 10 "nothing is left on the usb-serial bus" no_usb_serial_ports
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
