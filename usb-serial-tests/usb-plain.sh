#!/bin/sh
# A USB-serial port that no firmware describes behaves as stock on unplug
# while a plain user has it open: a reader of /dev/ttyUSBn gets EOF or EIO
# and exits, a write on a descriptor still open fails, the last close after
# the unplug leaves no warning from the tty core ("tty->count" from
# tty_hangup, "tty_port_close_start: tty->count = 1 port count = 0", which
# scripts/logcheck.sh does not count as splats), and nothing is left on the
# usb-serial bus.  Replugged, the port comes back as it was and carries
# bytes.  Shares the boot of the core tests (no SSDT, no chips).
#@ machines: q35 pc
#@ timeout: 120
. /lib/ttyport/ktap.sh
. /lib/ttyport/usb.sh
ktap_start
ktap_plan 21

check "the host plugs an adapter on usb0" usb_plug usb0
usb_use usb0
check "ftdi_sio drives $tty" \
	sh -c "readlink /sys/class/tty/$tty/device/driver | grep -q ftdi_sio"
check "no serdev device is on $tty" usb_no_serdev usb0
check "$tty carries bytes both ways" wire_carries $tty usb0

# A plain reader, and the test's own descriptor on the port for writes.
stty -F /dev/$tty raw -echo 115200
exec 4<>/dev/$tty
cat /dev/$tty >/tmp/plain.out 2>/tmp/plain.err &
reader=$!
sleep 0.3
printf 'far>plain\n' >$far
wait_for 5 "the plain reader gets bytes from the far end" grep -q 'far>plain' /tmp/plain.out
check "a write on the open descriptor succeeds before the unplug" sh -c 'printf x >&4'
check "the reader still runs before the unplug" kill -0 $reader

usb_log_mark plain-unplug
dev=$(world_usb_of usb0)
check "the host unplugs the adapter while the reader has $tty open" usb_unplug usb0
wait_for 10 "the reader sees the port go and exits" eval "! kill -0 $reader"
wait $reader
rc=$?
# busybox cat: status 0 at EOF, 1 with "read error: I/O error" at EIO
check "its last read gave EOF or EIO (status $rc: $(cat /tmp/plain.err))" \
	sh -c "[ $rc -eq 0 ] || grep -q 'I/O error' /tmp/plain.err"
# (echo, not printf: busybox's printf says nothing when a write fails)
eio() { # a write on fd 4 fails with EIO, as on a hung-up tty
	_o=$(sh -c 'echo x >&4' 2>&1) && { echo "the write succeeded"; return 1; }
	case "$_o" in *"Input/output error"* | *"I/O error"*) ;; *) echo "not EIO: $_o"; return 1 ;; esac
}
check "a write on the descriptor still open fails with EIO after the unplug" eio
exec 4>&-
wait_for 10 "/dev/$tty is gone" test ! -e /dev/$tty
wait_for 10 "nothing is left on the usb-serial bus" no_usb_serial_ports
# The control of the next check: the kernel log covers this unplug.
check "the kernel log shows the unplug of $dev after the mark" \
	usb_log_since plain-unplug "ftdi_sio $dev:1.0: device disconnected"
check "no tty->count or tty_port_close_start warning in the kernel log" \
	no_tty_count_warnings

check "the host plugs the adapter again" usb_plug usb0
usb_use usb0
check_eq "it is ttyUSB0 again" ttyUSB0 "$tty"
check "$tty carries bytes both ways after the replug" wire_carries $tty usb0
check "the host unplugs it, closed" usb_unplug usb0
wait_for 10 "nothing is left on the usb-serial bus at the end" no_usb_serial_ports
check "still no tty->count or tty_port_close_start warning" no_tty_count_warnings

ktap_done
