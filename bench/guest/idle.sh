#!/bin/sh
# Idle cost: what the kernel spent to reach /init and the memory it holds
# after boot, with as many 8250 lines as this boot has (bench/run.sh boots it
# with 8 and with 32 lines, the 32 all backed by QEMU ports) and no device.
. /lib/ttyport/bench.sh

t=$(dmesg | sed -n 's/^\[ *\([0-9.]*\)\] Run \/init as init process.*/\1/p')
[ -n "$t" ] && fig boot_to_init_ms "$(awk -v t="$t" 'BEGIN { printf "%.1f", t * 1000 }')"
fig ttyS_lines "$(ls -d /sys/class/tty/ttyS* | wc -l)"
# The slab is where a port's objects live (its tty device, the 8250 and
# serial_core port, with the series its serdev controller, and their sysfs
# nodes).  MemFree is not used: per-CPU page lists and lazily freed pages
# move it by megabytes from boot to boot, far more than 24 ports cost.
kib() { sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo; }
sync
echo 3 >/proc/sys/vm/drop_caches
fig slab_kib "$(kib Slab)"
fig slab_unreclaimable_kib "$(kib SUnreclaim)"
exit $bench_rc
