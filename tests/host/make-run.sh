#!/bin/bash
# 'make run CMD=...' hands the command to the boot runner as the user wrote it.
# Make expands the variables it exports, so a '$' in CMD used to vanish
# (CMD='x=5; echo $x' printed an empty line, and README's new_device loop
# silently did nothing).  make is run with a command full of '$' and quotes,
# given on its command line and in the environment, and a fake runner
# (make-run.d/fake-run.sh) records what it received: it must be the command,
# byte for byte (-o initramfs: the guest is not needed, so it is not
# rebuilt).  That the runner then hands CMD to the guest's shell intact,
# and that the shell runs it, is tests/host/harness.sh's real boot.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fake=$top/tests/host/make-run.d/fake-run.sh
unset QEMU_RUN

# shellcheck disable=SC2016 # the '$' are for the guest's shell
cmd='x=5; echo "x=[$x]"; echo '\''single [$x]'\''; echo "sub=[$(echo ok)]"; for c in a b; do echo "loop=[$c]"; done; echo "make=[$(MAKE)]"'

n=0
fail=0
check_cmd() { # desc rundir makelog
	n=$((n + 1))
	if [ -r "$2/cmd" ] && [ "$(cat "$2/cmd")" = "$cmd" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		echo "# expected: $cmd"
		echo "# received: $(cat "$2/cmd" 2>/dev/null || echo '(nothing)')"
		tail -n 5 "$3" | sed 's/^/# make: /'
		fail=1
	fi
}

make -s --no-print-directory -o initramfs run QEMU_RUN="$fake" CMD="$cmd" RUNDIR="$tmp/cl" \
	>"$tmp/cl.out" 2>&1
check_cmd "make run CMD=... (command line) keeps every \$ and quote" "$tmp/cl" "$tmp/cl.out"

CMD=$cmd RUNDIR="$tmp/env" QEMU_RUN="$fake" make -s --no-print-directory -o initramfs run \
	>"$tmp/env.out" 2>&1
check_cmd "CMD=... make run (environment) keeps every \$ and quote" "$tmp/env" "$tmp/env.out"

# The control: the fake runner records a plain command, so a pass above is
# not the fake recording nothing, or anything.

n=$((n + 1))
make -s --no-print-directory -o initramfs run QEMU_RUN="$fake" CMD="plain" RUNDIR="$tmp/plain" \
	>"$tmp/plain.out" 2>&1
if [ "$(cat "$tmp/plain/cmd" 2>/dev/null)" = plain ]; then
	echo "ok $n - the fake runner records the command it is handed (plain)"
else
	echo "not ok $n - the fake runner records the command it is handed (plain)"
	fail=1
fi

echo "1..$n"
exit $fail
