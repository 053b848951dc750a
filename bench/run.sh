#!/bin/bash
# make bench: every benchmark on the stock and the patched kernel, in one run.
#
#   bench/run.sh            BENCH_REPS (default 5) repetitions
#   BENCH_SMOKE=1           one repetition of each boot, 2 s reads (CI)
#   BENCH_BOOTS="bind"      only these boots (default: all)
#
# Both kernels are release builds of one configuration (bench/kernels.sh).  The
# boots (bench/guest/*.sh) alternate between the kernels, and which kernel goes
# first alternates with each repetition, so that a machine getting busier or
# quieter during the run weighs on both alike.  QEMU runs under TCG on a shared
# machine: absolute figures move from run to run, ratios of the two kernels
# measured in one run much less (docs/bench.md).
#
# Output: build/bench/results.tsv, one line per figure and kernel
# (figure, kernel, n, min, median, max, patched/stock); build/bench/raw.tsv,
# one line per measurement; a table on stdout.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
out=$top/build/bench
reps=${BENCH_REPS:-5}
secs=10
pings=200
rounds=6	# hci_bcm's two paths, floods of each per boot
if [ -n "${BENCH_SMOKE:-}" ]; then
	reps=1
	secs=2
	pings=20
	rounds=2
fi

declare -A kernel=(
	[stock]=$out/../obj-bench-stock/arch/x86/boot/bzImage
	[patched]=$out/../obj-bench/arch/x86/boot/bzImage
)
for k in stock patched; do
	[ -r "${kernel[$k]}" ] || { echo "bench: no $k kernel: run bench/kernels.sh" >&2; exit 2; }
done

# The 32-line boot: QEMU's world has 5 16550s (COM1-COM4 and one PCI); six
# 4-port, one 2-port and one 1-port PCI card make 32.  Ports need a backend.
ports32=
n=0
card() { # type nports
	local i a=""
	for i in $(seq 1 "$2"); do
		n=$((n + 1))
		ports32+=" -chardev null,id=bn$n"
		a+=",chardev$i=bn$n"
	done
	[ "$2" -eq 1 ] && a=",chardev=bn$n"
	ports32+=" -device $1$a"
}
for _ in 1 2 3 4 5 6; do card pci-serial-4x 4; done
card pci-serial-2x 2
card pci-serial 1

# boot_env NAME: the settings of one benchmark boot (qemu-run.sh's
# variables; a comma separates the items of a list)
boot_env() {
	case "$1" in
	idle8) echo "SCRIPT=bench/guest/idle.sh" ;;
	idle32) echo "SCRIPT=bench/guest/idle.sh APPEND=8250.nr_uarts=32" ;;
	# the idle boots again, each slab object tracked to its allocation site
	objs8) echo "SCRIPT=bench/guest/objects.sh APPEND=slub_debug=U" ;;
	objs32) echo "SCRIPT=bench/guest/objects.sh APPEND=slub_debug=U,8250.nr_uarts=32" ;;
	# the idle boots again, each initcall timed by the kernel
	init8) echo "SCRIPT=bench/guest/initcalls.sh APPEND=initcall_debug,log_buf_len=8M" ;;
	init32) echo "SCRIPT=bench/guest/initcalls.sh APPEND=initcall_debug,log_buf_len=8M,8250.nr_uarts=32" ;;
	bind) echo "SCRIPT=bench/guest/bind.sh SSDT=acpi-tables/xhci-rhub.asl,acpi-tables/gps-usb-nolines.asl" ;;
	data-tty) echo "SCRIPT=bench/guest/data.sh" ;;
	data-gnss) echo "SCRIPT=bench/guest/data.sh SSDT=acpi-tables/gps-com2.asl" ;;
	bt-ldisc) echo "SCRIPT=bench/guest/bt.sh" ;;
	bt-serdev) echo "SCRIPT=bench/guest/bt.sh SSDT=acpi-tables/gpio-sim.asl,acpi-tables/nokia-com2.asl CHIPS=nokia:com2:bt0 TEST_BT_PATH=serdev" ;;
	# hci_bcm both ways in one boot, serdev on COM2 and btattach on COM4,
	# then the other way round
	bt-bcm-com2) echo "SCRIPT=bench/guest/bt.sh SSDT=acpi-tables/bcm-com2.asl CHIPS=bcm:com2 TEST_BT_CHIP=bcm TEST_BT_SERDEV_WIRE=com2 TEST_BT_ROUNDS=$rounds" ;;
	bt-bcm-com4) echo "SCRIPT=bench/guest/bt.sh SSDT=acpi-tables/bcm-com4.asl CHIPS=bcm:com4 TEST_BT_CHIP=bcm TEST_BT_SERDEV_WIRE=com4 TEST_BT_ROUNDS=$rounds" ;;
	esac
}
# BENCH_BOOTS="bind ...": only those boots (their figures only)
boots=${BENCH_BOOTS:-idle8 idle32 objs8 objs32 init8 init32 bind data-tty data-gnss bt-ldisc bt-serdev bt-bcm-com2 bt-bcm-com4}

