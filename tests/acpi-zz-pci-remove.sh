#!/bin/sh
# Port unregistration with a device bound and the port open by it
# (docs/architecture.md, "port unregisters" and "Port removal wins"): the PCI
# 16550 (0000:00:05.0, ttyS4) goes away while hci_nokia holds it open, its
# controller up and l2pinging the COM2 chip.  The serdev device and its
# driver go, the controller goes, the HCI device goes, l2ping ends, the
# port's tty does not come back (8250 turns the line into a placeholder, as
# its spare lines are), the COM2 chip is untouched, and the kernel says
# nothing bad (the boot's splat check covers the rest).
#
# The removal is the guest's sysfs "remove" of the PCI function: the path
# 8250_pci's remove takes on a real unplug.  QEMU's device_del cannot do it
# here: on q35 the 16550 sits on the root complex, which refuses hotplug
# ("Bus 'pcie.0' does not support hotplugging"), and on pc the guest kernel
# has no ACPI PCI hotplug driver (CONFIG_HOTPLUG_PCI_ACPI) to act on the eject.
#
# It destroys the PCI port, so it must be the last test of the ACPI world
# boot: check.sh runs a boot's tests in file-name order, hence "zz".
#@ machines: q35
#@ firmware: uefi
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb-nolines.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1 gps:com3:gps0
#@ timeout: 90
. /lib/ttyport/ktap.sh
. /lib/ttyport/bt.sh
ktap_start
ktap_plan 24

pci=/sys/bus/pci/devices/0000:00:05.0

not() { ! "$@"; }
# ended PID: the background job PID has ended
ended() { ! kill -0 $1 2>/dev/null; }
# listed hciN: btmgmt lists the controller
listed() { mg info | grep -q "^$1:"; }
# new_kernel_lines: what the kernel logged since the mark (dmesg lines)
new_kernel_lines() { dmesg | tail -n +$((mark + 1)); }

