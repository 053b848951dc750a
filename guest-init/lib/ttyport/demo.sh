# The demo world's report (run by /init when the host gives no command).
. /lib/ttyport/gps.sh
echo "== ttyport-bus demo: Linux $(uname -r), QEMU $MACHINE, firmware $FIRMWARE =="
echo
echo "-- what the bus discovered --"
ttyport-status
echo
echo "-- what the serdev drivers made --"
ls -d /dev/gnss* /sys/class/bluetooth/hci* 2>/dev/null | sed 's|.*/||' | tr '\n' ' '
echo
for h in /sys/class/bluetooth/hci*; do
	[ -e "$h" ] && hciconfig "${h##*/}"
done
for g in /dev/gnss*; do
	[ -c "$g" ] || continue
	echo "-- gpsd on $g --"
	if gps_fix $g 10 >/dev/null; then
		echo "3D fix at $(tpv_field lat) $(tpv_field lon), altitude $(tpv_field altMSL) m, after $(cat /tmp/tpv.took) s"
	else
		echo "no fix within 10 s ($g is silent: no chip model on its wire?)"
	fi
done
return 0 2>/dev/null || true
