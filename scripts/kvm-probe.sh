#!/bin/bash
# Print the QEMU accelerator to use: "kvm" only if a kernel really boots under
# KVM here, else "tcg".  /dev/kvm can exist and still not work (a nested
# hypervisor without VMX: the guest hangs, or QEMU aborts setting an MSR).
# ACCEL=tcg|kvm forces the answer.  The probe result is cached per machine.
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=$1
cache=$top/build/host/accel
if [ -n "${ACCEL:-}" ]; then
	echo "$ACCEL"
	exit 0
fi
if [ -r "$cache" ]; then
	cat "$cache"
	exit 0
fi
mkdir -p "$(dirname "$cache")"
accel=tcg
if [ -w /dev/kvm ]; then
	log=$(mktemp)
	# No root file system: the kernel boots, panics and QEMU exits (-no-reboot).
	timeout 20 qemu-system-x86_64 -accel kvm -M q35 -nodefaults -display none \
		-no-reboot -m 256M -serial "file:$log" -kernel "$kernel" \
		-append "console=ttyS0 panic=-1" </dev/null >/dev/null 2>&1
	grep -q 'Kernel panic' "$log" && accel=kvm
	rm -f "$log"
fi
echo $accel | tee "$cache"
