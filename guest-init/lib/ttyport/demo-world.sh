# The demo world's script (scripts/demo.sh): plug a USB-serial adapter so the
# table shows every kind of port, then print the report.
. /lib/ttyport/hostctl.sh
. /lib/ttyport/ktap.sh
if host usb-add usb0; then
	poll 10 test -c /dev/ttyUSB0
fi
. /lib/ttyport/demo.sh
