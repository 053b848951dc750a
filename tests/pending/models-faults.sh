#!/bin/sh
# Every fault mode of the chip models (docs/models.md) against the real
# driver: the model runs with --fault on a wire's far end, the chip's table
# is loaded at runtime through ACPI configfs, and the test checks what the
# driver then does: the kernel line it logs and the outcome (below).  After
# each case the table is removed, the port must be a tty again, and the
# model is stopped.  The same steps with a healthy chip ("none" cases, one
# line each; left out to save time) pass in this boot's other tests:
# core-runtime-nokia.sh (nokia-com2 at runtime) and acpi-runtime-bad.sh
# (gps-com3 at runtime).
#
#   nokia: nokia-com2.asl on COM2 (/dev/far-com2, lines bt0), hci_nokia; the
#          world's bt0 model is stopped meanwhile and started again at the end
#   gps:   gps-com3.asl on COM3 (/dev/far-com3, lines gps0), gnss-sirf
#
# Splats fail the boot (the harness).  The boot is shared with
# acpi-runtime-bad.sh and core-runtime-nokia.sh (same headers).
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-pci.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1
#@ timeout: 360
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/bt.sh
ktap_start

# --- helpers ---------------------------------------------------------------

# mark NAME: a marker line in the kernel log; since NAME: the log after it
mark() { echo "ttyport-test: mark $1" >/dev/kmsg; }
since() { dmesg | sed -n "/ttyport-test: mark $1\$/,\$p"; }

# gnss_of NODE: the gnssN of the device with ACPI node NODE
gnss_of() {
	for _g in /sys/class/gnss/gnss*; do
		[ "$(cat $_g/device/firmware_node/path 2>/dev/null)" = "$1" ] &&
			{ echo ${_g##*/}; return 0; }
	done
	return 1
}

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

# ready: the driver bound the chip and its probe ended: the hciN or gnssN
# is registered at its end (the driver link appears when probe starts)
ready() {
	if [ $model = nokia ]; then hci_of "$node"; else gnss_of "$node"; fi
}

# nmea GNSS: the first 400 bytes from /dev/GNSS (at most 6 s) hold
# something like a GGA sentence (bytes, not lines: "truncated" sends no
# line ends)
nmea() {
	timeout 6 head -c 400 /dev/$1 >/tmp/nmea.txt 2>/dev/null
	grep -aq 'GPGGA' /tmp/nmea.txt || { echo "no NMEA on /dev/$1"; return 1; }
}

# Kernel lines that would mean the driver complained ("-" cases).
complaints='nokia-bluetooth .*([Ff]ail|wrong|[Cc]orrupt|invalid)|(gnss|sirf).*(fail|timeout)'

# --- outcomes: what the driver does with the chip ---------------------------
# Each runs as a check; $case, $node and $log (the model's log) are set.

# hci_up: setup completes, the controller joins BlueZ's management index
hci_up() {
	h=$(bt_wait_ready "$node") && [ -n "$h" ]
}

# hci_down: hci_nokia's setup gives up (it logs why, within 60 s: its
# timeouts stretch on a busy TCG host), the HCI device stays down and never
# joins the management index
hci_down() {
	gave_up='(Reset|Negotiation|Alive check) failed|Could not setup FW'
	poll 60 sh -c "dmesg | sed -n '/mark $case\$/,\$p' | grep -qE '$gave_up'" ||
		{ echo "setup did not give up within 60 s"; return 1; }
	h=$(hci_of "$node") || { echo "no HCI device for $node"; return 1; }
	hciconfig $h | grep -q DOWN || { hciconfig $h; return 1; }
	! mg info | grep -q "^$h:" || { echo "$h is in the management index"; return 1; }
}

# fix: gpsd gets a 3D fix at the model's position
fix() {
	gps_fix_at_model /dev/$(gnss_of "$node")
}

# no_fix: the chip's bytes reach /dev/gnssN, but gpsd gets no fix in the
# 10 s it gets elsewhere (gps_fix_at_model)
no_fix() {
	g=$(gnss_of "$node")
	nmea $g || return 1
	! gps_fix /dev/$g 10 || { echo "gpsd got a fix: $(cat /tmp/tpv)"; return 1; }
}

# no_suspend: after the last close gnss-sirf pulses on/off and retries (4
# pulses, all ignored by the chip), gives up: the device's runtime PM is in
# error, and the next open is refused
no_suspend() {
	g=$(gnss_of "$node")
	dev=$(basename "$(readlink /sys/class/gnss/$g/device)")
	nmea $g || return 1
	poll 20 sh -c "[ \$(grep -c 'ignored: fault never-stop' $log) -ge 4 ]" ||
		{ echo "the chip saw $(grep -c 'ignored' $log) off pulses"; return 1; }
	st=/sys/bus/serial/devices/$dev/power/runtime_status
	poll 5 grep -qx error $st || { echo "runtime_status: $(cat $st)"; return 1; }
	timeout 2 cat /dev/$g >/dev/null 2>/tmp/open.err
	[ $? -ne 124 ] || { echo "/dev/$g opened"; return 1; }
	cat /tmp/open.err
}

# say OUTCOME: what it means, for the check's name
say() {
	case $1 in
	hci_up) echo "setup completes, the controller joins the management index" ;;
	hci_down) echo "setup gives up, the HCI device stays down" ;;
	fix) echo "gpsd gets a 3D fix at the model's position" ;;
	no_fix) echo "NMEA arrives, gpsd gets no fix" ;;
	no_suspend) echo "off pulses ignored: suspend fails, the next open is refused" ;;
	esac
}

