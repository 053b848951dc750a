#!/bin/bash
# The table of make bench, from what bench/run.sh collected in build/bench
# (raw.tsv: "boot:figure, kernel, value, repetition" per measurement;
# skipped.tsv): the
# derived figures (derived.tsv), results.tsv (figure, kernel, n, min, median,
# max, patched/stock of the medians) and the table on stdout (table.txt).
# Run alone, it redoes the table without booting anything.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
out=$top/build/bench
raw=$out/raw.tsv
derived=$out/derived.tsv
[ -s "$raw" ] || { echo "bench: no measurements in $raw: run make bench" >&2; exit 2; }
: >"$derived"

# Per-line memory: (32-line boot - 8-line boot) / 24, per repetition and
# kernel; and the series' own share, patched - stock.
awk -F'\t' '
	# rep(KEY): the repetition of this line (raw.tsv'"'"'s fourth column; the
	# count of KEY in older files without it); c[KEY] is the highest seen
	function rep(key) { r = ($4 != "" ? $4 : ++cnt[key]); if (r > c[key]) c[key] = r; return r }
	$1 ~ /^idle(8|32):(slab_kib|slab_unreclaimable_kib)$/ {
		split($1, a, ":"); v[a[1], a[2], $2, rep(a[1] SUBSEP a[2] SUBSEP $2)] = $3
	}
	END {
		split("slab_kib slab_unreclaimable_kib", fs, " ")
		split("stock patched", ks, " ")
		for (f in fs) for (k in ks) for (i = 1; i <= c["idle32", fs[f], ks[k]]; i++)
			if (("idle8", fs[f], ks[k], i) in v) {
				pl[fs[f], ks[k], i] = (v["idle32", fs[f], ks[k], i] - v["idle8", fs[f], ks[k], i]) / 24
				printf "per-line:%s\t%s\t%.2f\n", fs[f], ks[k], pl[fs[f], ks[k], i]
			}
		# The series alone: patched - stock, repetition by repetition.
		for (f in fs) for (i = 1; i <= c["idle32", fs[f], "patched"]; i++)
			if ((fs[f], "patched", i) in pl && (fs[f], "stock", i) in pl)
				printf "per-line:series_%s\tpatched\t%.2f\n", fs[f],
					pl[fs[f], "patched", i] - pl[fs[f], "stock", i]
	}' "$raw" >>"$derived"

# Per-line boot cost, timed by the kernel (init8 and init32, initcall_debug):
# the 8250 and 8250_pci initcalls, (32-line boot - 8-line boot) / 24 per
# repetition and kernel, and the series' share, patched - stock.
awk -F'\t' '
	# rep(KEY): the repetition of this line (raw.tsv'"'"'s fourth column; the
	# count of KEY in older files without it); c[KEY] is the highest seen
	function rep(key) { r = ($4 != "" ? $4 : ++cnt[key]); if (r > c[key]) c[key] = r; return r }
	$1 ~ /^init(8|32):initcall_ports_us$/ {
		split($1, a, ":"); v[a[1], $2, rep(a[1] SUBSEP $2)] = $3
	}
	END {
		split("stock patched", ks, " ")
		for (k in ks) for (i = 1; i <= c["init32", ks[k]]; i++)
			if (("init8", ks[k], i) in v) {
				pl[ks[k], i] = (v["init32", ks[k], i] - v["init8", ks[k], i]) / 24
				printf "per-line:initcall_ports_us\t%s\t%.1f\n", ks[k], pl[ks[k], i]
			}
		for (i = 1; i <= c["init32", "patched"]; i++)
			if (("patched", i) in pl && ("stock", i) in pl)
				printf "per-line:series_initcall_ports_us\tpatched\t%.1f\n",
					pl["patched", i] - pl["stock", i]
	}' "$raw" >>"$derived"

