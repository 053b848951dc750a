# The demo world's script (scripts/demo.sh): add the runtime and manual
# slaves and a USB-serial adapter, bring the Bluetooth controllers up, then
# print the report (demo.sh).
. /lib/ttyport/ktap.sh
. /lib/ttyport/hostctl.sh
. /lib/ttyport/bt.sh

say() { echo "demo: $*"; }

say "loading nokia-com2.aml through /sys/kernel/config/acpi/table/bt"
mkdir /sys/kernel/config/acpi/table/bt &&
	cat /lib/ttyport/tables/nokia-com2.aml >/sys/kernel/config/acpi/table/bt/aml

for c in /sys/class/tty/ttyS3/device/serial*; do
	[ -e "$c/new_device" ] || continue
	say "adding a GPS by hand: echo wi2wi,w2sg0004 > $c/new_device"
	echo wi2wi,w2sg0004 >$c/new_device
done

say "plugging a USB-serial adapter (QMP device_add)"
host usb-add usb0 && poll 10 test -c /dev/ttyUSB0

for node in '\_SB_.BTP0' '\_SB_.BTH2'; do
	poll 30 nokia_bound "$node"
	h=$(bt_wait_ready "$node") || { say "$node: no Bluetooth controller"; continue; }
	say "$h ($node) is up, address $(bt_power_on $h)"
done
hA=$(hci_of '\_SB_.BTH2')
hB=$(hci_of '\_SB_.BTP0')
if [ -n "$hA" ] && [ -n "$hB" ]; then
	say "l2ping from $hA to $hB:"
	bt_l2ping $hA $hB
fi
echo
. /lib/ttyport/demo.sh
