#!/bin/bash
# scripts/check.sh itself, without QEMU: it runs fake guest scripts through
# the real boot runner (scripts/qemu-run.sh) and a fake emulator
# (check-harness.d/fake-qemu: the script under plain sh with the guest's
# ktap.sh, a kernel log that the real scripts/logcheck.sh checks), once per
# case, and each case checks check.sh's exit status and its host lines.
# Every bad script must fail, alone in its boot and sharing a boot with a good
# one: one that dies half-way, one that exits non-zero after its checks
# passed, one that prints fewer results than the plan it declared (also
# because a branch left a check out), one whose plan is missing, comes after
# its results or is 0; a failed check is reported once, not also as an exit
# status.  A skip that the test's header does not allow fails, and so does
# "not ok ... # SKIP", in a QEMU test and in a host-side one; allowed skips
# are listed at the end.  A kernel report in the boot's kernel log (WARNING,
# kmemleak, RCU stall, hung task) fails the boot, and so do a boot that
# printed nothing, one that printed no result and one whose guest did not
# scan kmemleak (unless a test of the boot allows it); a boot that times out
# fails the test that hung and the one it kept from running; an ONLY glob
# that names no test fails.  A line a test expects on the console port
# (COM1) must be in console.log.  Boots run CHECK_JOBS at a time and report
# in test order; an "alone" boot runs by itself; the next boot starts while
# the last one winds down.  The run ends with the distinct checks and the
# assertion kinds (a check in a loop, or for every row of a table, counts
# once).  Good scripts are the positive controls: they pass, with the
# per-boot timing lines and the check counts.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# This runs under check.sh's host phase: its settings must not leak into the
# check.sh runs here (HOST_ONLY=1 would run no boot at all).
unset ONLY EXCEPT HOST_ONLY CHECK_OUT CHECK_TESTS CHECK_HOST_TESTS QEMU_RUN TIMEOUT_FACTOR
# The real boot runner, with the fake emulator, and no QMP agent, kernel,
# initramfs or KVM probe.
export QEMU=$top/tests/host/check-harness.d/fake-qemu HOSTCTL=true ACCEL=tcg \
	KERNEL=/dev/null INITRD=/dev/null
n=0
fail=0

# mk NAME [HEADER...]: a guest test $tmp/t/NAME.sh from the body on stdin,
# booted on q35 only with a 10 s timeout unless the headers say otherwise.
# The body declares its plan (ktap_plan N) itself.
mkdir -p "$tmp/t"
mk() {
	local f=$tmp/t/$1.sh
	shift
	{
		echo '#!/bin/sh'
		[ $# -gt 0 ] && printf '%s\n' "$@"
		grep -q '^#@ machines:' <<<"$*" || echo '#@ machines: q35'
		grep -q '^#@ timeout:' <<<"$*" || echo '#@ timeout: 10'
		echo '. /lib/ttyport/ktap.sh'
		echo 'ktap_start'
		cat
	} >"$f"
}
allow='#@ skip-allowed: a skipped check | a test of the harness'

# The positive controls: two good tests (one check skipped in each, as
# their headers allow).
mk good "$allow" <<'EOF'
ktap_plan 3
check "true is true" true
check_eq "one is one" 1 1
skip "a skipped check" "not on this machine"
ktap_done
EOF
mk good2 '#@ machines: q35 pc' '#@ skip-allowed: another * check | a test of the harness' <<'EOF'
ktap_plan 3
check "the shell runs" sh -c 'exit 0'
check "echo echoes" test "$(echo x)" = x
skip "another skipped check" "not here either"
ktap_done
EOF
# A copy of good2 with good's world, to share good's boot.
sed 's/^#@ machines: .*/#@ machines: q35/' "$tmp/t/good2.sh" >"$tmp/t/good3.sh"
# Dies half-way: a library that is not there ends the shell (status 2).
mk dies <<'EOF'
ktap_plan 2
check "the first check" true
. /lib/ttyport/no-such-library.sh
check "never reached" true
ktap_done
EOF
# All its checks pass, then it exits 3.
mk exits <<'EOF'
ktap_plan 1
check "a passing check" true
ktap_done
exit 3
EOF
# Its plan declares 5 results, it prints 3.
mk short <<'EOF'
ktap_plan 5
check "check one" true
check "check two" true
check "check three" true
ktap_done
EOF
# A failed check (ktap_done then returns 1): one failure, not two.
mk failing <<'EOF'
ktap_plan 2
check "false is true" false
check "true is still true" true
ktap_done
EOF
# Good scripts whose boot's kernel log has a report.
for kind in warning kmemleak rcu hung; do
	case $kind in
	warning) line='[   12.345678] WARNING: CPU: 0 PID: 1 at drivers/tty/serdev/core.c:100 foo+0x1/0x2' ;;
	kmemleak) line='[   45.678901] kmemleak: 1 new suspected memory leaks (see /sys/kernel/debug/kmemleak)' ;;
	rcu) line='[   30.1] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:' ;;
	hung) line='[  120.0] INFO: task sh:77 blocked for more than 10 seconds.' ;;
	esac
	# (good's body, after its headers)
	mk "splat-$kind" "#@ console: $line" "$allow" < <(sed -n '/^ktap_plan/,$p' "$tmp/t/good.sh")
