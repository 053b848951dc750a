#!/bin/sh
# Bad descriptions next to good ones, in one boot:
#   bad-uart-controller.asl  a GPS whose UartSerialBusV2 names \_SB.PCI0.COM9
#   bad-nokia-com4.asl       a Nokia chip on COM4 without bluetooth-wakeup-gpios
#   bad-gps-pci.asl          a GPS on the PCI 16550 whose sirf,onoff-gpios
#                            names GPIO resource 1 of a _CRS that has only
#                            resource 0
# Each gives one clear log line, nothing splats (the harness fails the boot
# on any), and the good GPS on COM3 works as if the bad ones were not there.
# The GPS whose optional on/off line is broken binds without it (gpiolib
# returns what it returned before the warning, so firmware that worked keeps
# working).  The good GPS on COM2 is core-bind-unbind's, which shares this
# boot.
# pc adds no path of its own here (acpi-gps-com3 covers pc's COM paths): q35 only, for the make-check budget.
#@ machines: q35
#@ firmware: bios
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/gps-com3.asl acpi-tables/bad-uart-controller.asl acpi-tables/bad-nokia-com4.asl acpi-tables/bad-gps-pci.asl acpi-tables/gps-com2.asl
#@ chips: gps:com3:gps0
#@ timeout: 120
#@ console-expect: acpi-bad: console write
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
ktap_start
ktap_plan 16

gnss_of() { # NODE: the gnssN of the serdev device with ACPI node NODE
	_d=$(serdev_of_node "$1") && gnss_of_dev "$_d"
}
no_serdev() { # NODE: no serdev device has ACPI node NODE
	! serdev_of_node "$1" >/dev/null
}

# lines PATTERN: how many kernel log lines match
lines() { dmesg | grep -c "$1"; }

# Let every probe finish: the good GPS binds (its probe listens for 2 s),
# and each bad description's line is there (the events that the checks of
# "nothing was made" below rely on; each line is then counted once).
wait_for 20 "the good GPS on COM3 binds" gnss_of '\_SB_.GPS3'
all_said() {
	dmesg >/tmp/dmesg.txt
	grep -q 'BADU: serial bus controller' /tmp/dmesg.txt &&
		grep -q 'could not get bluetooth-wakeup gpio' /tmp/dmesg.txt &&
		grep -q 'BADG: sirf,onoff-gpios refers' /tmp/dmesg.txt
}
poll 10 all_said
dmesg >/tmp/dmesg.txt

# --- a UART that does not exist --------------------------------------------------
check_eq "one log line names the missing UART of \\_SB_.BADU" 1 \
	"$(lines 'BADU: serial bus controller \\_SB.PCI0.COM9 not found')"
grep 'COM9' /tmp/dmesg.txt | sed 's/^/# /'
check "no serdev device was made for it" no_serdev '\_SB_.BADU'

# --- a Nokia chip without its bluetooth-wakeup GPIO -----------------------------------
check_eq "one log line says hci_nokia lacks the bluetooth-wakeup GPIO" 1 \
	"$(lines 'nokia-bluetooth .*could not get bluetooth-wakeup gpio')"
grep 'nokia-bluetooth' /tmp/dmesg.txt | sed 's/^/# /'
check "no HCI device was registered" sh -c '! ls -d /sys/class/bluetooth/hci* 2>/dev/null | grep -q .'
gpioinfo >/tmp/gpioinfo.txt 2>&1
# lines 8 and 9 of the bank are bt2-reset and bt2-host-wakeup (gpio-sim.asl):
# each must be listed, and unused (a line missing from gpioinfo's list
# would pass a check that no such line is used)
released() { # LINE...: each named line is listed and unused
	for _l in "$@"; do
		grep "\"$_l\"" /tmp/gpioinfo.txt | grep -q unused ||
			{ echo "$_l: '$(grep "\"$_l\"" /tmp/gpioinfo.txt)'"; return 1; }
	done
}
check "the lines it took (8 bt2-reset, 9 bt2-host-wakeup) are listed and released" \
	released bt2-reset bt2-host-wakeup

# --- a GPS whose on/off GPIO reference points past _CRS ---------------------------------
check_eq "one log line names the broken sirf,onoff-gpios of \\_SB.BADG" 1 \
	"$(lines 'BADG: sirf,onoff-gpios refers to GPIO resource 1, but .* has 1 GpioIo/GpioInt resources')"
grep 'BADG' /tmp/dmesg.txt | sed 's/^/# /'
check "line 10 (bt2-bt-wakeup, its only GpioIo) is listed and was not taken as the on/off line" \
	released bt2-bt-wakeup

# --- the good ones are undisturbed --------------------------------------------------------
g=$(gnss_of '\_SB_.GPS3')
check "the good GPS has a gnss device ($g)" test -c "/dev/$g"
check "gnss-sirf holds gps0-onoff for it" \
	sh -c 'grep "\"gps0-onoff\"" /tmp/gpioinfo.txt | grep -q "\"sirf,onoff\""'
timeout 5 cat /dev/$g >/tmp/nmea.txt 2>/dev/null
check "the good GPS streams NMEA with a fix" \
	grep -q '^\$GPGGA,[0-9.]*,6010\.194[0-9]*,N,02456\.304[0-9]*,E,1,' /tmp/nmea.txt
check "the GPS with the broken on/off reference binds without the line" \
	gnss_of '\_SB_.BADG'
check "the PCI 16550's /dev/ttyS4 gave way to it" test ! -e /dev/ttyS4
check "the console port /dev/ttyS0 still takes writes" \
	sh -c 'echo "acpi-bad: console write" >/dev/ttyS0'
# No driver holds COM4 after its slave's probe failed: the port is a tty.
check "COM4 (/dev/ttyS3), whose Nokia chip failed to probe, is a tty" test -c /dev/ttyS3
check "COM4 carries bytes both ways" wire_carries ttyS3 com4

ktap_done
