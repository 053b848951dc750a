#!/bin/sh
# The bad-input corpus (issue 16): every case of tests/bad-input/cases, in
# its order, in one boot.  A case does one thing wrong (an SSDT, bytes that
# are not one, a new_device or delete_device line, an overlay, a chip model
# with a fault) and is checked for:
#   - what it did: the write refused, or the device made, bound or not
#     (the table's outcome column);
#   - its kernel log line, exactly once, after the case's mark;
#   - nothing else disturbed: the PCI port's Nokia chip (described at boot)
#     still bound and powered, COM2 and COM4 ttys again, no serdev device
#     left that the case made.
# Each kind of case ends with bytes both ways on COM4.  Splats fail the boot
# (the harness).  The world is core-runtime-nokia's (same headers, one boot).
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-pci.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1
#@ alone: the Nokia chips' H4+ setup misses its timeouts beside another guest
#@ timeout: 900
#@ skip-allowed: the corpus has at least 50 cases | only with TEST_CORPUS_CASES, which runs some of the cases
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/bt.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/overlay.sh
ktap_start

cases=/lib/ttyport/bad-input/cases
corpus=/lib/ttyport/bad-input	# the cases' SSDTs, NAME.aml
pci='\_SB_.BTP0'
gps_spec=wi2wi,w2sg0004

# --- helpers ------------------------------------------------------------------

mark() { echo "ttyport-test: mark $1" >/dev/kmsg; }
# since NAME: the kernel log from the case's mark on, the mark included
since() { dmesg | sed -n "/ttyport-test: mark $1\$/,\$p"; }

is_tty() { [ -c /dev/$1 ] && [ -e /sys/class/tty/$1 ]; }

# devs: the serdev devices there are; new_devs: those the case made, not
# there before it ($before) nor made by its control step ($extra)
devs() { serdev_devs | sort; }
new_devs() { devs | grep -vxF -e "$before" -e "$extra" -e '@none@'; }
new_dev() { _x=$(new_devs | head -n 1); [ -n "$_x" ] && echo "$_x"; }
no_new_dev() { [ -z "$(new_devs)" ]; }

# control_made: a case's control step made a device (within 5 s): it is
# not the case's (the outcome checks) but is cleaned up with it
control_made() {
	poll 5 new_dev || return 1
	extra="$extra
$(new_devs)"
}

# no_driver_kept: the case's device is there, with no driver
no_driver_kept() { _d=$(new_dev) && ! dev_bound "$_d"; }
# dev_bound DEV: a driver is bound to serdev device DEV
dev_bound() { [ -e /sys/bus/serial/devices/$1/driver ]; }
new_bound() { _d=$(new_dev) && [ -n "$_d" ] && dev_bound "$_d"; }

# gnss_new: the gnssN of the case's device
gnss_new() {
	_g=$(ls /sys/bus/serial/devices/$(new_dev)/gnss 2>/dev/null | head -n 1)
	[ -n "$_g" ] && echo "$_g"
}

# Kernel lines that would mean somebody complained, for cases whose correct
# behaviour is to say nothing.
complaints='[Ff]ail|[Ee]rror|[Ii]nvalid|timeout|busy|not found|[Cc]ould not|refused|corrupt'

# wr FILE TEXT [ERRFILE]: write TEXT to FILE in one write(); stderr to
# ERRFILE (default /tmp/wr.err).  (busybox's printf says nothing when the
# write fails: its status tells, and the case's kernel line says why.)
wr() { printf '%s\n' "$2" >"$1" 2>"${3:-/tmp/wr.err}"; }

# undisturbed: what every case must leave as it was
undisturbed() {
	nokia_bound "$pci" || { echo "the PCI chip is no longer bound"; return 1; }
	bt_up $hB || { echo "$hB is not up"; return 1; }
	poll 10 is_tty ttyS3 || { echo "/dev/ttyS3 is not a tty"; return 1; }
	poll 10 is_tty ttyS1 || { echo "/dev/ttyS1 is not a tty"; return 1; }
	extra=@none@	# what the control steps made is gone too
	poll 10 no_new_dev ||
		{ echo "left behind: $(new_devs | tr '\n' ' ')"; return 1; }
}

