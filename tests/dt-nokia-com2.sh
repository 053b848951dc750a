#!/bin/sh
# The Nokia H4+ chip on COM2 described by a device tree overlay
# (dt-overlays/nokia-com2.dtso) on an ACPI PC: /serial-ports is empty at
# boot, and the overlay, applied through the configfs loader, makes COM2's
# port nodes (named after COM2's ACPI path) with the chip under them, its
# gpio-sim lines and its clock; COM2's controller takes the port node,
# hci_nokia binds the chip, and it l2pings the ACPI-described chip on the PCI
# 16550 (nokia-pci.asl).  Removing the overlay removes all its nodes and gives
# /dev/ttyS1 back; applying it again brings the controller back.  Then what the loader and serdev refuse, each beside a
# positive control: a second device for the port (the first keeps it), an
# overlay device for the port the ACPI chip holds (ACPI's keeps it), a GPIO
# phandle to nothing (the overlay applies, the probe fails, the port stays a
# tty), a truncated blob, a target that does not exist, a device node without
# "compatible", and a non-root writer.
# Shares the boot of core-runtime-nokia (the same world); the COM2 model is
# restarted with the overlay's line names.
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-pci.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1
#@ alone: the Nokia chips' H4+ setup misses its timeouts beside another guest
#@ timeout: 300
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/bt.sh
. /lib/ttyport/world.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 59

ports=$base/serial-ports
com2=/serial-ports/acpi-_SB_.PCI0.SF8_.COM2/serial@0
node=$com2/bluetooth
pci='\_SB_.BTP0'

