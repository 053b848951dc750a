#!/bin/sh
# The serial device bus KUnit suite ("serdev": the new_device parser and the
# lifetime of controllers and devices) runs at boot (kconfig/kunit.config);
# report each of its cases.
#@ machines: q35
#@ kunit: the suites run at boot and this test reads their results
#@ timeout: 120
. /lib/ttyport/ktap.sh
ktap_start
# The suite's cases, named here, so that a case that did not run fails (a
# loop over whatever ran would just be shorter); a case the kernel has and
# this list does not fails too, naming it: add it here.
cases="serdev_parse_compatible_only serdev_parse_properties serdev_parse_errors
	serdev_parse_compatible_length serdev_parse_numbers serdev_parse_values
	serdev_parse_limit serdev_remove_waits_for_removal_in_flight
	serdev_unbind_closes_port_left_open serdev_device_holds_controller"
ktap_plan 14	# 2, the 10 cases, 2

results=/sys/kernel/debug/kunit/serdev/results
check "the serdev KUnit suite ran (debugfs results)" test -r $results
# The suite's KTAP has one indented "ok N name" / "not ok N name" per case.
grep -E '^[[:space:]]+(not )?ok [0-9]+ ' $results >/tmp/kunit-cases
check "the suite has cases" test -s /tmp/kunit-cases
for c in $cases; do
	if grep -qE "^[[:space:]]+ok [0-9]+ $c\$" /tmp/kunit-cases; then
		ktap_result ok "kunit: $c"
	elif grep -qE "^[[:space:]]+not ok [0-9]+ $c\$" /tmp/kunit-cases; then
		ktap_result fail "kunit: $c" "see $results"
	else
		ktap_result fail "kunit: $c" "the suite did not run it"
	fi
done
unnamed() { # the cases that ran and the list above does not name
	while read -r _st _n _c; do
		[ "$_st" = not ] && { _c=${_c#* }; }
		case " $(echo $cases) " in *" $_c "*) ;; *) echo "$_c" ;; esac
	done </tmp/kunit-cases
}
check_eq "the suite ran no case this test does not name" "" "$(unnamed | tr '\n' ' ')"
check "the suite passed" grep -qE '^ok [0-9]+ serdev$' $results

ktap_done
