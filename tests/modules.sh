#!/bin/sh
# The series as a distribution kernel runs it: usbserial, ftdi_sio, hci_uart,
# gnss and gnss-sirf are modules (kconfig/modules.config), and nothing loads
# them but this test (the guest has no udev).
#
#  - A device that exists before its driver's module: the GPS on COM3 is a
#    serdev device at boot, its port has no tty while a driver may still come
#    (serdev_ttyport.unbound_tty_delay, 40 s here), and gnss-sirf binds it
#    once "modprobe <the device's modalias>" (what udev runs) loads it; the
#    tty never appears.
#  - The other order, the tty first: no driver took COM2 or the PCI 16550 in
#    40 s, so both became ttys; with /dev/ttyS1 held open, modprobe of the
#    Nokia chip's modalias loads hci_nokia (and hci_uart), which binds the
#    PCI 16550's chip at once and defers COM2's until the
#    tty is closed; then the two chips l2ping each other.
#  - rmmod of a driver whose device is open: the reader of /dev/gnss0 ends,
#    the port becomes a tty again; modprobe again binds the GPS again, and
#    gpsd gets a fix.
#  - rmmod ftdi_sio with a GPS bound on the adapter's port and streaming to a
#    reader is refused (the port is in use, as for a tty user) and the stream
#    goes on; with the reader gone it unloads and nothing of the port is
#    left; then usbserial unloads, and modprobe ftdi_sio with the adapter
#    still plugged gives a plain tty (the hand-made GPS went with the port).
#  - The xHCI is a module here, loaded after dummy_hcd took the first USB bus:
#    the host controllers probe in the other order from the debug kernel's
#    boots, so the adapter's bus number differs, and the node new_device
#    makes for its port has the name usb-port-names.sh sees there
#    (pci-0000-00-03.0-usbv2-0-1-1.0/serial@0).
#@ machines: q35
#@ kernel: modules
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl acpi-tables/xhci-rhub.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1 gps:com3:gps0
#@ append: serdev_ttyport.unbound_tty_delay=40
#@ alone: the Nokia chips' H4+ setup misses its timeouts beside another guest
#@ timeout: 300
. /lib/ttyport/ktap.sh
. /lib/ttyport/usb.sh
. /lib/ttyport/bt.sh
. /lib/ttyport/gps.sh
ktap_start
ktap_plan 52

loaded() { grep -q "^$1 " /proc/modules; }
# modprobe_for DEV: load the module for serdev device DEV by its modalias,
# as udev does on the device's "add" uevent
modprobe_for() {
	_a=$(cat "/sys/bus/serial/devices/$1/modalias") || return 1
	modprobe "$_a" || { echo "modprobe '$_a' failed"; return 1; }
}
kmsg() { dmesg | grep -E "$1"; }

# --- a device that exists before its driver's module ---------------------------
check "gnss-sirf is not loaded at boot" eval '! loaded gnss_sirf'
gps=$(serdev_of_node '\_SB_.GPS3')
check "the GPS on COM3 is a serdev device before its driver is loaded" test -n "$gps"
check "no driver is bound to it" test ! -e "/sys/bus/serial/devices/$gps/driver"
check "COM3's port has no tty while its driver may come" test ! -e /dev/ttyS2
check "modprobe of its modalias (what udev runs)" modprobe_for "$gps"
check "that loaded gnss-sirf" loaded gnss_sirf
wait_for 20 "gnss-sirf binds the GPS at modprobe" \
	test -e "/sys/bus/serial/drivers/gnss-sirf/$gps"
check "/dev/ttyS2 never appeared" eval '! kmsg "no driver took the port: ttyS2 "'

# --- the tty first, then the module, with the tty open --------------------------
check "hci_uart is not loaded yet" eval '! loaded hci_uart'
wait_for 60 "no driver took COM2 in time: /dev/ttyS1 is a tty" test -c /dev/ttyS1
check "the kernel said so, once" \
	test "$(kmsg 'no driver took the port: ttyS1 is a tty' | wc -l)" -eq 1
wait_for 10 "the PCI 16550 is a tty too" test -c /dev/ttyS4
sleep 600 <>/dev/ttyS1 &
holder=$!
check "a user holds /dev/ttyS1 open" kill -0 $holder
nokia_pci=$(serdev_of_node '\_SB_.BTP0')
check "the PCI 16550's Nokia chip is a serdev device" test -n "$nokia_pci"
check "modprobe of its modalias" modprobe_for "$nokia_pci"
check "that loaded hci_nokia and hci_uart" eval 'loaded hci_nokia && loaded hci_uart'
wait_for 20 "hci_nokia binds the chip on the PCI 16550, whose tty nobody holds" \
	nokia_bound '\_SB_.BTP0'
wait_for 10 "the bind on COM2 is deferred while ttyS1 is open" \
	kmsg 'ttyS1 is open: binding nokia-bluetooth deferred'