# --- the kinds ------------------------------------------------------------------
# Each sets "done" (0: what was written was taken, 1: refused) and leaves the
# case's device, if any, for the outcome check; undo_* clean up after it.

# (table_loaded, serdev.sh: configfs hands a table to ACPI at close and
# ignores the answer, so cat's status says nothing; the item's attributes do)
do_ssdt() { # NAME
	mkdir $tables/corpus && cat $corpus/$1.aml >$tables/corpus/aml &&
		table_loaded corpus $corpus/$1.aml
}
undo_ssdt() { rmdir $tables/corpus 2>/dev/null; return 0; }

# aml: the ctrl-gps table's bytes, spoiled
aml_spoiled() { # HOW: the bytes on stdout
	_t=$corpus/ctrl-gps.aml
	case $1 in
	@short) head -c 40 $_t ;;
	@signature) printf DSDT; tail -c +5 $_t ;;
	@length) # the header's length field (offset 4, LE32) says 4 KiB more
		_n=$(($(wc -c <$_t) + 4096))
		head -c 4 $_t
		printf "\\$(printf %03o $((_n & 255)))\\$(printf %03o $((_n >> 8 & 255)))\\000\\000"
		tail -c +9 $_t ;;
	@checksum) # the checksum byte (offset 9) plus one
		_c=$(od -An -tu1 -j9 -N1 $_t | tr -d ' ')
		head -c 9 $_t
		printf "\\$(printf %03o $(((_c + 1) & 255)))"
		tail -c +11 $_t ;;
	@garbage) head -c 300 /dev/urandom ;;
	esac
}
first_table() { # the control of @twice: the first write loads ctrl-gps
	cat $corpus/ctrl-gps.aml >$tables/corpus/aml && table_loaded corpus $corpus/ctrl-gps.aml
}
do_aml() { # HOW
	mkdir $tables/corpus || return 1
	if [ "$1" = @twice ]; then
		check "$name: control: the first table loads" first_table
		control_made
		# A second, different table into the same item: taken, the item
		# would hold it (its length); refused, it still holds the first.
		cat $corpus/ctrl-gps-onoff.aml 2>/tmp/wr.err >$tables/corpus/aml
		! table_loaded corpus $corpus/ctrl-gps.aml >/dev/null
		return
	fi
	aml_spoiled $1 >/tmp/spoiled.aml
	cat /tmp/spoiled.aml 2>/tmp/wr.err >$tables/corpus/aml || return 1
	# configfs hands the bytes over at close(): an item that took no table
	# has no signature
	[ -n "$(cat $tables/corpus/signature 2>/dev/null)" ]
}
undo_aml() { undo_ssdt; }

do_newdev() { # INPUT
	_nd=$c4/new_device
	case $1 in
	@newline) wr $_nd '' ;;
	@blanks) wr $_nd '   ' ;;
	@long=*) wr $_nd "$(awk -v n=${1#@long=} 'BEGIN { while (n--) printf "a" }')" ;;
	@props=*) wr $_nd "$gps_spec$(awk -v n=${1#@props=} 'BEGIN { for (i = 1; i <= n; i++) printf " p%d=%d", i, i }')" ;;
	@second)
		check "$name: control: the first GPS is added" wr $_nd $gps_spec
		control_made
		wr $_nd $gps_spec ;;
	@concurrent)
		wr $_nd $gps_spec /tmp/wr2.err &
		_p=$!
		wr $_nd $gps_spec
		_r1=$?
		wait $_p
		_r2=$?
		check "$name: control: one of the two writers added its GPS ($_r1 $_r2)" \
			[ $((_r1 + _r2)) -eq 1 ]
		control_made
		# the case's refusal: a writer's write failed (why: the kernel's
		# "controller busy", the case's expected line)
		[ $((_r1 + _r2)) -eq 0 ] ;;
	*) wr $_nd "$1" ;;
	esac
}
undo_newdev() {
	for _d in $(new_devs) $extra; do
		[ "$_d" != @none@ ] || continue
		echo $_d >/sys/bus/serial/devices/${_d%-*}/delete_device
	done
	return 0
}

