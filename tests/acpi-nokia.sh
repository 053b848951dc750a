#!/bin/sh
# Two Nokia H4+ Bluetooth chips described by SSDTs: one on COM2
# (nokia-com2.asl) and one on the PCI 16550 (nokia-pci.asl), their sideband
# lines on gpio-sim (gpio-sim.asl).  hci_nokia binds both at boot, the H4+
# setup (reset, negotiation, alive, firmware) completes on both, btmgmt lists
# both controllers powered with their addresses, and one l2pings the other
# through btvirt.  COM4, with no slave, stays a tty and carries bytes.  The
# boot is shared with acpi-gps-com3.sh (its GPS holds COM3).
# On pc (one guest CPU, acpi=noirq) the chips' first HCI init misses the 2 s
# timeout of command 0x0c52 in most boots, and often again after the one
# reported retry (bt_wait_ready): the Nokia checks run on q35 only until that
# is understood (the GPS of this world is still checked on pc).
#@ machines: q35
#@ firmware: uefi
# On OVMF only: SeaBIOS q35 brings up Nokia chips in dt-nokia-com2 and
# core-runtime-nokia, and make check has no minute to spare for a third boot
# of this world.
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb-nolines.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1 gps:com3:gps0
#@ alone: the Nokia chips' H4+ setup misses its timeouts beside another guest
#@ timeout: 240
. /lib/ttyport/ktap.sh
. /lib/ttyport/wire.sh
. /lib/ttyport/bt.sh
ktap_start
ktap_plan 27	# loops: 2 chips of 3, of 2, of 1 and of 2

# --- binding and the sideband lines ---------------------------------------------
wait_for 15 "hci_nokia binds the chip on COM2 (\\_SB_.BTH2)" nokia_bound '\_SB_.BTH2'
wait_for 15 "hci_nokia binds the chip on the PCI 16550 (\\_SB_.BTP0)" nokia_bound '\_SB_.BTP0'
check "/dev/ttyS1 (COM2) gave way to the chip" test ! -e /dev/ttyS1
check "/dev/ttyS4 (PCI) gave way to the chip" test ! -e /dev/ttyS4
gpioinfo >/tmp/gpioinfo.txt 2>&1
# (loop variables are not "i": ktap.sh's poll uses it)
for b in bt0 bt1; do
	check "$b-reset is held as hci_nokia's reset line, active low" \
		grep -q "\"$b-reset\" *\"reset\" *output *active-low" /tmp/gpioinfo.txt
	check "$b-host-wakeup is held as its host-wakeup input" \
		grep -q "\"$b-host-wakeup\" *\"host-wakeup\" *input" /tmp/gpioinfo.txt
	check "$b-bt-wakeup is held as its bluetooth-wakeup output" \
		grep -q "\"$b-bt-wakeup\" *\"bluetooth-wakeup\" *output" /tmp/gpioinfo.txt
done

# --- the H4+ setup -------------------------------------------------------------
# The model logs the firmware count when the first standard HCI command
# follows the vendor ones: reset, negotiation, alive and firmware are done.
for b in bt0 bt1; do
	wait_for 60 "$b: H4+ negotiation answered" grep -q 'negotiation:' /tmp/chip-$b.log
	wait_for 30 "$b: H4+ setup done (firmware loaded, standard HCI init begun)" \
		grep -q 'vendor commands acknowledged' /tmp/chip-$b.log
done
wait_for 10 "two HCI devices exist" sh -c '[ $(ls -d /sys/class/bluetooth/hci* | wc -l) -eq 2 ]'
hA=$(hci_of '\_SB_.BTH2')
hB=$(hci_of '\_SB_.BTP0')
check "the COM2 chip is an HCI device ($hA)" test -n "$hA"
check "the PCI chip is an HCI device ($hB)" test -n "$hB"

for node in '\_SB_.BTH2' '\_SB_.BTP0'; do
	h=$(bt_wait_ready "$node")
	check "the controller of $node ($h) is listed by btmgmt" test -n "$h"
done
hA=$(hci_of '\_SB_.BTH2')
hB=$(hci_of '\_SB_.BTP0')
# (over the nodes, not the hciN: a controller that is not there must fail
# its checks, not leave the loop one round short)
for node in '\_SB_.BTH2' '\_SB_.BTP0'; do
	h=$(hci_of "$node")
	addr=$(bt_power_on $h)
	check "the controller of $node ($h) is powered" bt_powered $h
	check "it has a BD address ($addr)" \
		sh -c "echo '$addr' | grep -q '^[0-9A-F:]\{17\}\$' && [ '$addr' != 00:00:00:00:00:00 ]"
done
mg info | sed 's/^/# /'
check_eq "btmgmt lists two controllers" 2 "$(mg info | grep -c 'Primary controller')"

# --- one l2pings the other ------------------------------------------------------
check "$hA (COM2) l2pings $hB (PCI): 3 sent, 3 received" bt_l2ping $hA $hB

# --- ports with no slave --------------------------------------------------------
check "COM4 (/dev/ttyS3), no slave, is a tty" test -c /dev/ttyS3
check "no frame errors from hci_nokia" sh -c '! dmesg | grep -q "Frame reassembly failed"'

ktap_done
