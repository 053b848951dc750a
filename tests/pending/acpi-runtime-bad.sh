#!/bin/sh
# The GPIO and clock mistakes of docs/acpi.md ("When the description is
# wrong") that acpi-bad.sh does not make, as tables loaded at runtime through
# ACPI configfs, each next to a good device of the same kind:
#   bad-gps-pin-com4.asl      sirf,onoff-gpios names pin 1 of a one-pin resource
#   bad-gps-line-com4.asl     its resource names line 99 of a 16-line bank
#   bad-gps-bank-com4.asl     its resource names a bank that does not exist
#   bad-nokia-noclk-com4.asl  a Nokia chip without clock-frequency
# Each gives exactly its one documented line.  The GPS binds without the
# optional on/off line and streams NMEA from an always-on model; the good GPS
# beside it (gps-com3.asl on COM3, which has no wakeup line: an optional GPIO
# absent) keeps its on/off line and streams a fix.  The Nokia chip's lines
# are released and COM4 stays a tty; the good Nokia chip beside it (the PCI
# one, described at boot) stays bound and up.  Splats fail the boot (the
# harness).  Every table is removed again and COM2-COM4 are plain ttys at the
# end, as found.  The boot is shared with core-runtime-nokia.sh and
# models-faults.sh (same headers).
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-pci.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1
#@ timeout: 150
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/bt.sh
ktap_start

# --- helpers ---------------------------------------------------------------

# mark NAME: a marker line in the kernel log; since NAME: the log after it
mark() { echo "ttyport-test: mark $1" >/dev/kmsg; }
since() { dmesg | sed -n "/ttyport-test: mark $1\$/,\$p"; }

# count_since NAME REGEX: kernel log lines after mark NAME matching REGEX
# (grep -E)
count_since() { since "$1" | grep -cE -- "$2"; }

# dev_of NODE: the serdev device whose ACPI node is NODE
dev_of() {
	for d in /sys/bus/serial/devices/*; do
		[ "$(cat $d/firmware_node/path 2>/dev/null)" = "$1" ] &&
			{ echo ${d##*/}; return 0; }
	done
	return 1
}

# bound DRIVER NODE: the serdev device of NODE is bound to DRIVER (the link
# appears when probe starts)
bound() {
	_d=$(dev_of "$2") || return 1
	[ -e /sys/bus/serial/drivers/$1/$_d ]
}

# gnss_of NODE: the gnssN of the device with ACPI node NODE
gnss_of() {
	for g in /sys/class/gnss/gnss*; do
		[ "$(cat $g/device/firmware_node/path 2>/dev/null)" = "$1" ] &&
			{ echo ${g##*/}; return 0; }
	done
	return 1
}

# line_unused N...: gpio-sim lines N... are requested by nobody
line_unused() {
	for n; do
		gpioinfo | grep -E "line +$n:" | grep -q unused || return 1
	done
}

# sirf_ready NODE: gnss-sirf bound the device of NODE and its probe ended:
# it registers the gnssN last (the driver link appears when probe starts)
sirf_ready() { gnss_of "$1"; }

# nmea_fix GNSS [LAT]: the first 700 bytes from /dev/GNSS (two bursts, about
# 2 s; at most 6 s) hold a GGA with a fix at latitude LAT (GGA's ddmm.mmmm;
# default the model's default, 60.1699).  Each model below gets its own
# latitude: bytes an earlier model left in the wire cannot pass for its.
nmea_fix() {
	timeout 6 head -c 700 /dev/$1 >/tmp/nmea.txt 2>/dev/null
	grep -q "^\\\$GPGGA,[0-9.]*,${2:-6010\\.194}[0-9]*,N,02456\\.304[0-9]*,E,1," /tmp/nmea.txt ||
		{ echo "no GGA with the fix from /dev/$1: $(head -c 200 /tmp/nmea.txt)"; return 1; }
}

# is_tty TTY: the port is a plain tty (no driver holds it)
is_tty() { [ -c /dev/$1 ] && [ -e /sys/class/tty/$1 ]; }

# drain TTY: read and drop the bytes a stopped model left in the wire (the
# UART stops taking them while the port is closed, so they wait there for
# its next user).  busybox timeout holds the tty up to 1 s after cat ends,
# and an open tty defers a bind: wait that out.
drain() {
	stty -F /dev/$1 raw -echo
	timeout 2 cat /dev/$1 >/dev/null
	sleep 1.2
}

# Let the boot-time Nokia chip (PCI) finish its setup first: it is the good
# chip beside the bad one below, and its H4+ timeouts are short for a busy
# TCG guest.
poll 20 hci_of '\_SB_.BTP0'
h=$(bt_wait_ready '\_SB_.BTP0')
check "the good Nokia chip on the PCI 16550 is up before we start ($h)" test -n "$h"

# --- the good GPS on COM3: the optional wakeup GPIO is absent ---------------
# gps-com3.asl wires sirf,onoff-gpios (gps0-onoff) and no sirf,wakeup-gpios.
w2sg0004 --uart /dev/far-com3 --lines gps0 2>>/tmp/chip-gps0.log &
good_gps=$!
check "the good GPS table (gps-com3) loads" ssdt_load goodgps gps-com3
wait_for 20 "gnss-sirf binds the good GPS (\\_SB_.GPS3)" sirf_ready '\_SB_.GPS3'
gpioinfo >/tmp/gpioinfo.txt 2>&1
check "it holds gps0-onoff as its on/off line" \
	grep -q '"gps0-onoff" *"sirf,onoff" *output' /tmp/gpioinfo.txt
check "it runs without the absent wakeup line (gps0-wakeup unused)" \
	grep -q '"gps0-wakeup" *unused' /tmp/gpioinfo.txt
g=$(gnss_of '\_SB_.GPS3')
check "its /dev/$g switches the chip on and streams the fix" nmea_fix $g

# --- GPS cases: a broken reference to the optional on/off GPIO -------------
# One line per case: table, ACPI node, the latitude of the case's model (whole
# degrees), the kernel's line (grep -E, the whole message; %pe prints -EINVAL,
# or -22 without CONFIG_SYMBOLIC_ERRNAME).  The model on COM4 is always on (it
# needs no on/off line); gnss-sirf must bind without the line and pass the
# NMEA on.
drain ttyS3
while read -r table node lat line <&5; do
	mark $table
	w2sg0004 --uart /dev/far-com4 --lines bad4 --always-on --lat $lat \
		2>>/tmp/chip-bad4.log &
	model=$!
	check "$table: loads through configfs" ssdt_load bad $table
	wait_for 10 "$table: gnss-sirf binds \\_SB_.$node without the on/off line" \
		sirf_ready "\\_SB_.$node"
	check_eq "$table: its documented line is logged exactly once" 1 \
		"$(count_since $table "$line")"
	since $table | grep -e "$node" -e gnss -e sirf | sed 's/^/# /'
	check_eq "$table: no line is taken as its on/off line (only GPS3's is)" 1 \
		"$(gpioinfo | grep -c '"sirf,onoff"')"
	g=$(gnss_of "\\_SB_.$node")
	check "$table: its /dev/$g streams the always-on model's fix (lat $lat)" \
		nmea_fix "$g" ${lat}00\\.000
	check "$table: the table unloads" ssdt_unload bad
	wait_for 10 "$table: /dev/ttyS3 (COM4) is a tty again" is_tty ttyS3
	kill $model
	wait $model 2>/dev/null
	drain ttyS3
done 5<<'EOF'
bad-gps-pin-com4  BADP 61 \] \\_SB\.BADP: sirf,onoff-gpios refers to pin 1 of GPIO resource 0 of \\_SB\.BADP, which has no such pin$
bad-gps-line-com4 BADV 62 \] \\_SB\.BADV: sirf,onoff-gpios: GPIO resource 0 of \\_SB\.BADV names no usable GPIO: (-EINVAL|-22)$
bad-gps-bank-com4 BADK 63 \] \\_SB\.BADK: sirf,onoff-gpios: GPIO resource 0 of \\_SB\.BADK names no usable GPIO: (-ENODEV|-19)$
EOF

