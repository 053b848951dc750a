#!/bin/bash
# The QEMU harness itself must be able to fail: a guest command's exit status
# becomes qemu-run's, and a real kernel WARNING (provoked with lkdtm) fails a
# boot whose script succeeded, naming the splat.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# One vCPU (the later -smp wins): make check runs these beside its first
# boots, and a second 2-vCPU guest on the 2-core machines slows both more
# than twice (each vCPU is a host thread under TCG; README, "Measured").
# They try the harness, not the kernel: no kmemleak (its scans before
# poweroff take about 10 s).
one_cpu="-smp 1"
export APPEND="kmemleak=off"

# shellcheck disable=SC2016 # the '$' are for the guest's shell
cmd='x=5; echo "x=[$x]"; echo '\''single [$x]'\''; echo "sub=[$(echo ok)]"; for c in a b; do echo "loop=[$c]"; done; exit 3'
expected='x=[5]
single [$x]
sub=[ok]
loop=[a]
loop=[b]'
QEMU_ARGS=$one_cpu QUIET=1 RUNDIR=$tmp/status CMD=$cmd scripts/qemu-run.sh >"$tmp/status.out" 2>&1
rc=$?
if [ $rc -eq 3 ]; then echo "ok 1 - a guest command's exit status is the run's"
else echo "not ok 1 - a guest command's exit status is the run's (got $rc)"; fail=1; fi
got=$(tr -d '\r' <"$tmp/status/guest.log" | grep -E '^(x|sub|loop)=|^single ' || true)
if [ "$got" = "$expected" ]; then
	echo "ok 2 - the guest's shell runs CMD as written (every \$ and quote kept)"
else
	echo "not ok 2 - the guest's shell runs CMD as written (every \$ and quote kept)"
	diff <(printf '%s\n' "$expected") <(printf '%s\n' "$got") | sed 's/^/# /'
	fail=1
fi

QEMU_ARGS=$one_cpu QUIET=1 RUNDIR=$tmp/splat \
	CMD='echo WARNING >/sys/kernel/debug/provoke-crash/DIRECT; true' \
	scripts/qemu-run.sh >"$tmp/splat.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q 'WARNING: CPU' "$tmp/splat.out"; then
	echo "ok 3 - a kernel WARNING fails a boot whose script passed, and is shown"
else
	echo "not ok 3 - a kernel WARNING fails a boot whose script passed (got $rc)"
	sed 's/^/# /' "$tmp/splat.out"
	fail=1
fi
echo 1..3
exit $fail
