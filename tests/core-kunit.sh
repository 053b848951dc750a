#!/bin/sh
# The serial device bus KUnit suite ("serdev": the new_device parser and the
# software node matching) runs at boot (kconfig/kunit.config); report each
# of its cases.
#@ machines: q35
#@ kunit: the suites run at boot and this test reads their results
#@ timeout: 120
. /lib/ttyport/ktap.sh
ktap_start

results=/sys/kernel/debug/kunit/serdev/results
check "the serdev KUnit suite ran (debugfs results)" test -r $results
# The suite's KTAP has one indented "ok N name" / "not ok N name" per case.
grep -E '^[[:space:]]+(not )?ok [0-9]+ ' $results >/tmp/kunit-cases
check "the suite has cases" test -s /tmp/kunit-cases
while read -r st rest; do
	if [ "$st" = ok ]; then
		ktap_result ok "kunit: ${rest#* }"
	else
		rest=${rest#ok }
		ktap_result fail "kunit: ${rest#* }" "see $results"
	fi
done </tmp/kunit-cases
check "the suite passed" grep -qE '^ok [0-9]+ serdev$' $results

ktap_done