done
# Hangs past its boot's time-out (1 s, or 2 s when sharing with late).
mk hangs '#@ timeout: 1' <<'EOF'
ktap_plan 2
check "before the hang" true
sleep 5
check "after the hang" true
ktap_done
EOF
mk late '#@ timeout: 1' <<'EOF'
ktap_plan 1
check "after the hang" true
ktap_done
EOF

# run CASE TEST...: check.sh on these tests; sets rc and out (its output).
run() {
	local c=$1 t tests=
	shift
	for t in "$@"; do tests="$tests $tmp/t/$t.sh"; done
	out=$tmp/$c.out
	# ONLY='*': every test given, and not the host-side tests (this one).
	CHECK_OUT=$tmp/out/$c CHECK_TESTS="$tests" ONLY=${only:-*} \
		"$top/scripts/check.sh" >"$out" 2>&1
	rc=$?
	why=
}

# What check.sh must have done; each miss is added to why.
want_rc() { [ "$rc" -eq "$1" ] || why+="exit status $rc, not $1"$'\n'; }
want() { grep -qxF -- "$1" "$out" || why+="no line: $1"$'\n'; }
want_re() { grep -qxE -- "$1" "$out" || why+="no line matching: $1"$'\n'; }
no_re() {
	grep -qE -- "$1" "$out" && why+="a line matches: $1"$'\n'
	return 0
}
want_last() { [ "$(tail -n 1 "$out")" = "$1" ] || why+="the last line is not: $1"$'\n'; }

# tap DESCRIPTION [NOTE]: the case's TAP line; on failure what was missed and
# check.sh's output as diagnostics, then NOTE.
tap() {
	n=$((n + 1))
	if [ -z "$why" ]; then
		echo "ok $n - $1"
		return
	fi
	echo "not ok $n - $1"
	printf '%s' "$why" | sed 's/^/# /'
	sed 's/^/#   | /' "$out"
	[ -n "${2:-}" ] && echo "# $2"
	fail=1
}

# plan_short TEST PLAN K: the test declared PLAN results and printed K.
plan_short() {
	want "not ok  $1 [q35/bios] result count"
	want_re "        # the KTAP plan declares $2 results, the test printed $3: .*\(see .*/$1\.log\)"
}

# --- positive controls -------------------------------------------------------
run good good
want_rc 0
want "boot good [q35/bios]: starting (1 test, timeout 10 s)"
want_re "boot good \[q35/bios\]: done in [0-9]+ s"
want "ok      good [q35/bios] true is true"
want "ok      good [q35/bios] one is one"
want "skip    good [q35/bios] a skipped check # not on this machine (allowed: a test of the harness)"
no_re '^not ok'
want "distinct checks: 2 (in 1 boot on: q35/bios)"
want_re "assertion kinds: 2 .*"
want "allowed skips (each allowed by its test's header):"
want "  good [q35/bios] a skipped check # not on this machine (allowed: a test of the harness)"
want "skipped: 1 (each allowed, listed above)"
want_last "2 passed, 0 failed"
tap "a good test passes alone in its boot, timed, its 2 checks counted, its allowed skip listed"

