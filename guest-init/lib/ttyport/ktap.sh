# KTAP output for guest test scripts (sourced).  Each check prints one result
# line; ktap_done returns non-zero if any check failed.
#
#   ktap_start
#   ktap_plan 2		# the checks this test will make, declared first
#   check "gnss0 exists" test -c /dev/gnss0
#   wait_for 10 "ttyUSB0 appears" test -c /dev/ttyUSB0
#   ktap_done
#
# The plan comes first and is a constant of the test: a check that a
# branch, an early return or an empty loop never reaches is then one result
# short, and the host fails the test for it (scripts/check.sh).  A plan
# counted at the end, from what ran, would hide exactly those.  So a test
# prints the same number of results whatever happens: a branch prints as
# many on each side, and a check in a loop whose length is not fixed prints
# one summarizing result.  The host also fails a test whose plan comes
# after its first result, or is 0.
#
# A skip ("ok N desc # SKIP why") fails make check unless the test's header
# allows that check to be skipped, with the reason:
#   #@ skip-allowed: GLOB | WHY  (GLOB matches the check's description)

ktap_n=0
ktap_failed=0

ktap_start() {
	echo "KTAP version 1"
}

# ktap_plan N: the number of results this test prints, before the first
ktap_plan() {
	echo "1..$1"
}

ktap_result() { # status description [diagnostic...]
	st=$1
	desc=$2
	shift 2
	ktap_n=$((ktap_n + 1))
	if [ "$st" = ok ]; then
		echo "ok $ktap_n $desc"
	elif [ "$st" = skip ]; then
		echo "ok $ktap_n $desc # SKIP $*"
		return 0
	else
		ktap_failed=$((ktap_failed + 1))
		echo "not ok $ktap_n $desc"
	fi
	for d in "$@"; do
		printf '%s\n' "$d" | sed 's/^/# /'
	done
}

# check DESC CMD...: pass if CMD exits 0; its output becomes the diagnostic.
check() {
	desc=$1
	shift
	if o=$("$@" 2>&1); then
		ktap_result ok "$desc"
	else
		ktap_result fail "$desc" "command: $*" "$o"
	fi
}

# check_eq DESC EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ktap_result ok "$1"
	else
		ktap_result fail "$1" "expected: $2" "got: $3"
	fi
}

# wait_for SECONDS DESC CMD...: poll CMD every 100 ms until it succeeds.
wait_for() {
	secs=$1
	desc=$2
	shift 2
	if poll "$secs" "$@"; then
		ktap_result ok "$desc"
	else
		ktap_result fail "$desc" "not true within ${secs}s: $*"
	fi
}

# poll SECONDS CMD...: the quiet form, for set-up steps.
poll() {
	end=$(($1 * 10))
	shift
	i=0
	while ! "$@" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -ge $end ] && return 1
		sleep 0.1
	done
	return 0
}

skip() { # DESC REASON
	ktap_result skip "$1" "$2"
}

# ktap_done: the end of the test; non-zero if a check failed (the plan was
# printed first, by ktap_plan).
ktap_done() {
	[ $ktap_failed -eq 0 ]
}