# serdev_of NODE: the serdev device whose ACPI node is NODE
serdev_of() {
	for _d in /sys/bus/serial/devices/serial*-*; do
		[ "$(cat $_d/firmware_node/path 2>/dev/null)" = "$1" ] &&
			{ echo ${_d##*/}; return 0; }
	done
	return 1
}

# --- the PCI chip up, pinging the COM2 chip -------------------------------------
# (ready at once after acpi-nokia.sh; when run alone, this waits for the setup)
wait_for 60 "hci_nokia holds the PCI 16550 (\\_SB_.BTP0)" nokia_bound '\_SB_.BTP0'
hA=$(bt_wait_ready '\_SB_.BTH2')
hB=$(bt_wait_ready '\_SB_.BTP0')
# Both chips were up when the boot's earlier tests ended (acpi-sleep-open
# l2pings them after its S3s): the COM2 chip's controller is this test's
# far end, and must be up.
check "the COM2 chip is an HCI controller ($hA)" test -n "$hA"
check "the PCI chip is an HCI controller ($hB)" test -n "$hB"
# (already on after acpi-nokia.sh; btmgmt may give up before a slow power-on
# is done, so wait for it; over the nodes, so that a missing controller
# fails its check rather than shortening the loop)
for node in '\_SB_.BTH2' '\_SB_.BTP0'; do
	h=$(hci_of "$node")
	bt_power_on $h >/dev/null
	wait_for 20 "the controller of $node ($h) is powered" bt_powered $h
done
dev=$(serdev_of '\_SB_.BTP0')
ctrl=${dev%-*}
ctrl_path=$(readlink -f /sys/bus/serial/devices/$ctrl)
echo "# PCI chip: serdev $dev on controller $ctrl, $hB"
check "the PCI 16550's tty (ttyS4) is hidden while hci_nokia holds it" \
	test ! -e /sys/class/tty/ttyS4
io=$(sed -n 's/^4: .*port:\([0-9A-F]*\) .*/\1/p' /proc/tty/driver/serial)
check "8250 drives the PCI 16550 as ttyS4 (I/O 0x$io)" test -n "$io" -a "$io" != 00000000

# Traffic over the port while it goes: $hB floods the COM2 chip with
# l2pings for as long as it lasts (answers first, so the link is up).
# l2ping's stdout is a file, so its lines arrive in 4 KiB blocks (about 90
# answers): a flood fills one within seconds, a ping a second would not.
mg --index ${hA#hci} connectable on >/dev/null
addrA=$(mg info | grep -A1 "^$hA:" | sed -n 's/.*addr \([0-9A-F:]*\) .*/\1/p')
l2ping -i $hB -f "$addrA" >/tmp/l2ping-rm.txt 2>&1 &
ping=$!
wait_for 20 "$hB floods $hA ($addrA) with l2pings" \
	sh -c '[ $(grep -c "bytes from" /tmp/l2ping-rm.txt) -ge 2 ]'

# --- unplug ---------------------------------------------------------------------
mark=$(dmesg | wc -l)	# from here on, the kernel log is this removal's
sh -c "echo 1 >$pci/remove" &
rm=$!
wait_for 20 "removing the PCI 16550 returns" ended $rm
if ! ended $rm; then
	ktap_result fail "the removal succeeded" "still running"
else
	wait $rm
	check_eq "the removal succeeded (exit status)" 0 $?
fi
check "the PCI function is gone" test ! -e $pci
wait_for 10 "the serdev device $dev is gone" test ! -e /sys/bus/serial/devices/$dev
check "hci_nokia holds no device for \\_SB_.BTP0" not nokia_bound '\_SB_.BTP0'
# serial8250_unregister_port() gives the line back to 8250 as a placeholder
# (uart:unknown, under the serial8250 platform device), as it does for every
# spare line: that port has its own controller and tty, which may take the
# old names.  What must be gone is the PCI port's own.
check "the PCI port's controller $ctrl is gone (${ctrl_path#/sys/devices/})" \
	test -n "$ctrl_path" -a ! -e "$ctrl_path"
check "no serdev controller is left under the PCI function" \
	not sh -c 'for c in /sys/bus/serial/devices/*; do readlink -f $c; done |
		grep -q 0000:00:05.0'
wait_for 10 "the HCI device $hB is gone" test ! -e /sys/class/bluetooth/$hB
check "btmgmt no longer lists $hB" not listed $hB
wait_for 15 "the l2ping flood on $hB ends" ended $ping
if ! ended $ping; then
	kill $ping
	ktap_result fail "l2ping on $hB failed (its controller went)" "it was still running"
else
	wait $ping
	check "l2ping on $hB failed (its controller went)" test $? -ne 0
fi
sed 's/^/# traffic: /' /tmp/l2ping-rm.txt | tail -n 3
check "the PCI port's tty did not come back: ttyS4, if any, is 8250's placeholder" \
	sh -c 'test ! -e /sys/class/tty/ttyS4 ||
		{ grep -qx 0 /sys/class/tty/ttyS4/type &&
		  readlink -f /sys/class/tty/ttyS4 | grep -q /serial8250/; }'
check "8250's line 4 has no UART any more (uart:unknown)" \
	grep -q "^4: uart:unknown " /proc/tty/driver/serial

# --- the rest of the world is untouched -----------------------------------------
check "hci_nokia still holds COM2 (\\_SB_.BTH2)" nokia_bound '\_SB_.BTH2'
check "$hA is still listed by btmgmt" listed $hA
check "the kernel logged no WARNING, BUG or KASAN report on removal" \
	not sh -c "dmesg | tail -n +$((mark + 1)) | grep -E 'WARNING:|BUG:|KASAN:|Oops|refcount_t'"
new_kernel_lines | grep -iE 'serial|serdev|nokia|hci|ttyS4' | tail -n 8 | sed 's/^/# kernel: /'

ktap_done
