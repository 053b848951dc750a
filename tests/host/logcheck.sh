#!/bin/bash
# The splat checker (scripts/logcheck.sh) against real kernel logs: reports
# captured from this project's debug kernel with lkdtm (provoke-crash/DIRECT:
# WARNING, READ_AFTER_FREE, EXCEPTION, HUNG_TASK) must fail it, a clean boot log
# must pass it, and a test's own words on its result channel must not matter.
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
# The clean log with one real report spliced into its middle still fails.
tmp=$(mktemp)
{ head -n 100 "$fx/clean-boot.log"; cat "$fx/warning.log"; tail -n +101 "$fx/clean-boot.log"; } >"$tmp"
expect 1 "$tmp" "a report in the middle of a boot log fails"
# Words in a guest's output that are not kernel reports do not trip it.
printf '%s\n' '# check "WARNING: foo" printed by a test' 'BUG: is a word' >"$tmp"
expect 0 "$tmp" "words outside printk lines do not count"
rm -f "$tmp"
exit $fail
