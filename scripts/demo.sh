#!/bin/bash
# make demo: boot the demo world and show what the bus discovered.
#
# The demo world grows as features land; today it is:
#   - a W2SG0004 GPS described by an SSDT at boot on COM2 (gnss-sirf binds),
#   - COM3, COM4 and the PCI 16550 with nothing on them (plain ttys),
#   - a USB-serial adapter hot-plugged through QMP during the demo (ttyUSB0).
# The guest prints the discovery table (ttyport-status) and what the slave
# drivers made.  MACHINE= and FIRMWARE= work as for 'make run'.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

export SSDT="acpi-tables/gps-com2.asl"
export CHIPS=""
export SCRIPT=$top/guest-init/lib/ttyport/demo-world.sh
export TIMEOUT=${TIMEOUT:-240}
exec scripts/qemu-run.sh
