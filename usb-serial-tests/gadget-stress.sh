#!/bin/sh
# Plug/unplug cycles of a CDC-ACM gadget whose port carries a GPS bound to
# gnss-sirf and busy: the overlay describes the GPS at the gadget's place
# (gps-acm-gadget.dtso), so every plug binds it; NMEA is written into the
# far end as fast as the port takes it and a reader drains /dev/gnssN while
# the unplug comes, at a varying moment.  (The W2SG0004 model's one burst a
# second would cost a second a cycle; it gives the fix at the end.)  Every cycle: the GPS binds, its data arrives, the
# unplug (a UDC unbind) is timed from the write to the UDC file until the
# host side's USB device is gone, /dev/gnssN goes, the reader ends.  At the
# end the GPS still binds and gets a gpsd fix, nothing is left and the tty
# core never warned; the host fails the boot on any splat or kmemleak report.
#
# Cycles: TEST_GADGET_CYCLES (qemu-run.sh passes TEST_* to the guest),
# default 50 in make check-stress; 1000 with make stress.  A cycle took 1.7 to
# 2.5 s under TCG with a kernel build beside (50: 105 s, unplug mean
# 126 ms, max 560 ms); the timeout, times make stress's TIMEOUT_FACTOR,
# bounds 1000 of those.
#@ machines: q35
#@ timeout: 600
. /lib/ttyport/ktap.sh
. /lib/ttyport/gadget.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 14	# 2, 7 over the cycles, 5

cycles=${TEST_GADGET_CYCLES:-50}
unode=/serial-ports/platform-dummy_hcd.0-usbv2-0-1-1.0/serial@0/gnss
far=/dev/far-acm0

check "a gadget acm0 with an ACM function is made" gadget_create acm0 acm
check "gps-acm-gadget.dtbo applies" ovl_apply gpsstress $dtbo/gps-acm-gadget.dtbo

# nmea_flood: NMEA into the far end until a write fails (the unplug hangs
# ttyGSn up)
nmea_flood() {
	while printf '%s\r\n' "$nmea"; do :; done >$far 2>/dev/null
}
nmea='$GPGGA,120000.00,6010.1940,N,02456.3040,E,1,08,0.9,25.0,M,17.0,M,,*5A'

ms100() { # uptime in 1/100 s
	read -r _u _ </proc/uptime
	echo "${_u%.*}${_u#*.}"
}

: >/tmp/stress.notes
unbound=0 unread=0 plug_failed=0 unplug_failed=0 lingered=0 stuck=0 slow=0
maxms=0 summs=0 n=0
t0=$(ms100)
while [ $n -lt $cycles ]; do
	n=$((n + 1))
	c0=$(ms100)
	if ! gadget_plug acm0 >>/tmp/stress.notes 2>&1; then
		echo "cycle $n: the plug failed" >>/tmp/stress.notes
		plug_failed=$((plug_failed + 1))
		break
	fi
	if ! poll 20 sirf_on $unode || ! gnss=$(gnss_of $unode); then
		echo "cycle $n: no GPS bound 20 s after the plug; no more cycles" >>/tmp/stress.notes
		unbound=$((unbound + 1))
		gadget_unplug acm0 >>/tmp/stress.notes 2>&1
		break
	fi
	: >/tmp/gnss.stress
	cat /dev/$gnss >/tmp/gnss.stress 2>/dev/null &
	reader=$!
	nmea_flood &
	writer=$!
	poll 5 grep -q '\$GP' /tmp/gnss.stress || {
		unread=$((unread + 1))
		echo "cycle $n: no NMEA from /dev/$gnss in 5 s" >>/tmp/stress.notes
	}
	sleep 0.0$((n % 10))
	if gadget_unplug_timed acm0 >>/tmp/stress.notes 2>&1; then
		ms=$(cat /tmp/unplug.ms)
	else
		ms=
		unplug_failed=$((unplug_failed + 1))
		echo "cycle $n: the unplug failed" >>/tmp/stress.notes
	fi
	poll 5 test ! -e /dev/$gnss || {
		lingered=$((lingered + 1))
		echo "cycle $n: /dev/$gnss still there 5 s after the unplug" >>/tmp/stress.notes
	}
	poll 5 eval "! kill -0 $reader 2>/dev/null" || {
		stuck=$((stuck + 1))
		echo "cycle $n: the reader of /dev/$gnss did not end" >>/tmp/stress.notes
		kill $reader
	}
	wait $reader 2>/dev/null
	poll 5 eval "! kill -0 $writer 2>/dev/null" || {
		stuck=$((stuck + 1))
		echo "cycle $n: the writer on $far did not end at the hang-up" >>/tmp/stress.notes
		kill $writer
	}
	wait $writer 2>/dev/null
	# (not a speed target: docs/bench.md times the unplugs; an unplug
	# that waited out a drain or a reply would take seconds)
	if [ -z "$ms" ] || [ "$ms" -ge 5000 ]; then
		slow=$((slow + 1))
		echo "cycle $n: the unplug took ${ms:-?} ms" >>/tmp/stress.notes
	fi
	[ -n "$ms" ] && [ "$ms" -gt $maxms ] && maxms=$ms
	summs=$((summs + ${ms:-0}))
	echo "# cycle $n: $(( ($(ms100) - c0) * 10 )) ms, unplug ${ms:-?} ms"
done
el=$(( ($(ms100) - t0) * 10 ))
sed 's/^/# /' /tmp/stress.notes
echo "# $n cycles in $el ms: $((el / (n > 0 ? n : 1))) ms a cycle;" \
	"unplug: max $maxms ms, mean $((summs / (n > 0 ? n : 1))) ms"
check_eq "$cycles plug/unplug cycles ran" $cycles $n
check_eq "every plug succeeded and the GPS bound (cycles without)" 0 $((plug_failed + unbound))
check_eq "NMEA came out of /dev/gnssN in every cycle (cycles without)" 0 $unread
check_eq "every unplug succeeded (cycles it failed)" 0 $unplug_failed
check_eq "/dev/gnssN went within 5 s of every unplug (cycles it stayed)" 0 $lingered
check_eq "the reader of /dev/gnssN and the writer on the far end ended at every unplug (cycles either hung)" 0 $stuck
check_eq "no unplug waited out a timeout: each under 5 s (cycles over, max $maxms ms)" 0 $slow

# --- the port still works -------------------------------------------------------
check "the gadget plugs in once more" gadget_plug acm0
wait_for 20 "gnss-sirf binds the GPS after the cycles" sirf_on $unode
gps_model_start
check "gpsd reports a 3D fix at the model's position" gps_fix_at_model /dev/$(gnss_of $unode)
gps_model_stop
check "the overlay is removed and the gadget comes apart" \
	eval "rmdir $ovl/gpsstress && gadget_remove acm0"
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