check "COM2's chip is not bound while ttyS1 is open" eval "! nokia_bound '\\_SB_.BTH2'"
kill $holder
wait $holder 2>/dev/null
wait_for 20 "hci_nokia binds COM2's chip once ttyS1 is closed" nokia_bound '\_SB_.BTH2'
hA=$(bt_wait_ready '\_SB_.BTH2')
hB=$(bt_wait_ready '\_SB_.BTP0')
check "both controllers come up ($hA, $hB)" test -n "$hA" -a -n "$hB"
bt_power_on "$hA" >/dev/null
bt_power_on "$hB" >/dev/null
check "$hA l2pings $hB" bt_l2ping "$hA" "$hB"

# --- rmmod of a driver whose device is open -------------------------------------
gnss=$(gnss_of_dev "$gps")
cat "/dev/$gnss" >/tmp/gnss.rd 2>/dev/null &
reader=$!
wait_for 10 "a reader gets NMEA from /dev/$gnss" grep -q 'GP' /tmp/gnss.rd
check "rmmod gnss_sirf with /dev/$gnss open" rmmod gnss_sirf
wait_for 5 "the reader ends" eval "! kill -0 $reader 2>/dev/null"
wait $reader 2>/dev/null
check "/dev/$gnss is gone" test ! -e "/dev/$gnss"
wait_for 10 "COM3's port is a tty again" test -c /dev/ttyS2
check "modprobe gnss-sirf again" modprobe gnss-sirf
wait_for 20 "gnss-sirf binds the GPS again" test -e "/sys/bus/serial/drivers/gnss-sirf/$gps"
wait_for 5 "/dev/ttyS2 gives way again" test ! -e /dev/ttyS2
gnss=$(gnss_of_dev "$gps")
check "gpsd gets a fix from the reloaded driver" gps_fix_at_model "/dev/$gnss"

# --- rmmod ftdi_sio under a bound, streaming GPS --------------------------------
root_hubs() { # sysfs device: its root hubs (usbN)
	ls -d "$1"/usb[0-9]* 2>/dev/null | sed 's|.*/||' | tr '\n' ' '
}
check_eq "before the xHCI's module, dummy_hcd's root hub is usb1" "usb1 " \
	"$(root_hubs /sys/devices/platform/dummy_hcd.0)"
check "modprobe xhci_pci" modprobe xhci_pci
wait_for 10 "the xHCI's root hubs are usb2 and usb3 (premise: the other probe order)" \
	eval '[ "$(root_hubs /sys/bus/pci/devices/0000:00:03.0)" = "usb2 usb3 " ]'
check "modprobe ftdi_sio (usbserial with it)" modprobe ftdi_sio
check "the host plugs an adapter on usb0" usb_plug usb0 1
usb_use usb0
ctrl=$(usb_ctrl usb0)
w2sg0004 --uart $far --lines gpsu --always-on 2>>/tmp/chip-gpsu.log &
model=$!
check "new_device adds a GPS on $tty" \
	sh -c "echo wi2wi,w2sg0004 >/sys/bus/serial/devices/$ctrl/new_device"
wait_for 20 "gnss-sirf binds it" usb_bound gnss-sirf usb0
check_eq "its port's node has the name it has when the xHCI probes first" \
	/sys/firmware/devicetree/base/serial-ports/pci-0000-00-03.0-usbv2-0-1-1.0/serial@0 \
	"$(readlink -f "/sys/bus/serial/devices/$ctrl/of_node")"
ugnss=$(gnss_of_dev "$(usb_serdev gnss-sirf usb0)")
cat "/dev/$ugnss" >/tmp/ugnss.rd 2>/dev/null &
ureader=$!
wait_for 10 "a reader gets NMEA from /dev/$ugnss" grep -q 'GP' /tmp/ugnss.rd
# rmmod_refused MOD: rmmod fails because the module is in use (busybox's
# rmmod says EAGAIN's text), and the module stays
rmmod_refused() {
	_o=$(rmmod "$1" 2>&1) && { echo "rmmod $1 succeeded"; return 1; }
	case "$_o" in
	*"Resource temporarily unavailable"* | *"in use"*) ;;
	*) echo "refused for another reason: $_o"; return 1 ;;
	esac
	loaded "$1" || { echo "$1 is gone all the same"; return 1; }
}
check "ftdi_sio is in use: its refcount is not 0" \
	test "$(cat /sys/module/ftdi_sio/refcnt)" -gt 0
check "rmmod ftdi_sio is refused: the GPS's driver holds the port" \
	rmmod_refused ftdi_sio
s0=$(wc -c </tmp/ugnss.rd)
sleep 2
check "the stream goes on" test "$(wc -c </tmp/ugnss.rd)" -gt "$s0"
kill $ureader
wait $ureader 2>/dev/null
wait_for 10 "with the reader gone the GPS's driver lets go of the port" \
	test "$(cat /sys/module/ftdi_sio/refcnt)" -eq 0
check "rmmod ftdi_sio" rmmod ftdi_sio
check "nothing of the port is left" no_usb_serial_ports
check "no tty-core count warning" no_tty_count_warnings
check "rmmod usbserial" rmmod usbserial
check "modprobe ftdi_sio with the adapter still plugged" modprobe ftdi_sio
wait_for 10 "the adapter has a usb-serial port again" usb_present usb0
usb_use usb0
check "it is a plain tty: the hand-made GPS went with the port" usb_no_serdev usb0
kill $model
wait $model 2>/dev/null
check "$tty carries bytes both ways" wire_carries $tty usb0

ktap_done
