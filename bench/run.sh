#!/bin/bash
# make bench: every benchmark on the stock and the patched kernel, in one run.
#
#   bench/run.sh            BENCH_REPS (default 5) repetitions
#   BENCH_SMOKE=1           one repetition of each boot, 2 s reads (CI)
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
if [ -n "${BENCH_SMOKE:-}" ]; then
	reps=1
	secs=2
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

# boot NAME: the settings of one benchmark boot (qemu-run.sh's variables)
boot_env() {
	case "$1" in
	idle8) echo "SCRIPT=bench/guest/idle.sh" ;;
	idle32) echo "SCRIPT=bench/guest/idle.sh APPEND=8250.nr_uarts=32" ;;
	bind) echo "SCRIPT=bench/guest/bind.sh SSDT=acpi-tables/xhci-rhub.asl:acpi-tables/gps-usb-nolines.asl" ;;
	data-tty) echo "SCRIPT=bench/guest/data.sh" ;;
	data-gnss) echo "SCRIPT=bench/guest/data.sh SSDT=acpi-tables/gps-com2.asl" ;;
	esac
}
boots="idle8 idle32 bind data-tty data-gnss"

mkdir -p "$out/runs"
raw=$out/raw.tsv
: >"$raw"
: >"$out/skipped.tsv"
failed=0

run_one() { # rep boot kernel
	local rep=$1 b=$2 k=$3 rundir=$out/runs/$1-$2-$3 e
	local -a env=()
	for e in $(boot_env "$b"); do env+=("${e//:/ }"); done
	[ "$b" = idle32 ] && env+=("QEMU_ARGS=$ports32")
	if ! env "${env[@]}" KERNEL="${kernel[$k]}" RUNDIR="$rundir" QUIET=1 \
		TIMEOUT=240 TEST_KERNEL="$k" TEST_SECONDS="$secs" \
		scripts/qemu-run.sh >"$rundir.err" 2>&1; then
		echo "bench: boot $b on $k (repetition $rep) failed: $(tail -n 3 "$rundir.err")" >&2
		failed=$((failed + 1))
	fi
	sed -n 's/^@@bench \([^ ]*\) \([-0-9.]*\)$/\1\t'"$k"'\t\2/p' "$rundir/guest.log" |
		sed "s/^/$b:/" >>"$raw"
	sed -n 's/^@@bench-skip \([^ ]*\) \(.*\)$/'"$b"':\1\t'"$k"'\t\2/p' "$rundir/guest.log" >>"$out/skipped.tsv"
	grep '^bench: ' "$rundir/guest.log" >&2
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

# Per-line memory: (32-line boot - 8-line boot) / 24, per repetition and kernel.
awk -F'\t' '
	$1 ~ /^idle(8|32):(mem_used_kib|slab_kib|slab_unreclaimable_kib)$/ {
		split($1, a, ":"); v[a[1], a[2], $2, ++c[a[1], a[2], $2]] = $3
	}
	END {
		split("mem_used_kib slab_kib slab_unreclaimable_kib", fs, " ")
		split("stock patched", ks, " ")
		for (f in fs) for (k in ks) for (i = 1; i <= c["idle32", fs[f], ks[k]]; i++)
			if (("idle8", fs[f], ks[k], i) in v)
				printf "per-line:%s\t%s\t%.2f\n", fs[f], ks[k],
					(v["idle32", fs[f], ks[k], i] - v["idle8", fs[f], ks[k], i]) / 24
	}' "$raw" >>"$raw"

# make check's own times, from its last run (scripts/check.sh writes them).
if [ -r build/check/times.tsv ]; then
	awk -F'\t' '{ printf "check:%s\tdebug\t%s\n", $1, $2 }' build/check/times.tsv >>"$raw"
else
	printf 'check:total_s\tdebug\tno make check run in build/check\n' >>"$out/skipped.tsv"
fi

# Summary: n, min, median, max per figure and kernel; patched/stock of medians.
sort -t$'\t' -k1,1 -k2,2 -k3,3g "$raw" | awk -F'\t' '
	{ key = $1 "\t" $2; v[key, ++n[key]] = $3; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key } }
	END {
		for (i = 1; i <= nk; i++) {
			k = keys[i]; m = n[k]
			med = (m % 2) ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
			split(k, p, "\t"); medof[p[1], p[2]] = med
			line[i] = sprintf("%s\t%d\t%s\t%s\t%s", k, m, v[k, 1], med, v[k, m])
			fig[i] = p[1]
		}
		for (i = 1; i <= nk; i++) {
			r = "-"
			if ((fig[i], "stock") in medof && (fig[i], "patched") in medof && medof[fig[i], "stock"] != 0)
				r = sprintf("%.3f", medof[fig[i], "patched"] / medof[fig[i], "stock"])
			print line[i] "\t" r
		}
	}' >"$out/results.tsv"

{
	printf '%-44s %-7s %3s %10s %10s %10s %8s\n' figure kernel n min median max p/s
	awk -F'\t' '{ printf "%-44s %-7s %3s %10s %10s %10s %8s\n", $1, $2, $3, $4, $5, $6, $7 }' "$out/results.tsv"
	sort -u "$out/skipped.tsv" | awk -F'\t' '{ printf "%-44s %-7s skipped: %s\n", $1, $2, $3 }'
} | tee "$out/table.txt"
echo "bench: $((SECONDS - t0)) s, $reps repetition(s), $failed failed boot(s); build/bench/results.tsv"
[ "$failed" -eq 0 ]
