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
wire_carries() {
	exec 3<>/dev/$1 || return 1
	stty -F /dev/$1 raw -echo 115200 <&3 || { exec 3<&-; return 1; }
	# Drop what is already on the wire (OVMF writes its console to every
	# serial port it finds, the PCI 16550 included).
	cat /dev/far-$2 >/dev/null 2>&1 &
	_f=$!
	cat <&3 >/dev/null 2>&1 &
	_t=$!
	sleep 1
	wire_reap $_f 0
	wire_reap $_t 0
	head -c 6 /dev/far-$2 >/tmp/wire.far &
	_f=$!
	sleep 0.3
	printf ping42 >&3
	wire_reap $_f 3
	head -c 6 <&3 >/tmp/wire.tty &
	_t=$!
	sleep 0.3
	printf pong42 >/dev/far-$2
	wire_reap $_t 3
	exec 3<&-
	[ "$(cat /tmp/wire.far)" = ping42 ] || { echo "far end got '$(cat /tmp/wire.far)'"; return 1; }
	[ "$(cat /tmp/wire.tty)" = pong42 ] || { echo "tty got '$(cat /tmp/wire.tty)'"; return 1; }
}
