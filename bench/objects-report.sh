#!/bin/bash
# The bytes an 8250 line holds, counted by object (bench/guest/objects.sh):
# from build/bench/objects-raw.tsv (the live slab objects of the objs8 and
# objs32 boots, by cache and allocation site), per repetition and kernel,
# (32-line boot - 8-line boot) / 24 for each site, and the series' share,
# patched - stock, site by site.  Writes the per-line totals as figures to
# build/bench/derived.tsv (report.sh puts them in the table) and the
# breakdown to build/bench/objects.txt: each site whose share or stock cost
# is at least 8 bytes a line, medians over the repetitions.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/bench
raw=$out/objects-raw.tsv
[ -s "$raw" ] || exit 0

# kernel, repetition, cache, site -> bytes and objects per line
awk -F'\t' -v OFS='\t' '
	{
		k = $2 SUBSEP $3 SUBSEP $4 SUBSEP $5
		if ($1 == "objs32") { b32[k] += $7; n32[k] += $6 }
		else if ($1 == "objs8") { b8[k] += $7; n8[k] += $6 }
		else next
		keys[k] = 1; have[$1, $2, $3] = 1
	}
	END {
		for (k in keys) {
			split(k, a, SUBSEP)
			if (!have["objs8", a[1], a[2]] || !have["objs32", a[1], a[2]])
				continue
			print a[1], a[2], a[3], a[4], (b32[k] - b8[k]) / 24, (n32[k] - n8[k]) / 24
		}
	}' "$raw" >"$out/objects-perline.tsv"

# The totals, as figures: per kernel and repetition, and the series' share
awk -F'\t' -v OFS='\t' '
	{ b[$1, $2] += $5; n[$1, $2] += $6; reps[$2] = 1; ks[$1] = 1 }
	END {
		for (r in reps) {
			for (k in ks) if ((k, r) in b) {
				printf "per-line:objects_bytes\t%s\t%.1f\n", k, b[k, r]
				printf "per-line:objects_count\t%s\t%.2f\n", k, n[k, r]
			}
			if (("patched", r) in b && ("stock", r) in b)
				printf "per-line:series_objects_bytes\tpatched\t%.1f\n",
					b["patched", r] - b["stock", r]
		}
	}' "$out/objects-perline.tsv" >>"$out/derived.tsv"

# median FILE: "key<TAB>value" lines -> "key<TAB>median"
median() {
	sort -t$'\t' -k1,1 -k2,2g "$1" | awk -F'\t' -v OFS='\t' '
		function flush() { if (n) print key, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2) }
		$1 != key { flush(); key = $1; n = 0 }
		{ v[++n] = $2 }
		END { flush() }'
}
# Per cache and site: stock's and patched's bytes a line, and patched -
# stock, each the median over the repetitions (a site absent from a boot
# counts 0).  The callers (site/via) are summed here: the same object may
# be reached through other functions on the two kernels (a tty device is
# registered from serdev_tty_port_register on the patched kernel).
awk -F'\t' -v OFS='\t' '
	{ sub(/\/.*/, "", $4); v[$1, $2, $3 " " $4] += $5; sites[$3 " " $4] = 1; reps[$2] = 1 }
	END {
		for (s in sites) for (r in reps) {
			st = ("stock", r, s) in v ? v["stock", r, s] : 0
			pa = ("patched", r, s) in v ? v["patched", r, s] : 0
			print "stock|" s, st
			print "patched|" s, pa
			print "share|" s, pa - st
		}
	}' "$out/objects-perline.tsv" >"$out/objects-sites.tsv"
median "$out/objects-sites.tsv" | awk -F'\t' -v OFS='\t' '
	{ split($1, a, "|"); m[a[1], a[2]] = $2; sites[a[2]] = 1 }
	END {
		for (s in sites) {
			sh = m["share", s]; st = m["stock", s]
			if (sh >= 8 || sh <= -8 || st >= 8)
				printf "%10.1f %10.1f %10.1f  %s\n", st, m["patched", s], sh, s
		}
	}' | sort -k3,3gr -k1,1gr >"$out/objects-sites.txt"
# The patched kernel's objects allocated through the bus's functions
# (via serdev*): what they are, by cache, site and the bus's caller
awk -F'\t' -v OFS='\t' '$1 == "patched" && $4 ~ /\/[a-z_]*serdev/ { print $3 " " $4, $5 }' \
	"$out/objects-perline.tsv" >"$out/objects-bus.tsv"
median "$out/objects-bus.tsv" | awk -F'\t' '$2 >= 8 { printf "%10.1f  %s\n", $2, $1 }' |
	sort -k1,1gr >"$out/objects-bus.txt"
{
	echo "Bytes an 8250 line holds, by slab cache and allocation site"
	echo "((32-line boot - 8-line boot) / 24, slub_debug=U; medians over the repetitions;"
	echo "sites with a share or a stock cost of at least 8 bytes a line)"
	echo
	printf "%10s %10s %10s  %s\n" stock patched share "cache site"
	cat "$out/objects-sites.txt"
	echo
	echo "The patched kernel's, allocated through the bus (site/caller; bytes a line):"
	cat "$out/objects-bus.txt"
} >"$out/objects.txt"
