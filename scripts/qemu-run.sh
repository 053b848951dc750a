#!/bin/bash
# Boot the guest once in QEMU and report.
#
# Settings come from the environment (the Makefile passes make's variables):
#   KERNEL     bzImage (default: the debug kernel)
#   INITRD     initramfs (default: build/initramfs.cpio.gz)
#   MACHINE    q35 | pc                                  (default q35)
#   FIRMWARE   bios (SeaBIOS) | uefi (OVMF)              (default bios)
#   SSDT       .asl or .aml files, each given to QEMU with -acpitable
#   OVERLAY    .dtso or .dtbo files, applied by the guest after boot
#   CHIPS      emulated chips: "model:wire[:lines] ...", model nokia|bcm|gps,
#              wire com2|com3|com4|pci0|usb0|usb1 (docs/models.md)
#   CHIP_OPTS_<lines>  more options for one chip model, e.g. "--fault nak"
#   TEST_<name>  a setting passed to the guest scripts as it is
#   CMD        shell command run in the guest (default: the demo report)
#   SCRIPT     a file run in the guest instead of CMD (tests)
#   ODEBUG=1   keep the kernel's debug-objects checker on (make stress)
#   QEMU_ARGS  more QEMU arguments
#   TIMEOUT    seconds before QEMU is killed (default 180)
#   RUNDIR     where logs go (default: a new build/runs/<time> directory)
#   QUIET=1    do not stream the guest's output; only the exit status tells
#
# For testing the harness without a guest (tests/host/check-harness.sh):
#   QEMU       the emulator (default qemu-system-x86_64)
#   HOSTCTL    the QMP agent (default build/host/hostctl)
#   ACCEL      the accelerator, not probed (scripts/kvm-probe.sh)
#
# The world: COM1 (ttyS0) is the console; COM2-COM4 (ttyS1-3), a PCI 16550 at
# slot 5 (ttyS4) and two hot-pluggable wires usb0, usb1 (xHCI) each have a far
# end in the guest, /dev/far-<wire>, a virtio-serial port paired with the
# port's chardev.
# A host control channel (virtio port "hostctl") lets guest scripts ask for
# QMP actions such as USB-serial hotplug (scripts/hostctl.c).
#
# Exit status: the guest script's, or 1 if the kernel log holds a splat (BUG,
# WARNING, KASAN, lockdep, kmemleak, hung task), or 124 on time-out.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
KERNEL=${KERNEL:-$top/build/obj-debug/arch/x86/boot/bzImage}
INITRD=${INITRD:-$top/build/initramfs.cpio.gz}
MACHINE=${MACHINE:-q35}
FIRMWARE=${FIRMWARE:-bios}
TIMEOUT=${TIMEOUT:-180}
SSDT=${SSDT:-}
OVERLAY=${OVERLAY:-}
CHIPS=${CHIPS:-}
CMD=${CMD:-}
SCRIPT=${SCRIPT:-}
QEMU_ARGS=${QEMU_ARGS:-}
QUIET=${QUIET:-}
QEMU=${QEMU:-qemu-system-x86_64}
HOSTCTL=${HOSTCTL:-$top/build/host/hostctl}

die() { echo "qemu-run: $*" >&2; exit 2; }

[ -r "$KERNEL" ] || die "no kernel at $KERNEL: run 'make kernel'"
[ -r "$INITRD" ] || die "no initramfs at $INITRD: run 'make initramfs'"