run good-shared good good2
want_rc 0
want "boot good+good2 [q35/bios]: starting (2 tests, timeout 20 s)"
want_re "boot good\+good2 \[q35/bios\]: done in [0-9]+ s"
want "boot good2 [pc/bios]: starting (1 test, timeout 10 s)"
want "ok      good [q35/bios] true is true"
want "ok      good2 [q35/bios] the shell runs"
want "ok      good2 [pc/bios] the shell runs"
no_re '^not ok'
want "distinct checks: 4 (in 2 boots on: q35/bios pc/bios)"
want "skipped: 3 (each allowed, listed above)"
want_last "6 passed, 0 failed"
tap "good tests pass sharing a boot; a check run on two machines counts once"

mk skips '#@ machines: q35 pc' '#@ firmware: bios uefi' '#@ skip: pc/uefi' <<'EOF'
ktap_plan 1
check "runs where asked" true
ktap_done
EOF
run skips skips
want_rc 0
want "ok      skips [q35/bios] runs where asked"
want "ok      skips [q35/uefi] runs where asked"
want "ok      skips [pc/bios] runs where asked"
no_re 'skips \[pc/uefi\]'
want_last "3 passed, 0 failed"
tap "a '#@ skip: pc/uefi' header leaves out that pair of the cross product only"

# --- bad scripts, alone and sharing a boot with a good one --------------------
run dies dies
want_rc 1
want "ok      dies [q35/bios] the first check"
plan_short dies 2 1
tap "a script that dies half-way (1 result of its plan of 2) fails alone in its boot"

run dies-shared good dies
want_rc 1
want "boot good+dies [q35/bios]: starting (2 tests, timeout 20 s)"
want "ok      good [q35/bios] true is true"
want "ok      dies [q35/bios] the first check"
plan_short dies 2 1
no_re '^not ok  good '
tap "a script that dies half-way fails in a shared boot; its neighbour passes"

run exits exits
want_rc 1
want "ok      exits [q35/bios] a passing check"
want "not ok  exits [q35/bios] exit status"
want_re "        # exited with status 3 \(see .*\)"
no_re 'KTAP plan|result count'
want_last "1 passed, 1 failed"
tap "a script that exits 3 after all its checks passed fails alone in its boot"

run exits-shared exits good
want_rc 1
want "not ok  exits [q35/bios] exit status"
want_re "        # exited with status 3 \(see .*\)"
no_re 'KTAP plan|result count|^not ok  good '
want "skipped: 1 (each allowed, listed above)"
want_last "3 passed, 1 failed"
tap "a script that exits 3 after all its checks passed fails in a shared boot"

run short short
want_rc 1
plan_short short 5 3
no_re 'exit status'
want_last "3 passed, 1 failed"
tap "a script whose plan says 5 but prints 3 results fails alone in its boot"

run short-shared good short
want_rc 1
plan_short short 5 3
no_re '^not ok  good '
want "skipped: 1 (each allowed, listed above)"
want_last "5 passed, 1 failed"
tap "a script whose plan says 5 but prints 3 results fails in a shared boot"

run failing failing
want_rc 1
want "not ok  failing [q35/bios] false is true"
want "ok      failing [q35/bios] true is still true"
no_re 'exit status|KTAP plan|result count'
want_last "1 passed, 1 failed"
tap "a failed check fails once alone in its boot (its exit status is not a second failure)"

run failing-shared failing good
want_rc 1
want "not ok  failing [q35/bios] false is true"
no_re 'exit status|KTAP plan|result count'
want "skipped: 1 (each allowed, listed above)"
want_last "3 passed, 1 failed"
tap "a failed check fails once in a shared boot"

