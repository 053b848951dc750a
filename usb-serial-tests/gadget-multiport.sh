#!/bin/sh
# Several ports behind one USB interface, as Johan Hovold asked a
# description to name: a gadget with NovAtel FlexPack GPS's IDs (09d7:0100,
# which usb_serial_simple serves with three ports) and one FunctionFS
# interface of three bulk pairs (models/ffs-multiport.c), so the host has
# three ttyUSB ports on one interface.  Each port has a controller of its
# own and carries bytes to its own far end.  An overlay describing a GPS on
# the third port (serial@2 under the interface's node,
# dt-overlays/gps-multiport-port2.dtso) binds it there and only there; a GPS
# from new_device on the second port gets serial@1.  Unplugged with the two
# bound and gpsd reading one, both go, with no tty count warning.
# (dummy_hcd has no ACPI node, so no table can describe these ports: see
# docs/gadget.md.)
#@ machines: q35
#@ timeout: 150
. /lib/ttyport/ktap.sh
. /lib/ttyport/gadget.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 37	# 6, 3 per port and 1, 8, 5, 8

carrier=/serial-ports/platform-dummy_hcd.0-usbv2-0-1-1.0

nov0_if() { # the one interface's sysfs directory
	world_usb_of nov0 >/dev/null && echo "$world_usb/$(basename "$world_usb"):1.0"
}
ctrl_dev() { # CTRL DRIVER: the serdev device on controller CTRL bound to DRIVER
	for _d in "$1"/serial*-*; do
		[ -e "$_d/driver" ] && [ "$(basename "$(readlink "$_d/driver")")" = "$2" ] &&
			{ basename "$_d"; return 0; }
	done
	return 1
}

GADGET_IDS=0x09d7:0x0100
check "a gadget nov0 with one FunctionFS interface of three bulk pairs is made" \
	gadget_create nov0 ffs3
check "it plugs in" gadget_plug nov0
check_eq "its USB device has one interface (premise)" 1 \
	"$(world_usb_of nov0 >/dev/null && tr -d ' ' <"$world_usb/bNumInterfaces")"
wait_for 10 "the host side has its third ttyUSB port" gadget_tty nov0 2
check_eq "the interface's driver is usb_serial_simple" usb_serial_simple \
	"$(basename "$(readlink "$(nov0_if)/driver")")"
check_eq "all three ports are on that interface" 3 "$(ls -d "$(nov0_if)"/ttyUSB* | wc -l)"

WIRE_SPEED=	# usb_serial_simple has no line settings (wire.sh)
for i in 0 1 2; do
	t=$(gadget_tty nov0 $i)
	c=$(tty_ctrl $t)
	w=nov0.$i
	[ $i = 0 ] && w=nov0
	eval "t$i=$t c$i=$c"
	check "port $i ($t) has a serdev controller" test -n "$c"
	check "port $i has no node while nothing describes a device on it" \
		test -d "$c" -a ! -e "$c/of_node"
	check "port $i ($t) carries bytes to its own far end, /dev/far-$w" wire_carries $t $w
done
# shellcheck disable=SC2154 # t0..t2, c0..c2: set by the eval above
check "the three controllers are three" \
	test "$(printf '%s\n' "$c0" "$c1" "$c2" | sort -u | grep -c .)" = 3

# --- a GPS on the third port, from an overlay -----------------------------------------
check "gps-multiport-port2.dtbo applies" ovl_apply gpsmp $dtbo/gps-multiport-port2.dtbo
far=/dev/far-nov0.2
gps_model_start
wait_for 20 "gnss-sirf binds the overlay's GPS" sirf_on $carrier/serial@2/gnss
check "it is on the third port's controller, $(basename "$c2")" ctrl_dev "$c2" gnss-sirf
check "the first and second ports have no serdev device" \
	eval "[ -d '$c0' ] && [ -d '$c1' ] && [ -z \"\$(ls -d $c0/serial*-* $c1/serial*-* 2>/dev/null)\" ]"
check_eq "the third port's controller has serial@2's node" "$base$carrier/serial@2" \
	"$(readlink -f "$c2/of_node")"
wait_for 5 "/dev/$t2 gives way" test ! -e /dev/$t2
check "/dev/$t0 and /dev/$t1 stay plain ttys" test -c /dev/$t0 -a -c /dev/$t1
gnss2=$(gnss_of $carrier/serial@2/gnss)
check "gpsd on /dev/$gnss2 reports a 3D fix at the model's position" \
	gps_fix_at_model /dev/$gnss2
gps_model_stop

# --- a second GPS on the second port, from new_device -----------------------------------
far=/dev/far-nov0.1
gps_model_start
check "new_device adds a GPS on the second port" sh -c "echo wi2wi,w2sg0004 >$c1/new_device"
wait_for 20 "gnss-sirf binds it there" ctrl_dev "$c1" gnss-sirf
check_eq "new_device made the second port's node, serial@1" "$base$carrier/serial@1" \
	"$(readlink -f "$c1/of_node")"
check "the first port still carries bytes" wire_carries $t0 nov0
gnss1=$(ls "$c1/$(ctrl_dev "$c1" gnss-sirf)/gnss" 2>/dev/null)
gpsd_start /dev/$gnss1
check "gpsd on /dev/$gnss1 reports a 3D fix" gpsd_wait_fix 15

# --- unplugged with two ports bound and gpsd reading --------------------------------------
gadget_log_mark mp-unplug
check "the gadget unplugs with GPS bound on two of its ports" gadget_unplug_timed nov0
ms=$(cat /tmp/unplug.ms 2>/dev/null)
# Not a speed target (the bench times unplugs, docs/bench.md): a teardown
# that waited out a drain or a reply would take seconds (usb-serial's
# closing_wait is 30 s, gnss-sirf's power-state wait 3 s); one that waits
# for nothing took 1.1 s at most under a loaded TCG host.
check "the host side tore the three ports down without waiting out a timeout: under 5 s (${ms:-?} ms)" \
	sh -c "[ -n '$ms' ] && [ '$ms' -lt 5000 ]"
wait_for 10 "both GPS are gone" eval "! sirf_bound"
check "gpsd still runs" gpsd_alive
check "the kernel log shows the USB disconnect after the mark (control)" \
	gadget_log_since mp-unplug "usb [0-9]+-[0-9.]+: USB disconnect"
gpsd_stop
gps_model_stop
check "the overlay is removed" rmdir $ovl/gpsmp
check "the gadget comes apart" gadget_remove nov0
check "no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
