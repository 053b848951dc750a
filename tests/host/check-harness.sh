#!/bin/bash
# scripts/check.sh itself, without QEMU: it runs fake guest scripts through a
# fake runner (check-harness.d/qemu-run.sh: the script under plain sh with the
# guest's ktap.sh, the kernel log checked by the real scripts/logcheck.sh), once
# per case, and each case checks check.sh's exit status and its host lines.
# Every bad script must fail, alone in its boot and sharing a boot with a good
# one: one that dies half-way (no plan), one that exits non-zero after its
# checks passed, one that prints fewer results than its plan; a failed check is
# reported once, not also as an exit status.  A kernel report in the boot's
# kernel log (WARNING, kmemleak, RCU stall, hung task) fails the boot, and a
# boot that times out fails the test that hung and the one it kept from running.
# A line a test expects on the console port (COM1) must be in console.log.
# Boots run CHECK_JOBS at a time and report in test order; an "alone"
# boot runs by itself; the next boot starts while the last one winds down.
# Good scripts are the positive controls: they pass, with the per-boot timing
# lines and the distinct-check count.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
fake=$top/tests/host/check-harness.d/qemu-run.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# This runs under check.sh's host phase: its settings must not leak into the
# check.sh runs here (HOST_ONLY=1 would run no boot at all).
unset ONLY HOST_ONLY CHECK_OUT CHECK_TESTS QEMU_RUN
n=0
fail=0

# mk NAME [HEADER...]: a guest test $tmp/t/NAME.sh from the body on stdin,
# booted on q35 only with a 10 s timeout unless the headers say otherwise.
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

# The positive controls: two good tests (one check skipped in each).
mk good <<'EOF'
check "true is true" true
check_eq "one is one" 1 1
skip "a skipped check" "not on this machine"
ktap_done
EOF
mk good2 '#@ machines: q35 pc' <<'EOF'
check "the shell runs" sh -c 'exit 0'
check "echo echoes" test "$(echo x)" = x
skip "another skipped check" "not here either"
ktap_done
EOF
# A copy of good2 with good's world, to share good's boot.
sed 's/^#@ machines: .*/#@ machines: q35/' "$tmp/t/good2.sh" >"$tmp/t/good3.sh"
# Dies half-way: a library that is not there ends the shell (status 2).
mk dies <<'EOF'
check "the first check" true
. /lib/ttyport/no-such-library.sh
check "never reached" true
ktap_done
EOF
# All its checks pass, then it exits 3.
mk exits <<'EOF'
check "a passing check" true
ktap_done
exit 3
EOF
# Its plan announces 5 results, it prints 3.
mk short <<'EOF'
check "check one" true
check "check two" true
check "check three" true
echo "1..5"
EOF
# A failed check (ktap_done then exits 1): one failure, not two.
mk failing <<'EOF'
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
	mk "splat-$kind" "#@ console: $line" <"$tmp/t/good.sh"
done
# Hangs past its boot's time-out (1 s, or 2 s when sharing with late).
mk hangs '#@ timeout: 1' <<'EOF'
check "before the hang" true
sleep 5
ktap_done
EOF
mk late '#@ timeout: 1' <<'EOF'
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
	CHECK_OUT=$tmp/out/$c CHECK_TESTS="$tests" QEMU_RUN=$fake ONLY='*' \
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

# plan_missing TEST K: the test's "no KTAP plan" failure after result K.
plan_missing() {
	want "not ok  $1 [q35/bios] KTAP plan"
	want_re "        # no KTAP plan: the script stopped after result $2 \(see .*/$1\.log\)"
}