# --- kernel reports ----------------------------------------------------------
run splat-warning good3 splat-warning
want_rc 1
no_re '^ok '
want "not ok  good3 [q35/bios] the shell runs"
want "not ok  splat-warning [q35/bios] true is true"
want "        # kernel splat during this boot"
want "not ok  good3+1 [q35/bios] kernel log is clean"
want_re "        # \[   12\.345678\] WARNING: CPU: 0 PID: 1 at drivers/tty/serdev/core\.c:100 foo\+0x1/0x2"
tap "a kernel WARNING fails every check of a shared boot, and is shown"

for kind in kmemleak rcu hung; do
	run "splat-$kind" "splat-$kind"
	want_rc 1
	no_re '^ok '
	want "not ok  splat-$kind [q35/bios] kernel log is clean"
	case $kind in
	kmemleak) want_re "        # .*kmemleak: 1 new suspected memory leaks.*"
		tap "a kmemleak report fails the boot" ;;
	rcu) want_re "        # .*rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:"
		tap "an RCU stall fails the boot" ;;
	hung) want_re "        # \[  120\.0\] INFO: task sh:77 blocked for more than 10 seconds\."
		tap "a hung-task report fails the boot" ;;
	esac
done

# --- lines only the host sees ------------------------------------------------
# "#@ console-expect: REGEX": the line must be in console.log (the fake runner
# puts the "#@ console:" header lines there, as a guest writing to COM1 would).
mk console-seen '#@ console: console-seen: console write' \
	'#@ console-expect: console-seen: console write' <<'EOF2'
ktap_plan 1
check "a write to the console" true
ktap_done
EOF2
mk console-lost '#@ console-expect: console-lost: console write' <<'EOF2'
ktap_plan 1
check "a write to the console" true
ktap_done
EOF2
run console-seen console-seen
want_rc 0
want "ok      console-seen [q35/bios] console.log shows /console-seen: console write/"
tap "a console line the host finds in console.log passes"
run console-lost console-lost
want_rc 1
want "not ok  console-lost [q35/bios] console.log shows /console-lost: console write/"
tap "a console line missing from console.log fails, although the guest's write passed"

# --- retries are reported ----------------------------------------------------
mk retried <<'EOF2'
ktap_plan 1
echo "# RETRY hci0 (COM2) not in the management index after 30 s: rebinding hci_nokia" >&2
check "the controller came up" true
ktap_done
EOF2
run retried retried
want_rc 0
want "retry   retried [q35/bios]: hci0 (COM2) not in the management index after 30 s: rebinding hci_nokia"
want_re "retried: 1 \(.*"
tap "a retry in the guest is shown and counted on the host"

# --- time-outs ---------------------------------------------------------------
run hangs hangs
want_rc 1
want "ok      hangs [q35/bios] before the hang"
plan_short hangs 2 1
want "not ok  hangs [q35/bios] script finished"
want_re "        # qemu-run: timed out after 1s .*"
tap "a script that hangs past its time-out fails (1 result of 2; the script did not finish)"

run hangs-shared hangs late
want_rc 1
plan_short hangs 2 1
want "not ok  late [q35/bios] ran"
want "        # the boot ended before this test started"
want "not ok  hangs+1 [q35/bios] script finished"
tap "a hang in a shared boot fails it and the test it kept from running"

