#!/bin/sh
# A W2SG0004 GPS behind a USB-serial adapter, described by an SSDT at boot
# (gps-usb.asl) on the xHCI port it is plugged into (RHUB.PRT6 of
# xhci-rhub.asl, QMP port=2): at the plug gnss-sirf binds, /dev/gnss0
# appears, /dev/ttyUSBn does not, gpsd gets a 3D fix and ttyport-status shows
# the port's ACPI node.  Unplugged while gpsd reads, gnss0 goes and gpsd lives
# on; replugged, the GPS binds again.  The same adapter in port 3, which the
# table does not name, is a plain ttyUSBn that carries bytes both ways.
# The boot is shared with the other USB tests on q35 (the same SSDTs: each
# names its own port, acpi-tables/xhci-rhub.asl).
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb.asl acpi-tables/gps-usb-nolines.asl
#@ timeout: 180
. /lib/ttyport/ktap.sh
. /lib/ttyport/usb.sh
. /lib/ttyport/gps.sh
ktap_start
ktap_plan 39

log=/tmp/chip-gps0.log
usb_gps_start usb0 gps0

# --- plugged into the described port ------------------------------------------
check "the host plugs an adapter on usb0 into port 2" usb_plug usb0 2
usb_use usb0
check_eq "it is USB device 1-2" 1-2 "$(world_usb_of usb0)"
check_eq "its ACPI node is the port's, RHUB.PRT6" "$usb_rhub.PRT6" "$(usb_fw usb0)"
wait_for 20 "gnss-sirf binds a serdev device on $tty" usb_bound gnss-sirf usb0
dev=$(usb_serdev gnss-sirf usb0)
check_eq "the serdev device is the table's GPSU" '\_SB_.GPSU' \
	"$(cat /sys/bus/serial/devices/$dev/firmware_node/path 2>/dev/null)"
wait_for 5 "/dev/gnss0 appears" test -c /dev/gnss0
check "/dev/$tty gave way to the GPS" tty_gone
check "gnss-sirf holds gps0-onoff as its on/off line" \
	sh -c 'gpioinfo | grep "\"gps0-onoff\"" | grep -q "\"sirf,onoff\".*output.*used"'
check_eq "ttyport-status: $tty, the port's node, gnss-sirf, from ACPI" \
	"usb-serial $usb_rhub.PRT6 $dev gnss-sirf ACPI" \
	"$(ttyport-status | awk -v t=$tty '$1 == t { print $2, $3, $4, $5, $6 }')"

gpsd_start /dev/gnss0
check "gpsd on /dev/gnss0 reports a 3D fix" gpsd_wait_fix 15
check "the fix is at the model's position" tpv_at_model
check "the chip was switched on through gps0-onoff" grep -q 'power on' $log

# --- unplugged while gpsd reads ------------------------------------------------
usb_log_mark gps-unplug
check "the host unplugs the adapter while gpsd reads /dev/gnss0" usb_unplug usb0
wait_for 10 "/dev/gnss0 is gone" test ! -e /dev/gnss0
wait_for 10 "the serdev device is gone" eval "! test -e /sys/bus/serial/devices/$dev"
wait_for 10 "nothing is left on the usb-serial bus" no_usb_serial_ports
check "gpsd still runs" gpsd_alive
check "gpsd still answers its clients" \
	sh -c 'timeout 5 gpspipe -w -n 1 127.0.0.1 | grep -q VERSION'
ms=$(usb_disconnect_ms 1-2 gps-unplug)
check "the hub thread tore the adapter down without waiting out a timeout: under 5 s (${ms:-?} ms)" \
	sh -c "[ -n '$ms' ] && [ '$ms' -lt 5000 ]"
check "the kernel log shows the unplug after the mark (control)" \
	usb_log_since gps-unplug "ftdi_sio 1-2:1.0: device disconnected"
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings
gpsd_stop

# --- replugged ----------------------------------------------------------------
check "the host plugs the adapter into port 2 again" usb_plug usb0 2
usb_use usb0
wait_for 20 "gnss-sirf binds the GPS again" usb_bound gnss-sirf usb0
wait_for 5 "/dev/gnss0 is back" test -c /dev/gnss0
check "/dev/$tty gave way again" tty_gone
check "gpsd gets a 3D fix at the model's position again" gps_fix_at_model /dev/gnss0
check "the host unplugs it (gnss0 closed)" usb_unplug usb0
wait_for 10 "/dev/gnss0 is gone again" test ! -e /dev/gnss0
usb_gps_stop gps0

# --- the same adapter in a port no table names ----------------------------------
check "the host plugs the adapter into port 3" usb_plug usb0 3
usb_use usb0
check_eq "it is USB device 1-3" 1-3 "$(world_usb_of usb0)"
check_eq "its ACPI node is RHUB.PRT7" "$usb_rhub.PRT7" "$(usb_fw usb0)"
wait_for 10 "its port registered with serdev, numbered as described by no firmware" \
	usb_ctrl_undescribed usb0
check "no serdev device on $tty" usb_no_serdev usb0
check "/dev/$tty is a plain tty" tty_back
check "$tty carries bytes both ways" wire_carries $tty usb0
check_eq "ttyport-status: $tty, the port's node, no device" \
	"usb-serial $usb_rhub.PRT7 - - -" \
	"$(ttyport-status | awk -v t=$tty '$1 == t { print $2, $3, $4, $5, $6 }')"
check "the host unplugs it" usb_unplug usb0
wait_for 10 "nothing is left on the usb-serial bus at the end" no_usb_serial_ports
check "still no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
