#!/bin/sh
# A Nokia H4+ chip on a CDC-ACM port: the overlay describes it at the ACM
# gadget's place with its gpio-sim lines and clock
# (dt-overlays/nokia-acm-gadget.dtso), applied before the plug; the model
# sits on the gadget side's ttyGSn.  hci_nokia binds it at the plug, its
# H4+ setup passes (CTS always set and the line coding ignored by the
# gadget: docs/gadget.md), and it l2pings the ACPI chip on COM2 both ways.
# Unplugged, its hciN goes and the COM2 controller stays up.  Shares the
# Nokia chips' boot of usb-nokia.sh (which runs after it).
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/xhci-rhub.asl acpi-tables/nokia-usb.asl
#@ chips: nokia:com2:bt0 nokia:usb0:bt1
#@ alone: the Nokia chips' H4+ setup misses its timeouts beside another guest
#@ timeout: 150
. /lib/ttyport/ktap.sh
. /lib/ttyport/gadget.sh
. /lib/ttyport/bt.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 20

com='\_SB_.BTH2'
unode=/serial-ports/platform-dummy_hcd.0-usbv2-0-1-1.0/serial@0/bluetooth

wait_for 15 "hci_nokia binds the chip on COM2" nokia_bound "$com"
hC=$(bt_wait_ready "$com")
check "the COM2 controller ($hC) is listed by btmgmt" test -n "$hC"
bt_power_on $hC >/dev/null
check "$hC is powered" bt_powered $hC

check "a gadget acm0 with an ACM function is made" gadget_create acm0 acm
check "nokia-acm-gadget.dtbo applies before the plug" \
	ovl_apply btacm $dtbo/nokia-acm-gadget.dtbo
CHIP_OPTS_btd2="--wait-lines 60"
gadget_chip_start acm0 btd2 nokia
check "the gadget plugs in" gadget_plug acm0
wait_for 30 "hci_nokia binds the overlay's chip on the ACM port" nokia_bound "$unode"
check "the chip's device is on the ACM port's controller" gadget_bound nokia-bluetooth acm0
check "its lines are the overlay's gpio-sim (btd2-reset)" \
	sh -c 'gpioinfo | grep "\"btd2-reset\"" | grep -q "\"reset\".*output"'
hA=$(bt_wait_ready "$unode")
check "its controller is listed by btmgmt ($hA)" test -n "$hA"
bt_power_on $hA >/dev/null
check "$hA is powered" bt_powered $hA
check "$hA (ACM) l2pings $hC (COM2)" bt_l2ping $hA $hC
check "$hC (COM2) l2pings $hA (ACM)" bt_l2ping $hC $hA

gadget_log_mark acm-nokia-unplug
check "the gadget unplugs" gadget_unplug acm0
wait_for 15 "$hA goes away" test ! -e /sys/class/bluetooth/$hA
check "the kernel log shows the USB disconnect after the mark (control)" \
	gadget_log_since acm-nokia-unplug "usb [0-9]+-[0-9.]+: USB disconnect"
check "$hC is still powered" bt_powered $hC
gadget_chip_stop btd2
check "the overlay is removed" rmdir $ovl/btacm
check "the gadget comes apart" gadget_remove acm0
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
