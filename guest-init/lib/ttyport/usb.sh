# Helpers of the USB-serial tests (usb-serial-tests/usb-*.sh): plugging an
# FTDI adapter on a wire into a chosen xHCI port, finding its ttyUSBn and
# USB device by the wire (world.sh), the serdev devices behind it, and what
# the kernel logged on unplug.  Source after ktap.sh; sources hostctl.sh,
# world.sh and serdev.sh, whose helpers (tty_back, tty_gone, sirf_bound,
# gnss_data, gps_model_start, ...) work on $tty and $far: usb_plug points
# them at the adapter's ttyUSBn and the wire's far end.
#
# Ports (QMP device_add usb-serial,port=N; acpi-tables/xhci-rhub.asl):
#   port 1 -> USB device 1-1, RHUB.PRT5   (no table names it)
#   port 2 -> 1-2, RHUB.PRT6   gps-usb.asl, nokia-usb.asl
#   port 3 -> 1-3, RHUB.PRT7   runtime-gps-usb.asl
#   port 4 -> 1-4, RHUB.PRT8   gps-usb-nolines.asl

. /lib/ttyport/hostctl.sh
. /lib/ttyport/world.sh
. /lib/ttyport/serdev.sh

usb_rhub='\_SB_.PCI0.S18_.RHUB'

# usb_present WIRE: an adapter on WIRE has a usb-serial port (ttyUSBn)
usb_present() {
	world_tty_of "$1" >/dev/null
}

# usb_plug WIRE [PORT]: plug an adapter on WIRE (into xHCI port PORT) and
# wait up to 10 s for its usb-serial port.
usb_plug() {
	host usb-add "$@" || return 1
	poll 10 usb_present "$1" ||
		{ echo "no usb-serial port for $1 10 s after the plug"; return 1; }
}

# usb_use WIRE: point serdev.sh's helpers at WIRE's adapter: tty is its
# ttyUSBn, far the wire's far end.  Not inside "check" (a subshell).
# (world_start_chips, which usb_gps_start calls, sets model, wire, lines,
# ...: tests avoid those names.)
usb_use() {
	tty=$(world_tty_of "$1")
	far=/dev/far-$1
}

# usb_unplug WIRE: unplug it (QMP device_del, which returns once QEMU has
# removed the device) and wait up to 10 s for its USB device to go.
usb_unplug() {
	host usb-del "$1" || return 1
	poll 10 eval "! world_usb_of $1" ||
		{ echo "USB device of $1 still there 10 s after the unplug"; return 1; }
}

# usb_fw WIRE: the ACPI node of the adapter's USB device (its port's node)
usb_fw() {
	world_usb_of "$1" >/dev/null && cat "$world_usb/firmware_node/path"
}