do_deldev() { # INPUT
	case $1 in
	@none) wr $c4/delete_device "${c4##*/}-0" ;;
	@wrong)
		check "$name: control: a GPS is added" wr $c4/new_device $gps_spec
		control_made
		wr $c4/delete_device "${c4##*/}-9" ;;
	@firmware) wr $pci_ctrl/delete_device $pci_dev ;;
	esac
}
undo_deldev() { undo_newdev; }

do_overlay() { # INPUT
	case $1 in
	@garbage) head -c 512 /dev/urandom >/tmp/case.dtbo; _o=/tmp/case.dtbo ;;
	@short=*) head -c 200 $dtbo/${1#@short=}.dtbo >/tmp/case.dtbo; _o=/tmp/case.dtbo ;;
	@twice=*) # FIRST,SECOND: SECOND's blob into FIRST's applied item
		_o=${1#@twice=}
		check "$name: control: ${_o%,*} applies" ovl_apply corpus $dtbo/${_o%,*}.dtbo
		control_made
		cat $dtbo/${_o#*,}.dtbo 2>/dev/null >$ovl/corpus/dtbo
		# taken, SECOND's nodes would be in the live tree
		ovl_nodes_of ${_o#*,} >/dev/null
		return ;;
	@second=*) # FIRST,SECOND: two overlays, each with a device for one port
		_o=${1#@second=}
		check "$name: control: ${_o%,*} applies" ovl_apply corpus $dtbo/${_o%,*}.dtbo
		control_made
		ovl_apply corpus2 $dtbo/${_o#*,}.dtbo >/dev/null 2>&1
		return ;;
	*) _o=$dtbo/$1.dtbo ;;
	esac
	ovl_apply corpus $_o >/dev/null 2>&1
}
# ovl_nodes_of NAME: a node that overlay NAME adds is in the live tree (the
# overlays a case writes second; a name not listed here counts as seen)
ovl_nodes_of() {
	case $1 in
	gps-com4) [ -e $base/gpio-gpsd4 ] ||
		[ -e $base/serial-ports/acpi-_SB_.PCI0.SF8_.COM4/serial@0/gnss ] ;;
	*) echo "ovl_nodes_of: no nodes known for $1"; return 0 ;;
	esac
}
undo_overlay() { rmdir $ovl/corpus2 $ovl/corpus 2>/dev/null; return 0; }

# chip: a model with a fault on the far end, then the table that describes it
chip_pid=
bt0_stopped=
do_chip() { # MODEL:FAULT
	_f=${1#*:}
	case ${1%%:*} in
	gps)	# no sideband lines: on from the start
		w2sg0004 --uart /dev/far-com4 --lines gpsc --always-on --fault $_f \
			2>/tmp/chip-case.log &
		chip_pid=$!
		do_ssdt ctrl-gps ;;
	gps-onoff)	# the driver switches it with its on/off line
		# gnss-sirf's probe takes any byte within 2 s for a chip that is
		# on (and then pulses it off): first read away what the last
		# case's chip left on its way to COM4, as a closed port keeps it
		stty -F /dev/ttyS3 raw -echo
		(timeout 2 cat /dev/ttyS3 >/dev/null) 2>/dev/null
		w2sg0004 --uart /dev/far-com4 --lines gps0 --fault $_f \
			2>/tmp/chip-case.log &
		chip_pid=$!
		do_ssdt ctrl-gps-onoff ;;
	nokia)
		# The world's bt0 model holds COM2's far end until the corpus ends.
		[ -n "$bt0_stopped" ] || { kill "$(cat /run/chip-bt0.pid)"; sleep 0.2; bt0_stopped=1; }
		nokia-h4p --uart /dev/far-com2 --lines bt0 --fault $_f \
			--btvirt /tmp/bt-server-bredrle 2>/tmp/chip-case.log &
		chip_pid=$!
		mkdir $tables/corpus &&
			cat /lib/ttyport/tables/nokia-com2.aml >$tables/corpus/aml &&
			table_loaded corpus /lib/ttyport/tables/nokia-com2.aml ;;
	esac
}
undo_chip() {
	undo_ssdt
	# the model goes once its port is a tty again: nothing waits on it then
	poll 10 is_tty ttyS3
	poll 10 is_tty ttyS1
	kill $chip_pid 2>/dev/null
	wait $chip_pid 2>/dev/null
	return 0
}