mkdir -p "$out/runs"
raw=$out/raw.tsv
: >"$raw"
: >"$out/skipped.tsv"
: >"$out/objects-raw.tsv"
failed=0

run_one() { # rep boot kernel
	local rep=$1 b=$2 k=$3 rundir=$out/runs/$1-$2-$3 e
	local -a env=()
	for e in $(boot_env "$b"); do env+=("${e//,/ }"); done
	case $b in idle32 | objs32 | init32) env+=("QEMU_ARGS=$ports32") ;; esac
	if ! env "${env[@]}" KERNEL="${kernel[$k]}" RUNDIR="$rundir" QUIET=1 \
		TIMEOUT=240 TEST_KERNEL="$k" TEST_SECONDS="$secs" TEST_PINGS="$pings" \
		scripts/qemu-run.sh >"$rundir.err" 2>&1; then
		echo "bench: boot $b on $k (repetition $rep) failed: $(tail -n 3 "$rundir.err")" >&2
		failed=$((failed + 1))
	fi
	# (hvc0 ends lines with CR LF)
	tr -d '\r' <"$rundir/guest.log" >"$rundir/guest.txt"
	# (the repetition in a fourth column: bench/report.sh pairs boots by it)
	sed -n 's/^@@bench \([^ ]*\) \([-0-9.]*\)$/'"$b"':\1\t'"$k"'\t\2\t'"$rep"'/p' "$rundir/guest.txt" >>"$raw"
	sed -n 's/^@@bench-skip \([^ ]*\) \(.*\)$/'"$b"':\1\t'"$k"'\t\2/p' "$rundir/guest.txt" >>"$out/skipped.tsv"
	# objects.sh's sites: boot, kernel, repetition, cache, site/via, count, bytes
	sed -n 's/^@@objects //p' "$rundir/guest.txt" |
		awk -v b="$b" -v k="$k" -v r="$rep" -v OFS='\t' '{ print b, k, r, $1, $2 "/" $3, $4, $5 }' \
		>>"$out/objects-raw.tsv"
	grep '^bench: ' "$rundir/guest.txt" >&2
	if ! grep -q '^@@bench' "$rundir/guest.txt"; then
		echo "bench: boot $b on $k (repetition $rep) gave no figure (logs: ${rundir#"$top"/})" >&2
		failed=$((failed + 1))
	fi
}

t0=$SECONDS
for rep in $(seq 1 "$reps"); do
	order="stock patched"
	[ $((rep % 2)) -eq 0 ] && order="patched stock"
	for b in $boots; do
		for k in $order; do
			run_one "$rep" "$b" "$k"
		done
	done
	echo "bench: repetition $rep of $reps done ($((SECONDS - t0)) s)" >&2
done

elapsed=$((SECONDS - t0))
bench/report.sh
echo "bench: $elapsed s of boots, $reps repetition(s), $failed failed boot(s); build/bench/results.tsv"
[ "$failed" -eq 0 ]