# --- the cases ----------------------------------------------------------------
# The world's bt0 model holds COM2's far end: stop it until the end.
kill "$(cat /run/chip-bt0.pid)"
sleep 0.2

# One line per case: model, fault, outcome (above), then the kernel log
# line expected since the case began (grep -E; "-": no complaint at all).
while read -r model fault outcome regex <&5; do
	case=$model-$fault
	log=/tmp/fault-$case.log
	mark $case
	if [ $model = nokia ]; then
		node='\_SB_.BTH2' table=nokia-com2 tty=ttyS1 driver=nokia-bluetooth
		nokia-h4p --uart /dev/far-com2 --lines bt0 --fault $fault \
			--btvirt /tmp/bt-server-bredrle 2>$log &
	else
		node='\_SB_.GPS3' table=gps-com3 tty=ttyS2 driver=gnss-sirf
		drain $tty	# NMEA of an earlier chip must not pass for this one's
		w2sg0004 --uart /dev/far-com3 --lines gps0 --fault $fault 2>$log &
	fi
	pid=$!
	check "$case: $table loads through configfs" ssdt_load fault $table
	wait_for 20 "$case: $driver binds the chip" ready
	check "$case: $(say $outcome)" $outcome
	[ $outcome = fix ] && echo "# $case: the fix took $(cat /tmp/tpv.took) s"
	if [ "$regex" = - ]; then
		check "$case: the kernel logs no complaint" \
			sh -c "! dmesg | sed -n '/mark $case\$/,\$p' | grep -E '$complaints'"
	else
		check "$case: the kernel logs /$regex/" \
			sh -c "dmesg | sed -n '/mark $case\$/,\$p' | grep -qE '$regex'"
	fi
	since $case | grep -E 'nokia|Bluetooth|gnss|sirf' | sed 's/^/# kernel: /'
	tail -n 4 $log | sed 's/^/# model: /'
	check "$case: the table unloads" ssdt_unload fault
	wait_for 10 "$case: /dev/$tty is a tty again" is_tty $tty
	kill $pid
	wait $pid 2>/dev/null
done 5<<'EOF'
nokia garbage       hci_down   Frame reassembly failed \(-84\)
nokia bad-length    hci_down   Negotiation failed: -5$
nokia nak           hci_down   Negotiation received: wrong reply
nokia silent        hci_down   Negotiation failed: -110
nokia no-padding    hci_down   FW command fc02 failed \(-110\)
gps   bad-checksum  no_fix     -
gps   truncated     no_fix     -
gps   never-stop    no_suspend gnss[0-9]+: failed to runtime resume: -22
EOF

# --- the world as found -------------------------------------------------------
check "COM2 (/dev/ttyS1), after all that, carries bytes both ways" wire_carries ttyS1 com2
check "COM3 (/dev/ttyS2) is a plain tty at the end" is_tty ttyS2
drain ttyS2	# what the never-stop chip sent after its port closed
# The world's bt0 model again, started as /init started it (world.sh).
(CHIPS=nokia:com2:bt0; . /lib/ttyport/world.sh; world_start_chips >/dev/null)
wait_for 5 "the world's bt0 model runs again" sh -c 'kill -0 $(cat /run/chip-bt0.pid)'

ktap_done
