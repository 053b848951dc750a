#!/bin/bash
# make check-drivers after the kernels and the initramfs are built: every boot
# of tests/drivers/plan on both kernels (run.sh), the verdict (compare.sh),
# the table of docs/serdev-drivers.md (report.sh).  Prints the checks, the
# time taken, and "N passed, N failed" last; exits non-zero if a check failed.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
here=tests/drivers
t0=$SECONDS

$here/run.sh || exit 2
$here/compare.sh >build/drivers/checks.txt
rc=$?
head -n -1 build/drivers/checks.txt
$here/report.sh build/drivers/checks.txt docs/serdev-drivers.md $((SECONDS - t0)) ||
	{ echo "check-drivers: the report could not be written" >&2; rc=1; }
echo "check-drivers: $((SECONDS - t0)) s of boots and checks; table in docs/serdev-drivers.md"
tail -n 1 build/drivers/checks.txt
exit $rc