# logged REGEX: the kernel logged a line matching REGEX since the mark
mark() { dmesg | wc -l >/tmp/dt-mark; }
logged() { dmesg | tail -n +$(($(cat /tmp/dt-mark) + 1)) | grep -qE "$1"; }
ctrl_of() { # the serdev controller of a port node
	for c in /sys/bus/serial/devices/serial[0-9]*; do
		case $c in *-*) continue ;; esac
		dev_has_node $c "$1" && { echo ${c##*/}; return 0; }
	done
	return 1
}

# --- the port nodes: none until something describes a device -------------------
check_eq "/serial-ports is there, empty, at boot" "" "$(ls $ports 2>&1)"
check "COM2 has no port node before the overlay" test ! -e $base$com2

wait_for 20 "hci_nokia binds the ACPI chip on the PCI 16550" nokia_bound "$pci"
hB=$(bt_wait_ready "$pci")
check "the PCI chip's controller is up ($hB)" test -n "$hB"
bt_power_on $hB >/dev/null

CHIP_OPTS_btd0="--wait-lines 60" world_swap_chip bt0 nokia:com2:btd0

check "/dev/$tty is a tty before the overlay" tty_back
check "nokia-com2.dtbo applies" ovl_apply bt $dtbo/nokia-com2.dtbo
check_eq "its status" applied "$(ovl_status bt)"
check "it made COM2's port node ($com2)" test -d $base$com2
c2=$(ctrl_of $com2)
check "COM2's serdev controller ($c2) has it as its of_node" test -n "$c2"
check_eq "the port node's unit address is its reg" 00000000 \
	"$(od -An -tx1 $base$com2/reg | tr -d ' \n')"
wait_for 20 "hci_nokia binds the overlay's chip" nokia_bound "$node"
wait_for 5 "/dev/$tty gives way" tty_gone
check "the chip's lines are the overlay's gpio-sim" \
	sh -c 'gpioinfo | grep "\"btd0-reset\"" | grep -q "\"reset\".*output"'
# (the control of "nothing of it applied" below, whose overlay has this
# gpio-sim bank: gpiodetect lists it while an overlay with it is applied)
check "gpiodetect lists the overlay's gpio-sim bank (btd0-gpio)" \
	sh -c 'gpiodetect | grep -q btd0-gpio'
hA=$(bt_wait_ready "$node")
check "the overlay chip's controller is listed ($hA)" test -n "$hA"
addr=$(bt_power_on $hA)
check "$hA is powered with an address ($addr)" bt_powered $hA
check "$hA l2pings $hB" bt_l2ping $hA $hB
check "the overlay is removed (rmdir)" rmdir $ovl/bt
wait_for 10 "the chip goes away" \
	sh -c ". /lib/ttyport/bt.sh; ! nokia_bound '$node'"
wait_for 10 "/dev/$tty comes back" tty_back
check "$hA is gone" test ! -e /sys/class/bluetooth/$hA
check "the overlay's nodes went with it, COM2's carrier included" \
	test ! -e "$(dirname $base$com2)"
check "$tty opens and takes settings" stty -F /dev/$tty raw -echo 115200
check "the PCI chip is still powered" bt_powered $hB

# --- refused, each beside its positive control ----------------------------------
check "control: the overlay applies again" ovl_apply bt $dtbo/nokia-com2.dtbo
wait_for 20 "control: hci_nokia binds it" nokia_bound "$node"
mark
cat $dtbo/nokia-com2.dtbo >$ovl/bt/dtbo
check "a second blob into an applied overlay's dtbo is refused" \
	logged "configfs: bt: already applied; remove it first"
check_eq "... and the overlay stays applied" applied "$(ovl_status bt)"
mark
ovl_write gps $dtbo/gps-com2-nolines.dtbo
check_eq "a second device for COM2 (a GPS) is refused" "error -16" "$(ovl_status gps)"
check "... with one line naming the port and its device" \
	logged "overlay device gnss on port $com2: the port already has a device"
check "... and nothing of it applied (no gnss node)" \
	test ! -e /sys/firmware/devicetree/base$com2/gnss
check "... the first chip is still bound" nokia_bound "$node"
rmdir $ovl/gps
check "rmdir of the refused overlay's directory" test ! -d $ovl/gps
check "the first overlay is removed" rmdir $ovl/bt
wait_for 10 "/dev/$tty is back" tty_back

mark
ovl_write gpspci $dtbo/gps-pci.dtbo
check_eq "an overlay GPS for the PCI 16550, which ACPI's chip holds, is refused" \
	"error -16" "$(ovl_status gpspci)"
check "... with one line naming the port and the device on it" \
	logged "overlay device gnss on port /serial-ports/pci-0000-00-05.0/serial@0: the port already has a device"
check "... and nothing of it applied (no node for the port)" \
	test ! -e /sys/firmware/devicetree/base/serial-ports/pci-0000-00-05.0/serial@0
check "... and the ACPI chip keeps the port, powered" bt_powered $hB
rmdir $ovl/gpspci

mark
head -c 200 $dtbo/nokia-com2.dtbo >/tmp/short.dtbo
ovl_write short /tmp/short.dtbo
check_eq "a truncated blob is refused" "error -22" "$(ovl_status short)"
check "... with one clear line" logged "short: not a flattened device tree blob, or a truncated one"
rmdir $ovl/short

mark
ovl_write nodev $dtbo/bad-no-compatible.dtbo
check_eq "a device node without compatible is refused" "error -22" "$(ovl_status nodev)"
check "... with one clear line" logged 'overlay device bluetooth on port .*: no "compatible"'
check "... nothing of it applied (no btd0 gpio-sim)" sh -c '! gpiodetect | grep -q btd0-gpio'
rmdir $ovl/nodev

mark
ovl_write noport $dtbo/bad-no-port.dtbo
check_eq "an overlay for a port that does not exist is refused" "error -22" "$(ovl_status noport)"
check "... naming the missing target" logged "acpi-_SB_.PCI0.SF8_.COM9"
rmdir $ovl/noport

mark
ovl_write badgpio $dtbo/bad-gpio-phandle.dtbo
check_eq "an overlay whose GPIO phandle names nothing applies" applied "$(ovl_status badgpio)"
wait_for 10 "... gnss-sirf's probe fails naming the phandle" \
	logged "could not find phandle 57005"
check "... nothing is bound to it" sirf_unbound
check "... and $tty stays a tty" tty_back
rmdir $ovl/badgpio

mark
ovl_write sym $dtbo/bad-symbols.dtbo
check_eq "an overlay with __symbols__ is refused" "error -22" "$(ovl_status sym)"
check "... the overlay core says why" logged "symbols in overlay, but not in live tree"
rmdir $ovl/sym

check "control: the good overlay still applies after all that" ovl_apply bt $dtbo/nokia-com2.dtbo
wait_for 20 "control: hci_nokia binds it" nokia_bound "$node"
check "control: and is removed" rmdir $ovl/bt
wait_for 10 "/dev/$tty is back at the end" tty_back

# --- root only ----------------------------------------------------------------
mkdir $ovl/perm
check "control: the unprivileged user writes a file it owns" nobody_writes_own
nobody_apply_refused() {
	as_nobody "cat $dtbo/nokia-com2.dtbo >$ovl/perm/dtbo" | grep -q 'Permission denied'
}
check "a non-root write of dtbo is refused: Permission denied" nobody_apply_refused
check_eq "... and nothing was applied" unapplied "$(ovl_status perm)"
rmdir $ovl/perm

world_swap_chip btd0 nokia:com2:bt0
ktap_done
