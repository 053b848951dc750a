#!/bin/sh
# System sleep with the ACPI world bound (issue 17): the GPS on COM3 closed
# (runtime suspended) and COM4, a tty, held open by a reader.  Suspend to RAM
# (ACPI S3, which qemu-run.sh makes QEMU offer) with pm_test "platform" runs
# every device suspend phase (prepare, suspend, late, noirq) as for S3 and
# every resume phase, holding 1 s in between instead of entering S3, with
# user space frozen, the chip models included.  (Suspend to idle does not
# show the bug: for S0 the ACPI PM domain leaves a runtime-suspended device
# alone.)  Afterwards the GPS must open and give
# gpsd a fix: before "gnss: sirf: Let the PM core reset a runtime-suspended
# receiver's status", the ACPI PM domain runtime-resumed the closed receiver
# on the way down, the frozen model did not answer, and the error the PM core
# kept made every later open fail with EINVAL ("failed to runtime resume:
# -22").  The reader of COM4 gets the bytes sent after resume, and COM4
# carries bytes both ways.  Then a real S3, woken by the host (QMP
# system_wakeup once QEMU reports the guest suspended): both Nokia chips
# l2ping each other before and after, the GPS gives gpsd a fix after it, and
# COM4's reader, open across it, gets bytes.  Shares the boot of acpi-nokia
# (it runs last).
#@ machines: q35
#@ firmware: uefi
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl
#@ chips: nokia:com2:bt0 nokia:pci0:bt1 gps:com3:gps0
#@ alone: the Nokia chips' H4+ setup misses its timeouts beside another guest
#@ timeout: 240
. /lib/ttyport/ktap.sh
. /lib/ttyport/wire.sh
. /lib/ttyport/gps.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/bt.sh
. /lib/ttyport/hostctl.sh
ktap_start

# com4_reader_start: a reader holds COM4 (a tty, no device) open, raw, from
# now on; com4_reader_after WHEN: bytes sent to COM4's far end now reach it,
# then it ends and COM4 carries bytes both ways
com4_reader_start() {
	exec 4</dev/ttyS3
	stty -F /dev/ttyS3 raw -echo 115200 <&4
	cat <&4 >/tmp/com4-reader.out &
	reader=$!
}
com4_reader_after() {
	printf 'after-%s\n' "$1" >/dev/far-com4
	check "COM4's reader, open across $1, gets the bytes sent after resume" \
		poll 5 grep -q "after-$1" /tmp/com4-reader.out
	kill $reader
	wait $reader 2>/dev/null
	exec 4<&-
	check "COM4 carries bytes both ways after $1" wire_carries ttyS3 com4
}

gps=$(for d in /sys/bus/serial/drivers/gnss-sirf/serial*-*; do
	grep -qx '\\_SB_.GPS3' $d/firmware_node/path 2>/dev/null && readlink -f $d; done)
check "gnss-sirf holds the SSDT's GPS on COM3" test -n "$gps"
rpm() { cat $gps/power/runtime_status; }
wait_for 10 "the closed GPS is runtime suspended" sh -c "[ \$(cat $gps/power/runtime_status) = suspended ]"
check "the kernel offers suspend to RAM and pm_test 'platform'" \
	sh -c 'grep -qw mem /sys/power/state && grep -qw platform /sys/power/pm_test'

# A reader holds COM4 (a tty, no device) across the suspend.
com4_reader_start

kmsg_mark sleep
echo platform >/sys/power/pm_test
# pm_test holds the system suspended 5 s by default; 1 s is enough here.
delay=/sys/module/suspend/parameters/pm_test_delay
echo 1 >$delay
ms=$(ttyport-bench elapsed -- sh -c 'echo mem >/sys/power/state' 2>/tmp/sleep.err)
check "suspend to RAM, stopped before S3, and resume complete (pm_test platform)" test -n "$ms"
echo none >/sys/power/pm_test
echo 5 >$delay
echo "# suspend and resume took ${ms:-?} ms (pm_test holds 1 s)"
check "the kernel went through the suspend of devices and back" \
	log_since sleep 'PM: suspend exit'
dmesg | sed -n '/ttyport-test: mark sleep$/,$p' | grep -iE 'sirf|gnss|runtime resume' |
	sed 's/^/# /'

check_eq "the GPS is runtime suspended after resume, without an error" \
	suspended "$(rpm)"
check "gpsd on /dev/gnss0 reports a 3D fix at the model's position after resume" \
	gps_fix_at_model /dev/gnss0
wait_for 10 "closed again, the GPS is runtime suspended" \
	sh -c "[ \$(cat $gps/power/runtime_status) = suspended ]"

com4_reader_after sleep

# --- a real S3, woken by the host -------------------------------------------------
# hostctl's wake-on-suspend waits for QEMU's SUSPEND event (the guest is in
# S3, its CPUs stopped) and then sends system_wakeup: a wake sent on a timer
# could come before the guest is asleep.  Both Nokia chips are bound and up
# and must l2ping each other before and after; COM4 is held open by a reader.
hA=$(bt_wait_ready '\_SB_.BTH2')
hB=$(bt_wait_ready '\_SB_.BTP0')
for h in $hA $hB; do bt_power_on $h >/dev/null; done
check "before S3: $hA (COM2) l2pings $hB (PCI)" bt_l2ping $hA $hB
com4_reader_start

kmsg_mark s3
check "the host will wake the guest once it is in S3" host wake-on-suspend 60
ms=$(ttyport-bench elapsed -- sh -c 'echo mem >/sys/power/state' 2>/tmp/s3.err)
check "suspend to RAM: the guest enters S3 and the host wakes it" test -n "$ms"
echo "# suspend, S3 and resume took ${ms:-?} ms"
check "the kernel entered S3 and woke from it" \
	log_since s3 'ACPI: PM: Waking up from system sleep state S3'
dmesg | sed -n '/ttyport-test: mark s3$/,$p' | grep -iE 'sirf|gnss|hci|nokia|error|fail' |
	sed 's/^/# /'

check "after S3: $hA (COM2) l2pings $hB (PCI)" bt_l2ping $hA $hB
check "after S3: $hB (PCI) l2pings $hA (COM2)" bt_l2ping $hB $hA
check "after S3: gpsd on /dev/gnss0 reports a 3D fix at the model's position" \
	gps_fix_at_model /dev/gnss0
com4_reader_after S3
ktap_done
