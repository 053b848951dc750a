#!/bin/sh
# A W2SG0004 GPS on the PCI 16550 described by a device tree overlay
# (dt-overlays/gps-pci.dtso): the port node is pci-0000-00-05.0/serial@0, the
# same on q35 and pc, and the GPS's on/off line is on a gpio-sim the overlay
# adds.  gnss-sirf binds, gpsd gets a 3D fix, the model was switched on
# through the overlay's line; removing the overlay gives /dev/ttyS4 back,
# carrying bytes.  Shares the boots of core-runtime-ssdt (no SSDT: nothing
# else on the PCI 16550) on q35 and pc.
#@ machines: q35 pc
#@ timeout: 120
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 12

# --- on the PCI 16550 -----------------------------------------------------------
pnode=/serial-ports/pci-0000-00-05.0/serial@0/gnss
tty=ttyS4
far=/dev/far-pci0
check "/dev/ttyS4 (the PCI 16550) is a tty before the overlay" tty_back
w2sg0004 --uart $far --lines gpsd0 --wait-lines 60 2>>/tmp/chip-gpsd0.log &
model=$!
check "gps-pci.dtbo applies" ovl_apply gpspci $dtbo/gps-pci.dtbo
check_eq "its status" applied "$(ovl_status gpspci)"
wait_for 20 "gnss-sirf binds the overlay's GPS on the PCI 16550" sirf_on $pnode
wait_for 5 "/dev/ttyS4 gives way" tty_gone
check "gnss-sirf holds the overlay's gpsd0-onoff line" \
	sh -c 'gpioinfo | grep "\"gpsd0-onoff\"" | grep -q "\"sirf,onoff\".*output.*used"'
gnss=$(gnss_of $pnode)
check "gpsd on /dev/$gnss reports a 3D fix at the model's position" \
	gps_fix_at_model /dev/$gnss
check "the model was switched on through the overlay's line" \
	grep -q "power on" /tmp/chip-gpsd0.log
check "the overlay is removed (rmdir)" rmdir $ovl/gpspci
wait_for 10 "the GPS goes away" eval "! sirf_on $pnode"
wait_for 10 "/dev/ttyS4 comes back" tty_back
kill $model
wait $model 2>/dev/null
check "ttyS4 carries bytes both ways after the GPS left" wire_carries ttyS4 pci0

ktap_done
