# KTAP output for guest test scripts (sourced).  Each check prints one result
# line; ktap_done prints the plan and returns non-zero if any check failed.
#
#   ktap_start
#   check "gnss0 exists" test -c /dev/gnss0
#   wait_for 10 "ttyUSB0 appears" test -c /dev/ttyUSB0
#   ktap_done
#
# The plan is printed last (a trailing plan, as TAP allows): scripts may skip
# checks on the way, and the host counts the result lines it gets.

ktap_n=0
ktap_failed=0

ktap_start() {
	echo "KTAP version 1"
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

ktap_done() {
	echo "1..$ktap_n"
	[ $ktap_failed -eq 0 ]
}
