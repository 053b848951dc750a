# The demo world's report (run by /init when the host gives no command).
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
	echo "-- first NMEA sentences from $g --"
	timeout 4 head -n 4 "$g" || echo "($g is silent: no chip model on its wire)"
done
return 0 2>/dev/null || true
