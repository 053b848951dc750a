#!/bin/sh
# A device tree overlay on an OVMF machine: a W2SG0004 GPS on COM4
# (dt-overlays/gps-com4.dtso), its on/off and wakeup lines on a gpio-sim
# the overlay adds, applied in the q35/OVMF ACPI world, where COM4 is the
# port no table describes (dt-gps-pci covers q35 and pc with SeaBIOS: the
# ACPI world holds the PCI 16550 with a Nokia chip, and the firmware is what
# differs here).  gnss-sirf binds on the overlay's lines, with the wakeup
# line as its interrupt; gpsd gets a 3D fix; ttyport-status says DT;
# removing the overlay gives /dev/ttyS3 back, carrying bytes.
#@ machines: q35
#@ firmware: uefi
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb-nolines.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1 gps:com3:gps0
#@ timeout: 120
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 13

pnode=/serial-ports/acpi-_SB_.PCI0.SF8_.COM4/serial@0/gnss
tty=ttyS3
check "/dev/ttyS3 (COM4) is a tty before the overlay" tty_back
w2sg0004 --uart /dev/far-com4 --lines gpsd4 --wait-lines 60 2>>/tmp/chip-gpsd4.log &
model=$!
check "gps-com4.dtbo applies" ovl_apply gpscom4 $dtbo/gps-com4.dtbo
check_eq "its status" applied "$(ovl_status gpscom4)"
wait_for 20 "gnss-sirf binds the overlay's GPS on COM4" sirf_on $pnode
wait_for 5 "/dev/ttyS3 gives way" tty_gone
check "gnss-sirf holds the overlay's on/off and wakeup lines" \
	sh -c 'gpioinfo >/tmp/gpioinfo.txt
		grep "\"gpsd4-onoff\"" /tmp/gpioinfo.txt | grep -q "\"sirf,onoff\".*output.*used" &&
		grep "\"gpsd4-wakeup\"" /tmp/gpioinfo.txt | grep -q "\"sirf,wakeup\".*input.*used"'
check_eq "ttyport-status: ttyS3, gnss-sirf, DT" "ttyS3 gnss-sirf DT" \
	"$(ttyport-status | awk '$1 == "ttyS3" { print $1, $5, $6 }')"
gnss=$(gnss_of $pnode)
check "gpsd on /dev/$gnss reports a 3D fix at the model's position" \
	gps_fix_at_model /dev/$gnss
check "the model was switched on through the overlay's line" \
	grep -q "power on" /tmp/chip-gpsd4.log
check "the overlay is removed (rmdir)" rmdir $ovl/gpscom4
wait_for 10 "the GPS goes away" eval "! sirf_on $pnode"
wait_for 10 "/dev/ttyS3 comes back" tty_back
kill $model
wait $model 2>/dev/null
check "ttyS3 carries bytes both ways after the GPS left" wire_carries ttyS3 com4

ktap_done