# --- the outcomes -------------------------------------------------------------

# nmea_arrives: the chip's bytes reach /dev/gnssN (at most 6 s)
nmea_arrives() {
	_g=$(gnss_new) || return 1
	timeout 6 head -c 200 /dev/$_g >/tmp/nmea.txt 2>/dev/null
	[ -s /tmp/nmea.txt ] || { echo "nothing on /dev/$_g"; return 1; }
}

# settled SECONDS: the case's expected kernel line is there (up to 5 s), or,
# for a case that expects none, SECONDS have passed
expected_said() { since $name | grep -v 'ttyport-test: mark' | grep -qE -- "$expect"; }
settled() {
	if [ "$expect" = - ]; then sleep $1; else poll 5 expected_said; fi
	return 0
}


# hci_down: hci_nokia's setup gives up within 60 s (its timeouts stretch on
# a busy TCG host); the HCI device stays down, out of the management index
hci_down() {
	_gave_up='(Reset|Negotiation|Alive check) failed|Could not setup FW'
	poll 60 sh -c "dmesg | sed -n '/mark $name\$/,\$p' | grep -qE '$_gave_up'" ||
		{ echo "setup did not give up within 60 s"; return 1; }
	_h=$(hci_of '\_SB_.BTH2') || { echo "no HCI device"; return 1; }
	hciconfig $_h | grep -q DOWN || { hciconfig $_h; return 1; }
	! mg info | grep -q "^$_h:" || { echo "$_h is in the management index"; return 1; }
}

outcome() { # OUTCOME: checks it
	case $1 in
	refused | nodev)
		# A device made all the same would be there by now: new_device and
		# delete_device act before their write returns, a table's devices
		# come from the scan its load queued (which logs the case's line
		# as it passes the device over), an overlay's from a notifier.
		case $kind in newdev | deldev) ;; *) settled 0.5 ;; esac
		check "$name: no device is made" no_new_dev ;;
	unbound)
		wait_for 10 "$name: a device is made" new_dev
		settled 1	# its probe has failed, or no driver matched it
		# (a probe's failure is logged just before its driver link goes)
		wait_for 2 "$name: no driver keeps it" no_driver_kept
		check "$name: the port stays a tty" sh -c '[ -c /dev/ttyS3 ] && [ -c /dev/ttyS1 ]' ;;
	bound)	# (every "bound" case is a GPS)
		wait_for 10 "$name: a driver binds its device" new_bound
		wait_for 5 "$name: it has a GNSS device" gnss_new ;;
	fix | nofix)
		wait_for 10 "$name: gnss-sirf binds" new_bound
		wait_for 5 "$name: it has a GNSS device" gnss_new
		g=/dev/$(gnss_new)
		if [ $1 = fix ]; then
			check "$name: gpsd gets a 3D fix at the model's position" gps_fix_at_model $g
			echo "# $name: the fix took $(cat /tmp/tpv.took) s"
		else
			check "$name: the chip's bytes reach $g" nmea_arrives
			check "$name: gpsd gets no fix in 6 s" sh -c ". /lib/ttyport/gps.sh; ! gps_fix $g 6"
		fi ;;
	nohibernate)
		wait_for 10 "$name: gnss-sirf binds" new_bound
		wait_for 5 "$name: it has a GNSS device" gnss_new
		g=/dev/$(gnss_new)
		check "$name: the chip's bytes reach $g" nmea_arrives
		sed 's/^/# chip: /' /tmp/chip-case.log | tail -n 5
		# after the close, gnss-sirf pulses 4 times (3 retries), each
		# followed by up to 2.2 s of listening for the chip
		wait_for 20 "$name: the chip ignores the driver's 4 off pulses" \
			sh -c "[ \$(grep -c 'ignored: fault never-stop' /tmp/chip-case.log) -ge 4 ]"
		wait_for 5 "$name: the driver gives up, says so" expected_said
		check "$name: its runtime PM status is active, not error" \
			grep -qx active /sys/bus/serial/devices/$(new_dev)/power/runtime_status
		# (this close tries again; the driver does not say so twice)
		check "$name: the next open works: the chip's bytes reach $g again" nmea_arrives ;;
	hciup)
		wait_for 20 "$name: hci_nokia binds" nokia_bound '\_SB_.BTH2'
		h=$(bt_wait_ready '\_SB_.BTH2')
		check "$name: the controller comes up ($h)" test -n "$h" ;;
	hcidown)
		wait_for 20 "$name: hci_nokia binds" nokia_bound '\_SB_.BTH2'
		check "$name: setup gives up, the HCI device stays down" hci_down ;;
	esac
}

