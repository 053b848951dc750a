#!/bin/sh
# Cycles of loading and unloading a GPS table for COM2 while another
# process keeps opening and closing /dev/ttyS1 (and a stale node of it), so
# that binds, deferred binds, unbinds and the tty coming and going race with
# opens and closes: no splat, no leak (the host scans kmemleak's report),
# and at the end the port is a working tty that a GPS can still take.
#
# Nothing settles before the rmdir: every fifth cycle unloads the table
# right after loading it, while the scan's devices are still being probed;
# the others unload it as soon as the GPS is bound (its bind uevent may
# still be being built) or, when the tty was held open, while the bind is
# deferred and the opener's next last close starts it.  The ACPI core
# removes a table's devices before it deletes the table's namespace, so a
# probe in flight never sees a stale ACPI handle.
#
# Cycles: TEST_CORE_CYCLES (qemu-run.sh passes TEST_* to the guest), default
# 25 in make check-stress (50 took about 45 s); "make stress" runs 200.
#@ machines: q35
#@ timeout: 1200
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/stress.sh
ktap_start
ktap_plan 15	# stress_checks (stress.sh)

cp /lib/ttyport/tables/runtime-gps-com2.aml /tmp/gps.aml
table_add() {
	mkdir $tables/gps && cat /tmp/gps.aml >$tables/gps/aml && table_loaded gps /tmp/gps.aml
}
table_remove() { rmdir $tables/gps; }
stress_run ${TEST_CORE_CYCLES:-25} "the GPS table" table_add table_remove

ktap_done
