# The demo world's script (scripts/demo.sh): add the runtime, overlay and
# manual slaves, two USB-serial adapters and a CDC-ACM gadget, bring the Bluetooth controllers up, then
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

# A device tree overlay describes a GPS for whatever adapter is plugged into
# USB port 1, before anything is plugged there (dt-overlays/gps-usb-port1.dtso).
say "applying gps-usb-port1.dtbo through /sys/kernel/config/device-tree/overlays/gps"
mkdir /sys/kernel/config/device-tree/overlays/gps &&
	cat /lib/ttyport/overlays/gps-usb-port1.dtbo >/sys/kernel/config/device-tree/overlays/gps/dtbo
# Each adapter goes into the xHCI port its description names (the overlay's
# pci-0000-00-03.0-usbv2-0-1-1.0, the table's RHUB.PRT7): the device binds when the adapter
# arrives, and goes when it is pulled.
say "plugging a USB-serial adapter into xHCI port 1 (QMP device_add): the GPS of the overlay"
host usb-add usb0 1 &&
	poll 20 sh -c '[ $(ls /dev/gnss* 2>/dev/null | wc -l) -ge 3 ]'
say "plugging a USB-serial adapter into xHCI port 3: the Nokia chip of demo-nokia-usb.asl"
host usb-add usb1 3

# A CDC-ACM port made in the guest (docs/gadget.md): a USB gadget with an ACM
# function plugged into dummy_hcd, a GPS described at its place by an overlay
# (dt-overlays/gps-acm-gadget.dtso), the model on the gadget side's ttyGSn.
. /lib/ttyport/gadget.sh
say "applying gps-acm-gadget.dtbo, then plugging a CDC-ACM gadget into dummy_hcd"
mkdir /sys/kernel/config/device-tree/overlays/gpsacm &&
	cat /lib/ttyport/overlays/gps-acm-gadget.dtbo >/sys/kernel/config/device-tree/overlays/gpsacm/dtbo
gadget_create acm0 acm && {
	w2sg0004 --uart /dev/far-acm0 --lines gps4 --always-on 2>>/tmp/chip-gps4.log &
	gadget_plug acm0 &&
		poll 20 sh -c '[ $(ls /dev/gnss* 2>/dev/null | wc -l) -ge 4 ]'
}

for node in '\_SB_.BTP0' '\_SB_.BTH2' '\_SB_.BTU2'; do
	poll 30 nokia_bound "$node"
	h=$(bt_wait_ready "$node") || { say "$node: no Bluetooth controller"; continue; }
	say "$h ($node) is up, address $(bt_power_on $h)"
done
hA=$(hci_of '\_SB_.BTH2')
hB=$(hci_of '\_SB_.BTP0')
hU=$(hci_of '\_SB_.BTU2')
if [ -n "$hA" ] && [ -n "$hB" ]; then
	say "l2ping from $hA to $hB:"
	bt_l2ping $hA $hB
fi
if [ -n "$hU" ] && [ -n "$hB" ]; then
	say "l2ping from $hU (behind the USB-serial adapter) to $hB:"
	bt_l2ping $hU $hB
fi
echo
. /lib/ttyport/demo.sh
