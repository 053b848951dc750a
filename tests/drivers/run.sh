#!/bin/bash
# Boot each boot of tests/drivers/plan on the stock and on the patched kernel
# (tests/drivers/kernels.sh), one QEMU at a time, q35/SeaBIOS, with the boot's
# SSDTs (tests/drivers/tables.sh), 7 more PCI 16550s (pci1-pci7 of
# tests/drivers/ports) and tests/drivers/guest.sh as the guest's script.
# A wire of pci1-pci7 is a null chardev, or the unix socket of a far-end
# program when the plan names one (far=<program>: build/drivers/<program>,
# built from tests/drivers/<program>.c by make check-drivers), whose output
# goes to build/drivers/runs/<kernel>-<boot>.far-<wire>.log.
#
#   run.sh [BOOT...]       default: every boot of the plan
#   DRV_KERNELS="stock patched" (default): the kernels to boot
#
# Logs: build/drivers/runs/<kernel>-<boot>/ (console.log, guest.log, status,
# seconds).  Exits non-zero only if it could not run; the verdict is
# tests/drivers/compare.sh's.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
here=tests/drivers
out=build/drivers

declare -A kernel=(
	[stock]=build/obj-drivers-stock/arch/x86/boot/bzImage
	[patched]=build/obj-drivers/arch/x86/boot/bzImage
)
kernels=${DRV_KERNELS:-stock patched}
for k in $kernels; do
	[ -r "${kernel[$k]}" ] || { echo "drivers: no $k kernel: run $here/kernels.sh" >&2; exit 2; }
done

boots=("$@")
[ ${#boots[@]} -gt 0 ] ||
	mapfile -t boots < <(grep -v '^#' $here/plan | awk 'NF { print $1 }' | uniq)

# The guest's port list: wire=tty=kind=id
ports=$(grep -v '^#' $here/ports | awk 'NF { sub(":", "=", $4); printf "%s=%s=%s ", $1, $2, $4 }')

sock=$(mktemp -d /tmp/ttyport-drv.XXXXXX)
trap 'rm -rf "$sock"' EXIT

# far BOOT WIRE: the far-end program the plan names for the wire, if any
far() {
	grep -v '^#' $here/plan | awk -v b="$1" -v w="$2" \
		'$1 == b && $2 == w && $4 ~ /^far=/ { sub("far=", "", $4); print $4 }'
}

# pci1-pci7: single-port PCI 16550s in slots 6 to 0xc, each with a null
# chardev or a far end's socket
pci_args() { # BOOT
	local i f a=
	for i in 1 2 3 4 5 6 7; do
		f=$(far "$1" "pci$i")
		if [ -n "$f" ]; then
			a+=" -chardev socket,id=drvwire$i,path=$sock/pci$i"
		else
			a+=" -chardev null,id=drvwire$i"
		fi
		a+=" -device pci-serial,chardev=drvwire$i,addr=0x$(printf %x $((5 + i)))"
	done
	echo "$a"
}

mkdir -p $out/runs
t0=$SECONDS
for b in "${boots[@]}"; do
	tables=$($here/tables.sh "$b" "$out/tables/$b") || exit 2
	extra=$(pci_args "$b")
	for k in $kernels; do
		rundir=$out/runs/$k-$b
		t1=$SECONDS
		echo "==> drivers: boot '$b' on the $k kernel ..."
		pids=()
		for i in 1 2 3 4 5 6 7; do
			f=$(far "$b" "pci$i")
			[ -n "$f" ] || continue
			[ -x "$out/$f" ] || { echo "drivers: no $out/$f: run make check-drivers" >&2; exit 2; }
			rm -f "$sock/pci$i"
			"$out/$f" "$sock/pci$i" >"$rundir.far-pci$i.log" 2>&1 &
			pids+=($!)
			# QEMU connects at start: the socket must be there first.
			for _ in $(seq 50); do [ -S "$sock/pci$i" ] && break; sleep 0.1; done
		done
		KERNEL=${kernel[$k]} SSDT="$(echo $tables)" QEMU_ARGS="$extra" \
			SCRIPT=$here/guest.sh RUNDIR=$rundir QUIET=1 TIMEOUT=300 \
			TEST_DRV_PORTS="$ports" MACHINE=q35 FIRMWARE=bios \
			scripts/qemu-run.sh >"$rundir.err" 2>&1
		rc=$?
		for p in "${pids[@]}"; do
			kill "$p" 2>/dev/null
			wait "$p" 2>/dev/null
		done
		echo "$rc" >"$rundir/status"
		echo $((SECONDS - t1)) >"$rundir/seconds"
		tr -d '\r' <"$rundir/guest.log" >"$rundir/guest.txt"
		echo "==> drivers: boot '$b' on the $k kernel: exit $rc in $((SECONDS - t1)) s"
		[ "$rc" -eq 0 ] || sed 's/^/    /' "$rundir.err" | tail -n 20
	done
done
echo "==> drivers: ${#boots[@]} boot(s) on $(echo $kernels | wc -w) kernel(s) in $((SECONDS - t0)) s"
