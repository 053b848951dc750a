#!/bin/sh
# A GPS held open by gpsd across a real S3 (issue 17), on both kinds of
# port: a W2SG0004 made with new_device on COM4 (a 16550) and then on an
# FTDI adapter's ttyUSB0, each bound to gnss-sirf with gpsd reading its
# /dev/gnssN, the guest suspended to RAM and woken by the host (QMP
# system_wakeup once QEMU reports it asleep).  On COM4 the same gpsd, which
# never closed the device, must report a new 3D fix at the model's
# position after resume, the device must still be bound, and the kernel
# must have logged no error for it; then the device goes and the port is a
# tty again that carries bytes both ways.  On ttyUSB0, see below; beside
# it, in the same S3, a second adapter carries the GPS the firmware
# describes on its xHCI port.
#
# The receivers are always on (no on/off line, as one whose power is wired
# on), so suspend and resume only stop and restart their port: an on/off
# pulse in device suspend or resume would reach a chip model that the
# freezer has stopped (the models run in the guest), which a real receiver
# is not (docs/architecture.md, "System sleep").
#
# The ACPI world of acpi-sleep-gps, whose boot it shares (it runs after
# it): COM4 is the port nothing there describes, and xHCI port 4 the one
# gps-usb-nolines.asl describes.  The world's closed GPS on
# COM3 is unbound for these two S3s and bound again at the end: the ACPI PM
# domain runtime-resumes it in suspend and its on/off pulse then waits 9 s
# for the frozen model (docs/architecture.md; acpi-sleep-gps covers it).
# The world's two Nokia chips stay bound and up through both S3s: after
# each, they l2ping each other both ways, as before.
#@ machines: q35
#@ firmware: uefi
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb-nolines.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1 gps:com3:gps0
#@ alone: the Nokia chips' H4+ setup misses its timeouts beside another guest
#@ timeout: 240
. /lib/ttyport/ktap.sh
. /lib/ttyport/wire.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/usb.sh
. /lib/ttyport/hostctl.sh
. /lib/ttyport/bt.sh
ktap_start
ktap_plan 45

# log_count_since MARK REGEX N: at least N kernel log lines since MARK match
log_count_since() {
	[ "$(kmsg_since "$1" | grep -cE "$2")" -ge "$3" ]
}
# node_of DEV: the firmware node of serdev device DEV
node_of() { cat /sys/bus/serial/devices/$1/firmware_node/path 2>/dev/null; }

# quiet_since MARK DEV: no error, failure or timeout logged for DEV (or by
# gnss-sirf, or by the PM core) since MARK
quiet_since() {
	_l=$(kmsg_since "$1" | grep -E "$2|sirf|gnss|PM: " |
		grep -iE 'fail|error|timeout|timed out')
	[ -z "$_l" ] || { echo "$_l"; return 1; }
}

# gps_make WIRE CTRL: a W2SG0004 made with new_device on the controller
# CTRL (its port is $tty, the always-on model on WIRE's far end $far),
# bound, gpsd reading its gnssN ($dev, $g) and reporting a fix
gps_make() {
	gps_model_start
	check "$1: new_device makes a W2SG0004 on $tty" \
		sh -c "echo wi2wi,w2sg0004 >$2/new_device"
	dev=$(basename "$(ls -d "$2"/serial*-* 2>/dev/null | head -n 1)")
	wait_for 10 "$1: gnss-sirf binds $dev" test -e /sys/bus/serial/drivers/gnss-sirf/$dev
	g=/dev/$(ls /sys/bus/serial/devices/$dev/gnss 2>/dev/null)
	gpsd_start $g
	check "$1: gpsd on $g reports a 3D fix" gpsd_wait_fix 15
}

# gpsd_fd DEV: gpsd's descriptor on DEV, "N -> DEV"
gpsd_fd() {
	for _f in /proc/$gpsd_pid/fd/*; do
		[ "$(readlink $_f)" = "$1" ] && { echo "${_f##*/} -> $1"; return 0; }
	done
	return 1
}
# same_fd BEFORE DEV: gpsd holds DEV on the descriptor it had, BEFORE
same_fd() {
	_now=$(gpsd_fd "$2")
	[ -n "$1" ] && [ "$_now" = "$1" ] || { echo "before: '$1', now: '$_now'"; return 1; }
}
# nokia_pings WHEN: the world's Nokia chips l2ping each other both ways
nokia_pings() {
	check "$1: $hA (COM2) l2pings $hB (PCI)" bt_l2ping $hA $hB
	check "$1: $hB (PCI) l2pings $hA (COM2)" bt_l2ping $hB $hA
}

hA=$(bt_wait_ready '\_SB_.BTH2')
hB=$(bt_wait_ready '\_SB_.BTP0')
both_up() { bt_up "$hA" && bt_up "$hB"; }
check "before: both Nokia chips' controllers are up ($hA, $hB)" both_up
sirf=/sys/bus/serial/drivers/gnss-sirf
com3_gps=$(serdev_of_node '\_SB_.GPS3')
check "COM3's closed GPS ($com3_gps) is unbound for these S3s" \
	sh -c "echo $com3_gps >$sirf/unbind"

