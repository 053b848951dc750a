# Helpers of the serdev core tests (tests/core-*.sh): the port under test is
# COM2 (/dev/ttyS1, far end /dev/far-com2); runtime SSDTs go through ACPI
# configfs; the GPS is a gnss-sirf device.  Source after ktap.sh; sources
# wire.sh.

. /lib/ttyport/wire.sh

tty=ttyS1
far=/dev/far-com2
tables=/sys/kernel/config/acpi/table

# ssdt_load NAME TABLE: load /lib/ttyport/tables/TABLE.aml (compiled from
# acpi-tables/TABLE.asl) through configfs as table NAME; fails unless the
# kernel took the table (table_loaded)
ssdt_load() {
	mkdir "$tables/$1" && cat "/lib/ttyport/tables/$2.aml" >"$tables/$1/aml" &&
		table_loaded "$1" "/lib/ttyport/tables/$2.aml"
}

# table_loaded NAME FILE: the configfs item NAME holds the SSDT of FILE.
# configfs hands the bytes to ACPI when the file is closed and ignores what
# ACPI says, so cat succeeds whatever the kernel did; an item has a
# signature and a length only while it holds a loaded table.
table_loaded() {
	_sig=$(cat "$tables/$1/signature" 2>/dev/null)
	_len=$(cat "$tables/$1/length" 2>/dev/null)
	[ "$_sig" = SSDT ] && [ "$_len" = "$(wc -c <"$2")" ] ||
		{ echo "table $1 not loaded: signature '$_sig', length '$_len'"; return 1; }
}

# ssdt_unload NAME
ssdt_unload() {
	rmdir "$tables/$1"
}