check "the good GPS is still bound after the bad ones came and went" \
	bound gnss-sirf '\_SB_.GPS3'
check "and still holds gps0-onoff" \
	sh -c 'gpioinfo | grep "\"gps0-onoff\"" | grep -q "\"sirf,onoff\""'
check "the good GPS table unloads" ssdt_unload goodgps
wait_for 10 "/dev/ttyS2 (COM3) is a tty again" is_tty ttyS2
kill $good_gps
wait $good_gps 2>/dev/null

# --- a Nokia chip without clock-frequency, next to a good one ---------------
# The good chip is the PCI one (nokia-pci.asl, at boot).  (A good chip
# loaded at runtime, set up and removed is models-faults.sh's "nokia none".)
mark noclk
check "the bad Nokia table (bad-nokia-noclk-com4) loads" ssdt_load badbt bad-nokia-noclk-com4
wait_for 10 "the bad chip's serdev device appears (\\_SB_.BADC)" dev_of '\_SB_.BADC'
bad=$(dev_of '\_SB_.BADC')
line="\] nokia-bluetooth $bad: no sysclk rate: neither a sysclk clock nor a clock-frequency property$"
wait_for 10 "hci_nokia refuses it: no sysclk rate" sh -c "dmesg | grep -qE '$line'"
check_eq "that line is logged once" 1 "$(count_since noclk "$line")"
since noclk | grep -e nokia -e BADC | sed 's/^/# /'
check "hci_nokia is not bound to it" sh -c "! [ -e /sys/bus/serial/drivers/nokia-bluetooth/$bad ]"
check "the lines it took (11, 12, 13) are released" \
	line_unused 11 12 13
check "COM4 (/dev/ttyS3), whose chip failed to probe, is a tty" is_tty ttyS3
check "hci_nokia still holds the good chip on the PCI 16550" nokia_bound '\_SB_.BTP0'
h=$(bt_wait_ready '\_SB_.BTP0')
check "the good chip's controller is still in the management index ($h)" test -n "$h"
check "the bad Nokia table unloads" ssdt_unload badbt
wait_for 10 "its serdev device goes away" sh -c "! [ -e /sys/bus/serial/devices/$bad ]"

# --- the world as found -----------------------------------------------------
for t in ttyS1 ttyS2 ttyS3; do
	check "/dev/$t is a plain tty at the end" is_tty $t
done

ktap_done