# --- COM4: the port and the device keep their state across S3 ----------------
tty=ttyS3
far=/dev/far-com4
c4=$(tty_ctrl ttyS3)
gps_make com4 "$c4"
fd=$(gpsd_fd $g)
check "com4: S3 with gpsd holding $g open, woken by the host" host_s3 com4
nokia_pings "after the com4 S3"
check "com4: the same gpsd reports a new 3D fix after S3" gpsd_wait_fix 15
check "com4: at the model's position" tpv_at_model
check "com4: gpsd holds $g on the descriptor it had before S3 (${fd:-none})" \
	same_fd "$fd" $g
check "com4: $dev is still bound to gnss-sirf" \
	test -e /sys/bus/serial/drivers/gnss-sirf/$dev
check "com4: no error was logged for $dev across S3" quiet_since com4 "$dev"
gpsd_stop
check "com4: delete_device removes $dev" sh -c "echo $dev >$c4/delete_device"
wait_for 5 "com4: /dev/$tty comes back" tty_back
gps_model_stop
check "com4: $tty carries bytes both ways" wire_carries $tty com4

# --- ttyUSB0: QEMU's xHCI loses its state in S3 ------------------------------
# On resume the kernel finds the controller reset ("xHC error in resume",
# "root hub lost power or was reset") and enumerates the adapter anew, as on
# a machine that cuts the USB power in S3: the old port goes with the device
# new_device made on it, and a new ttyUSB0 comes.  That teardown must be as
# clean as an unplug, and the new port must take a device again.
# A second adapter, in xHCI port 4 (RHUB.PRT8), carries the GPS that the
# firmware describes there (gps-usb-nolines.asl: no sideband lines), held
# open by a reader across the same S3: its new port must take the table's
# device again from the port's ACPI node, with no daemon doing anything.
check "the host plugs an FTDI adapter on usb0" usb_plug usb0
usb_use usb0
gps_make usb0 "$(tty_ctrl $tty)"
old=$dev
w2sg0004 --uart /dev/far-usb1 --lines gpsn --always-on 2>>/tmp/chip-gpsn.log &
gpsn_pid=$!
check "the host plugs a second adapter on usb1 into port 4" usb_plug usb1 4
wait_for 20 "usb1: gnss-sirf binds a device on its port" usb_bound gnss-sirf usb1
dev1=$(usb_serdev gnss-sirf usb1)
check_eq "usb1: it is the table's GPSN" '\_SB_.GPSN' "$(node_of $dev1)"
wait_for 5 "usb1: it has a GNSS device" gnss_of_dev $dev1
g1=/dev/$(gnss_of_dev $dev1)
cat $g1 >/tmp/gpsn.nmea 2>/dev/null &
gpsn_reader=$!

check "usb0: S3 with gpsd holding $g open and a reader $g1, woken by the host" \
	host_s3 usb0
nokia_pings "after the usb0 S3"
check "usb0: the xHCI was reset in S3 (QEMU keeps no USB state)" \
	log_since usb0 'root hub lost power or was reset'
wait_for 10 "both old ports go as on an unplug" \
	log_count_since usb0 'now disconnected from ttyUSB' 2
wait_for 10 "both adapters are enumerated anew" \
	log_count_since usb0 'converter now attached to ttyUSB' 2
wait_for 10 "usb0: /dev/$tty is a tty again" usb_present usb0
check "usb0: $old went with the old port" test ! -e /sys/bus/serial/devices/$old
gpsd_stop
gps_model_stop

wait_for 20 "usb1: gnss-sirf binds a device on the new port" usb_bound gnss-sirf usb1
dev1=$(usb_serdev gnss-sirf usb1)
check_eq "usb1: it is the table's GPSN again" '\_SB_.GPSN' "$(node_of $dev1)"
kill $gpsn_reader 2>/dev/null	# (it ended when the old gnss device went)
wait $gpsn_reader 2>/dev/null
wait_for 5 "usb1: it has a GNSS device" gnss_of_dev $dev1
check "usb1: gpsd on its GNSS device reports a fix at the model's position" \
	gps_fix_at_model /dev/$(gnss_of_dev $dev1)
kill $gpsn_pid
wait $gpsn_pid 2>/dev/null
check "the host unplugs the second adapter" usb_unplug usb1

usb_use usb0
gps_make usb0-again "$(tty_ctrl $tty)"
check "usb0-again: at the model's position" tpv_at_model
gpsd_stop
gps_model_stop
check "the host unplugs the adapter" usb_unplug usb0
check "the tty core never warned about its counts" no_tty_count_warnings
check "COM3's GPS is bound again" sh -c "echo $com3_gps >$sirf/bind"
wait_for 10 "gnss-sirf holds it again" test -e $sirf/$com3_gps

ktap_done
