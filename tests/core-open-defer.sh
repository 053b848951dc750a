#!/bin/sh
# A GPS described while /dev/ttyS1 is open does not take the port from under
# its user: the tty keeps working, one log line says the bind waits, and the
# bind happens when the tty is last closed.  Same for a bind through sysfs.
# A probe that defers (hci_nokia waiting for a GPIO controller) leaves the
# tty device alone: no remove and add, no uevent, however often it retries.
#@ machines: q35
#@ timeout: 240
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
ktap_start
ktap_plan 32

# deferrals: how many times the kernel said a bind waits for the tty
deferrals() { dmesg | grep -c 'is open: binding gnss-sirf deferred until it is closed'; }
deferred_n() { [ "$(deferrals)" -ge "$1" ]; }

# The bind's deferral is the event to wait for (the probe ran and gave way);
# only then does "not bound" mean something.
exec 3</dev/$tty
check "the GPS table loads while $tty is open" ssdt_load gps runtime-gps-com2
wait_for 20 "the serdev device appears" has_serdev_dev
wait_for 20 "its bind is deferred: the kernel says so" deferred_n 1
check "gnss-sirf does not bind while $tty is open" sirf_unbound
check "/dev/$tty is still there" tty_back
check "$tty still carries bytes both ways" tty_bytes
check_eq "one log line says the bind is deferred" 1 "$(deferrals)"
exec 3>&-
wait_for 20 "gnss-sirf binds once $tty is closed" sirf_bound
wait_for 5 "/dev/$tty is gone" tty_gone

dev=$(serdev_devs)
drv=/sys/bus/serial/drivers/gnss-sirf
check "unbind through sysfs" sh -c "echo $dev >$drv/unbind"
wait_for 5 "/dev/$tty comes back on unbind" tty_back
exec 3</dev/$tty
# (the bind file's write returns once the probe ran; it deferred)
sh -c "echo $dev >$drv/bind" 2>/dev/null
wait_for 10 "a sysfs bind while $tty is open is deferred: a second log line" deferred_n 2
check "a sysfs bind while $tty is open does not take it" sirf_unbound
check "/dev/$tty is still there after the sysfs bind" tty_back
check "$tty carries bytes both ways meanwhile" tty_bytes
exec 3>&-
wait_for 20 "the sysfs bind completes once $tty is closed" sirf_bound
wait_for 5 "/dev/$tty is gone after the deferred bind" tty_gone

check "the table unloads" ssdt_unload gps
wait_for 10 "/dev/$tty comes back" tty_back
check "$tty carries bytes both ways at the end" tty_bytes

# --- a probe that defers does not churn the tty -------------------------------
check "a Nokia table whose GPIO controller is absent loads" \
	ssdt_load nokia runtime-nokia-nogpiochip-com2
wait_for 20 "its serdev device appears" has_serdev_dev
dev=$(serdev_devs)
deferred() { grep -q "^$dev" /sys/kernel/debug/devices_deferred; }
wait_for 20 "hci_nokia's probe of $dev defers (devices_deferred)" deferred
sed 's/^/# /' /sys/kernel/debug/devices_deferred
# The kernfs inode of the tty's dev file: a tty device removed and added
# again gets a new one.
ino=$(stat -c %i /sys/class/tty/$tty/dev)
uevents_start
for i in 1 2 3 4 5; do
	echo "$dev" >/sys/bus/serial/drivers_probe
done
check "the probe still defers after 5 more attempts" deferred
check "/dev/$tty is there throughout" tty_back
check_eq "the tty device was not removed and added again" "$ino" \
	"$(stat -c %i /sys/class/tty/$tty/dev 2>/dev/null)"
# The uevent helper runs one process per event, late under TCG: a marker
# event, once logged, shows that the attempts' events (if any) are too,
# give or take the second after it (each event's helper is a process of
# its own, and they may finish out of order).
echo change >/sys/class/tty/ttyS0/uevent
wait_for 20 "a marker uevent (ttyS0 change) is logged" \
	uevent_seen "^change /.*/tty/ttyS0\$"
sleep 1
n=$(grep -cE "/tty/$tty\$|SERDEV_PERSONALITY" /run/uevents)
sed 's/^/# uevent: /' /run/uevents
check_eq "no tty or personality uevent came from the attempts" 0 "$n"
check "$tty carries bytes both ways while the probe defers" tty_bytes
check "the Nokia table unloads" ssdt_unload nokia
wait_for 10 "its serdev device goes away" no_serdev_dev
check "$tty carries bytes both ways after" tty_bytes

ktap_done