# --- the corpus -----------------------------------------------------------------
# corpus_rows: the cases to run, one "N|kind|table|input|outcome|expect" a
# line (N: the case's place in the whole table), blanks trimmed; only those
# whose name matches TEST_CORPUS_CASES, if set, whose kind is one of
# TEST_CORPUS_KINDS, if set, and none of TEST_CORPUS_SKIP_KINDS (make check
# skips the chip cases, which make check-chip-faults runs: their driver
# timeouts are most of the corpus's time)
corpus_rows() {
	_n=0
	grep -v '^[[:space:]]*\(#\|$\)' $cases | while IFS='|' read -r _k _t _i _r _e; do
		_n=$((_n + 1))
		_t=$(echo $_t)
		_k=${_k%% *}
		# shellcheck disable=SC2254 # TEST_CORPUS_CASES is a pattern
		case $_t in ${TEST_CORPUS_CASES:-*}) ;; *) continue ;; esac
		case " ${TEST_CORPUS_KINDS:-$_k} " in *" $_k "*) ;; *) continue ;; esac
		case " ${TEST_CORPUS_SKIP_KINDS:-} " in *" $_k "*) continue ;; esac
		printf '%s|%s|%s|%s|%s|%s\n' $_n $_k "$_t" \
			"$(printf '%s\n' "$_i" | sed 's/^ *//; s/ *$//')" $_r \
			"$(printf '%s\n' "$_e" | sed 's/^ *//; s/ *$//')"
	done
}

# case_plan KIND INPUT OUTCOME: sets _p to how many results a case prints,
# known from its row before it runs: taken or refused, nothing else
# disturbed, its kernel line (or the kernel's silence), the control of a
# case that needs one, and its outcome's checks (outcome() above).  (No
# $(...): a fork per row costs seconds in this guest.)
case_plan() {
	_p=3
	case "$1:$2" in
	aml:@twice | newdev:@second | newdev:@concurrent | deldev:@wrong | \
	overlay:@twice=* | overlay:@second=*) _p=$((_p + 1)) ;;
	esac
	case $3 in
	refused | nodev) _p=$((_p + 1)) ;;
	bound | hciup | hcidown) _p=$((_p + 2)) ;;
	unbound | fix) _p=$((_p + 3)) ;;
	nofix) _p=$((_p + 4)) ;;
	nohibernate) _p=$((_p + 7)) ;;
	*) _p=$((_p + 1000)) ;;	# an outcome nobody checks: the plan fails
	esac
}

# The plan, from the table alone: the 3 checks above, each case's, 2 after
# each run of cases of one kind, 1 for the world's bt0 model when a Nokia
# chip case stopped it, 1 for the size of the corpus.
corpus_rows >/tmp/corpus.rows
plan=4
last=
while IFS='|' read -r _n _k _t _i _r _e; do
	case_plan $_k "$_i" $_r
	plan=$((plan + _p))
	[ "$_k" = "$last" ] || plan=$((plan + 2))
	last=$_k
done </tmp/corpus.rows
grep -q '^[0-9]*|chip|[^|]*|nokia:' /tmp/corpus.rows && plan=$((plan + 1))
ktap_plan $plan