# usb_ctrl WIRE: the serdev controller (serialN) of WIRE's adapter's port,
# there from the port's registration on, a device bound or not
usb_ctrl() {
	world_usb_of "$1" >/dev/null || return 1
	for _c in "$world_usb"/*:*/ttyUSB*/serial[0-9]*; do
		case ${_c##*/} in *-*) continue ;; esac
		[ -e "$_c" ] && { echo "${_c##*/}"; return 0; }
	done
	return 1
}
# usb_ctrl_undescribed WIRE: the port registered with serdev, and the
# controller's number says that no firmware describes a device on it: a
# port whose firmware describes one when it registers is numbered below
# 256, any other from 256 up (SERDEV_CTRL_NR_DYNAMIC).  The kernel knows
# this when the port registers; its devices are added later, from a work
# item.  A positive fact to wait for before "no device came" means much.
usb_ctrl_undescribed() {
	_c=$(usb_ctrl "$1") || { echo "no serdev controller on $1's port"; return 1; }
	[ "${_c#serial}" -ge 256 ] || { echo "$_c: numbered as described by firmware"; return 1; }
}

# usb_serdevs WIRE: the serdev devices (serialN-M) on WIRE's adapter
usb_serdevs() {
	world_usb_of "$1" >/dev/null || return 0
	for _d in "$world_usb"/*:*/ttyUSB*/serial*/serial*-*; do
		[ -e "$_d" ] && echo "${_d##*/}"
	done
	return 0
}
usb_no_serdev() { # WIRE: none
	[ -z "$(usb_serdevs "$1")" ] || { echo "on $1: $(usb_serdevs "$1")"; return 1; }
}

# usb_serdev DRIVER WIRE: print the serdev device on WIRE's adapter that
# DRIVER is bound to, if any
usb_serdev() {
	for _d in $(usb_serdevs "$2"); do
		[ -e /sys/bus/serial/drivers/$1/$_d ] && { echo $_d; return 0; }
	done
	return 1
}
usb_bound() { # DRIVER WIRE: usb_serdev, quiet
	usb_serdev "$1" "$2" >/dev/null
}

# no_usb_serial_ports: nothing left on the usb-serial bus
no_usb_serial_ports() {
	[ -z "$(ls /sys/bus/usb-serial/devices/ 2>/dev/null)" ] ||
		{ echo "left: $(ls /sys/bus/usb-serial/devices/)"; return 1; }
}

# The tty core's warnings for a tty whose counts do not add up on hangup
# or final close (tty_hangup: "tty->count(1) != (#fd's(0) + #kopen's(0))",
# tty_port_close_start: "tty->count = 1 port count = 0"): tty_warn()
# printks, which scripts/logcheck.sh does not count as splats.
tty_count_warnings() {
	dmesg | grep -E 'tty->count|tty_port_close_start'
}
no_tty_count_warnings() {
	! tty_count_warnings
}

# usb_log_mark NAME: a line in the kernel log; usb_log_since NAME REGEX: a
# kernel log line after that mark matches the extended regex REGEX
usb_log_mark() {
	echo "ttyport-test: usb mark $1" >/dev/kmsg
}
usb_log_since() {
	dmesg | sed -n "/ttyport-test: usb mark $1\$/,\$p" | grep -E "$2"
}

# usb_disconnect_ms DEV MARK: milliseconds from the hub thread's "usb DEV:
# USB disconnect" to usb-serial's "ftdi_sio DEV:1.0: device disconnected"
# (the end of usb_serial_disconnect) in the kernel log after the mark MARK
# (usb_log_mark), for the unplug of USB device DEV (1-2, ...) that followed
# it: how long the hub thread spent tearing the adapter's ports (and the
# serdev devices on them) down.  Fails if no such pair follows the mark (an
# earlier unplug's times are not this one's).
usb_disconnect_ms() {
	dmesg | sed -n "/ttyport-test: usb mark $2\$/,\$p" | awk -v d="$1" '
		function t(l) { sub(/^\[ */, "", l); sub(/\].*/, "", l); return l }
		index($0, "usb " d ": USB disconnect") { t0 = t($0); t1 = "" }
		index($0, "ftdi_sio " d ":1.0: device disconnected") && t0 != "" { t1 = t($0) }
		END { if (t0 == "" || t1 == "") exit 1; printf "%d\n", (t1 - t0) * 1000 }'
}

# usb_gps_start WIRE LINES: the W2SG0004 model that CHIPS="gps:WIRE:LINES"
# starts at boot (world.sh), started by the test so that it can free the far
# end; usb_gps_stop LINES ends it.  (An always-on one with no lines is
# serdev.sh's gps_model_start on $far.)
usb_gps_start() {
	_chips=$CHIPS
	CHIPS="gps:$1:$2"
	world_start_chips >/dev/null
	CHIPS=$_chips
}
usb_gps_stop() {
	[ -r /run/chip-$1.pid ] || return 0
	_p=$(cat /run/chip-$1.pid)
	kill $_p 2>/dev/null
	wait $_p 2>/dev/null
	rm -f /run/chip-$1.pid
}
