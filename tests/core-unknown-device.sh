#!/bin/sh
# An SSDT describing a device on COM2 that no driver handles: the serdev
# device appears, nothing binds, and /dev/ttyS1 stays a working tty; removing
# the table removes the device and leaves the tty alone.
#@ machines: q35
#@ timeout: 180
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
ktap_start
ktap_plan 10

check "the table loads" ssdt_load nodrv runtime-nodrv-com2
wait_for 20 "the serdev device appears" has_serdev_dev
dev=$(serdev_devs)
# Before "no driver binds it" means anything, every driver must have been
# tried: a write of the device's name to the bus's drivers_probe returns
# once the driver core has matched it against each driver (synchronously)
check "$dev is matched against every driver (drivers_probe returns)" \
	sh -c "echo $dev >/sys/bus/serial/drivers_probe"
check "no driver binds it" test ! -e /sys/bus/serial/devices/$dev/driver
check "/dev/$tty stays" tty_back
check "$tty carries bytes both ways" tty_bytes
check "the table unloads" ssdt_unload nodrv
wait_for 10 "the serdev device goes away" no_serdev_dev
check "/dev/$tty is still there" tty_back
check "$tty carries bytes both ways after" tty_bytes

ktap_done