# The port controllers: COM4's (ttyS3: ssdt, newdev, deldev, gps chips) and
# the PCI port's, whose Nokia chip is the device that must stay undisturbed.
c4=$(tty_ctrl ttyS3)
wait_for 20 "hci_nokia binds the boot-time chip on the PCI 16550" nokia_bound "$pci"
hB=$(bt_wait_ready "$pci")
check "the PCI chip's controller is up ($hB)" test -n "$hB"
bt_power_on $hB >/dev/null
check "COM4's port has a serdev controller ($c4)" test -n "$c4"
pci_dev=$(for d in /sys/bus/serial/devices/*; do
	[ "$(cat $d/firmware_node/path 2>/dev/null)" = "$pci" ] && echo ${d##*/}; done)
pci_ctrl=/sys/bus/serial/devices/${pci_dev%-*}


last_kind=
end_of_kind() {
	[ -n "$last_kind" ] || return 0
	check "after the $last_kind cases: COM4 carries bytes both ways" wire_carries ttyS3 com4
	check "after the $last_kind cases: $hB is powered (btmgmt)" bt_powered $hB
}

# said_nothing: the case's kernel lines hold no complaint, and are the
# case's: they start at its mark (an empty excerpt says nothing either)
said_nothing() {
	grep -q "ttyport-test: mark $name\$" /tmp/case.kmsg ||
		{ echo "the case's mark is not in the kernel log"; return 1; }
	! grep -E "$complaints" /tmp/case.after
}

while IFS='|' read -r n_case kind table input result expect <&5; do
	name=$n_case-$table	# the mark must be unique: names repeat across kinds
	[ "$kind" = "$last_kind" ] || { end_of_kind; last_kind=$kind; }
	before=$(devs)
	[ -n "$before" ] || before=@none@
	extra=@none@
	mark $name
	: >/tmp/wr.err
	# an ssdt case's input made its table (scripts/corpus-tables.sh), which
	# is named after the case
	[ $kind = ssdt ] && input=$table
	do_$kind "$input"
	took=$?
	# (a second blob into an applied overlay: the case's control applies
	# the first, and the refusal is the case's "refused")
	if [ $result = refused ]; then
		check "$name: refused" [ $took -ne 0 ]
	else
		check "$name: taken" [ $took -eq 0 ]
	fi
	outcome $result
	undo_$kind
	check "$name: nothing else is disturbed" undisturbed
	since $name >/tmp/case.kmsg	# the case's kernel lines, read once,
	grep -v "ttyport-test: mark $name\$" /tmp/case.kmsg >/tmp/case.after	# and without its mark
	if [ "$expect" = - ]; then
		check "$name: the kernel says nothing against it" said_nothing
	else
		check_eq "$name: the kernel logs /$expect/ once" 1 \
			"$(grep -cE -- "$expect" /tmp/case.after)"
	fi
	head -n 6 /tmp/case.after | sed 's/^/# kernel: /'
done 5</tmp/corpus.rows
end_of_kind

# The world's bt0 model again, started as /init started it (world.sh).
if [ -n "$bt0_stopped" ]; then
	(CHIPS=nokia:com2:bt0; . /lib/ttyport/world.sh; world_start_chips >/dev/null)
	wait_for 5 "the world's bt0 model runs again" sh -c 'kill -0 $(cat /run/chip-bt0.pid)'
fi
n_cases=$(grep -vc '^[[:space:]]*\(#\|$\)' $cases)
echo "# bad-input corpus: $n_cases cases, $(wc -l </tmp/corpus.rows) run" \
	"(kinds: ${TEST_CORPUS_KINDS:-all}; skipped: ${TEST_CORPUS_SKIP_KINDS:-none})"
if [ -n "${TEST_CORPUS_CASES:-}" ]; then
	skip "the corpus has at least 50 cases" "only the cases TEST_CORPUS_CASES='$TEST_CORPUS_CASES' ran"
else
	check "the corpus has at least 50 cases ($n_cases)" [ $n_cases -ge 50 ]
fi

ktap_done