# --- boots at a time ---------------------------------------------------------
# Two boots of 2 s each: with CHECK_JOBS=2 the second starts before the first
# is done, and the results still come in test order; with CHECK_JOBS=1 it
# starts only after the first is done.
mk slow <<'EOF2'
ktap_plan 1
sleep 2
check "the slow boot's check" true
ktap_done
EOF2
mk quick '#@ machines: pc' <<'EOF2'
ktap_plan 1
sleep 2
check "the quick boot's check" true
ktap_done
EOF2
# before FIRST SECOND: the line FIRST comes before the line SECOND
before() {
	local a b
	a=$(grep -nxF -- "$1" "$out" | head -n 1 | cut -d: -f1)
	b=$(grep -nxF -- "$2" "$out" | head -n 1 | cut -d: -f1)
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] ||
		why+="not in this order: '$1' (line ${a:-none}), '$2' (line ${b:-none})"$'\n'
}
CHECK_JOBS=2 run jobs2 slow quick
want_rc 0
before "boot quick [pc/bios]: starting (1 test, timeout 10 s)" "ok      slow [q35/bios] the slow boot's check"
before "ok      slow [q35/bios] the slow boot's check" "ok      quick [pc/bios] the quick boot's check"
want_last "2 passed, 0 failed"
tap "CHECK_JOBS=2: the second boot starts while the first runs; results come in order"
CHECK_JOBS=1 run jobs1 slow quick
want_rc 0
before "ok      slow [q35/bios] the slow boot's check" "boot quick [pc/bios]: starting (1 test, timeout 10 s)"
want_last "2 passed, 0 failed"
tap "CHECK_JOBS=1: one boot at a time"
# Once a guest has run its scripts and says it is winding down (its leak
# scans are left), the next boot starts beside it, with CHECK_JOBS=1 too;
# results still come in order.
mk windy '#@ fake-wind-down: 3' <<'EOF2'
ktap_plan 1
check "the windy boot's check" true
ktap_done
EOF2
CHECK_JOBS=1 run winding windy quick
want_rc 0
before "boot quick [pc/bios]: starting (1 test, timeout 10 s)" "ok      windy [q35/bios] the windy boot's check"
before "ok      windy [q35/bios] the windy boot's check" "ok      quick [pc/bios] the quick boot's check"
want_last "2 passed, 0 failed"
tap "CHECK_JOBS=1: the next boot starts while the last one winds down (leak scans)"
# A boot with an "#@ alone:" test has the machine to itself, after the boots
# that can share it: with CHECK_JOBS=2, the lonely boot (first in test order)
# starts only once the quick one is reported, and nothing starts beside it.
mk lonely '#@ alone: a test of the harness' <<'EOF2'
ktap_plan 1
sleep 2
check "the lonely boot's check" true
ktap_done
EOF2
CHECK_JOBS=2 run alone lonely quick
want_rc 0
before "ok      quick [pc/bios] the quick boot's check" "boot lonely [q35/bios]: starting (1 test, timeout 10 s)"
before "boot lonely [q35/bios]: starting (1 test, timeout 10 s)" "ok      lonely [q35/bios] the lonely boot's check"
want_last "2 passed, 0 failed"
tap "CHECK_JOBS=2: a boot with an '#@ alone:' test runs by itself, after the others"

# --- skips: allowed by the test's header, or a failure ------------------------
mk skipper <<'EOF2'
ktap_plan 2
check "a check that runs" true
skip "a skipped check" "the premise was not there"
ktap_done
EOF2
run skip-disallowed skipper
want_rc 1
want "ok      skipper [q35/bios] a check that runs"
want "not ok  skipper [q35/bios] a skipped check"
want "        # skipped (the premise was not there), and no '#@ skip-allowed:' header allows this check to be skipped"
no_re '^skip |^allowed skips'
want_last "1 passed, 1 failed"
tap "a skip that the test's header does not allow fails"

run skip-disallowed-shared good skipper
want_rc 1
want "skip    good [q35/bios] a skipped check # not on this machine (allowed: a test of the harness)"
want "not ok  skipper [q35/bios] a skipped check"
tap "in a shared boot, one test's header allows its own skips only"

mk skip-noreason '#@ skip-allowed: a skipped check' <<'EOF2'
ktap_plan 1
skip "a skipped check" "why not"
ktap_done
EOF2
run skip-noreason skip-noreason
want_rc 1
want "not ok  skip-noreason [q35/bios] a skipped check"
tap "a '#@ skip-allowed:' header without a reason allows nothing"

mk notok-skip "$allow" <<'EOF2'
ktap_plan 1
echo "not ok 1 a skipped check # SKIP it failed, then said skip"
ktap_done
EOF2
run notok-skip notok-skip
want_rc 1
want "not ok  notok-skip [q35/bios] a skipped check"
want "        # a 'not ok' marked SKIP is a failure"
tap "a 'not ok' with a SKIP directive is a failure, whatever the header allows"

