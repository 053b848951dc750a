#!/bin/bash
# make check: the host-side unit tests, then every QEMU test.
#
# A QEMU test is a guest script (tests/*.sh, usb-serial-tests/*.sh) that prints
# KTAP through /lib/ttyport/ktap.sh.  Its header lines say how to boot it:
#
#   #@ machines: q35 pc          (default: q35 pc)
#   #@ firmware: bios uefi       (default: bios)
#   #@ skip: pc/uefi             (machine/firmware pairs to leave out)
#   #@ ssdt: acpi-tables/x.asl   (SSDTs given at boot)
#   #@ overlay: dt-overlays/x.dtso
#   #@ chips: nokia:com2 gps:com3
#   #@ append: lockdown=integrity  (added to the kernel command line)
#   #@ kernel: modules           (boot the modules kernel, build/obj-modules:
#                                 the drivers a distribution builds as
#                                 modules are modules; default: $KERNEL or
#                                 the debug kernel)
#   #@ alone: <why>              (its boot runs with no other beside it)
#   #@ kunit: <why>              (its boot runs the KUnit suites built into
#                                 the kernel; the others boot with
#                                 kunit.enable=0, about 1 s less each)
#   #@ skip-allowed: GLOB | WHY  (a check whose description matches GLOB
#                                 may be skipped, for the reason WHY; any
#                                 other skip fails.  "kmemleak scanned"
#                                 names the boot's leak scan)
#   #@ timeout: 120
#
# Tests whose headers ask for the same machine, firmware and world (SSDTs,
# overlays, chips, command line, kernel) share one boot and run one after the other (so each test
# leaves the world as it found it); the timeout of a boot is the sum of its
# tests'.  Every KTAP result becomes one host line
# "ok|not ok <test> [<machine>/<firmware>] <check>".  A test must declare
# its plan ("1..N", ktap_plan) before its first result, print exactly N
# results and exit 0 when all its checks passed: a check that a branch, an
# early return or an empty loop never reached is one result short.  A skip
# ("ok N ... # SKIP why") fails unless the test's header allows it
# (#@ skip-allowed); "not ok ... # SKIP" is a failure.  A boot whose kernel
# log has a splat fails all its checks (the splat is shown), and so does a
# boot that never finishes its scripts, prints no result, or whose guest
# did not scan kmemleak (unless a test of the boot allows that skip).  Each
# boot prints a "starting" and a "done in S s" line.  The run ends with the
# allowed skips, the numbers of checks (see "Counting" at the end) and
# "N passed, N failed".
#
#   ONLY=<glob>   run only the QEMU tests whose name matches (e.g. ONLY='usb*',
#                 or ONLY='@(usb-stress|dt-*)' for several: an extglob),
#                 and no host-side tests; a glob that matches no test fails
#   EXCEPT=<glob> leave out the QEMU tests whose name matches (make check
#                 leaves the stresses, '*-stress', to make check-stress)
#   HOST_ONLY=1   run only the host-side tests
#   TIMEOUT_FACTOR=N  multiply every test's timeout by N (make stress)
#   CHECK_JOBS=N  boot N guests at a time (default 1; results stay in order;
#                 a boot with an "alone" test runs by itself, after the others;
#                 the next boot starts while the last one's guest scans for
#                 leaks before poweroff, see "winding down")
#
# For testing this script (tests/host/check-harness.sh):
#   QEMU_RUN      the boot runner (default scripts/qemu-run.sh)
#   CHECK_OUT     where the logs go (default build/check; emptied first)
#   CHECK_TESTS   the QEMU tests, as globs (default "tests/*.sh usb-serial-tests/*.sh")
#   CHECK_HOST_TESTS  the host-side tests, as globs (default "tests/host/*.sh",
#                 and the chip models' make check)
#
# Besides its output, a run leaves CHECK_OUT/times.tsv: the seconds of the
# host-side tests, of each boot, of each test of a shared boot (by the
# guest's clock) and of the whole run (make bench reads it).
set -uo pipefail
shopt -s extglob	# ONLY may be an extglob

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
qemu_run=${QEMU_RUN:-scripts/qemu-run.sh}
out=${CHECK_OUT:-$top/build/check}
rm -rf "$out"
mkdir -p "$out"

