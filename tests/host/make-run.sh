#!/bin/bash
# 'make run CMD=...' hands the command to the guest as the user wrote it.
# Make expands the variables it exports, so a '$' in CMD used to vanish
# (CMD='x=5; echo $x' printed an empty line, and README's new_device loop
# silently did nothing).  One real boot runs a command full of '$' and
# quotes, given on make's command line and in the environment.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2016 # the '$' are for the guest's shell
cmd='x=5; echo "x=[$x]"; echo '\''single [$x]'\''; echo "sub=[$(echo ok)]"; for c in a b; do echo "loop=[$c]"; done; echo "make=[$(MAKE)]"'
expected='x=[5]
single [$x]
sub=[ok]
loop=[a]
loop=[b]
make=[]'
# The last line: $(MAKE) is not make's here but the guest shell's command
# substitution of a command that does not exist (empty output).

n=0
fail=0
check_output() { # desc file
	n=$((n + 1))
	got=$(tr -d '\r' <"$2" | grep -E '^(x|single|sub|loop|make)=|^single ' || true)
	if [ "$got" = "$expected" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		diff <(printf '%s\n' "$expected") <(printf '%s\n' "$got") | sed 's/^/# /'
		echo "# the run's last lines:"
		tail -n 8 "$2" | sed 's/^/#   /'
		fail=1
	fi
}

make -s --no-print-directory run CMD="$cmd" RUNDIR="$tmp/cl" TIMEOUT=120 >"$tmp/cl.out" 2>&1
check_output "make run CMD=... (command line) keeps every \$ and quote" "$tmp/cl.out"

CMD=$cmd RUNDIR="$tmp/env" TIMEOUT=120 make -s --no-print-directory run >"$tmp/env.out" 2>&1
check_output "CMD=... make run (environment) keeps every \$ and quote" "$tmp/env.out"

echo "1..$n"
exit $fail
