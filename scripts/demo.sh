#!/bin/bash
# make demo: boot the demo world and show what the bus discovered.
#
# The demo world, every way a serdev device can come to a port:
#   - at boot, from SSDTs: a Nokia H4+ Bluetooth chip on the PCI 16550
#     (nokia-pci.asl) and a W2SG0004 GPS on COM3 (gps-com3.asl), their
#     sideband lines on gpio-sim (gpio-sim.asl);
#   - at runtime, from an SSDT written to ACPI configfs: a second Nokia chip
#     on COM2 (nokia-com2.asl, the same table that works at boot);
#   - by hand: a GPS with no sideband lines on COM4, through the
#     controller's new_device file;
#   - behind USB-serial adapters hot-plugged through QMP: a GPS with no
#     sideband lines on USB port 1, described by a device tree overlay
#     applied through configfs before the plug (gps-usb-port1.dtso), and a
#     third Nokia chip on port 3, which an SSDT at boot names (xhci-rhub.asl,
#     demo-nokia-usb.asl); each binds when its adapter is plugged in;
#   - on a CDC-ACM port of a USB gadget made in the guest (dummy_hcd,
#     docs/gadget.md): a GPS described at the gadget's place by an overlay
#     applied before the plug (gps-acm-gadget.dtso).
# Each chip is a model at the far end of its wire (docs/models.md).  The
# guest brings both Bluetooth controllers up, l2pings one from the other,
# asks gpsd for a fix from each GPS and prints the discovery table
# (ttyport-status).  MACHINE= and FIRMWARE= work as for 'make run'.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

export SSDT="acpi-tables/gpio-sim.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl
	acpi-tables/xhci-rhub.asl acpi-tables/demo-nokia-usb.asl"
export CHIPS="nokia:com2:bt0 nokia:pci0:bt1 gps:com3:gps0 gps:com4:gps1 gps:usb0:gps3 nokia:usb1:bt2"
export CHIP_OPTS_gps1="--always-on"
export CHIP_OPTS_gps3="--always-on"
export SCRIPT=$top/guest-init/lib/ttyport/demo-world.sh
export TIMEOUT=${TIMEOUT:-300}
exec scripts/stage.sh "boot the demo world (${MACHINE:-q35}/${FIRMWARE:-bios})" scripts/qemu-run.sh
