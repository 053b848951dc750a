#!/bin/bash
# The splat checker (scripts/logcheck.sh) against real kernel logs: each report in
# tests/host/fixtures was captured from this project's kernels, provoked as
# tests/host/provoke/README says, and must fail it; a clean boot log must pass
# it, and a test's own words on its result channel must not matter.
top=$(cd "$(dirname "$0")/../.." && pwd)
fx=$top/tests/host/fixtures
n=0
fail=0

expect() { # 0|1 file description
	n=$((n + 1))
	"$top/scripts/logcheck.sh" "$2" >/dev/null
	if [ $? -eq "$1" ]; then
		echo "ok $n - $3"
	else
		echo "not ok $n - $3"
		fail=1
	fi
}

expect 0 "$fx/clean-boot.log" "a clean boot log passes"
expect 1 "$fx/warning.log" "a WARN() report fails"
expect 1 "$fx/kasan.log" "a KASAN use-after-free report fails"
expect 1 "$fx/oops.log" "an oops fails"
expect 1 "$fx/hung-task.log" "a hung-task report fails"
expect 1 "$fx/lockdep.log" "a lockdep circular locking report fails"
expect 1 "$fx/kmemleak.log" "a kmemleak report, as /init prints it, fails"
expect 1 "$fx/rcu-stall.log" "an RCU CPU stall report (seen by another CPU) fails"
expect 1 "$fx/rcu-stall-self.log" "an RCU CPU stall report (self-detected) fails"
expect 1 "$fx/list-corruption.log" "a list_add corruption report fails"
expect 1 "$fx/blocked.log" "a task /init found in D state at poweroff fails"

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# Each report's own header, alone, still fails (the checker does not lean on
# the WARNING or BUG line that some reports also carry).
header() { # description fixture pattern
	grep -m1 -a -E "$3" "$fx/$2" >"$tmp"
	if [ -s "$tmp" ]; then
		expect 1 "$tmp" "$1 alone fails"
	else
		n=$((n + 1)); echo "not ok $n - $1: no line /$3/ in $2"; fail=1
	fi
}
header "the RCU stall header" rcu-stall.log 'rcu: INFO: rcu_[a-z]+ detected stalls'
header "the RCU self-detected stall header" rcu-stall-self.log 'rcu: INFO: rcu_[a-z]+ self-detected'
header "the list corruption message" list-corruption.log 'list_add corruption'
header "the kmemleak scan's count" kmemleak.log 'new suspected memory leaks'
header "the kmemleak object line" kmemleak.log 'kmemleak: unreferenced object'
header "the lockdep header" lockdep.log 'WARNING: possible circular'
header "the blocked task line" blocked.log 'ttyport: task'

# /init's line when kmemleak refuses a scan on a kernel that is not locked
# down: no leak check happened, so the boot fails (as /init prints it).
{ head -n 100 "$fx/clean-boot.log"
  echo '[   42.123456] ttyport: kmemleak scan failed: sh: write error: Operation not permitted'; } >"$tmp"
expect 1 "$tmp" "a kmemleak scan that failed fails"

# The clean log with one real report spliced into its middle still fails.
{ head -n 100 "$fx/clean-boot.log"; cat "$fx/warning.log"; tail -n +101 "$fx/clean-boot.log"; } >"$tmp"
expect 1 "$tmp" "a report in the middle of a boot log fails"
# Words in a guest's output that are not kernel reports do not trip it: the
# headers, without the printk timestamp, as a test might echo them.
printf '%s\n' '# check "WARNING: foo" printed by a test' 'BUG: is a word' \
	'ok 3 - no UBSAN: report' 'rcu: INFO: rcu_sched detected stalls on CPUs/tasks:' \
	'kmemleak: unreferenced object 0xffff888001234560 (size 64):' \
	'kmemleak: 1 new suspected memory leaks' 'list_add corruption. prev is NULL.' \
	'INFO: task sh:90 blocked for more than 20 seconds.' \
	'ttyport: task sh:90 blocked in D state at shutdown' \
	'ttyport: kmemleak scan failed: a test echoing it' >"$tmp"
expect 0 "$tmp" "words outside printk lines do not count"
exit $fail
