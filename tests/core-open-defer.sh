#!/bin/sh
# A GPS described while /dev/ttyS1 is open does not take the port from under
# its user: the tty keeps working, one log line says the bind waits, and the
# bind happens when the tty is last closed.  Same for a bind through sysfs.
#@ machines: q35
#@ timeout: 240
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
ktap_start

exec 3</dev/$tty
check "the GPS table loads while $tty is open" ssdt_load gps runtime-gps-com2
wait_for 20 "the serdev device appears" has_serdev_dev
sleep 2
check "gnss-sirf does not bind while $tty is open" sirf_unbound
check "/dev/$tty is still there" tty_back
check "$tty still carries bytes both ways" tty_bytes
n=$(dmesg | grep -c 'is open: binding gnss-sirf deferred until it is closed')
check_eq "one log line says the bind is deferred" 1 "$n"
exec 3>&-
wait_for 20 "gnss-sirf binds once $tty is closed" sirf_bound
wait_for 5 "/dev/$tty is gone" tty_gone

dev=$(serdev_devs)
drv=/sys/bus/serial/drivers/gnss-sirf
check "unbind through sysfs" sh -c "echo $dev >$drv/unbind"
wait_for 5 "/dev/$tty comes back on unbind" tty_back
exec 3</dev/$tty
sh -c "echo $dev >$drv/bind" 2>/dev/null
check "a sysfs bind while $tty is open does not take it" sirf_unbound
check "/dev/$tty is still there after the sysfs bind" tty_back
check "$tty carries bytes both ways meanwhile" tty_bytes
exec 3>&-
wait_for 20 "the sysfs bind completes once $tty is closed" sirf_bound
wait_for 5 "/dev/$tty is gone after the deferred bind" tty_gone

check "the table unloads" ssdt_unload gps
wait_for 10 "/dev/$tty comes back" tty_back
check "$tty carries bytes both ways at the end" tty_bytes

ktap_done
