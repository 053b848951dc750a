#!/bin/sh
# Boot cost of the ports, measured in the kernel: the idle boots again with
# initcall_debug (bench/run.sh: init8, init32), whose "initcall F returned R
# after N usecs" lines time each initcall by the kernel's clock.  The 8250
# lines register in two of them: serial8250_init (the ISA ports, PNP and the
# 8250.nr_uarts placeholders) and serial_pci_driver_init (8250_pci: the PCI
# 16550 and the 4-, 2- and 1-port cards of the 32-line boot).  Their sum, and
# per line (32-line boot - 8-line boot) / 24 in bench/report.sh, is what
# registering a port costs at boot; patched - stock is the series' share,
# without the 400 ms spread of the whole boot.  The lines are KERN_DEBUG:
# in the log buffer, not on the console (loglevel=7), so they do not slow
# the boot they time.
. /lib/ttyport/bench.sh

us() { # INITCALL: its "after N usecs", or nothing
	dmesg | sed -n "s/.*initcall $1+0x[0-9a-f]*\/0x[0-9a-f]* returned -*[0-9]* after \([0-9]*\) usecs.*/\1/p" | head -n 1
}
isa=$(us serial8250_init)
pci=$(us serial_pci_driver_init)
if [ -z "$isa" ] || [ -z "$pci" ]; then
	echo "bench: no initcall_debug time for serial8250_init ($isa) or serial_pci_driver_init ($pci)" >&2
	exit 1
fi
fig initcall_serial8250_us "$isa"
fig initcall_serial_pci_us "$pci"
fig initcall_ports_us "$((isa + pci))"
fig ttyS_lines "$(ls -d /sys/class/tty/ttyS* | wc -l)"
exit $bench_rc
