#!/bin/sh
# Bluetooth data path: l2ping flood between the controller under test on COM2
# and a peer on COM3, all in front of one btvirt (so both are on its one
# virtual radio).  The peer is always a plain H4 chip model
# (nokia-h4p --plain-h4) attached with btattach -P h4: the user-space way,
# through the hci_uart line discipline on /dev/ttyS2.  The controller under
# test is either the same kind on /dev/ttyS1 (boot bt-ldisc) or the Nokia H4+
# chip bound by hci_nokia through serdev (boot bt-serdev: nokia-com2.asl, the
# world's nokia model and btvirt).  Figures: l2ping round trips per second
# and ACL bytes per second (both ways) over TEST_PINGS pings of 44 bytes.
#
# TEST_BT_CHIP=bcm compares one driver's two paths instead, in one boot:
# two Broadcom chip models (nokia-h4p --bcm), one bound by hci_bcm through
# serdev on TEST_BT_SERDEV_WIRE (com2 from bcm-com2.asl, boot bt-bcm-com2;
# com4 from bcm-com4.asl, boot bt-bcm-com4), the other attached with
# btattach -P bcm through the line discipline on the other of COM2 and COM4:
# the same protocol code (hci_bcm's bcm_proto) both ways, on identical ports
# that share one interrupt.  TEST_BT_ROUNDS rounds each flood both, the
# order swapped every round, so that whatever else the guest and the host do
# falls on both paths alike.  Figures bt_bcm_<path>_* over all rounds, and
# bt_bcm_round_ratio (serdev over line discipline, pings/s) per round.
. /lib/ttyport/bench.sh
. /lib/ttyport/ktap.sh
. /lib/ttyport/bt.sh
. /lib/ttyport/world.sh

pings=${TEST_PINGS:-200}
chip=${TEST_BT_CHIP:-nokia}
size=44	# l2ping's default: a larger echo is refused by the peer here
world_start_btvirt
poll 5 test -S /tmp/bt-server-bredrle ||
	{ echo "bench: btvirt has no server socket" >&2; exit 1; }