# tty_ctrl TTY: the path of the serdev controller of TTY's port (the tty is
# shown, so the port has no driver bound), or nothing.  Found by its place,
# serialN under the port's device, not by its new_device file: make
# check-series boots the postings before the one that adds new_device.
tty_ctrl() {
	for _c in /sys/class/tty/$1/device/serial[0-9]*; do
		case ${_c##*/} in *-*) continue ;; esac
		[ -d "$_c" ] && readlink -f "$_c"
	done
	return 0
}

# serdev devices on the bus, and the one gnss-sirf is bound to
serdev_devs() {
	for d in /sys/bus/serial/devices/serial*-*; do
		[ -e "$d" ] && echo "${d##*/}"
	done
}
# serdev_of_node NODE: the serdev device whose ACPI node is NODE ('\_SB_.GPS0')
serdev_of_node() {
	for _d in /sys/bus/serial/devices/serial*-*; do
		[ "$(cat "$_d/firmware_node/path" 2>/dev/null)" = "$1" ] &&
			{ echo "${_d##*/}"; return 0; }
	done
	return 1
}
# gnss_of_dev DEV: the GNSS device (gnssN) of serdev device DEV, while a
# GNSS driver is bound to it
gnss_of_dev() {
	ls "/sys/bus/serial/devices/$1/gnss" 2>/dev/null | grep .
}
sirf_bound() {
	for d in /sys/bus/serial/drivers/gnss-sirf/serial*-*; do
		[ -e "$d" ] && return 0
	done
	return 1
}
sirf_unbound() {
	! sirf_bound
}
no_serdev_dev() {
	[ -z "$(serdev_devs)" ]
}
has_serdev_dev() {
	[ -n "$(serdev_devs)" ]
}
tty_gone() {
	[ ! -e /dev/$tty ] && [ ! -e /sys/class/tty/$tty ]
}
tty_back() {
	[ -c /dev/$tty ] && [ -e /sys/class/tty/$tty ]
}

# tty_bytes: bytes go both ways between /dev/$tty and its far end (wire.sh)
tty_bytes() {
	wire_carries $tty com2
}

# gnss_data: bytes from the far end reach a reader of /dev/gnss0, and bytes
# written to /dev/gnss0 reach the far end: the serdev driver has the port.
# (With no gnss0 nothing reads the port, and a write to the far end of a
# USB-serial wire can block for good: QEMU's adapter stops taking bytes.)
gnss_data() {
	[ -c /dev/gnss0 ] || { echo "no /dev/gnss0"; return 1; }
	tok=nmea$$x$(date +%N)
	cat /dev/gnss0 >/tmp/gnss.out &
	p=$!
	sleep 0.5
	printf '$GPTXT,01,01,02,%s*00\r\n' "$tok" >$far
	poll 4 grep -q "$tok" /tmp/gnss.out
	r=$?
	kill $p
	wait $p 2>/dev/null
	[ $r -eq 0 ] || { echo "gnss0 got: $(cat /tmp/gnss.out)"; return 1; }
	cat $far >/tmp/far.out &
	p=$!
	sleep 0.3
	printf '%s-cmd\r\n' "$tok" >/dev/gnss0
	poll 4 grep -q "$tok-cmd" /tmp/far.out
	r=$?
	kill $p
	wait $p 2>/dev/null
	[ $r -eq 0 ] || { echo "far end got: $(cat /tmp/far.out)"; return 1; }
}

# open_fails_busy NODE: opening the node fails with EBUSY
open_fails_busy() {
	o=$(sh -c "exec 3<>$1" 2>&1) && { echo "open succeeded"; return 1; }
	echo "$o" | grep -qi busy || { echo "$o"; return 1; }
}

# gps_model_start: an always-on W2SG0004 model (no sideband lines) on COM2's
# far end, log /tmp/chip-gpsr.log; gps_model_stop ends it and frees the far
# end for tty_bytes (a virtio port opens only once).
gps_model_start() {
	w2sg0004 --uart $far --lines gpsr --always-on 2>>/tmp/chip-gpsr.log &
	gps_model_pid=$!
}
gps_model_stop() {
	kill $gps_model_pid
	wait $gps_model_pid 2>/dev/null
}

# uevents_start: log every uevent from now on to /run/uevents (uevent-log)
uevents_start() {
	: >/run/uevents
	echo /usr/sbin/uevent-log >/proc/sys/kernel/hotplug
}

# uevent_seen PATTERN: a logged uevent matches the extended regex PATTERN
uevent_seen() {
	grep -qE "$1" /run/uevents
}

# as_nobody CMD: run the shell command CMD as uid/gid 65534 with no
# supplementary groups, stderr to stdout.  util-linux's setpriv (the
# initramfs puts it in /usr/bin, ahead of busybox's, which does not know
# --reuid: a drop through that one fails and every refusal would pass).
as_nobody() {
	/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "$1" 2>&1
}

# nobody_refused CMD: CMD, run as nobody, fails for want of permission
# ("Permission denied"), not for some other reason
nobody_refused() {
	o=$(as_nobody "$1") && { echo "it succeeded as nobody"; return 1; }
	case "$o" in
	*"Permission denied"*) ;;
	*) echo "not refused for permission: $o"; return 1 ;;
	esac
}
# nobody_writes_own: the positive control of the refusals below: as nobody,
# a write to a file nobody owns succeeds, and the file is owned by 65534
nobody_writes_own() {
	d=/tmp/nobody-$$
	mkdir -p $d && chown 65534:65534 $d || return 1
	as_nobody "echo ok >$d/f" || return 1
	[ "$(stat -c %u:%g $d/f)" = 65534:65534 ] && [ "$(cat $d/f)" = ok ] ||
		{ echo "$d/f: $(stat -c %u:%g $d/f) '$(cat $d/f)'"; return 1; }
}

# write_refused FILE TEXT ERROR: writing TEXT to FILE fails with ERROR (its
# message, e.g. "Operation not permitted")
write_refused() {
	o=$(sh -c "echo '$2' >$1" 2>&1) && { echo "the write succeeded"; return 1; }
	case "$o" in
	*"$3"*) ;;
	*) echo "not refused with '$3': $o"; return 1 ;;
	esac
}

# kmsg_mark NAME: a line in the kernel log; kmsg_since NAME: the kernel log
# from that mark on; log_since NAME REGEX: a kernel log line after that mark
# matches the extended regex REGEX
kmsg_mark() {
	echo "ttyport-test: mark $1" >/dev/kmsg
}
kmsg_since() {
	dmesg | sed -n "/ttyport-test: mark $1\$/,\$p"
}
log_since() {
	kmsg_since "$1" | grep -E "$2" ||
		{ echo "no line /$2/ after mark $1:"; dmesg | tail -n 5; return 1; }
}
