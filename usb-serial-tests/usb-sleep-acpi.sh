#!/bin/sh
# A GPS described by firmware on a USB port, bound and read by gpsd, across
# a real S3 (issue 17): the W2SG0004 of gps-usb-nolines.asl (no sideband
# lines, so always on) behind an FTDI adapter in xHCI port 4 (RHUB.PRT8).
# QEMU's xHCI keeps no state across S3: on resume the kernel finds the
# controller reset ("root hub lost power or was reset") and enumerates the
# adapter anew, as on a machine that cuts the USB power in S3.  The old port
# must go with its device as on an unplug (no tty-core count warning), and
# the new port must take the table's device again from the port's ACPI
# node, bind it and give gpsd a fix, with no daemon doing anything.  The
# model at the far end runs on across the S3 (the wire is QEMU's, the
# adapter is the same).  tests/acpi-sleep-open.sh does the same for a
# device made with new_device.  Shares the boot of the other USB tests.
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb.asl acpi-tables/gps-usb-nolines.asl
#@ timeout: 150
. /lib/ttyport/ktap.sh
. /lib/ttyport/usb.sh
. /lib/ttyport/gps.sh
ktap_start

# gnss_of_dev DEV: the GNSS device (gnssN) of serdev device DEV
gnss_of_dev() { ls /sys/bus/serial/devices/$1/gnss 2>/dev/null | grep .; }
node_of() { cat /sys/bus/serial/devices/$1/firmware_node/path 2>/dev/null; }

far=/dev/far-usb1
gps_model_start
check "the host plugs an adapter on usb1 into port 4" usb_plug usb1 4
usb_use usb1
wait_for 20 "gnss-sirf binds a serdev device on $tty" usb_bound gnss-sirf usb1
dev=$(usb_serdev gnss-sirf usb1)
check_eq "it is the table's GPSN" '\_SB_.GPSN' "$(node_of $dev)"
wait_for 5 "it has a GNSS device" gnss_of_dev $dev
g=$(gnss_of_dev $dev)
old_tty=$tty
gpsd_start /dev/$g
check "gpsd on /dev/$g reports a 3D fix" gpsd_wait_fix 15

check "S3 with gpsd holding /dev/$g open, woken by the host" host_s3 usb-s3
echo "# suspend, S3 and resume took $(cat /tmp/s3.ms) ms"
check "the xHCI was reset in S3 (QEMU keeps no USB state)" \
	log_since usb-s3 'root hub lost power or was reset'
dmesg | sed -n '/ttyport-test: mark usb-s3$/,$p' | grep -iE 'sirf|gnss|ttyUSB|error|fail' |
	sed 's/^/# /'
wait_for 10 "the old port goes as on an unplug" \
	log_since usb-s3 'now disconnected from ttyUSB'
wait_for 10 "the adapter is enumerated anew" \
	log_since usb-s3 'converter now attached to ttyUSB'
wait_for 20 "gnss-sirf binds a device on its new port" usb_bound gnss-sirf usb1
usb_use usb1
dev=$(usb_serdev gnss-sirf usb1)
check_eq "the new port's device is the table's GPSN again" '\_SB_.GPSN' "$(node_of $dev)"
check "/dev/$tty gave way to it" tty_gone
gpsd_stop
wait_for 5 "it has a GNSS device" gnss_of_dev $dev
g=$(gnss_of_dev $dev)
check "gpsd on /dev/$g reports a 3D fix at the model's position after S3" \
	gps_fix_at_model /dev/$g

gps_model_stop
check "the host unplugs the adapter" usb_unplug usb1
wait_for 10 "nothing is left on the usb-serial bus" no_usb_serial_ports
check "the tty core never warned about its counts" no_tty_count_warnings
echo "# the port was $old_tty before S3, $tty after"

ktap_done
