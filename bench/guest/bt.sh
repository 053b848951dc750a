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
# TEST_BT_CHIP=bcm compares one driver's two paths instead: the controller
# under test is a Broadcom chip model (nokia-h4p --bcm), attached with
# btattach -P bcm through the line discipline (boot bt-bcm-ldisc) or bound
# by hci_bcm through serdev from bcm-com2.asl (boot bt-bcm-serdev, the
# world's bcm model): the same protocol code (hci_bcm's bcm_proto) both
# ways.  Figures bt_bcm_<path>_*.
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

peer=$(attach ttyS2 com3) || exit 1
if [ "$chip" = bcm ]; then
	if [ "${TEST_BT_PATH:-}" = serdev ]; then
		path=bcm_serdev
		poll 30 hci_of '\_SB_.BCM2' || {
			echo "bench: hci_bcm gave no HCI device for \\_SB_.BCM2: $(dmesg | grep -i -m3 'bcm' | tr '\n' ' ')" >&2
			exit 1
		}
		dut=$(hci_of '\_SB_.BCM2')
	else
		path=bcm_ldisc
		dut=$(attach ttyS1 com2 bcm) || exit 1
	fi
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
bt_listed $peer 30 && bt_listed $dut 30 ||
	{ echo "bench: $peer or $dut not in the management index" >&2; exit 1; }
bt_power_on $dut >/dev/null
addr=$(bt_power_on $peer)
mg --index ${peer#hci} connectable on >/dev/null
# One ping first, so that the flood does not count the connection set-up.
l2ping -i $dut -c 1 -t 10 "$addr" >/dev/null 2>&1 ||
	{ echo "bench: $dut cannot l2ping $peer ($addr)" >&2; exit 1; }
ms=$(ttyport-bench elapsed -- l2ping -i $dut -f -c $pings -s $size -t 10 "$addr" 2>/tmp/l2ping.out) ||
	{ echo "bench: l2ping flood failed: $(tail -n 3 /tmp/l2ping.out | tr "\n" " ")" >&2; exit 1; }
grep -q "$pings sent, $pings received" /tmp/l2ping.out ||
	{ echo "bench: l2ping flood lost pings: $(tail -n 1 /tmp/l2ping.out)" >&2; exit 1; }
fig bt_${path}_pings_per_s "$(awk -v n=$pings -v ms=$ms 'BEGIN { printf "%.1f", n * 1000 / ms }')"
fig bt_${path}_acl_bytes_per_s "$(awk -v n=$pings -v s=$size -v ms=$ms 'BEGIN { printf "%.0f", 2 * n * s * 1000 / ms }')"
