#!/bin/bash
# A stand-in for scripts/qemu-run.sh that boots nothing, for
# tests/host/check-harness.sh: it runs the guest script on the host under plain
# sh, as the guest's /init would, and leaves in RUNDIR what qemu-run.sh leaves
# there and check.sh reads:
#
#   guest.log    the script's output and /init's last line "@@ttyport-exit N",
#                with hvc0's CR LF line ends ("@@ttyport-winding-down" before
#                it, and N s between, if the script says "#@ fake-wind-down: N")
#   console.log  the kernel log: a few clean boot lines, then the script's
#                "#@ console: <line>" header lines (how a test here feigns a
#                kernel report; a shared boot's script holds every test's)
#   splat.txt    scripts/logcheck.sh's verdict on console.log
#
# and exits as qemu-run.sh does: the script's status, 1 if the kernel log has
# a splat (and the script passed), 124 on time-out (TIMEOUT), and prints its
# messages to stderr.
#
# The guest's absolute paths are rewritten into the run directory: /tmp and
# /root become RUNDIR/root/tmp and RUNDIR/root/root, and /lib/ttyport is the
# real guest-init/lib/ttyport (so ktap.sh is the guest's own).
set -uo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
: "${SCRIPT:?the fake qemu-run runs SCRIPT only}"
: "${RUNDIR:?}"
TIMEOUT=${TIMEOUT:-180}

rm -rf "$RUNDIR"
mkdir -p "$RUNDIR"
RUNDIR=$(realpath "$RUNDIR")
root=$RUNDIR/root
mkdir -p "$root/tmp" "$root/root"
cp "$SCRIPT" "$RUNDIR/run.sh"

# The kernel log.
{
	echo "[    0.000000] Linux version 6.12.0-ttyport (fake) #1 SMP PREEMPT_DYNAMIC"
	echo "[    0.000000] Command line: console=ttyS0,115200 panic=-1 kmemleak=on loglevel=7"
	echo "[    1.234567] serial8250: ttyS1 at I/O 0x2f8 (irq = 3, base_baud = 115200) is a 16550A"
	sed -n 's/^#@ console: //p' "$SCRIPT"
} >"$RUNDIR/console.log"

# /init: run the script from /root, its output to hvc0, then report its status.
sed -e "s#/tmp/#$root/tmp/#g" -e "s#/lib/ttyport/#$top/guest-init/lib/ttyport/#g" \
	-e "s#cd /root#cd $root/root#g" "$RUNDIR/run.sh" >"$root/tmp/run.sh"
(
	export CHIPS=${CHIPS:-} MACHINE=${MACHINE:-q35} FIRMWARE=${FIRMWARE:-bios} \
		APPEND=${APPEND:-}
	cd "$root/root" && timeout -k 1 "$TIMEOUT" sh "$root/tmp/run.sh"
) >"$RUNDIR/guest.raw" 2>&1 </dev/null
qrc=$?
# /init's last seconds: "#@ fake-wind-down: N" in the script makes them N s,
# after the guest says it is winding down (only the leak scans are left).
wind=$(sed -n 's/^#@ fake-wind-down: *//p' "$SCRIPT" | head -n 1)
if [ -n "$wind" ] && [ $qrc -ne 124 ] && [ $qrc -ne 137 ]; then
	echo "@@ttyport-winding-down" >>"$RUNDIR/guest.raw"
	sed 's/$/\r/' "$RUNDIR/guest.raw" >"$RUNDIR/guest.log"
	sleep "$wind"
fi
[ $qrc -eq 124 ] || [ $qrc -eq 137 ] || echo "@@ttyport-exit $qrc" >>"$RUNDIR/guest.raw"
sed 's/$/\r/' "$RUNDIR/guest.raw" >"$RUNDIR/guest.log"

# From here on as qemu-run.sh.
status=$(sed -n 's/^@@ttyport-exit \([0-9]*\).*/\1/p' "$RUNDIR/guest.log" | tail -n 1)
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	echo "qemu-run: timed out after ${TIMEOUT}s (logs: $RUNDIR)" >&2
	status=124
elif [ -z "$status" ]; then
	echo "qemu-run: the guest did not finish its script (logs: $RUNDIR)" >&2
	status=3
fi

if ! "$top/scripts/logcheck.sh" "$RUNDIR/console.log" >"$RUNDIR/splat.txt"; then
	echo "qemu-run: the kernel log has a splat (full log: $RUNDIR/console.log):" >&2
	sed 's/^/  /' "$RUNDIR/splat.txt" >&2
	[ "$status" -eq 0 ] && status=1
fi
exit "$status"
