#!/bin/bash
# Scan a kernel log for splats: BUG, WARNING, KASAN, UBSAN, lockdep, kmemleak,
# list corruption, RCU stall, hung task (or a task /init found blocked at
# poweroff), oops or panic.  Prints each report's first line and what follows
# it; exits 1 if there is one, 0 if the log is clean.
#
#   logcheck.sh console.log
#
# The patterns are the headers 6.12 prints (lib/ubsan.c, lib/list_debug.c,
# kernel/locking/lockdep.c, mm/kmemleak.c, kernel/hung_task.c,
# kernel/rcu/tree_stall.h, ...), each anchored after the printk timestamp, so a
# test that merely echoes such a word in its own output (on hvc0, not here)
# cannot trip it.  Where a file sets pr_fmt the header carries its prefix
# ("rcu: ", "kmemleak: ").  tests/host/fixtures holds real reports of each kind.
log=${1:?usage: logcheck.sh LOG}

patterns=(
	'\] WARNING: '                   # WARN() (list corruption, ODEBUG), lockdep, suspicious RCU
	'\] BUG: '                       # BUG(), KASAN, sleeping in atomic, bad page state
	'\] \[ BUG: '                    # lockdep: "[ BUG: Invalid wait context ]"
	'\] BUG [^ ]+ \(.*\): '           # SLUB debug: "BUG kmalloc-32 (Not tainted): ..."
	'\] kernel BUG at '
	'\] INFO: trying to register non-static key' # lockdep
	'\] INFO: task .* blocked for more than' # hung task
	# RCU CPU stalls ("rcu: INFO: rcu_sched detected stalls on CPUs/tasks:",
	# "... self-detected stall on CPU", "... detected expedited stalls") and
	# RCU-tasks stalls ("INFO: rcu_tasks detected stalls on tasks:")
	'\] (rcu: )?INFO: rcu_[a-z_]+ (self-)?detected (expedited )?stall'
	'\] Oops: '                      # oopses, general protection faults
	'\] Kernel panic'
	'\] UBSAN: '
	'\] kmemleak: [0-9]+ new suspected memory leaks' # printed by each scan
	'\] kmemleak: unreferenced object 0x' # the report, as /init copies it here
	'\] (list_add|list_del) corruption' # the WARN() message before its WARNING line
	'\] list_add double add'
	'\] DEBUG_LOCKS_WARN_ON'
	'\] ttyport: task .* blocked in D state' # /init: a task hung at poweroff
	'\] ttyport: kmemleak scan failed' # /init: no leak check on an unlocked kernel
)
re=$(IFS='|'; echo "${patterns[*]}")
hits=$(grep -n -a -E "$re" "$log" | head -n 3)
[ -z "$hits" ] && exit 0

while IFS=: read -r line _; do
	sed -n "${line},$((line + 12))p" "$log"
	echo "  ..."
done <<<"$hits"
exit 1