passed=0
failed=0
skipped=0
failures=()
allowed_skips=()
t0=$(date +%s)

result() { # ok|fail|skip name [detail]
	case "$1" in
	ok) passed=$((passed + 1)); echo "ok      $2" ;;
	skip) skipped=$((skipped + 1)); allowed_skips+=("$2${3:+ # $3}")
	      echo "skip    $2${3:+ # $3}" ;;
	*) failed=$((failed + 1)); failures+=("$2"); echo "not ok  $2"
	   [ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/        # /' ;;
	esac
}

# skip_allowed DESC FILE...: a "#@ skip-allowed: GLOB | WHY" header line of
# one of the files allows the check DESC to be skipped; prints WHY.  A line
# without a reason allows nothing.
skip_allowed() {
	local desc=$1 f line glob why
	shift
	for f in "$@"; do
		[ -f "$f" ] || continue
		while IFS= read -r line; do
			glob=${line%%|*}
			why=${line#*|}
			[ "$why" != "$line" ] || continue
			glob=${glob% }
			why=${why# }
			[ -n "$why" ] || continue
			# shellcheck disable=SC2053 # GLOB is a pattern
			[[ $desc == $glob ]] && { echo "$why"; return 0; }
		done < <(sed -n 's/^#@ skip-allowed: *//p' "$f")
	done
	return 1
}

# a_skip NAME DESC WHY FILE...: the host line of a check NAME (DESC without
# the label) skipped for WHY: an allowed skip if a header of FILE... allows
# it, else a failure
a_skip() {
	local name=$1 desc=$2 why=$3 allowed
	shift 3
	if allowed=$(skip_allowed "$desc" "$@"); then
		result skip "$name" "$why (allowed: $allowed)"
	else
		result fail "$name" "skipped ($why), and no '#@ skip-allowed:' header allows this check to be skipped"
	fi
}

# Lines "ok N - name" / "not ok N - name" of a host-side test program; a
# skip is allowed only by the program's header (HEADERFILE: the test script)
count_tap() { # prefix logfile [headerfile]
	local line st name why
	while IFS= read -r line; do
		case "$line" in
		"ok "* | "not ok "*)
			st=ok
			[[ $line == not* ]] && { st=fail; line=${line#not }; }
			name=$(sed -E 's/^ok [0-9]+ (- )?//' <<<"$line")
			if [[ $name == *" # SKIP"* ]] && [ $st = ok ]; then
				why=${name#*# SKIP}
				a_skip "$1: ${name%% # SKIP*}" "${name%% # SKIP*}" "${why# }" ${3:+"$3"}
			elif [[ $name == *" # SKIP"* ]]; then
				result fail "$1: ${name%% # SKIP*}" "a 'not ok' marked SKIP is a failure"
			else
				result $st "$1: $name"
			fi
			;;
		esac
	done <"$2"
}

# --- host-side tests ---------------------------------------------------------
# They run in the background beside the first boots (below, may_start):
# host_run leaves each program's log and exit status in
# $out/host/, host_collect counts them, before any boot's results.
host_tests=
[ -z "${ONLY:-}" ] && host_tests=1
host_run() {
	local t log h0
	h0=$(date +%s)
	mkdir -p "$out/host"
	# shellcheck disable=SC2086 # the globs are to be expanded
	for t in ${CHECK_HOST_TESTS:-tests/host/*.sh}; do
		[ -x "$t" ] || continue
		log=$out/host/$(basename "$t" .sh).log
		env -u EXCEPT "$t" >"$log" 2>&1
		echo $? >"$log.rc"
		echo "$t" >"$log.src"
	done
	if [ -z "${CHECK_HOST_TESTS:-}" ] && [ -f models/Makefile ]; then
		log=$out/host/models.log
		make --no-print-directory -C models O="$top/build/models" check >"$log" 2>&1
		echo $? >"$log.rc"
	fi
	printf 'host_tests_s\t%s\n' "$(($(date +%s) - h0))" >"$out/host/times"
	touch "$out/host/done"
}
host_collect() {
	local log name rc
	for log in "$out"/host/*.log; do
		[ -e "$log" ] || continue
		name=host/$(basename "$log" .log)
		rc=$(cat "$log.rc")
		if [ "$name" = host/models ]; then
			count_tap models "$log"
			if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' "$log"; then
				result fail "models: make check" "$(tail -n 5 "$log")"
			fi
		elif [ "$rc" -eq 0 ]; then
			if grep -qE '^(not )?ok ' "$log"; then count_tap "$name" "$log" "$(cat "$log.src")"
			else result ok "$name"; fi
		else
			if grep -qE '^(not )?ok ' "$log"; then count_tap "$name" "$log" "$(cat "$log.src")"; fi
			grep -qE '^not ok ' "$log" || result fail "$name" "$(tail -n 5 "$log")"
		fi
	done
	cat "$out/host/times" >>"$out/times.tsv"
}

# --- QEMU tests --------------------------------------------------------------
header() { # file key -> value
	sed -n "s/^#@ $2: *//p" "$1" | head -n 1
}

# parse_ktap FILE LABEL LOG SPLAT: one host result per KTAP result of the
# log of the test FILE, with the "# " diagnostic lines that follow it;
# prints nothing else.  Sets n to the number of results and nfail to how
# many failed on the host.
declare -A distinct=()   # "test<TAB>check" of every check run (not skipped)
declare -A kinds=()      # "test<TAB>kind" of the same (see kind_of)
parse_ktap() {
	local file=$1 label=$2 log=$3 splat=$4 st desc diag test why
	test=$(basename "$file" .sh)
	n=0
	nfail=0
	while IFS=$'\t' read -r st desc diag; do
		n=$((n + 1))
		if [[ $desc == *" # SKIP"* ]]; then
			why=${desc#*# SKIP}
			desc=${desc%% # SKIP*}
			if [ "$st" = ok ]; then
				a_skip "$label $desc" "$desc" "${why# }" "$file"
			else
				nfail=$((nfail + 1))
				result fail "$label $desc" "a 'not ok' marked SKIP is a failure"
			fi
			continue
		fi
		count_check "$test" "$desc"
		if [ -n "$splat" ]; then
			nfail=$((nfail + 1))
			result fail "$label $desc" "kernel splat during this boot"
		elif [ "$st" = ok ]; then
			result ok "$label $desc"
		else
			nfail=$((nfail + 1))
			result fail "$label $desc" "$(tr '\037' '\n' <<<"$diag" | head -n 8)"
		fi
	done < <(awk '
		function flush() { if (st != "") print st "\t" desc "\t" diag; st = "" }
		/^ok [0-9]+ / { flush(); st = "ok"; desc = $0; sub(/^ok [0-9]+ /, "", desc); diag = ""; next }
		/^not ok [0-9]+ / { flush(); st = "fail"; desc = $0; sub(/^not ok [0-9]+ /, "", desc); diag = ""; next }
		/^#/ && st != "" { d = $0; sub(/^# ?/, "", d); diag = diag (diag == "" ? "" : "\037") d; next }
		{ flush() }
		END { flush() }' "$log")
}

# count_check TEST DESC: count a check that ran, as a distinct check (a
# check run on several machines counts once) and as an assertion kind
# (kind_of: a check in a loop counts once too)
count_check() {
	distinct["$1"$'\t'"$2"]=1
	kinds["$1"$'\t'"$(kind_of "$2")"]=1
}

# kind_of DESC: the assertion a check's description stands for, whatever
# loop iteration, round, port, controller or value it names: every number
# becomes N (round 1 and round 2, ttyS0 and ttyS4, hci0 and hci1 are one
# kind), and a table row's name before its checks ("12-uart-missing: ")
# goes, so that a corpus counts each distinct expectation once (the kernel
# line each case must log, what it checks about the outcome), not once
# per case.
kind_of() {
	local k=${1//[0-9]/N}
	while [[ $k == *NN* ]]; do k=${k//NN/N}; done
	[[ $k =~ ^N-[^\ :]+:\ (.*)$ ]] && k=${BASH_REMATCH[1]}
	printf '%s' "$k"
}

# check_end LABEL LOG SPLAT STATUS: did the test run to its end, and was its
# plan declared before it ran?  Its plan "1..N" (ktap_plan) must come
# before its first result, be more than 0, and N results must follow (n,
# from parse_ktap); it must exit 0.  STATUS is its exit status, or empty if
# unknown.  A non-zero status fails on its own only when all its checks
# passed (ktap_done returns 1 when a check failed) and the kernel log is
# clean (a splat fails all).
check_end() {
	local label=$1 log=$2 splat=$3 status=$4 plan planline first nplans
	nplans=$(grep -cE '^1\.\.[0-9]+$' "$log")
	planline=$(grep -nE '^1\.\.[0-9]+$' "$log" | head -n 1 | cut -d: -f1)
	first=$(grep -nE '^(not )?ok [0-9]+ ' "$log" | head -n 1 | cut -d: -f1)
	if [ -z "$planline" ]; then
		result fail "$label KTAP plan" \
			"no KTAP plan: the test declared none (ktap_plan N) before it stopped, after result $n (see $log)"
	else
		plan=$(sed -n "${planline}s/^1\.\.//p" "$log")
		if [ -n "$first" ] && [ "$first" -lt "$planline" ]; then
			result fail "$label KTAP plan" \
				"the plan comes after a result: a plan counted from what ran hides the checks that did not; declare it first (ktap_plan N; see $log)"
		elif [ "$nplans" -gt 1 ]; then
			result fail "$label KTAP plan" "$nplans KTAP plans (see $log)"
		elif [ "$plan" -eq 0 ]; then
			result fail "$label KTAP plan" "a plan of 0 checks (see $log)"
		elif [ "$plan" -ne "$n" ]; then
			result fail "$label result count" \
				"the KTAP plan declares $plan results, the test printed $n: it stopped early, or a branch, an early return or a loop left checks out (see $log)"
		fi
	fi
	if [ -n "$status" ] && [ "$status" -ne 0 ] && [ "$nfail" -eq 0 ] && [ -z "$splat" ]; then
		result fail "$label exit status" "exited with status $status (see $log)"
	fi
}

# report_retries LABEL LOG: a guest helper that had to try something twice
# (bt_wait_ready's rebind) says so in a "# RETRY ..." line; each is shown
# here and counted at the end, so that a retry is never silent.
retries=0
report_retries() {
	local line
	while IFS= read -r line; do
		retries=$((retries + 1))
		echo "retry   $1: ${line#\# RETRY }"
	done < <(grep -a '^# RETRY ' "$2" 2>/dev/null)
}

# console_expect TEST LABEL CONSOLE_LOG: a test's "#@ console-expect: REGEX"
# header names a line the guest writes to the console port (COM1), which
# only the host sees: QEMU's file behind COM1.  That the write() succeeded
# in the guest proves nothing; the line in console.log does.
console_expect() {
	local re
	re=$(header "$1" console-expect)
	[ -n "$re" ] || return 0
	count_check "$(basename "$1" .sh)" "console.log shows $re"
	# grep reads to the end (no -q): under pipefail, a grep that quits at
	# the first match can fail the pipeline through tr's SIGPIPE.
	if tr -d '\r' <"$3" 2>/dev/null | grep -E -- "$re" >/dev/null; then
		result ok "$2 console.log shows /$re/"
	else
		result fail "$2 console.log shows /$re/" "no such line in $3"
	fi
}

# boot_plan MACHINE FIRMWARE SCRIPT...: what a boot running the scripts in
# turn is called and needs: sets names (its log name), all (every test's
# name), rundir, tmo (the sum of the tests' timeouts) and script (the one
# script the guest runs).  Scripts share a boot when their headers ask for
# the same world (machine, firmware, SSDTs, overlays, chips): the guest runs
# each in its own shell, marking where each one's output starts and its exit
# status; a splat fails every check of the boot, as it cannot be pinned on
# one script.
boot_plan() {
	local m=$1 f=$2 t v first=$3
	shift 2
	names=''
	tmo=0
	for t in "$@"; do
		names="$names${names:++}$(basename "$t" .sh)"
		v=$(header "$t" timeout)
		tmo=$((tmo + ${v:-180} * ${TIMEOUT_FACTOR:-1}))
	done
	all=$names
	[ $# -eq 1 ] || names="$(basename "$first" .sh)+$(($# - 1))"
	rundir=$out/$names-$m-$f
	script=$first
	[ $# -eq 1 ] || script=$rundir.group.sh  # qemu-run.sh empties RUNDIR
}

# boot_start MACHINE FIRMWARE SCRIPT...: start the boot in the background;
# when QEMU is done, RUNDIR.rc holds the runner's exit status and the
# boot's seconds.
boot_start() {
	local m=$1 f=$2 t first=$3 append kunit= kernel
	shift 2
	boot_plan "$m" "$f" "$@"
	append=$(header "$first" append)
	for t in "$@"; do
		[ -n "$(header "$t" kunit)" ] && kunit=1
	done
	kernel=${KERNEL:-$top/build/obj-debug/arch/x86/boot/bzImage}
	case "$(header "$first" kernel)" in
	'') ;;
	modules) kernel=$top/build/obj-modules/arch/x86/boot/bzImage ;;
	*) kernel=/nonexistent/kernel-"$(header "$first" kernel)" ;;
	esac
	[ -n "$kunit" ] || append="${append:+$append }kunit.enable=0"
	mkdir -p "$rundir"
	rm -f "$rundir.rc"
	if [ $# -gt 1 ]; then
		{
			echo "# A boot shared by: $*"
			for t in "$@"; do
				echo "echo '@@ttyport-test $(basename "$t" .sh)'"
				echo 'echo "@@ttyport-test-start $(cut -d" " -f1 /proc/uptime)"'
				echo "cat >/tmp/test.sh <<'@@TTYPORT_TEST_END'"
				cat "$t"
				echo "@@TTYPORT_TEST_END"
				echo "(cd /root && sh /tmp/test.sh)"
				echo 'echo "@@ttyport-test-status $?"'
				echo 'echo "@@ttyport-test-end $(cut -d" " -f1 /proc/uptime)"'
			done
		} >"$script"
	fi
	echo "boot $all [$m/$f]: starting ($# test$([ $# -eq 1 ] || echo s), timeout $tmo s)"
	(
		b0=$(date +%s)
		SCRIPT=$script QUIET=1 RUNDIR=$rundir MACHINE=$m FIRMWARE=$f \
			SSDT="$(header "$first" ssdt)" OVERLAY="$(header "$first" overlay)" \
			CHIPS="$(header "$first" chips)" APPEND="$append" KERNEL="$kernel" \
			TIMEOUT=$tmo "$qemu_run" >"$rundir.host.log" 2>&1
		rc=$?
		echo "$rc $(($(date +%s) - b0))" >"$rundir.rc.new"
		mv "$rundir.rc.new" "$rundir.rc"
	) &
}

# boot_collect MACHINE FIRMWARE SCRIPT...: the results of a boot that
# boot_start started and whose RUNDIR.rc exists.
boots=0
boot_mfs=()   # the distinct "machine/firmware" of the boots, in order
boot_collect() {
	local m=$1 f=$2 t label rc secs splat seg
	local name log finished status
	shift 2
	boot_plan "$m" "$f" "$@"
	read -r rc secs <"$rundir.rc"
	boots=$((boots + 1))
	[[ " ${boot_mfs[*]} " == *" $m/$f "* ]] || boot_mfs+=("$m/$f")
	echo "boot $all [$m/$f]: done in $secs s"
	printf 'boot_s %s/%s %s\t%s\n' "$m" "$f" "$all" "$secs" >>"$out/times.tsv"
	splat=
	[ -s "$rundir/splat.txt" ] && splat=$(head -n 14 "$rundir/splat.txt")
	# The guest's output, without hvc0's CR LF line ends; /init's last line
	# "@@ttyport-exit N" says that the guest finished its script.
	log=$rundir/guest.txt
	: >"$log"
	[ -f "$rundir/guest.log" ] && tr -d '\r' <"$rundir/guest.log" >"$log"
	finished=
	grep -q '^@@ttyport-exit ' "$log" && finished=1

	local total=0
	for t in "$@"; do
		name=$(basename "$t" .sh)
		label="$name [$m/$f]"
		seg=$rundir/$name.log
		if [ $# -eq 1 ]; then
			cp "$log" "$seg"
			# qemu-run's exit status is the script's once the guest finished
			status=
			[ -n "$finished" ] && status=$rc
		else
			awk -v name="$name" '
				/^@@ttyport-test / { on = ($2 == name); next }
				on' "$log" >"$seg"
			status=$(sed -n 's/^@@ttyport-test-status \([0-9]*\)$/\1/p' "$seg" | tail -n 1)
			# The test's own seconds, by the guest's clock (make bench
			# reads them from times.tsv)
			awk -v t="$name $m/$f" '
				/^@@ttyport-test-start / { s = $2 }
				/^@@ttyport-test-end / && s != "" { printf "test_s %s\t%.0f\n", t, $2 - s }
				' "$seg" >>"$out/times.tsv"
		fi
		parse_ktap "$t" "$label" "$seg" "$splat"
		total=$((total + n))
		# A test the guest never started (the boot ended before it) has
		# no output: one failure says so (and the boot's, below, why).
		if [ $# -gt 1 ] && ! grep -qx "@@ttyport-test $name" "$log"; then
			result fail "$label ran" "the boot ended before this test started"
		elif [ -s "$seg" ]; then
			check_end "$label" "$seg" "$splat" "$status"
		fi
		console_expect "$t" "$label" "$rundir/console.log"
		report_retries "$label" "$seg"
	done
	label="$names [$m/$f]"
	if [ -n "$splat" ]; then
		result fail "$label kernel log is clean" "$splat"
	elif [ -z "$finished" ] && [ ! -s "$log" ]; then
		# Nothing on hvc0: what the guest said went to the console, if
		# anywhere (/init writes there when it has no hvc0)
		result fail "$label boot" "$(tail -n 4 "$rundir.host.log"
			echo "the guest printed nothing; console.log ends:"
			tr -d '\r' <"$rundir/console.log" 2>/dev/null | tail -n 4)"
	elif [ -z "$finished" ] && [ $total -eq 0 ]; then
		result fail "$label boot" "$(tail -n 6 "$rundir.host.log")"
	elif [ -z "$finished" ]; then
		result fail "$label script finished" "$(tail -n 3 "$rundir.host.log")"
	elif [ $total -eq 0 ]; then
		result fail "$label results" "the boot finished and printed no result (see $log)"
	fi
	# The guest's leak scans before poweroff: /init says on hvc0 whether
	# it scanned kmemleak ("@@ttyport-kmemleak scanned") or why not; a
	# boot that could not scan fails unless one of its tests allows it
	# ("#@ skip-allowed: kmemleak scanned | why").
	if [ -n "$finished" ]; then
		local kml
		kml=$(sed -n 's/^@@ttyport-kmemleak //p' "$log" | tail -n 1)
		case "$kml" in
		scanned) ;;
		not-scanned*)
			a_skip "$label kmemleak scanned" "kmemleak scanned" \
				"${kml#not-scanned }" "$@" ;;
		*) result fail "$label kmemleak scanned" \
			"the guest gave no kmemleak verdict ('@@ttyport-kmemleak' on hvc0, see $log)" ;;
		esac
	fi
}

# Collect the boots: one per (machine, firmware, world), in test order.
declare -A group_of
keys=()
# shellcheck disable=SC2086 # the globs are to be expanded
[ -n "${HOST_ONLY:-}" ] || for t in ${CHECK_TESTS:-tests/*.sh usb-serial-tests/*.sh}; do
	[ -f "$t" ] || continue
	# shellcheck disable=SC2254 # ONLY is a glob
	case "$(basename "$t" .sh)" in
	${ONLY:-*}) ;;
	*) continue ;;
	esac
	# shellcheck disable=SC2254 # EXCEPT is a glob
	[ -n "${EXCEPT:-}" ] && case "$(basename "$t" .sh)" in $EXCEPT) true ;; *) false ;; esac &&
		continue
	machines=$(header "$t" machines)
	firmwares=$(header "$t" firmware)
	skips=" $(header "$t" skip) "
	for m in ${machines:-q35 pc}; do
		for f in ${firmwares:-bios}; do
			case "$skips" in *" $m/$f "*) continue ;; esac
			key="$m $f|$(header "$t" ssdt)|$(header "$t" overlay)|$(header "$t" chips)|$(header "$t" append)|$(header "$t" kernel)"
			[ -n "${group_of[$key]:-}" ] || keys+=("$key")
			group_of[$key]="${group_of[$key]:-} $t"
		done
	done
done
# A selection that leaves no test would make a green run of nothing.
if [ -z "${HOST_ONLY:-}" ] && [ ${#keys[@]} -eq 0 ]; then
	if [ -n "${EXCEPT:-}" ]; then
		result fail "ONLY='${ONLY:-*}' EXCEPT='$EXCEPT'" "no QEMU test is left"
	else
		result fail "ONLY='${ONLY:-*}'" "no QEMU test matches it"
	fi
fi
# Boots run CHECK_JOBS at a time (default 1), the host-side tests beside
# them; results are reported in order, each when its boot is done.  Two at a time was slower on the 2-core machines: the
# guests' 2 vCPUs each (MTTCG) oversubscribe the cores, and the stresses
# ran 3 to 5 times slower (README, "Measured").
jobs=${CHECK_JOBS:-1}
# An interrupted run ends its boots (qemu-run.sh ends its QEMU on TERM).
end_boots() {
	local p
	for p in $(jobs -p); do
		pkill -TERM -P "$p"
		kill "$p"
	done 2>/dev/null
}
trap end_boots EXIT
nboots=${#keys[@]}
started=0
done_n=0
boot_args() { # index -> "machine firmware script..."
	local key=${keys[$1]}
	local mf=${key%%|*}
	echo "${mf% *} ${mf#* } ${group_of[$key]}"
}
boot_rundir() { # index -> the boot's RUNDIR
	# shellcheck disable=SC2046 # word splitting intended
	boot_plan $(boot_args "$1")
	echo "$rundir"
}
# A boot winds down once its guest has run its scripts and said so
# ("@@ttyport-winding-down", guest-init/init): what is left is its two
# kmemleak scans before poweroff, about 10 s on one vCPU, and the next boot,
# which spends as long in the kernel's boot on one vCPU, starts beside it.
boot_winding_down() { # index
	grep -q '^@@ttyport-winding-down' "$(boot_rundir "$1")/guest.log" 2>/dev/null
}
running() { # boots started, not done nor winding down (HOST: and the host tests)
	local i r=0
	for ((i = done_n; i < started; i++)); do
		[ -e "$(boot_rundir $i).rc" ] || boot_winding_down $i || r=$((r + 1))
	done
	[ "${1:-}" = host ] && [ -n "$host_tests" ] && [ ! -e "$out/host/done" ] &&
		r=$((r + 1))
	echo $r
}
# boot_alone INDEX: a test of the boot asks, with "#@ alone: <why>", to
# have the machine to itself (the Nokia chips' H4+ setup at boot misses its
# timeouts when another guest shares the host's cores)
boot_alone() {
	local t
	# shellcheck disable=SC2046 # word splitting intended
	set -- $(boot_args "$1")
	shift 2
	for t in "$@"; do
		[ -n "$(header "$t" alone)" ] && return 0
	done
	return 1
}
# may_start: the next boot may start: an "alone" boot beside nothing (no
# boot, no host test), any other beside fewer than CHECK_JOBS boots and no
# "alone" one (a boot winding down counts as none); the host-side tests,
# light but for two short boots of tests/host/harness.sh, run beside it
# (boots start in order: a waiting one holds up the rest)
may_start() {
	local i
	if boot_alone $started; then
		[ "$(running host)" -eq 0 ]
		return
	fi
	[ "$(running)" -lt "$jobs" ] || return 1
	for ((i = done_n; i < started; i++)); do
		[ -e "$(boot_rundir $i).rc" ] || boot_winding_down $i ||
			! boot_alone $i || return 1
	done
}
# The boots that may share the machine go first, beside the host-side
# tests, and the "alone" ones after them (each in test order): an alone boot
# first would keep the host tests from sharing anything.
shared_keys=() alone_keys=()
for ((b = 0; b < nboots; b++)); do
	if boot_alone $b; then alone_keys+=("${keys[$b]}"); else shared_keys+=("${keys[$b]}"); fi
done
keys=("${shared_keys[@]}" "${alone_keys[@]}")
if [ -n "$host_tests" ]; then
	host_run &
fi
host_collectable() { [ -n "$host_tests" ] && [ -e "$out/host/done" ]; }
boot_collectable() { # the next boot to report is done (after the host tests)
	[ -z "$host_tests" ] && [ $done_n -lt $started ] &&
		[ -e "$(boot_rundir $done_n).rc" ]
}
while [ $done_n -lt "$nboots" ] || [ -n "$host_tests" ]; do
	if host_collectable; then
		host_collect
		host_tests=
	elif boot_collectable; then
		# shellcheck disable=SC2046 # word splitting intended
		boot_collect $(boot_args $done_n)
		done_n=$((done_n + 1))
	# A boot that ended since the tests above is reported before the next
	# starts (running() first: one that ends after it counts as running).
	elif [ $started -lt "$nboots" ] && may_start &&
		! host_collectable && ! boot_collectable; then
		# shellcheck disable=SC2046 # word splitting intended
		boot_start $(boot_args $started)
		started=$((started + 1))
	else
		sleep 1
	fi
done
wait

echo
if [ ${#failures[@]} -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failures[@]}"
fi
echo "time: $(( $(date +%s) - t0 )) s; logs in ${out#"$top"/}/"
# The run's own times, for make bench (bench/run.sh) and README.
printf 'total_s\t%s\nboots\t%s\n' "$(($(date +%s) - t0))" "$boots" >>"$out/times.tsv"
# Counting.  Every result line is one check run; "distinct" counts the
# (test, check) pairs, whatever machines a check ran on (a check in a loop
# counts once per iteration: round 1 and round 2, each corpus case);
# "assertion kinds" counts what the tests assert (kind_of: a check in a
# loop counts once, and the corpus counts each distinct expectation once).
if [ $boots -gt 0 ]; then
	echo "distinct checks: ${#distinct[@]} (in $boots boot$([ $boots -eq 1 ] || echo s) on: ${boot_mfs[*]})"
	echo "assertion kinds: ${#kinds[@]} (a check in a loop, on several machines or for every corpus case counts once)"
fi
if [ ${#allowed_skips[@]} -gt 0 ]; then
	echo "allowed skips (each allowed by its test's header):"
	printf '  %s\n' "${allowed_skips[@]}"
fi
[ $retries -eq 0 ] ||
	echo "retried: $retries (the 'retry' lines above)"
# An allowed skip is neither a pass nor a failure: counted on a line of its
# own, so that the last line is "N passed, N failed" for CI to read.
[ $skipped -eq 0 ] || echo "skipped: $skipped (each allowed, listed above)"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
