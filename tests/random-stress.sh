#!/bin/sh
# A seeded, model-checked random stress of the bus on COM2 (ttyport-random,
# tests/random/ttyport-random.c; docs/random-stress.md): random steps of
# loading and unloading the runtime GPS table, applying and removing a GPS
# overlay, new_device/delete_device, gnss-sirf bind/unbind through sysfs,
# opens, closes, reads and writes of /dev/ttyS1 (and of a stale node of it)
# and of /dev/gnssN, gpsd started and stopped on /dev/gnssN, and races of
# descriptions, binds and unbinds against a process that opens and closes
# the tty; and, on a USB-serial port, an FTDI adapter on the usb0 wire
# plugged and unplugged by the host (/dev/hostctl), a GPS added by hand on
# its port with new_device, deleted, bound and unbound, fds held on the
# ttyUSBn and on the GPS's /dev/gnssN across the unplug, bytes both ways;
# and the same on a CDC-ACM port: a gadget "acmr" made here (gadget.sh),
# plugged and unplugged by the program through its UDC (docs/gadget.md),
# its far end the gadget side's ttyGSn.
# After every step the program polls until the kernel shows what its model
# predicts (the device exactly while described, the tty exactly while no
# driver is bound, never taken while held open, the deferred bind on the
# last close, nothing of the USB port after its unplug, ...) or fails the
# step.
#
# Seed: TEST_RANDOM_SEED (qemu-run.sh passes TEST_* to the guest), else the
# clock; it is printed first, and the same seed replays the same steps.
# Steps: TEST_RANDOM_STEPS, default 1400 in make check-stress, the fewest at which
# every premise below holds for each of 3000 seeds of the model (at 1350
# steps, with the ACM steps drawn too, seed 367 deferred no sysfs bind;
# tests/host/random-model.sh sweeps 500 at every make check); "make
# stress" runs 20000.  Shares
# the q35 boot of the core tests, before the USB tests of that boot
# (hotplug-ftdi, usb-plain): it leaves usb0 unplugged.
#@ machines: q35
#@ timeout: 600
#@ skip-allowed: premise: * | a run of TEST_RANDOM_STEPS under 1400 need not show every premise (make check-stress runs 1400)
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/gadget.sh
ktap_start
ktap_plan 34	# 4, 12 premises of the port, 6 of the USB port, 6 of the ACM port, 6

seed=${TEST_RANDOM_SEED:-$(date +%s)}
steps=${TEST_RANDOM_STEPS:-1400}
# (this test's timeout covers about 4000 steps: more need a TIMEOUT_FACTOR)
tf=
[ "$steps" -gt 4000 ] && tf="TIMEOUT_FACTOR=$((steps / 4000 + 1)) "
replay="TEST_RANDOM_SEED=$seed TEST_RANDOM_STEPS=$steps ${tf}ONLY=random-stress make check-stress"
echo "# seed $seed, $steps steps (replay: $replay)"

port_idle() {
	tty_back && no_serdev_dev && [ ! -e "$tables/random" ]
}
no_usb_serial_ports() {
	[ -z "$(ls /sys/bus/usb-serial/devices/ 2>/dev/null)" ]
}
check "no USB-serial adapter is plugged at the start" no_usb_serial_ports
check "$tty is a tty with no serdev device at the start" port_idle
# (gadget.sh's helpers point $tty at the gadget: only gadget_create here)
check "an ACM gadget acmr is made, not plugged" gadget_create acmr acm

rm -f /tmp/random.rc /tmp/random.summary
echo "ttyport-test: random-stress start" >/dev/kmsg
{
	# TEST_RANDOM_FLIP_AT=STEP: a model made wrong at that step, to see a
	# failure reported; TEST_RANDOM_VERBOSE=1: every step in the log
	# (docs/random-stress.md)
	ttyport-random --seed "$seed" --steps "$steps" --acm acmr \
		--summary /tmp/random.summary --trace /tmp/random.trace \
		${TEST_RANDOM_FLIP_AT:+--flip-at "$TEST_RANDOM_FLIP_AT"} \
		${TEST_RANDOM_VERBOSE:+--verbose}
	echo $? >/tmp/random.rc
} | tee /tmp/random.out
rc=$(cat /tmp/random.rc 2>/dev/null)
if [ "$rc" = 0 ]; then
	ktap_result ok "$steps random steps from seed $seed keep the model's invariants"
else
	ktap_result fail "$steps random steps from seed $seed keep the model's invariants" \
		"exit status ${rc:-none}; replay: $replay" \
		"$(grep -E '^# (FAILED|invariant|at the start|no |cannot|open|mknod)' /tmp/random.out |
			sed 's/^# //')" \
		"$(tail -n 4 /tmp/random.trace 2>/dev/null)"
fi

# What proves the premise: the run did bind, defer binds, carry bytes ...
# (counts from ttyport-random's summary).  Each happens at least once in
# every one of 3000 seeds of 1400 steps (ttyport-random --model-only); a
# shorter run skips these (the header allows it), a run that stopped fails
# them: what it did not reach is not shown.
if [ -r /tmp/random.summary ]; then
	. /tmp/random.summary
