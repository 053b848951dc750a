#!/bin/bash
# Boot once per KIND, provoking that report, and keep the whole kernel log in
# build/provoke-runs/KIND/console.log (README: trim it into tests/host/fixtures/).
#
#   tests/host/provoke/capture.sh KIND...
#
# kmemleak, lockdep and end need the provoke kernel (build.sh); the other kinds
# boot the debug kernel itself, through its lkdtm.  INITRD= as for qemu-run.sh.
set -uo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$top" || exit 2
lkdtm=/sys/kernel/debug/provoke-crash/DIRECT

for kind in "$@"; do
	kernel=build/obj-debug/arch/x86/boot/bzImage
	timeout=180
	case $kind in
	warning) cmd="echo WARNING >$lkdtm" ;;
	list-corruption) cmd="echo CORRUPT_LIST_ADD >$lkdtm" ;;
	hung-task) cmd="echo HUNG_TASK >$lkdtm & sleep 40" ;;
	# A task left in D state: /init's check at poweroff reports it (the
	# hung-task detector's 20 s do not pass before poweroff).
	blocked) cmd="echo HUNG_TASK >$lkdtm & sleep 1" ;;
	# One CPU spins with preemption off (it reports its own stall), or with
	# interrupts off (CPU 0 reports CPU 1's stall; CPU 1, as CPU 0 keeps the
	# jiffies of this tick-driven kernel).  RCU's stall timeout is 21 s; that
	# CPU never comes back, so the boot ends on the time-out.
	rcu-stall-self) cmd="echo SOFTLOCKUP >$lkdtm & sleep 40"; timeout=300 ;;
	rcu-stall)
		cmd="taskset 2 sh -c 'echo HARDLOCKUP >$lkdtm' & sleep 40"
		timeout=300
		;;
	kmemleak | lockdep | end)
		kernel=build/provoke/obj-debug/arch/x86/boot/bzImage
		case $kind in
		# Leaked as the script ends: /init's kmemleak scans must find it.
		kmemleak) cmd="echo LEAK >$lkdtm" ;;
		lockdep) cmd="echo LOCKDEP_ABBA >$lkdtm" ;;
		# Both of /init's end-of-boot checks in one boot.
		end) cmd="echo HUNG_TASK >$lkdtm & echo LEAK >$lkdtm" ;;
		esac
		;;
	*) echo "capture: unknown kind '$kind'" >&2; exit 2 ;;
	esac
	script=$(mktemp)
	printf '%s\n' "$cmd" >"$script"
	echo "==> $kind: $cmd"
	KERNEL=$kernel SCRIPT=$script TIMEOUT=$timeout QUIET=1 \
		RUNDIR=build/provoke-runs/$kind scripts/qemu-run.sh
	echo "==> $kind: qemu-run exit $? (build/provoke-runs/$kind/console.log)"
	rm -f "$script"
done
