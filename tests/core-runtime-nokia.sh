#!/bin/sh
# The Nokia H4+ chip on COM2 described by a table loaded at runtime: the same
# nokia-com2.asl that describes it at boot elsewhere, written to ACPI
# configfs.  A second chip on the PCI 16550 is described at boot
# (nokia-pci.asl) and is the far side of the l2ping.  hci_nokia binds the
# runtime chip, it comes up and pings; removing the table gives /dev/ttyS1
# back; loading it again brings the controller back up.
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-pci.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1
#@ alone: the Nokia chips' H4+ setup misses its timeouts beside another guest
#@ timeout: 300
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/bt.sh
ktap_start
ktap_plan 27	# 3, and 2 rounds of 12

com2='\_SB_.BTH2'
pci='\_SB_.BTP0'

wait_for 20 "hci_nokia binds the boot-time chip on the PCI 16550" nokia_bound "$pci"
hB=$(bt_wait_ready "$pci")
check "the PCI chip's controller is up ($hB)" test -n "$hB"
bt_power_on $hB >/dev/null
check "/dev/$tty is a tty before the table is loaded" tty_back

for round in 1 2; do
	check "round $round: nokia-com2 loads through configfs" ssdt_load bt nokia-com2
	wait_for 20 "round $round: hci_nokia binds the runtime chip" nokia_bound "$com2"
	wait_for 5 "round $round: /dev/$tty gives way" tty_gone
	hA=$(bt_wait_ready "$com2")
	check "round $round: the runtime chip's controller is listed ($hA)" test -n "$hA"
	addr=$(bt_power_on $hA)
	check "round $round: $hA is powered with an address ($addr)" bt_powered $hA
	check "round $round: $hA l2pings $hB" bt_l2ping $hA $hB
	check "round $round: the table unloads (rmdir)" ssdt_unload bt
	wait_for 10 "round $round: the runtime chip goes away" \
		sh -c ". /lib/ttyport/bt.sh; ! nokia_bound '$com2'"
	wait_for 10 "round $round: /dev/$tty comes back" tty_back
	check "round $round: $hA is gone" test ! -e /sys/class/bluetooth/$hA
	check "round $round: $tty opens and takes settings" stty -F /dev/$tty raw -echo 115200
	check "round $round: the PCI chip is still powered" bt_powered $hB
done

ktap_done
