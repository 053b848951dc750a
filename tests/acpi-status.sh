#!/bin/sh
# ttyport-status (the discovery table of README.md) against sysfs, for every
# port of the ACPI world: each row's PORT KIND FIRMWARE DEVICE DRIVER SOURCE
# is rebuilt here from the other end and compared.  Here a port is found from
# the 8250 driver's own list (/proc/tty/driver/serial: line n is ttySn, with
# its I/O base), its host device (PNP or PCI) by that I/O base, its serdev
# controller as the serial* bus device under the host, the slave as the
# controller's child, the driver from its driver link, the source from its
# firmware_node.  Also: the tty device is there exactly when no driver is
# bound (docs/architecture.md), and the world is the one the SSDTs describe.
# Shares the ACPI world boot (acpi-nokia.sh).
#@ machines: q35
#@ firmware: uefi
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb-nolines.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1 gps:com3:gps0
#@ timeout: 60
. /lib/ttyport/ktap.sh
. /lib/ttyport/bt.sh
ktap_start
ktap_plan 27	# 3, 5 ports of 4, 4

sirf_on() { # NODE: gnss-sirf is bound to the serdev device with ACPI node NODE
	for _d in /sys/bus/serial/drivers/gnss-sirf/serial*-*; do
		[ "$(cat $_d/firmware_node/path 2>/dev/null)" = "$1" ] && return 0
	done
	return 1
}

# When this test runs alone: let the three slaves bind first.
wait_for 20 "the world is bound: hci_nokia on \\_SB_.BTH2" nokia_bound '\_SB_.BTH2'
wait_for 20 "the world is bound: hci_nokia on \\_SB_.BTP0" nokia_bound '\_SB_.BTP0'
wait_for 20 "the world is bound: gnss-sirf on \\_SB_.GPS3" sirf_on '\_SB_.GPS3'

ttyport-status >/tmp/status.txt
sed 's/^/# /' /tmp/status.txt

# Forks are slow in this guest (TCG, KASAN): what follows uses shell
# builtins where it can, and sets variables rather than printing.

# is DESC DIAG CMD...: a KTAP result for CMD run in this shell (no fork)
is() {
	_desc=$1
	_diag=$2
	shift 2
	if "$@"; then ktap_result ok "$_desc"; else ktap_result fail "$_desc" "$_diag"; fi
}

# host_of IO: set host to the PNP or PCI device whose I/O range starts at IO
# (hex, no 0x)
host_of() {
	host=
	for _d in /sys/bus/pnp/devices/*; do	# lines "io 0x2f8-0x2ff"
		while read -r _k _r; do
			[ "$_k" = io ] && [ $((${_r%%-*})) -eq $((0x$1)) ] && host=$_d
		done <"$_d/resources"
	done
	for _d in /sys/bus/pci/devices/*; do	# "start end flags"; 0x100 = I/O
		while read -r _s _e _f; do
			[ $((_f & 0x100)) -ne 0 ] && [ $((_s)) -eq $((0x$1)) ] && host=$_d
		done <"$_d/resource"
	done
	[ -n "$host" ] && host=$(readlink -f "$host")
}

# ctrl_under HOST: set ctrl to the serdev controller (a "serialN" device of
# the serial bus) in the sysfs tree below HOST
ctrl_under() {
	ctrl=
	for _c in "$1"/serial[0-9]* "$1"/*/serial[0-9]* "$1"/*/*/serial[0-9]*; do
		case "${_c##*/}" in *-*) continue ;; esac
		[ -e "/sys/bus/serial/devices/${_c##*/}" ] && ctrl=${_c##*/}
	done
}

