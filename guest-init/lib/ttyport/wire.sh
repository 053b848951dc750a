# The wires between guest ports and the chip models' ends (/dev/far-<wire>,
# world.sh).  Source after ktap.sh.
#
# No busybox "timeout" around a tty here: it forks a watcher that keeps the
# command's file descriptors open until it notices the command ended (up to
# a second later), and an open tty defers a serdev bind; a virtio port (the
# far end) opens only once.  Background readers are ended by wire_reap.

# wire_reap PID SECONDS: wait up to SECONDS for PID to end, then kill it
wire_reap() {
	_n=$(($2 * 10))
	while [ $_n -gt 0 ] && kill -0 $1 2>/dev/null; do
		sleep 0.1
		_n=$((_n - 1))
	done
	kill $1 2>/dev/null
	wait $1 2>/dev/null
}

# wire_carries TTY WIRE: bytes written to /dev/TTY come out of /dev/far-WIRE
# and the other way round; the tty is held open (raw, no echo) meanwhile.
# Each way carries a token of its own call, found in whatever else the wire
# holds (OVMF writes its console to every serial port it finds, the PCI
# 16550 included; a chip model may have left bytes behind).  Both ends are
# opened before anything is written: a tty keeps what arrives while it is
# open, and a virtio port drops what arrives while nobody has it open.
# WIRE_SPEED: the speed the tty is set to (default 115200); empty leaves the
# line as it is, for a driver with no line settings (usb_serial_generic and
# usb_serial_simple: usb-serial keeps their termios' hardware part, so
# asking for a speed fails).
wire_carries() {
	# (<> would make a regular file of a tty that is not there)
	[ -c /dev/$1 ] || { echo "/dev/$1 is not a tty"; return 1; }
	exec 3<>/dev/$1 || return 1
	stty -F /dev/$1 raw -echo ${WIRE_SPEED-115200} <&3 || { exec 3<&-; return 1; }
	exec 4<>/dev/far-$2 ||
		{ exec 3<&-; echo "far-$2 cannot be opened (a chip model holds it?)"; return 1; }
	_tok=$$x$(date +%N)
	: >/tmp/wire.far
	: >/tmp/wire.tty
	cat <&4 >/tmp/wire.far 2>/dev/null &
	_f=$!
	cat <&3 >/tmp/wire.tty 2>/dev/null &
	_t=$!
	printf 'ping%s' "$_tok" >&3
	printf 'pong%s' "$_tok" >&4
	poll 3 grep -qF "ping$_tok" /tmp/wire.far
	_rf=$?
	poll 3 grep -qF "pong$_tok" /tmp/wire.tty
	_rt=$?
	wire_reap $_f 0
	wire_reap $_t 0
	exec 3<&- 4<&-
	[ $_rf -eq 0 ] || { echo "far end got '$(head -c 200 /tmp/wire.far)'"; return 1; }
	[ $_rt -eq 0 ] || { echo "tty got '$(head -c 200 /tmp/wire.tty)'"; return 1; }
}
