#!/bin/sh
# Plug/unplug cycles of a USB-serial adapter whose port carries a GPS bound to
# gnss-sirf (gps-usb-nolines.asl, RHUB.PRT8: QMP port=4) while gpsd reads
# /dev/gnss0: every cycle the GPS binds, gpsd opens it, the unplug removes
# it, gpsd lives on, and the hub thread spends under 5 s (no timeout waited out) from "USB
# disconnect" to usb-serial's "device disconnected".  At the end the GPS still
# binds and gets a fix, bytes flow, nothing is left and the tty core never
# warned; the host fails the boot on any splat or kmemleak report.
#
# Cycles: TEST_USB_CYCLES (qemu-run.sh passes TEST_* to the guest), default
# 6 in make check-stress (10 took about 36 s); the 200 with "make stress" (about 3-4 s a cycle
# under TCG: 200 cycles took 755 s, the hub thread at most 737 ms, mean 55).
# The table gives no on/off line, so gnss-sirf does not listen 2 s at each
# probe, and the model is always on.  Shares the boot of the other USB tests'
# world on q35 (the same SSDTs; alone in it in make check-stress).
#@ machines: q35
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb.asl acpi-tables/gps-usb-nolines.asl
#@ timeout: 240
. /lib/ttyport/ktap.sh
. /lib/ttyport/usb.sh
. /lib/ttyport/gps.sh
ktap_start
ktap_plan 15

cycles=${TEST_USB_CYCLES:-6}
far=/dev/far-usb1
gps_model_start

# gpsd_has_gnss0: gpsd holds /dev/gnss0 open
gpsd_has_gnss0() {
	ls -l /proc/$gpsd_pid/fd 2>/dev/null | grep -q /dev/gnss0
}

ms100() { # uptime in 1/100 s
	read -r _u _ </proc/uptime
	echo "${_u%.*}${_u#*.}"
}

: >/tmp/stress.notes
unbound=0
unread=0
slow=0
dead=0
unplug_failed=0
lingered=0
maxms=0
summs=0
n=0
t0=$(ms100)
while [ $n -lt $cycles ]; do
	n=$((n + 1))
	c0=$(ms100)
	usb_log_mark cycle-$n	# this cycle's unplug is timed after it
	if ! usb_plug usb1 4 >>/tmp/stress.notes 2>&1; then
		echo "cycle $n: the plug failed" >>/tmp/stress.notes
		unbound=$((unbound + 1))
		break
	fi
	if ! poll 20 usb_bound gnss-sirf usb1 || ! poll 5 test -c /dev/gnss0; then
		echo "cycle $n: no GPS bound 20 s after the plug; no more cycles" \
			>>/tmp/stress.notes
		unbound=$((unbound + 1))
		usb_unplug usb1 >>/tmp/stress.notes 2>&1
		break
	else
		gpsd_start /dev/gnss0
		# gpsd has the device open and NMEA is flowing into it; the
		# unplug then comes at a varying moment of gpsd's reading
		poll 10 gpsd_has_gnss0 || {
			unread=$((unread + 1))
			echo "cycle $n: gpsd did not open /dev/gnss0" >>/tmp/stress.notes
		}
		sleep 0.$((n % 10))
	fi
	usb_unplug usb1 >>/tmp/stress.notes 2>&1 || {
		unplug_failed=$((unplug_failed + 1))
		echo "cycle $n: the unplug failed" >>/tmp/stress.notes
	}
	poll 10 test ! -e /dev/gnss0 || {
		lingered=$((lingered + 1))
		echo "cycle $n: /dev/gnss0 still there 10 s after the unplug" >>/tmp/stress.notes
	}
	if [ -n "${gpsd_pid:-}" ]; then
		gpsd_alive || {
			dead=$((dead + 1))
			echo "cycle $n: gpsd died with the unplug" >>/tmp/stress.notes
		}
		gpsd_stop
		gpsd_pid=
	fi
	ms=$(usb_disconnect_ms 1-4 cycle-$n)
	if [ -z "$ms" ] || [ "$ms" -ge 5000 ]; then
		slow=$((slow + 1))
		echo "cycle $n: the hub thread took ${ms:-?} ms" >>/tmp/stress.notes
	fi
	[ -n "$ms" ] && [ "$ms" -gt $maxms ] && maxms=$ms
	summs=$((summs + ${ms:-0}))
	echo "# cycle $n: $(( ($(ms100) - c0) * 10 )) ms, hub thread ${ms:-?} ms"
done
el=$(( ($(ms100) - t0) * 10 ))
sed 's/^/# /' /tmp/stress.notes
echo "# $n cycles in $el ms: $((el / (n > 0 ? n : 1))) ms a cycle;" \
	"hub thread: max $maxms ms, mean $((summs / (n > 0 ? n : 1))) ms"
check_eq "$cycles plug/unplug cycles ran" $cycles $n
check_eq "the GPS bound in every cycle (cycles without)" 0 $unbound
check_eq "gpsd had /dev/gnss0 open in every cycle (cycles without)" 0 $unread
check_eq "every unplug succeeded (cycles it failed)" 0 $unplug_failed
check_eq "/dev/gnss0 went within 10 s of every unplug (cycles it stayed)" 0 $lingered
check_eq "gpsd lived through every unplug (cycles it died)" 0 $dead
check_eq "no unplug had the hub thread wait out a timeout: each under 5 s (cycles over, max $maxms ms)" 0 $slow

# --- the port still works -------------------------------------------------------
check "the host plugs the adapter once more" usb_plug usb1 4
usb_use usb1
wait_for 20 "gnss-sirf binds the GPS after the cycles" usb_bound gnss-sirf usb1
check "gpsd reports a 3D fix at the model's position" gps_fix_at_model /dev/gnss0
gps_model_stop
check "bytes flow between /dev/gnss0 and the far end" gnss_data
check "the host unplugs it" usb_unplug usb1
wait_for 10 "nothing is left on the usb-serial bus" no_usb_serial_ports
check "no serdev device is left" no_serdev_dev
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
