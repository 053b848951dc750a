#!/bin/sh
# Overlay apply/remove cycles racing with a tty user: a GPS for COM2
# described by an overlay (dt-overlays/gps-com2-nolines.dtso) applied and
# removed through the configfs loader while another process keeps opening and
# closing /dev/ttyS1 and a stale node of it (the stress of core-stress.sh,
# guest-init/lib/ttyport/stress.sh).  No splat, no leak (the host scans
# kmemleak's report), and at the end the port is a working tty that the
# overlay's GPS can still take.
#
# Cycles: TEST_DT_CYCLES (qemu-run.sh passes TEST_* to the guest), default 15
# in make check-stress (30 took about 27 s); "make stress" runs 200.  Shares the q35
# boot of the core tests' world (with the other core stresses in make check-stress).
#@ machines: q35
#@ timeout: 900
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/overlay.sh
. /lib/ttyport/stress.sh
ktap_start
ktap_plan 15	# stress_checks (stress.sh)

cp $dtbo/gps-com2-nolines.dtbo /tmp/gps.dtbo
overlay_add() { ovl_apply gps /tmp/gps.dtbo && [ "$(ovl_status gps)" = applied ]; }
overlay_remove() { rmdir $ovl/gps; }
# An overlay cycle is short: 88 and 96 opens of the two nodes in 30 cycles.
stress_run ${TEST_DT_CYCLES:-15} "the GPS overlay" overlay_add overlay_remove 1

ktap_done
