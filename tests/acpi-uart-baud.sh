#!/bin/sh
# The baud rate gnss-sirf runs its port at, as the UART itself holds it: the
# 16550's divisor latch, read by the host through QEMU's monitor (HMP "i"/"o"
# port I/O, asked for over /dev/hostctl), not by anything the guest kernel
# reports.  divisor = 115200 / baud (QEMU's 16550s have a 1.8432 MHz clock).
#   - the boot-time GPS on COM3: its UartSerialBusV2 says 9600 (divisor 12;
#     also the tty default, so this one alone could not tell);
#   - runtime-gps-baud-com4.asl on COM4: UartSerialBusV2 4800, no
#     "current-speed": divisor 24;
#   - runtime-gps-speed-com4.asl on COM4: UartSerialBusV2 4800 and
#     "current-speed" 19200, which wins (docs/acpi.md): divisor 6.
# Before each open the host presets the latch to 7, so a driver that set no
# speed would show 7.  The divisor is read while the port is closed (no interrupt handler, nobody
# writing) since reading it means setting LCR.DLAB for a moment.  COM4 is a
# tty again at the end.  Shares the ACPI world boot (acpi-nokia.sh).
#@ machines: q35
#@ firmware: uefi
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb-nolines.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1 gps:com3:gps0
#@ timeout: 60
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/hostctl.sh
ktap_start
ktap_plan 20	# 4, and 2 tables of 8

# inb PORT: a byte read from I/O port PORT by QEMU's monitor, in decimal.
# The reply is "ok {"return": "portb[0x03eb] = 0x03\r\n"}".
inb() {
	host qmp "{\"execute\":\"human-monitor-command\",\"arguments\":{\"command-line\":\"i/b $(printf 0x%x $1)\"}}" ||
		return 1
	_v=$(echo "$host_reply" | sed -n 's/.*\] = \(0x[0-9a-fA-F]*\).*/\1/p')
	[ -n "$_v" ] || { echo "no value in: $host_reply" >&2; return 1; }
	echo $((_v))
}
# outb PORT VALUE
outb() {
	host qmp "{\"execute\":\"human-monitor-command\",\"arguments\":{\"command-line\":\"o/b $(printf 0x%x $1) $(printf 0x%x $2)\"}}"
}

# divisor TTY: the divisor latch of the 16550 behind ttySn (its I/O base from
# /proc/tty/driver/serial), LCR restored afterwards.  Prints it in decimal.
divisor() {
	_io=$(sed -n "s/^${1#ttyS}: .*port:\([0-9A-F]*\) .*/\1/p" /proc/tty/driver/serial)
	[ -n "$_io" ] || { echo "no port for $1" >&2; return 1; }
	_io=$((0x$_io))
	_lcr=$(inb $((_io + 3))) || return 1
	outb $((_io + 3)) $((_lcr | 0x80)) || return 1	# DLAB on
	_dll=$(inb $_io)
	_dlm=$(inb $((_io + 1)))
	outb $((_io + 3)) $_lcr || return 1			# DLAB off
	[ -n "$_dll" ] && [ -n "$_dlm" ] || return 1
	echo $((_dlm * 256 + _dll))
}

# set_divisor TTY N: load the divisor latch with N (a value no test expects),
# so that what is read afterwards is what the driver set since, not what an
# earlier user of the port left
set_divisor() {
	_io=$(sed -n "s/^${1#ttyS}: .*port:\([0-9A-F]*\) .*/\1/p" /proc/tty/driver/serial)
	_io=$((0x$_io))
	_lcr=$(inb $((_io + 3))) || return 1
	outb $((_io + 3)) $((_lcr | 0x80)) &&
		outb $_io $(($2 & 255)) && outb $((_io + 1)) $(($2 >> 8)) &&
		outb $((_io + 3)) $_lcr
}

# sirf_on NODE: gnss-sirf is bound to the serdev device with ACPI node NODE;
# gnss_of NODE prints its gnssN
sirf_on() {
	for _d in /sys/bus/serial/drivers/gnss-sirf/serial*-*; do
		[ "$(cat $_d/firmware_node/path 2>/dev/null)" = "$1" ] && return 0
	done
	return 1
}
gnss_of() {
	for _g in /sys/class/gnss/gnss*; do
		[ "$(cat $_g/device/firmware_node/path 2>/dev/null)" = "$1" ] &&
			{ echo ${_g##*/}; return 0; }
	done
	return 1
}

# open_once DEV: open DEV and close it again, in this shell, so both are
# done when it returns (gnss-sirf opens its port and sets the speed on the
# first open; a GPS with no on/off line keeps its port closed otherwise).
open_once() {
	exec 5<"$1" || return 1
	exec 5<&-
}

# --- the boot-time GPS on COM3 (UartSerialBusV2 9600) ------------------------
wait_for 20 "gnss-sirf binds the GPS on COM3 (\\_SB_.GPS3)" sirf_on '\_SB_.GPS3'
g=$(gnss_of '\_SB_.GPS3')
check "COM3: the divisor latch is preset to 7" set_divisor ttyS2 7
check "COM3: $g opens and closes" open_once /dev/$g
check_eq "COM3 runs at the SSDT's 9600 baud: divisor 12" 12 "$(divisor ttyS2)"

# --- COM4: UartSerialBusV2 only, then UartSerialBusV2 and current-speed -------
# table name, node, what it says, the expected divisor
for t in "baud \\_SB_.GPSB UartSerialBusV2_4800 24" \
	"speed \\_SB_.GPSS current-speed_19200_over_4800 6"; do
	set -- $t
	what=$(echo "$3" | tr _ ' ')
	check "COM4, $what: the table loads (runtime-gps-$1-com4)" \
		ssdt_load "baud$1" "runtime-gps-$1-com4"
	wait_for 15 "COM4, $what: gnss-sirf binds $2" sirf_on "$2"
	g=$(gnss_of "$2")
	check "COM4, $what: it has a gnss device ($g)" test -c "/dev/$g"
	check "COM4, $what: the divisor latch is preset to 7" set_divisor ttyS3 7
	check "COM4, $what: $g opens and closes" open_once /dev/$g
	check_eq "COM4, $what: the UART runs at $((115200 / $4)) baud (divisor $4)" \
		"$4" "$(divisor ttyS3)"
	check "COM4, $what: the table unloads" ssdt_unload "baud$1"
	wait_for 10 "COM4, $what: /dev/ttyS3 is back" test -c /dev/ttyS3
done

ktap_done