# A host-side test's skips: its own header allows them, or they fail.
mkdir -p "$tmp/h"
printf '%s\n' '#!/bin/sh' 'echo "ok 1 - a host check"' \
	'echo "ok 2 - a host skip # SKIP no such tool"' 'echo 1..2' >"$tmp/h/hskip.sh"
{ sed -n 1p "$tmp/h/hskip.sh"; echo '#@ skip-allowed: a host skip | a test of the harness'
  sed -n '2,$p' "$tmp/h/hskip.sh"; } >"$tmp/h/hskip-ok.sh"
chmod +x "$tmp/h/hskip.sh" "$tmp/h/hskip-ok.sh"
# hostrun CASE SCRIPT: check.sh with that host-side test only and no boot
hostrun() {
	out=$tmp/$1.out
	CHECK_OUT=$tmp/out/$1 HOST_ONLY=1 CHECK_HOST_TESTS=$tmp/h/$2.sh \
		"$top/scripts/check.sh" >"$out" 2>&1
	rc=$?
	why=
}
hostrun host-skip hskip
want_rc 1
want "ok      host/hskip: a host check"
want "not ok  host/hskip: a host skip"
tap "a host-side test's skip that its header does not allow fails"
hostrun host-skip-ok hskip-ok
want_rc 0
want "skip    host/hskip-ok: a host skip # no such tool (allowed: a test of the harness)"
tap "a host-side test's skip that its header allows is listed, and passes"

# --- the plan is declared first --------------------------------------------------
# A check that a branch leaves out: the plan, declared before, says so.
mk branchy <<'EOF2'
ktap_plan 3
check "the first check" true
if [ -e /no/such/premise ]; then
	check "a check under a premise that is not there" true
fi
check "the last check" true
ktap_done
EOF2
run branchy branchy
want_rc 1
want "ok      branchy [q35/bios] the first check"
want "ok      branchy [q35/bios] the last check"
plan_short branchy 3 2
tap "a check that a branch leaves out fails the plan declared first"
# The plan printed after the results, as counted from what ran (the old
# ktap_done): the host refuses it, since it would hide that check.
mk trailing <<'EOF2'
check "the first check" true
check "the last check" true
echo "1..$ktap_n"
EOF2
run trailing trailing
want_rc 1
want "not ok  trailing [q35/bios] KTAP plan"
want_re "        # the plan comes after a result: .*"
tap "a plan printed after the results fails"
mk noplan <<'EOF2'
check "a check" true
ktap_done
EOF2
run noplan noplan
want_rc 1
want "not ok  noplan [q35/bios] KTAP plan"
want_re "        # no KTAP plan: .*"
tap "a test that declares no plan fails"
mk zeroplan <<'EOF2'
ktap_plan 0
ktap_done
EOF2
run zeroplan zeroplan
want_rc 1
want "not ok  zeroplan [q35/bios] KTAP plan"
want_re "        # a plan of 0 checks .*"
tap "a plan of 0 checks fails"

# --- boots that say nothing ----------------------------------------------------
# A guest with no hvc0 writes to the console: nothing reaches guest.log.
mk silent '#@ fake-silent: 1' <<'EOF2'
ktap_plan 1
check "a check nobody sees" true
ktap_done
EOF2
run silent silent
want_rc 1
want "not ok  silent [q35/bios] boot"
want "        # the guest printed nothing; console.log ends:"
no_re '^ok '
tap "a boot that printed nothing fails"
# A guest that ran its script, which printed no KTAP at all.
mk mute <<'EOF2'
true
EOF2
run mute mute
want_rc 1
want "not ok  mute [q35/bios] KTAP plan"
want "not ok  mute [q35/bios] results"
want_re "        # the boot finished and printed no result .*"
tap "a boot that finished and printed no result fails"

# --- the leak detector must have been scanned -----------------------------------
mk unscanned '#@ fake-kmemleak: not-scanned /sys/kernel/debug/kmemleak is not writable' <<'EOF2'
ktap_plan 1
check "a check" true
ktap_done
EOF2
run unscanned unscanned
want_rc 1
want "ok      unscanned [q35/bios] a check"
want "not ok  unscanned [q35/bios] kmemleak scanned"
want_re "        # skipped \(/sys/kernel/debug/kmemleak is not writable\), and no .*"
tap "a boot whose guest did not scan kmemleak fails"
mk unscanned-ok '#@ fake-kmemleak: not-scanned the kernel is locked down' \
	'#@ skip-allowed: kmemleak scanned | lockdown closes debugfs' <<'EOF2'
