#!/bin/sh
# The objects the kernel holds after boot, counted, with the function that
# allocated each: booted with slub_debug=U, every slab object records its
# allocation site and stack, and /sys/kernel/debug/slab/<cache>/alloc_traces
# lists the live objects of a cache by site (and stack).  bench/run.sh boots
# this with 8 and with 32 8250 lines (objs8, objs32);
# bench/objects-report.sh takes the difference per site, divides by 24 and
# sets stock beside patched: the bytes a port holds, by object, where the
# slab totals of the idle boots (noise of about 8 KiB a line) cannot say.
#
# One line a cache, site and caller: "@@objects CACHE SITE VIA COUNT BYTES":
# SITE the function that called the allocator, VIA the first function of
# the stack above it that is the bus's or a tty port's (serdev*, *ttyport*,
# tty_port*, uart_*, serial8250*, of_*, device_add_of_node), or "-"; BYTES
# is COUNT times the cache's object size (a kmalloc-64 object costs 64
# bytes, whatever was asked for).  The totals are figures.
. /lib/ttyport/bench.sh

slab=/sys/kernel/debug/slab
if ! grep -q '^ *[0-9]' $slab/kmalloc-64/alloc_traces 2>/dev/null; then
	fig_skip objects_bytes "no allocation traces in $slab: boot with slub_debug=U (SLUB_DEBUG, DEBUG_FS)"
	exit 1
fi
# What reading files and running this script cached goes first; RCU frees
# what the first drop released before the second.
sync
echo 3 >/proc/sys/vm/drop_caches
sleep 1
echo 3 >/proc/sys/vm/drop_caches
: >/tmp/objects
for c in $slab/*; do
	name=${c##*/}
	sz=$(cat /sys/kernel/slab/$name/object_size 2>/dev/null) || continue
	# a record: "  COUNT SITE+off/len age=... pid=...", its stack (one
	# frame a line, indented), a blank line
	awk -v cache="$name" -v sz="$sz" '
		function fn(s) { sub(/\+.*/, "", s); return s }
		function flush() { if (cnt) n[site " " via] += cnt; cnt = 0 }
		$1 ~ /^[0-9]+$/ && NF >= 2 { flush(); cnt = $1; site = fn($2); via = "-"; next }
		NF == 1 && cnt && via == "-" {
			f = fn($1)
			if (f ~ /serdev|ttyport|^tty_port|^uart_|^serial8250|^of_|^device_add_of_node/)
				via = f
			next
		}
		NF == 0 { flush() }
		END {
			flush()
			for (k in n) printf "%s %s %d %d\n", cache, k, n[k], n[k] * sz
		}
	' "$c/alloc_traces" >>/tmp/objects
done
sed 's/^/@@objects /' /tmp/objects
fig objects_count "$(awk '{ n += $4 } END { print n }' /tmp/objects)"
fig objects_bytes "$(awk '{ n += $5 } END { print n }' /tmp/objects)"
fig ttyS_lines "$(ls -d /sys/class/tty/ttyS* | wc -l)"
exit $bench_rc
