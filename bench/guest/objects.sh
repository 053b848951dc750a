#!/bin/sh
# The objects the kernel holds after boot, counted, with the function that
# allocated each: booted with slub_debug=U, every slab object records its
# allocation site, and /sys/kernel/slab/<cache>/alloc_calls lists the live
# objects of a cache by site.  bench/run.sh boots this with 8 and with 32
# 8250 lines (objs8, objs32); bench/objects-report.sh takes the difference
# per site, divides by 24 and sets stock beside patched: the bytes a port
# holds, by object, where the slab totals of the idle boots (noise of about
# 8 KiB a line) cannot say.
#
# One line a cache and site: "@@objects CACHE SITE COUNT BYTES", BYTES being
# COUNT times the cache's object size (a kmalloc-64 object costs 64 bytes,
# whatever was asked for); and the totals as figures.
. /lib/ttyport/bench.sh

if ! grep -q '[0-9]' /sys/kernel/slab/kmalloc-64/alloc_calls 2>/dev/null; then
	fig_skip objects_bytes "no allocation sites: boot with slub_debug=U (SLUB_DEBUG)"
	exit 1
fi
# What reading files and running this script cached goes first; RCU frees
# what the first drop released before the second.
sync
echo 3 >/proc/sys/vm/drop_caches
sleep 1
echo 3 >/proc/sys/vm/drop_caches
: >/tmp/objects
for c in /sys/kernel/slab/*; do
	[ -L "$c" ] && continue		# a merged cache's alias
	sz=$(cat "$c/object_size")
	awk -v cache="${c##*/}" -v sz="$sz" '
		$1 ~ /^[0-9]+$/ { site = $2; sub(/\+.*/, "", site); n[site] += $1 }
		END { for (s in n) printf "%s %s %d %d\n", cache, s, n[s], n[s] * sz }
	' "$c/alloc_calls" >>/tmp/objects
done
sed 's/^/@@objects /' /tmp/objects
fig objects_count "$(awk '{ n += $3 } END { print n }' /tmp/objects)"
fig objects_bytes "$(awk '{ n += $4 } END { print n }' /tmp/objects)"
fig ttyS_lines "$(ls -d /sys/class/tty/ttyS* | wc -l)"
exit $bench_rc
