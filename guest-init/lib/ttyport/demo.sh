# The demo world's report (run by /init when the host gives no command).
echo "== ttyport-bus demo: $(uname -r), $MACHINE, $FIRMWARE =="
echo
echo "-- what the bus discovered --"
ttyport-status
echo
echo "-- devices the slave drivers made --"
ls /dev/gnss* /dev/ttyS* /dev/ttyUSB* 2>/dev/null | tr '\n' ' '
echo
if [ -d /sys/class/bluetooth ]; then
	for h in /sys/class/bluetooth/hci*; do
		[ -e "$h" ] && hciconfig "${h##*/}"
	done
fi
for g in /dev/gnss*; do
	[ -c "$g" ] || continue
	echo "-- first NMEA sentences from $g --"
	timeout 4 head -n 4 "$g"
done
