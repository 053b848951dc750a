#!/bin/sh
# USB-serial hotplug through QMP: the host plugs an FTDI adapter (QEMU's
# usb-serial) on the usb0 wire, ftdi_sio makes /dev/ttyUSB0, bytes cross the
# adapter both ways, and unplugging removes the port.  Twice, so a port that
# came and went comes back as it was.
#@ machines: q35 pc
#@ timeout: 150
. /lib/ttyport/ktap.sh
. /lib/ttyport/hostctl.sh
ktap_start
ktap_plan 12	# 2 rounds of 6

# The far end of the usb0 wire stays open across plug cycles, as a chip would.
exec 7<>/dev/far-usb0

roundtrip() { # tty -> far end and back, through QEMU's FTDI emulation
	stty -F /dev/ttyUSB0 raw -echo 115200 || return 1
	# A virtio port opens once: read through the descriptor held open above.
	dd bs=1 count=12 of=/tmp/far.got <&7 2>/dev/null &
	reader=$!
	printf 'ttyUSB0>far\n' >/dev/ttyUSB0
	poll 5 sh -c '[ "$(cat /tmp/far.got 2>/dev/null)" = "ttyUSB0>far" ]'
	ok1=$?
	kill $reader 2>/dev/null
	dd if=/dev/ttyUSB0 bs=1 count=12 of=/tmp/tty.got 2>/dev/null &
	reader=$!
	sleep 0.3
	printf 'far>ttyUSB0\n' >&7
	poll 5 sh -c '[ "$(cat /tmp/tty.got 2>/dev/null)" = "far>ttyUSB0" ]'
	ok2=$?
	kill $reader 2>/dev/null
	[ $ok1 -eq 0 ] && [ $ok2 -eq 0 ]
}

for round in 1 2; do
	check "round $round: the host plugs a usb-serial adapter (QMP device_add)" \
		host usb-add usb0
	wait_for 10 "round $round: /dev/ttyUSB0 appears" test -c /dev/ttyUSB0
	check "round $round: ftdi_sio drives it" \
		sh -c 'readlink /sys/class/tty/ttyUSB0/device/driver | grep -q ftdi_sio'
	check "round $round: bytes cross the adapter both ways" roundtrip
	check "round $round: the host unplugs it (QMP device_del)" host usb-del usb0
	wait_for 10 "round $round: /dev/ttyUSB0 is gone" test ! -e /dev/ttyUSB0
done

ktap_done
