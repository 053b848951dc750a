#!/bin/bash
# Scan a kernel log for splats: BUG, WARNING, KASAN, lockdep, kmemleak, hung task,
# oops or panic.  Prints each report's first line and what follows it; exits 1 if
# there is one, 0 if the log is clean.
#
#   logcheck.sh console.log
#
# The patterns are the headers the kernel prints (see lib/Kconfig.debug's
# checkers): each is anchored after the printk timestamp, so a test that merely
# echoes such a word in its own output (on hvc0, not here) cannot trip it.
log=${1:?usage: logcheck.sh LOG}

patterns=(
	'\] WARNING: '                   # WARN(), lockdep, RCU, ODEBUG headers
	'\] BUG: '                       # BUG(), KASAN, sleeping in atomic, lockups
	'\] kernel BUG at '
	'\] INFO: task .* blocked for more than' # hung task
	'\] INFO: rcu_.* detected stall'
	'\] Oops: '
	'\] general protection fault'
	'\] Kernel panic'
	'\] UBSAN: '
	'unreferenced object 0x'              # kmemleak report (guest prints it after a scan)
	'kmemleak: [0-9]+ new suspected memory leaks'
	'(list_add|list_del) corruption'
	'DEBUG_LOCKS_WARN_ON'
)
re=$(IFS='|'; echo "${patterns[*]}")
hits=$(grep -n -a -E "$re" "$log" | head -n 3)
[ -z "$hits" ] && exit 0

while IFS=: read -r line _; do
	sed -n "${line},$((line + 12))p" "$log"
	echo "  ..."
done <<<"$hits"
exit 1
