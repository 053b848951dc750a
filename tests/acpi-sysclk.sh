#!/bin/sh
# The sysclk rate each Nokia chip was told is the SSDT's "clock-frequency".
# ACPI has no clock binding, so hci_nokia takes the rate from that _DSD
# property (docs/acpi.md) and sends it in the H4+ negotiation in kHz, with a
# baud divisor of round(rate * 10 / 921600) (hci_nokia's setup speed).  The
# model logs both ("negotiation: baud divisor D, sysclk K kHz", in
# /tmp/chip-<lines>.log); the rate is read back from the table the firmware
# handed the kernel (/sys/firmware/acpi/tables/SSDT*, found by its OEM table
# id), not from the ASL source.  Shares the ACPI world boot (acpi-nokia.sh).
#@ machines: q35
#@ firmware: uefi
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb-nolines.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1 gps:com3:gps0
#@ timeout: 90
. /lib/ttyport/ktap.sh
ktap_start
ktap_plan 10	# 2 chips of 5

# table_of ID: the loaded SSDT whose OEM table id (bytes 16-23) is ID
table_of() {
	for _t in /sys/firmware/acpi/tables/SSDT*; do
		[ "$(dd if=$_t bs=1 skip=16 count=8 2>/dev/null | tr -d '\0 ')" = "$1" ] &&
			{ echo $_t; return 0; }
	done
	return 1
}

# clock_frequency TABLE: the integer after the string "clock-frequency" in
# the AML: 0D "clock-frequency" 00, then 0C and four bytes, little-endian
# (38400000 needs a DWordConst).  Printed in decimal.
clock_frequency() {
	_h=$(od -An -v -tx1 "$1" | tr -s ' \n' '  ' |
		sed -n 's/.* 63 6c 6f 63 6b 2d 66 72 65 71 75 65 6e 63 79 00 0c \(..\) \(..\) \(..\) \(..\) .*/\4\3\2\1/p')
	[ -n "$_h" ] && echo $((0x$_h))
}

# chip lines, its table's OEM id
for c in "bt0 BTCOM2" "bt1 BTPCI"; do
	set -- $c
	log=/tmp/chip-$1.log
	t=$(table_of $2)
	# (test -n in this shell, not through check: forks are slow here)
	if [ -n "$t" ]; then ktap_result ok "$1: the firmware passed the SSDT $2 ($t)"
	else ktap_result fail "$1: the firmware passed the SSDT $2" "no such table"; fi
	hz=$(clock_frequency "$t")
	if [ -n "$hz" ]; then ktap_result ok "$1: the SSDT has a clock-frequency ($hz Hz)"
	else ktap_result fail "$1: the SSDT has a clock-frequency" "not found in $t"; fi
	wait_for 60 "$1: the chip got the H4+ negotiation" grep -q 'negotiation: ' $log
	neg=$(grep -m1 'negotiation: ' $log)
	echo "# $neg"
	khz=${neg#*sysclk }
	khz=${khz%% kHz*}
	div=${neg#*baud divisor }
	div=${div%%,*}
	case "$khz" in '' | *[!0-9]*) khz=0 ;; esac	# no such line: fail below
	check_eq "$1: the sysclk the chip was told is the SSDT's clock-frequency (Hz)" \
		"$hz" "$((khz * 1000))"
	check_eq "$1: the negotiated baud divisor is round(clock-frequency * 10 / 921600)" \
		"$(((${hz:-0} * 10 + 460800) / 921600))" "$div"
done

ktap_done