RUNDIR=${RUNDIR:-$top/build/runs/$(date +%Y%m%d-%H%M%S)-$$}
rm -rf "$RUNDIR"
mkdir -p "$RUNDIR"
RUNDIR=$(realpath "$RUNDIR")
# Unix socket paths are limited to 107 bytes: keep the sockets short-named.
sock=$(mktemp -d /tmp/ttyport.XXXXXX)
cleanup() {
	[ -n "${qpid:-}" ] && kill "$qpid" 2>/dev/null
	[ -n "${cpid:-}" ] && kill "$cpid" 2>/dev/null
	[ -n "${tpid:-}" ] && kill "$tpid" 2>/dev/null
	rm -rf "$sock"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 512 MiB: every boot was about 5 s shorter than with 1 GiB (less memory
# for the debug kernel to set up and for kmemleak to scan before poweroff);
# /init logs the memory a test left available ("ttyport: at the end").
args=(-nodefaults -no-reboot -display none -vga none -m 512M -smp 2)

# KVM only if it really works (FACTS.md: it does not on these machines); the
# probe boots the kernel once under KVM and caches the answer.
accel=$("$top/scripts/kvm-probe.sh" "$KERNEL")
args+=(-accel "$accel")

# Both machines offer S3 (QEMU hides it by default), so that the guest
# kernel targets ACPI S3 in "echo mem >/sys/power/state": with pm_test
# "platform" it runs every device suspend phase as for S3 and resumes
# without entering it (tests/acpi-sleep-gps.sh), so no wake-up is needed.
case "$MACHINE" in
q35) args+=(-M q35 -global ICH9-LPC.disable_s3=0) ;;
pc)
	args+=(-M pc -global PIIX4_PM.disable_s3=0)
	# QEMU's pc DSDT builds _PRT in a 128-step AML loop, and Linux evaluates
	# it for every PCI device it enables; under the debug kernel's KASAN and
	# kmemleak (a stack trace per allocation) each evaluation takes about 18 s
	# under TCG.  acpi=noirq routes PCI interrupts through the PIR table or
	# the firmware's interrupt lines instead (it also leaves the pc guest with
	# one CPU and the 8259): the ACPI namespace, PNP and serdev enumeration
	# are untouched.  q35's _PRT is a plain package and needs none of this.
	pc_append="acpi=noirq"
	;;
*) die "MACHINE must be q35 or pc, not '$MACHINE'" ;;
esac

case "$FIRMWARE" in
bios) ;;
uefi)
	ovmf=/usr/share/ovmf/OVMF.fd
	[ -r $ovmf ] || die "$ovmf missing: run 'make deps'"
	args+=(-bios "$ovmf")
	;;
*) die "FIRMWARE must be bios or uefi, not '$FIRMWARE'" ;;
esac

# SSDTs: compile .asl sources on the fly (warnings are errors, as 'make tables').
n=0
for t in $SSDT; do
	case "$t" in
	*.asl)
		n=$((n + 1))
		aml=$RUNDIR/ssdt$n.aml
		"$top/scripts/iasl.sh" "$t" "$aml" || die "$t does not compile"
		;;
	*.aml) aml=$t ;;
	*) die "SSDT: $t is neither .asl nor .aml" ;;
	esac
	args+=(-acpitable "file=$aml")
done

# Overlays go to the guest through fw_cfg; it applies them after boot.
n=0
for o in $OVERLAY; do
	case "$o" in
	*.dtso | *.dts)
		dtbo=$RUNDIR/overlay$n.dtbo
		dtc -q -I dts -O dtb -o "$dtbo" "$o" || die "$o does not compile"
		;;
	*.dtbo) dtbo=$o ;;
	*) die "OVERLAY: $o is neither .dtso nor .dtbo" ;;
	esac
	args+=(-fw_cfg "name=opt/ttyport/overlay$n,file=$dtbo")
	n=$((n + 1))
done

# The console and the result channel.
args+=(-chardev "file,id=con,path=$RUNDIR/console.log" -serial chardev:con)
args+=(-device virtio-serial-pci,id=vser,addr=0x4)
args+=(-chardev "file,id=out,path=$RUNDIR/guest.log")
args+=(-device virtconsole,chardev=out,name=out)

# Each wire: the port's chardev is a socket server; the far end's virtio port
# connects to it inside this one QEMU.
far_end() { # wire
	args+=(-chardev "socket,id=far-$1,path=$sock/$1")
	args+=(-device "virtserialport,chardev=far-$1,name=far-$1")
}
for w in com2 com3 com4; do
	args+=(-chardev "socket,id=wire-$w,path=$sock/$w,server=on,wait=off")
	args+=(-serial "chardev:wire-$w")
	far_end $w
done
args+=(-chardev "socket,id=wire-pci0,path=$sock/pci0,server=on,wait=off")
args+=(-device "pci-serial,chardev=wire-pci0,addr=0x5")
far_end pci0
# usb0, usb1: the far end listens; hostctl plugs a usb-serial adapter whose
# chardev connects to it (QMP chardev-add + device_add), so adapters come and
# go, each on the xHCI port the guest asks for (or the next free one).
for w in usb0 usb1; do
	args+=(-chardev "socket,id=far-$w,path=$sock/$w,server=on,wait=off")
	args+=(-device "virtserialport,chardev=far-$w,name=far-$w")
done
args+=(-device qemu-xhci,id=xhci,addr=0x3)