# The 8250 ports with a UART behind them: lines "4: uart:16550A port:0000C0A0
# irq:..." of the 8250 driver's list ("uart:unknown" are placeholders).  The
# world has five, ttyS0-ttyS4: each is checked (a port missing from the
# list fails its checks), and the list must have no other.
uarts=
while read -r n uart rest; do
	n=${n%:}
	case "$n" in '' | *[!0-9]*) continue ;; esac	# the "serinfo:" line
	[ "$uart" = uart:unknown ] || uarts="$uarts${uarts:+ }ttyS$n"
done </proc/tty/driver/serial
nports=0
world=
for port in ttyS0 ttyS1 ttyS2 ttyS3 ttyS4; do
	io=
	while read -r n uart pio rest; do
		[ "$n" = "${port#ttyS}:" ] && [ "$uart" != uart:unknown ] && io=${pio#port:}
	done </proc/tty/driver/serial
	[ -n "$io" ] && nports=$((nports + 1))
	host=
	[ -n "$io" ] && host_of $io
	fw=
	read -r fw 2>/dev/null <"$host/firmware_node/path"
	ctrl_under "$host"
	cfw=
	[ -n "$ctrl" ] && read -r cfw 2>/dev/null <"/sys/bus/serial/devices/$ctrl/firmware_node/path"
	slave=- drv=- src=-
	for s in /sys/bus/serial/devices/$ctrl-*; do
		[ -n "$ctrl" ] && [ -e "$s" ] || continue
		slave=${s##*/}
		if [ -e "$s/driver" ]; then
			drv=$(readlink -f "$s/driver")
			drv=${drv##*/}
		fi
		if [ -e "$s/firmware_node" ]; then src=ACPI
		elif [ -e "$s/of_node" ]; then src=DT
		else src=manual
		fi
	done
	# ttyport-status's row for the port
	row=
	while read -r a b c d e f; do
		[ "$a" = "$port" ] && row="$a $b $c $d $e $f"
	done </tmp/status.txt
	echo "# sysfs: $port io 0x$io host ${host#/sys/devices/} controller ${ctrl:--}"

	is "$port: its host device (I/O 0x$io) has firmware node '$fw'" \
		"no host device or no firmware node" test -n "$fw"
	is "$port: its serdev controller ${ctrl:-(none)} shares the host's firmware node" \
		"host's '$fw', controller's '$cfw'" [ -n "$fw" -a "$fw" = "$cfw" ]
	check_eq "$port: the ttyport-status row is what sysfs says" \
		"$port 8250 $fw $slave $drv $src" "$row"
	if [ "$drv" = - ]; then
		t=$(readlink -f /sys/class/tty/$port)
		is "$port: no driver bound, so its tty device is there (under the host)" \
			"tty device: '$t'" [ "${t#$host/}" != "$t" -a -c /dev/$port ]
	else
		is "$port: $drv bound, so its tty device is hidden" "it is there" \
			[ ! -e /sys/class/tty/$port -a ! -e /dev/$port ]
	fi
	world="$world${world:+, }$port $drv $src"
done

check_eq "8250's list has UARTs on ttyS0-ttyS4, and no other" \
	"ttyS0 ttyS1 ttyS2 ttyS3 ttyS4" "$uarts"
check_eq "ttyport-status has one row per port ($nports)" \
	"$nports" "$(($(wc -l </tmp/status.txt) - 1))"	# less the header
# The SSDTs' world: Nokia chips on COM2 and the PCI 16550, the GPS on COM3.
check_eq "the world is the SSDTs': COM2 and PCI Nokia, COM3 GPS, COM1 and COM4 free" \
	"ttyS0 - -, ttyS1 nokia-bluetooth ACPI, ttyS2 gnss-sirf ACPI, ttyS3 - -, ttyS4 nokia-bluetooth ACPI" \
	"$world"
check_eq "the PCI 16550's firmware node is \\_SB_.PCI0.S28_" '\_SB_.PCI0.S28_' \
	"$(sed -n 's/^ttyS4 *[^ ]* *\([^ ]*\) .*/\1/p' /tmp/status.txt)"

ktap_done
