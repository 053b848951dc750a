#!/bin/bash
# Run one long step of the build and say so: a line when it starts, and how
# long it took (or that it failed) when it ends.  A first 'make check' spends
# many minutes extracting and building a kernel; these lines tell a newcomer
# where the time goes.
#
#   stage.sh "build the kernel" CMD [ARG...]
#
# The exit status is CMD's.
desc=${1:?usage: stage.sh DESCRIPTION CMD...}
shift
start=$(date +%s)
echo "==> $desc ..."
"$@"
rc=$?
secs=$(($(date +%s) - start))
if [ $rc -eq 0 ]; then
	echo "==> $desc: done in $secs s"
else
	echo "==> $desc: FAILED after $secs s (exit $rc)"
fi
exit $rc