args+=(-chardev "socket,id=hostctl,path=$sock/hostctl,server=on,wait=off")
args+=(-device "virtserialport,chardev=hostctl,name=hostctl")
args+=(-qmp "unix:$sock/qmp,server=on,wait=off")

# What the guest runs: env (CHIPS) and the script.
{
	printf 'CHIPS=%q\n' "$CHIPS"
	printf 'MACHINE=%q\nFIRMWARE=%q\n' "$MACHINE" "$FIRMWARE"
	# Per-chip model options (docs/models.md), e.g. CHIP_OPTS_bt0="--fault nak";
	# and test settings, e.g. TEST_USB_CYCLES=200 (usb-serial-tests/usb-stress.sh).
	for v in $(compgen -v CHIP_OPTS_) $(compgen -v TEST_); do
		printf '%s=%q\n' "$v" "${!v}"
	done
} >"$RUNDIR/env.sh"
if [ -n "$SCRIPT" ]; then
	cp "$SCRIPT" "$RUNDIR/run.sh"
elif [ -n "$CMD" ]; then
	printf '%s\n' "$CMD" >"$RUNDIR/run.sh"
else
	printf '. /lib/ttyport/demo.sh\n' >"$RUNDIR/run.sh"
fi
args+=(-fw_cfg "name=opt/ttyport/env,file=$RUNDIR/env.sh")
args+=(-fw_cfg "name=opt/ttyport/run,file=$RUNDIR/run.sh")

args+=(-kernel "$KERNEL" -initrd "$INITRD")
# Debug objects (a timer or work item freed or reinitialised while active)
# cost the debug kernel about a fifth of its CPU under TCG: make check's three
# ACPI boots took 216 s of CPU with them and 177 s without.  They are on for
# make stress, whose long races are where such a bug would show, and off
# otherwise (the kernel is built with them: no_debug_objects turns them off).
odebug=no_debug_objects
[ "${ODEBUG:-}" = 1 ] && odebug=
args+=(-append "console=ttyS0,115200 panic=-1 kmemleak=on loglevel=7 $odebug ${pc_append:-} ${APPEND:-}")
# shellcheck disable=SC2206
args+=($QEMU_ARGS)

printf '%q ' "$QEMU" "${args[@]}" >"$RUNDIR/qemu.cmd"
echo >>"$RUNDIR/qemu.cmd"

: >"$RUNDIR/guest.log"
timeout -k 5 "$TIMEOUT" "$QEMU" "${args[@]}" </dev/null \
	>"$RUNDIR/qemu.out" 2>&1 &
qpid=$!

"$HOSTCTL" "$sock/qmp" "$sock/hostctl" >"$RUNDIR/hostctl.log" 2>&1 &
cpid=$!

if [ -z "$QUIET" ]; then
	tail -n +1 -f "$RUNDIR/guest.log" --pid=$qpid 2>/dev/null | grep -v '^@@ttyport-\(exit\|kmemleak\) ' &
	tpid=$!
fi

wait $qpid
qrc=$?
qpid=
sleep 0.2
[ -n "${tpid:-}" ] && { wait "$tpid" 2>/dev/null; tpid=; }

status=$(sed -n 's/^@@ttyport-exit \([0-9]*\).*/\1/p' "$RUNDIR/guest.log" | tail -n 1)
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	echo "qemu-run: timed out after ${TIMEOUT}s (logs: $RUNDIR)" >&2
	status=124
elif [ -z "$status" ]; then
	echo "qemu-run: the guest did not finish its script (QEMU exit $qrc; logs: $RUNDIR)" >&2
	sed 's/^/qemu: /' "$RUNDIR/qemu.out" | tail -n 5 >&2
	status=3
fi

# The guest's leak scans before poweroff (guest-init/init): a boot that
# could not scan kmemleak says why; scripts/check.sh fails it unless a test
# allows it, and a plain run says so.
kml=$(tr -d '\r' <"$RUNDIR/guest.log" | sed -n 's/^@@ttyport-kmemleak not-scanned //p' | tail -n 1)
[ -n "$kml" ] && echo "qemu-run: kmemleak was not scanned: $kml" >&2

if ! "$top/scripts/logcheck.sh" "$RUNDIR/console.log" >"$RUNDIR/splat.txt"; then
	echo "qemu-run: the kernel log has a splat (full log: $RUNDIR/console.log):" >&2
	sed 's/^/  /' "$RUNDIR/splat.txt" >&2
	[ "$status" -eq 0 ] && status=1
fi
exit "$status"
