#!/bin/sh
# A Nokia H4+ chip on the PCI 16550 described by a device tree overlay
# (dt-overlays/nokia-pci.dtso, which brings the chip's gpio-sim lines
# btp2-* and its sysclk), in usb-nokia's world: q35/SeaBIOS, a Nokia chip on
# COM2 described by ACPI, nothing on the PCI 16550.  hci_nokia binds the
# overlay's chip on its lines and clock, its controller comes up and
# l2pings the ACPI chip on COM2 and back; removing the overlay gives
# /dev/ttyS4 back, carrying bytes, and leaves the COM2 chip powered.
# With dt-nokia-com2 (a COM port) and usb-nokia (a USB port), an overlay
# Nokia on every kind of port.
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/xhci-rhub.asl acpi-tables/nokia-usb.asl
#@ chips: nokia:com2:bt0 nokia:usb0:bt1
#@ alone: the Nokia chips' H4+ setup misses its timeouts beside another guest
#@ timeout: 180
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/bt.sh
. /lib/ttyport/world.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 19

com='\_SB_.BTH2'
node=/serial-ports/pci-0000-00-05.0/serial@0/bluetooth
tty=ttyS4

wait_for 20 "hci_nokia binds the ACPI chip on COM2" nokia_bound "$com"
hC=$(bt_wait_ready "$com")
check "the COM2 chip's controller is up ($hC)" test -n "$hC"
bt_power_on $hC >/dev/null

check "/dev/ttyS4 (the PCI 16550) is a tty before the overlay" tty_back
CHIP_OPTS_btp2="--wait-lines 60" world_swap_chip btp2 nokia:pci0:btp2
check "nokia-pci.dtbo applies" ovl_apply btpci $dtbo/nokia-pci.dtbo
check_eq "its status" applied "$(ovl_status btpci)"
wait_for 20 "hci_nokia binds the overlay's chip on the PCI 16550" nokia_bound "$node"
wait_for 5 "/dev/ttyS4 gives way" tty_gone
check "the chip's lines are the overlay's gpio-sim (btp2-reset)" \
	sh -c 'gpioinfo | grep "\"btp2-reset\"" | grep -q "\"reset\".*output"'
check_eq "ttyport-status: ttyS4, nokia-bluetooth, DT" "ttyS4 nokia-bluetooth DT" \
	"$(ttyport-status | awk '$1 == "ttyS4" { print $1, $5, $6 }')"
hP=$(bt_wait_ready "$node")
check "the overlay chip's controller is listed ($hP)" test -n "$hP"
addr=$(bt_power_on $hP)
check "$hP is powered with an address ($addr)" bt_powered $hP
check "$hP (PCI, overlay) l2pings $hC (COM2, ACPI)" bt_l2ping $hP $hC
check "$hC (COM2, ACPI) l2pings $hP (PCI, overlay)" bt_l2ping $hC $hP
check "the overlay is removed (rmdir)" rmdir $ovl/btpci
wait_for 10 "the chip goes away" sh -c ". /lib/ttyport/bt.sh; ! nokia_bound '$node'"
wait_for 10 "/dev/ttyS4 comes back" tty_back
check "$hP is gone" test ! -e /sys/class/bluetooth/$hP
kill "$(cat /run/chip-btp2.pid)" 2>/dev/null
rm -f /run/chip-btp2.pid
check "ttyS4 carries bytes both ways after the chip left" wire_carries ttyS4 pci0
check "the COM2 chip is still powered" bt_powered $hC

ktap_done