# --- positive controls -------------------------------------------------------
run good good
want_rc 0
want "boot good [q35/bios]: starting (1 test, timeout 10 s)"
want_re "boot good \[q35/bios\]: done in [0-9]+ s"
want "ok      good [q35/bios] true is true"
want "ok      good [q35/bios] one is one"
want "skip    good [q35/bios] a skipped check  #  not on this machine"
no_re '^not ok'
want "distinct checks: 2 (in 1 boot on: q35/bios)"
want_last "2 passed, 0 failed, 1 skipped"
tap "a good test passes alone in its boot, timed, its 2 checks counted"

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
want_last "6 passed, 0 failed, 3 skipped"
tap "good tests pass sharing a boot; a check run on two machines counts once"

mk skips '#@ machines: q35 pc' '#@ firmware: bios uefi' '#@ skip: pc/uefi' <<'EOF'
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
plan_missing dies 1
tap "a script that dies half-way (no KTAP plan) fails alone in its boot"

run dies-shared good dies
want_rc 1
want "boot good+dies [q35/bios]: starting (2 tests, timeout 20 s)"
want "ok      good [q35/bios] true is true"
want "ok      dies [q35/bios] the first check"
plan_missing dies 1
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
want_last "3 passed, 1 failed, 1 skipped"
tap "a script that exits 3 after all its checks passed fails in a shared boot"

run short short
want_rc 1
want "not ok  short [q35/bios] result count"
want_re "        # the KTAP plan announces 5 results, the script printed 3 \(see .*\)"
no_re 'exit status'
want_last "3 passed, 1 failed"
tap "a script whose plan says 5 but prints 3 results fails alone in its boot"

run short-shared good short
want_rc 1
want "not ok  short [q35/bios] result count"
want_re "        # the KTAP plan announces 5 results, the script printed 3 \(see .*\)"
no_re '^not ok  good '
want_last "5 passed, 1 failed, 1 skipped"
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
want_last "3 passed, 1 failed, 1 skipped"
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
check "a write to the console" true
ktap_done
EOF2
mk console-lost '#@ console-expect: console-lost: console write' <<'EOF2'
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
plan_missing hangs 1
want "not ok  hangs [q35/bios] script finished"
want_re "        # qemu-run: timed out after 1s .*"
tap "a script that hangs past its time-out fails (no plan; the script did not finish)"

run hangs-shared hangs late
want_rc 1
plan_missing hangs 1
want "not ok  late [q35/bios] ran"
want "        # the boot ended before this test started"
want "not ok  hangs+1 [q35/bios] script finished"
tap "a hang in a shared boot fails it and the test it kept from running"

# --- boots at a time ---------------------------------------------------------
# Two boots of 2 s each: with CHECK_JOBS=2 the second starts before the first
# is done, and the results still come in test order; with CHECK_JOBS=1 it
# starts only after the first is done.
mk slow <<'EOF2'
sleep 2
check "the slow boot's check" true
ktap_done
EOF2
mk quick '#@ machines: pc' <<'EOF2'
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

# --- KUnit only where a test reads it -----------------------------------------
# A boot with a "#@ kunit:" test runs the kernel's KUnit suites; every other
# boot gets kunit.enable=0 (the fake runner hands APPEND to the script).
mk kunit-reader '#@ kunit: a test of the harness' <<'EOF2'
check "KUnit is left on (APPEND: '$APPEND')" sh -c 'case " $APPEND " in *" kunit.enable=0 "*) exit 1;; esac'
ktap_done
EOF2
mk kunit-none '#@ machines: pc' '#@ append: lockdown=integrity' <<'EOF2'
check "KUnit is off, the test's own arguments kept (APPEND: '$APPEND')" test "$APPEND" = "lockdown=integrity kunit.enable=0"
ktap_done
EOF2
run kunit kunit-reader kunit-none
want_rc 0
want "ok      kunit-reader [q35/bios] KUnit is left on (APPEND: '')"
want "ok      kunit-none [pc/bios] KUnit is off, the test's own arguments kept (APPEND: 'lockdown=integrity kunit.enable=0')"
tap "a boot runs KUnit only if one of its tests says '#@ kunit:'"

echo "1..$n"
exit $fail
