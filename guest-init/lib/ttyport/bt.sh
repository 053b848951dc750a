# Bluetooth helpers for the Nokia H4+ tests: which hciN a firmware node
# became, whether BlueZ's management interface lists it, bringing it up, and
# l2ping between two controllers.  Source after ktap.sh.

# mg ARGS: btmgmt, which needs a stdin that stays open until it has printed
# its reply (at end of input it quits before the answer comes).  Its stdin
# is a FIFO held open by a sleeping writer that is ended as soon as btmgmt
# is done ("sleep | btmgmt" would always last as long as the sleep).  Its
# answer usually comes within a second; 20 s leave room for a guest that
# shares a loaded host (make check boots two at a time).
mg() {
	[ -p /tmp/mg.fifo ] || mkfifo /tmp/mg.fifo
	sleep 30 >/tmp/mg.fifo &
	_mg_w=$!
	timeout 20 btmgmt "$@" </tmp/mg.fifo 2>&1
	_mg_rc=$?
	kill $_mg_w 2>/dev/null
	wait $_mg_w 2>/dev/null
	return $_mg_rc
}

# dev_has_node DEVDIR NODE: the device's firmware node is NODE, an ACPI path
# (\_SB_.BTH2) or a device tree path (/serial-ports/.../bluetooth)
dev_has_node() {
	case "$2" in
	/*) [ "$(readlink -f $1/of_node 2>/dev/null)" = "/sys/firmware/devicetree/base$2" ] ;;
	*) [ "$(cat $1/firmware_node/path 2>/dev/null)" = "$2" ] ;;
	esac
}

# hci_of NODE: the hciN whose serdev device has the firmware node NODE
hci_of() {
	for _h in /sys/class/bluetooth/hci*; do
		dev_has_node $_h/device "$1" && { echo ${_h##*/}; return 0; }
	done
	return 1
}

# nokia_bound NODE: a serdev device with firmware node NODE is bound to hci_nokia
nokia_bound() {
	for _d in /sys/bus/serial/drivers/nokia-bluetooth/serial*-*; do
		dev_has_node $_d "$1" && return 0
	done
	return 1
}

_uptime_s() { cut -d. -f1 /proc/uptime; }

# bt_listed hciN SECONDS: btmgmt lists hciN within SECONDS
bt_listed() {
	_end=$(($(_uptime_s) + $2))
	while [ "$(_uptime_s)" -lt $_end ]; do
		mg info | grep -q "^$1:" && return 0
		sleep 1
	done
	return 1
}

# bt_wait_ready NODE: wait until the controller of NODE is in the management
# index and print its hciN.  A controller joins the index once the kernel's
# HCI init after hci_nokia's setup succeeded.  If it has not within 30 s, say
# why (the kernel's last words on it, the chip models' logs), rebind
# hci_nokia once (a fresh setup and init) and wait again.  The retry is
# reported, never silent: a "# RETRY" line, which scripts/check.sh shows on
# the host and counts at the end of the run.  Under TCG the first HCI init
# can miss a 2 s command timeout ("command 0x0c52 tx timeout", seen on pc,
# whose guest has one CPU, with two chips coming up at once).
bt_wait_ready() {
	_h=$(hci_of "$1") || { echo "# no HCI device has firmware node $1" >&2; return 1; }
	bt_listed $_h 30 && { echo $_h; return 0; }
	_d=$(basename "$(readlink -f /sys/class/bluetooth/$_h/device)")
	echo "# RETRY $_h ($1, $_d) not in the management index after 30 s" \
		"($(dmesg | grep "$_h:" | tail -n 2 | tr '\n' ' ')): rebinding hci_nokia" >&2
	{
		for _l in /tmp/chip-bt*.log; do
			echo "$_l:"
			tail -n 4 $_l
		done
	} 2>&1 | sed 's/^/# /' >&2
	echo $_d >/sys/bus/serial/drivers/nokia-bluetooth/unbind
	echo $_d >/sys/bus/serial/drivers/nokia-bluetooth/bind
	poll 20 hci_of "$1"
	_h=$(hci_of "$1") || { echo "# no HCI device for $1 after the rebind" >&2; return 1; }
	bt_listed $_h 40 || {
		echo "# $_h is not in the management index after the rebind either:" \
			"$(dmesg | grep -E "$_h:|nokia" | tail -n 4 | tr '\n' ' ')" >&2
		return 1
	}
	echo $_h
}

# bt_power_on hciN: power the controller on; print its BD address
bt_power_on() {
	mg --index ${1#hci} power on >/dev/null
	mg info | grep -A1 "^$1:" | sed -n 's/.*addr \([0-9A-F:]*\) .*/\1/p'
}

# bt_up hciN: the HCI device is up and running (hciconfig: one ioctl, where
# btmgmt costs a management socket round trip; for checks made per step)
bt_up() {
	[ -n "$1" ] && hciconfig "$1" | grep -q 'UP RUNNING'
}

# bt_powered hciN: btmgmt shows hciN powered
bt_powered() {
	mg info | grep -A4 "^$1:" | grep 'current settings' | grep -qw powered
}

# bt_l2ping FROM_hciN TO_hciN: FROM l2pings TO three times, all answered,
# and the ACL link closes again afterwards (the kernel drops an idle link
# about 2 s after its last L2CAP channel; a chip removed with its link still
# up leaves the peer believing in it, as a real radio would until the link
# supervision timeout, and the next connection between the two is refused).
bt_l2ping() {
	mg --index ${2#hci} connectable on >/dev/null
	_a=$(mg info | grep -A1 "^$2:" | sed -n 's/.*addr \([0-9A-F:]*\) .*/\1/p')
	# -f: no second's pause after each answer (3 s a call otherwise)
	l2ping -i $1 -c 3 -f -t 10 "$_a" >/tmp/l2ping.txt 2>&1
	sed 's/^/# /' /tmp/l2ping.txt
	grep -q '3 sent, 3 received' /tmp/l2ping.txt || return 1
	poll 15 sh -c "! hcitool -i $1 con | grep -q ACL" ||
		{ echo "the link did not close: $(hcitool -i $1 con | tr '\n' ' ')"; return 1; }
}

# bt_drop_link hciN ADDR: hciN has an ACL link to ADDR, disconnects it, and
# the link is gone within 10 s.  For a peer that vanished with the link up
# (its controller unplugged): a radio's link supervision timeout would end
# the link, btvirt has none, so the link stays until dropped.  No link to
# drop fails: the caller expects one.
bt_drop_link() {
	hcitool -i $1 con | grep -q "ACL $2" ||
		{ echo "no ACL link to $2: $(hcitool -i $1 con | tr '\n' ' ')"; return 1; }
	hcitool -i $1 dc $2
	poll 10 sh -c "! hcitool -i $1 con | grep -q 'ACL $2'" ||
		{ echo "the link did not close: $(hcitool -i $1 con | tr '\n' ' ')"; return 1; }
}
