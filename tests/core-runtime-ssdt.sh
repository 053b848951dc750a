#!/bin/sh
# An SSDT loaded at runtime through configfs describes a W2SG0004 GPS on COM2:
# gnss-sirf binds and /dev/ttyS1 gives way; removing the table brings the tty
# back, working both ways; loading it again binds again.  gpsd gets a fix
# from an always-on GPS model while the table is loaded.  While the GPS holds
# the port, an open of a stale ttyS1 node fails with EBUSY.
#@ machines: q35 pc
#@ timeout: 240
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/gps.sh
ktap_start

check "/dev/$tty is a tty before any table is loaded" tty_back
check "$tty carries bytes both ways before" tty_bytes
devno=$(cat /sys/class/tty/$tty/dev)
mknod /tmp/stale-$tty c "${devno%%:*}" "${devno##*:}"

check "the GPS table loads through configfs" ssdt_load gps runtime-gps-com2
wait_for 20 "gnss-sirf binds the runtime GPS" sirf_bound
wait_for 5 "/dev/$tty is gone while the GPS holds the port" tty_gone
wait_for 5 "/dev/gnss0 appears" test -c /dev/gnss0
dev=$(serdev_devs)
check "the serdev device's firmware node is the table's GPSR" \
	grep -qx '\\_SB_.GPSR' /sys/bus/serial/devices/$dev/firmware_node/path
check "opening a stale $tty node fails with EBUSY" open_fails_busy /tmp/stale-$tty
check "bytes flow between /dev/gnss0 and the far end" gnss_data
gps_model_start
check "gpsd on /dev/gnss0 reports a 3D fix at the model's position" \
	gps_fix_at_model /dev/gnss0
gps_model_stop

check "the table unloads (rmdir)" ssdt_unload gps
wait_for 10 "the serdev device goes away" no_serdev_dev
wait_for 10 "/dev/$tty comes back" tty_back
check "/dev/gnss0 is gone" test ! -e /dev/gnss0
check "$tty carries bytes both ways after the GPS left" tty_bytes
check "the stale node opens again" sh -c "exec 3<>/tmp/stale-$tty"

check "the GPS table loads again" ssdt_load gps runtime-gps-com2
wait_for 20 "gnss-sirf binds the GPS again" sirf_bound
wait_for 5 "/dev/$tty is gone again" tty_gone
check "the table unloads again" ssdt_unload gps
wait_for 10 "/dev/$tty comes back again" tty_back
check "$tty carries bytes both ways at the end" tty_bytes

ktap_done