ktap_plan 1
check "a check" true
ktap_done
EOF2
run unscanned-allowed unscanned-ok
want_rc 0
want "skip    unscanned-ok [q35/bios] kmemleak scanned # the kernel is locked down (allowed: lockdown closes debugfs)"
want "skipped: 1 (each allowed, listed above)"
want_last "1 passed, 0 failed"
tap "a boot whose test allows kmemleak to go unscanned lists it as an allowed skip"
mk noverdict '#@ fake-kmemleak: none' <<'EOF2'
ktap_plan 1
check "a check" true
ktap_done
EOF2
run noverdict noverdict
want_rc 1
want "not ok  noverdict [q35/bios] kmemleak scanned"
want_re "        # the guest gave no kmemleak verdict .*"
tap "a boot whose guest said nothing about kmemleak fails"

# --- ONLY that names nothing -----------------------------------------------------
only='no-such-test*' run only-nothing good
want_rc 1
want "not ok  ONLY='no-such-test*'"
tap "an ONLY glob that names no test fails"

# --- EXCEPT leaves tests out (make check and the stresses) -------------------------
mk left-stress <<'EOF2'
ktap_plan 1
check "a stress that must not run" false
ktap_done
EOF2
EXCEPT='*-stress' run except good left-stress
want_rc 0
want "ok      good [q35/bios] true is true"
no_re "left-stress"
want_last "2 passed, 0 failed"
tap "EXCEPT leaves out the tests it names and runs the others"
run except-control good left-stress
want_rc 1
want "not ok  left-stress [q35/bios] a stress that must not run"
tap "without EXCEPT the same tests run the one it left out (which fails)"
EXCEPT='*' run except-all good left-stress
want_rc 1
want "not ok  ONLY='*' EXCEPT='*'"
tap "an EXCEPT that leaves no test fails (no green run of nothing)"

# --- counting --------------------------------------------------------------------
# Two rounds of two checks, and two rows of a table, each with its own
# expected line: 8 distinct checks, 5 kinds (each check of the rounds once,
# the rows' "taken" once, each distinct expected line once).
mk counted <<'EOF2'
ktap_plan 8
for round in 1 2; do
	check "round $round: hci$round comes up" true
	check "round $round: it l2pings" true
done
check "1-first-case: taken" true
check "2-second-case: taken" true
check "1-first-case: the kernel logs /line one/ once" true
check "2-second-case: the kernel logs /line two/ once" true
ktap_done
EOF2
run counted counted
want_rc 0
want "distinct checks: 8 (in 1 boot on: q35/bios)"
want_re "assertion kinds: 5 \(.*\)"
tap "a check in a loop counts once as an assertion kind; a table counts its distinct expectations"

# --- KUnit only where a test reads it -----------------------------------------
# A boot with a "#@ kunit:" test runs the kernel's KUnit suites; every other
# boot gets kunit.enable=0 (the fake emulator hands the kernel command line
# to the script as CMDLINE).
mk kunit-reader '#@ kunit: a test of the harness' <<'EOF2'
ktap_plan 1
check "KUnit is left on" sh -c 'case " $CMDLINE " in *" kunit.enable=0 "*) echo "$CMDLINE"; exit 1;; esac'
ktap_done
EOF2
mk kunit-none '#@ machines: pc' '#@ append: lockdown=integrity' <<'EOF2'
ktap_plan 1
check "KUnit is off, the test's own arguments kept" sh -c 'case "$CMDLINE" in *" lockdown=integrity kunit.enable=0") ;; *) echo "$CMDLINE"; exit 1;; esac'
ktap_done
EOF2
run kunit kunit-reader kunit-none
want_rc 0
want "ok      kunit-reader [q35/bios] KUnit is left on"
want "ok      kunit-none [pc/bios] KUnit is off, the test's own arguments kept"
tap "a boot runs KUnit only if one of its tests says '#@ kunit:'"

echo "1..$n"
exit $fail
