#!/bin/bash
# The boot runner make-run.sh gives 'make run' (QEMU_RUN=): instead of
# booting, it writes the CMD it was handed, byte for byte, to $RUNDIR/cmd.
mkdir -p "$RUNDIR" && printf '%s' "$CMD" >"$RUNDIR/cmd"