# attach TTY WIRE [PROTO]: a plain H4 model (PROTO bcm: the Broadcom one) on
# WIRE's far end, btattach -P PROTO (default h4) on TTY; prints the hciN it
# became (the background programs must not hold the command substitution's
# stdout: their output goes to files)
attach() {
	_p=${3:-h4}
	nokia-h4p $([ "$_p" = bcm ] && echo --bcm || echo --plain-h4) \
		--uart /dev/far-$2 --lines $_p$2 \
		--btvirt /tmp/bt-server-bredrle >/dev/null 2>>/tmp/chip-$_p$2.log &
	btattach -B /dev/$1 -P $_p -S 115200 >/tmp/btattach-$1.log 2>&1 &
	for _ in $(seq 1 100); do
		for h in /sys/class/bluetooth/hci*; do
			[ -e "$h" ] || continue
			[ "$(basename "$(readlink -f "$h/device")")" = "$1" ] &&
				{ echo ${h##*/}; return 0; }
		done
		sleep 0.1
	done
	echo "bench: no hci device on $1 (btattach: $(cat /tmp/btattach-$1.log))" >&2
	return 1
}

# flood HCI: l2ping round trips from HCI to the peer ($addr); prints the
# milliseconds the $pings pings took, or says why on stderr and fails
flood() {
	_ms=$(ttyport-bench elapsed -- l2ping -i $1 -f -c $pings -s $size -t 10 "$addr" 2>/tmp/l2ping.out) ||
		{ echo "bench: l2ping flood from $1 failed: $(tail -n 3 /tmp/l2ping.out | tr "\n" " ")" >&2; return 1; }
	grep -q "$pings sent, $pings received" /tmp/l2ping.out ||
		{ echo "bench: l2ping flood from $1 lost pings: $(tail -n 1 /tmp/l2ping.out)" >&2; return 1; }
	echo "$_ms"
}

# ready HCI...: each in the management index and powered, and one ping from
# each first, so that no flood counts a connection's set-up
ready() {
	for _h in "$peer" "$@"; do
		bt_listed $_h 30 || { echo "bench: $_h not in the management index" >&2; return 1; }
	done
	addr=$(bt_power_on $peer)
	mg --index ${peer#hci} connectable on >/dev/null
	for _h in "$@"; do
		bt_power_on $_h >/dev/null
		l2ping -i $_h -c 1 -t 10 "$addr" >/dev/null 2>&1 ||
			{ echo "bench: $_h cannot l2ping $peer ($addr)" >&2; return 1; }
	done
}

# pings_per_s MS [ROUNDS], acl_per_s MS [ROUNDS]: the rates of ROUNDS floods
# (default 1) that took MS milliseconds together (ACL bytes both ways)
pings_per_s() { awk -v n=$((pings * ${2:-1})) -v ms=$1 'BEGIN { printf "%.1f", n * 1000 / ms }'; }
acl_per_s() { awk -v n=$((pings * ${2:-1})) -v s=$size -v ms=$1 'BEGIN { printf "%.0f", 2 * n * s * 1000 / ms }'; }

peer=$(attach ttyS2 com3) || exit 1
if [ "$chip" = bcm ]; then
	wire=${TEST_BT_SERDEV_WIRE:-com2}
	case "$wire" in
	com2) node='\_SB_.BCM2' ldisc_tty=ttyS3 ldisc_wire=com4 ;;
	com4) node='\_SB_.BCM4' ldisc_tty=ttyS1 ldisc_wire=com2 ;;
	*) echo "bench: TEST_BT_SERDEV_WIRE is com2 or com4, not '$wire'" >&2; exit 1 ;;
	esac
	poll 30 hci_of "$node" || {
		echo "bench: hci_bcm gave no HCI device for $node: $(dmesg | grep -i -m3 'bcm' | tr '\n' ' ')" >&2
		exit 1
	}
	serdev=$(hci_of "$node")
	ldisc=$(attach $ldisc_tty $ldisc_wire bcm) || exit 1
	ready $serdev $ldisc || exit 1
	# Two links to the one peer at once stall a flood under btvirt (the
	# peer logs "ACL packet for unknown connection handle"): before each
	# flood the other path's link goes down, and one ping brings up the
	# flooding one's, outside the time.
	# peer_unlinked: the peer's list of links, read, holds no ACL link (a
	# failed read is not an empty list)
	peer_unlinked() { _links=$(hcitool -i $peer con) && ! echo "$_links" | grep -q ACL; }
	# alone HCI: HCI's link to the peer is up and the peer's only one
	alone() {
		for _h in $serdev $ldisc; do
			# (fails when the link is already down: the poll
			# below is the check)
			[ $_h = $1 ] || hcitool -i $_h dc "$addr" >/dev/null 2>&1
		done
		poll 10 peer_unlinked || { echo "bench: the peer's links did not go down: $(hcitool -i $peer con | tr '\n' ' ')" >&2; return 1; }
		l2ping -i $1 -c 1 -t 10 "$addr" >/dev/null 2>&1 ||
			{ echo "bench: $1 cannot l2ping $peer ($addr)" >&2; return 1; }
	}
	rounds=${TEST_BT_ROUNDS:-6}
	total_serdev=0 total_ldisc=0
	for r in $(seq 1 "$rounds"); do
		if [ $((r % 2)) -eq 1 ]; then
			alone $serdev && ms_serdev=$(flood $serdev) &&
				alone $ldisc && ms_ldisc=$(flood $ldisc) || exit 1
		else
			alone $ldisc && ms_ldisc=$(flood $ldisc) &&
				alone $serdev && ms_serdev=$(flood $serdev) || exit 1
		fi
		total_serdev=$(awk -v a=$total_serdev -v b=$ms_serdev 'BEGIN { print a + b }')
		total_ldisc=$(awk -v a=$total_ldisc -v b=$ms_ldisc 'BEGIN { print a + b }')
		# serdev's pings/s over the line discipline's: their times inverted
		fig bt_bcm_round_ratio "$(awk -v s=$ms_serdev -v l=$ms_ldisc 'BEGIN { printf "%.3f", l / s }')"
	done
	for path in serdev ldisc; do
		eval ms=\$total_$path
		fig bt_bcm_${path}_pings_per_s "$(pings_per_s $ms $rounds)"
		fig bt_bcm_${path}_acl_bytes_per_s "$(acl_per_s $ms $rounds)"
	done
	exit 0
elif [ -n "$(ls /sys/bus/serial/drivers/nokia-bluetooth 2>/dev/null | grep serial)" ]; then
	path=serdev
	dut=$(bt_wait_ready '\_SB_.BTH2' 2>&1 | tail -n 1)
	case "$dut" in hci*) ;; *) echo "bench: the Nokia chip did not come up: $dut" >&2; exit 1 ;; esac
elif [ "${TEST_BT_PATH:-}" = serdev ]; then
	why=$(dmesg | grep -m1 'nokia-bluetooth.*could not' | sed 's/^\[[^]]*\] //')
	patched && { echo "bench: hci_nokia did not bind: $why" >&2; exit 1; }
	# Stock 6.12's hci_nokia requires a "sysclk" clock, which ACPI cannot give.
	fig_skip bt_serdev_pings_per_s "stock hci_nokia does not bind from ACPI ($why)"
	exit 0
else
	path=ldisc
	dut=$(attach ttyS1 com2) || exit 1
fi
ready $dut || exit 1
ms=$(flood $dut) || exit 1
fig bt_${path}_pings_per_s "$(pings_per_s $ms)"
fig bt_${path}_acl_bytes_per_s "$(acl_per_s $ms)"