fi
premise() { # DESC COUNT
	if [ "$rc" != 0 ]; then
		ktap_result fail "premise: $1" "not shown: the run stopped at step ${run_steps:-?}"
	elif [ "$steps" -lt 1400 ]; then
		skip "premise: $1" "a run of $steps steps (under 1400) need not show it"
	elif [ -z "$2" ]; then
		ktap_result fail "premise: $1" "no summary from ttyport-random"
	else
		check "premise: $1 ($2)" test "$2" -gt 0
	fi
}
premise "gnss-sirf bound the device" "$ev_binds"
premise "binds deferred by the open tty happened at its last close" "$ev_deferred_binds_on_close"
premise "a sysfs bind was deferred by the open tty" "$ev_sysfs_binds_deferred"
premise "bytes went both ways between $tty and the far end" "$ev_tty_roundtrips"
premise "bytes went both ways between /dev/gnssN and the far end" "$ev_gnss_roundtrips"
premise "an open of the stale node was refused with EBUSY while bound" "$ev_stale_opens_ebusy"
premise "new_device was refused while the slot was taken" "$ev_new_device_ebusy"
premise "the table's device took the slot a hand-made or overlay device left" "$ev_table_device_waited_for_slot"
premise "the overlay's device was added" "$ev_overlay_devices_added"
premise "an overlay for the taken port was refused (error -16)" "$ev_overlays_refused"
premise "a bound device was removed with its description" "$ev_removals_while_bound"
premise "descriptions, binds and unbinds raced with opens and closes" "$ev_races"
# The USB port: the run leaves it out where there is no hostctl, which
# make check-stress always has; its premises then fail, each saying why.
usb_premise() { # DESC COUNT
	if [ "${usb:-1}" = 0 ]; then
		ktap_result fail "premise: $1" "not shown: no /dev/hostctl, so the run made no FTDI adapter steps"
	else
		premise "$@"
	fi
}
echo "# USB: ${usb_cycles:-?} plug/unplug cycles"
usb_premise "USB plug/unplug cycles ran" "$ev_usb_unplugs"
usb_premise "gnss-sirf bound a hand-made GPS on the USB port" "$ev_usb_binds"
usb_premise "the adapter was unplugged with its GPS bound and /dev/gnssN held" \
	"$ev_usb_unplugs_gnss_held"
usb_premise "the adapter was unplugged with its ttyUSBn held" "$ev_usb_unplugs_tty_held"
usb_premise "the adapter was unplugged with a bind pending on its held ttyUSBn" \
	"$ev_usb_unplugs_pending"
usb_premise "bytes went both ways between ttyUSBn and its far end" "$ev_usb_tty_roundtrips"
# The ACM port: the run always has it (--acm; a gadget that is not there
# is a set-up error, which fails the run above).
echo "# ACM: ${acm_cycles:-?} plug/unplug cycles"
acm_premise() { # DESC COUNT
	premise "$@"
}
acm_premise "ACM gadget plug/unplug cycles ran" "$ev_acm_unplugs"
acm_premise "gnss-sirf bound a hand-made GPS on the ACM port" "$ev_acm_binds"
acm_premise "the gadget was unplugged with its GPS bound and /dev/gnssN held" \
	"$ev_acm_unplugs_gnss_held"
acm_premise "the gadget was unplugged with its ttyACMn held" "$ev_acm_unplugs_tty_held"
acm_premise "the gadget was unplugged with a bind pending on its held ttyACMn" \
	"$ev_acm_unplugs_pending"
acm_premise "bytes went both ways between ttyACMn and the gadget's ttyGSn" \
	"$ev_acm_tty_roundtrips"
echo "# settle (the kernel matching the model after a step): max ${settle_max_ms:-?} ms" \
	"(step ${settle_max_step:-?}), mean ${settle_mean_ms:-?} ms"

wait_for 10 "$tty is a tty with no serdev device at the end" port_idle
check "$tty carries bytes both ways at the end" tty_bytes
wait_for 10 "no USB-serial adapter is plugged at the end" no_usb_serial_ports
# (the program unplugs it; gadget_remove would unplug it too)
acm_unplugged() {
	[ -z "$(cat /sys/kernel/config/usb_gadget/acmr/UDC)" ] ||
		{ echo "the gadget is still bound to $(cat /sys/kernel/config/usb_gadget/acmr/UDC)"; return 1; }
	! ls -d /sys/class/tty/ttyACM* 2>/dev/null
}
check "the ACM gadget is unplugged at the end, and no ttyACM is left" acm_unplugged
check "the ACM gadget comes apart" gadget_remove acmr
# held fds closed after the unplug: the tty core's count warnings
# (tty_warn, not splats: usb-serial-tests/usb-plain.sh)
# (from the run's mark on, and the mark must be there: an excerpt that is
# empty for another reason would hold no warning either)
no_count_warnings() {
	dmesg | sed -n '/ttyport-test: random-stress start$/,$p' >/tmp/random.kmsg
	grep -q 'ttyport-test: random-stress start' /tmp/random.kmsg ||
		{ echo "the run's mark is not in the kernel log"; return 1; }
	! grep -E 'tty->count|tty_port_close_start' /tmp/random.kmsg
}
check "no tty->count or tty_port_close_start warning in the kernel log" no_count_warnings

ktap_done
