#!/bin/sh
# Controller names are what stock 6.12 gives for the same machine and tables.
# Stock kept a serdev controller only for a port whose firmware described a
# device, and gave the number of every other port back, so the described
# ports were serial0, serial1, ... in registration order, and platform code
# hard-codes those names ("serial0", "serial0-0": dell-uart-backlight,
# x86-android-tablets, hci_bcm's GPIO lookups).  The series keeps a
# controller on every port; the ports with nothing described at registration
# are numbered from 256, so they do not move the others.
#
# Expected names, measured on stock 6.12.118 (pristine, base.config) with
# these SSDTs on q35 and pc: 8250_pnp registers COM4 to COM1 in the DSDT's
# order, then 8250_pci the PCI 16550, so COM3 (GPS3) is serial0, COM2 (BTH2)
# serial1 and the PCI 16550 (BTP0) serial2.
# Shares the boot of acpi-gps-com3.sh and acpi-nokia.sh.
#@ machines: q35 pc
#@ firmware: bios uefi
#@ skip: pc/uefi q35/bios
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb-nolines.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1 gps:com3:gps0
#@ timeout: 60
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
ktap_start
ktap_plan 7	# 2 ports in the loop

# The ACPI path of serdev device $1, or "none"
fw_path() {
	cat /sys/bus/serial/devices/$1/firmware_node/path 2>/dev/null || echo none
}


wait_for 15 "the three devices the SSDTs describe are added" \
	test -e /sys/bus/serial/devices/serial2-0
check_eq "the GPS on COM3 is serial0-0, as on stock" '\_SB_.GPS3' "$(fw_path serial0-0)"
check_eq "the Nokia chip on COM2 is serial1-0, as on stock" '\_SB_.BTH2' "$(fw_path serial1-0)"
check_eq "the Nokia chip on the PCI 16550 is serial2-0, as on stock" '\_SB_.BTP0' \
	"$(fw_path serial2-0)"

# Ports that start with no device (stock has no controller for them)
for tty in ttyS0 ttyS3; do
	c=$(basename "$(tty_ctrl $tty)")
	check "$tty, with no device, has a controller numbered from 256 ($c)" \
		test "${c#serial}" -ge 256
done
check "no controller below 256 without a device" \
	sh -c 'for c in /sys/bus/serial/devices/serial*; do
		n=${c##*/serial}; case $n in *-*) continue ;; esac
		[ "$n" -lt 256 ] && [ ! -e "$c/$(basename "$c")-0" ] && exit 1
	done; exit 0'

ktap_done