# The data path against the path used today, per kernel and repetition:
# gnss-sirf's /dev/gnss0 over N_TTY's /dev/ttyS1, hci_nokia over btattach,
# and, per boot, hci_bcm through serdev over the same protocol through
# btattach -P bcm (pings and ACL bytes; both paths run in each bt-bcm boot).
awk -F'\t' '
	# rep(KEY): the repetition of this line (raw.tsv'"'"'s fourth column; the
	# count of KEY in older files without it); c[KEY] is the highest seen
	function rep(key) { r = ($4 != "" ? $4 : ++cnt[key]); if (r > c[key]) c[key] = r; return r }
	$1 ~ /^data-(gnss|tty):(gnss|tty)_bytes_per_s$|^bt-(serdev|ldisc):bt_(serdev|ldisc)_pings_per_s$/ {
		split($1, a, ":"); v[a[2], $2, rep(a[2] SUBSEP $2)] = $3
	}
	# (the bt-bcm boots: the key is the boot and the figure)
	$1 ~ /^bt-bcm-[a-z0-9]*:bt_bcm_(serdev|ldisc)_(pings|acl_bytes)_per_s$/ {
		split($1, a, ":"); boot[a[1]] = 1; v[$1, $2, rep($1 SUBSEP $2)] = $3
	}
	END {
		split("stock patched", ks, " ")
		for (k in ks) {
			for (i = 1; i <= c["gnss_bytes_per_s", ks[k]]; i++)
				if (("tty_bytes_per_s", ks[k], i) in v && v["tty_bytes_per_s", ks[k], i] > 0)
					printf "ratio:gnss/tty_bytes_per_s\t%s\t%.3f\n", ks[k],
						v["gnss_bytes_per_s", ks[k], i] / v["tty_bytes_per_s", ks[k], i]
			for (i = 1; i <= c["bt_serdev_pings_per_s", ks[k]]; i++)
				if (("bt_ldisc_pings_per_s", ks[k], i) in v && v["bt_ldisc_pings_per_s", ks[k], i] > 0)
					printf "ratio:bt_serdev/ldisc_pings_per_s\t%s\t%.3f\n", ks[k],
						v["bt_serdev_pings_per_s", ks[k], i] / v["bt_ldisc_pings_per_s", ks[k], i]
			split("pings acl_bytes", fs, " ")
			for (b in boot) for (f in fs) {
				s = b ":bt_bcm_serdev_" fs[f] "_per_s"; l = b ":bt_bcm_ldisc_" fs[f] "_per_s"
				for (i = 1; i <= c[s, ks[k]]; i++)
					if ((s, ks[k], i) in v && (l, ks[k], i) in v && v[l, ks[k], i] > 0)
						printf "ratio:bt_bcm_serdev/ldisc_%s_per_s\t%s\t%.3f\n", fs[f], ks[k],
							v[s, ks[k], i] / v[l, ks[k], i]
			}
		}
	}' "$raw" >>"$derived"

# hci_bcm's rounds (bt-bcm boots): serdev over the line discipline per round,
# all rounds of a kernel together: their mean and its 95% interval (mean +-
# 1.96 standard errors), the figures docs/bench.md gives for the goal.
awk -F'\t' '
	$1 ~ /^bt-bcm-[a-z0-9]*:bt_bcm_round_ratio$/ { n[$2]++; s[$2] += $3; ss[$2] += $3 * $3 }
	END {
		for (k in n) {
			if (n[k] < 2) continue
			m = s[k] / n[k]; v = (ss[k] - n[k] * m * m) / (n[k] - 1)
			e = 1.96 * sqrt(v > 0 ? v : 0) / sqrt(n[k])
			printf "ratio:bt_bcm_rounds_mean\t%s\t%.3f\n", k, m
			printf "ratio:bt_bcm_rounds_mean_low95\t%s\t%.3f\n", k, m - e
			printf "ratio:bt_bcm_rounds_mean_high95\t%s\t%.3f\n", k, m + e
		}
	}' "$raw" >>"$derived"

# The bytes a line holds, counted by object (objs8 and objs32 boots): the
# totals into derived.tsv, the breakdown by site into objects.txt.
bench/objects-report.sh

# make check's own times, from its last run (scripts/check.sh writes them).
if [ -r build/check/times.tsv ]; then
	awk -F'\t' '{ printf "check:%s\tdebug\t%s\n", $1, $2 }' build/check/times.tsv >>"$derived"
	checkskip=
else
	checkskip=$(printf 'check:total_s\tdebug\tno make check run in build/check')
fi

# Summary: n, min, median, max per figure and kernel; patched/stock of medians.
sort -t$'\t' -k1,1 -k2,2 -k3,3g "$raw" "$derived" | awk -F'\t' '
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
	{ cat "$out/skipped.tsv"; [ -n "$checkskip" ] && echo "$checkskip"; } | sort -u | awk -F'\t' '{ printf "%-44s %-7s skipped: %s\n", $1, $2, $3 }'
} | tee "$out/table.txt"
if [ -s "$out/objects.txt" ]; then
	echo
	head -n 40 "$out/objects.txt"
fi
