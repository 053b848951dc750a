#!/bin/sh
# System sleep with the ACPI world bound (issue 17): a real suspend to RAM
# (ACPI S3, which qemu-run.sh makes QEMU offer), woken by the host (QMP
# system_wakeup once QEMU reports the guest suspended), with both Nokia
# chips bound and up, the GPS on COM3 closed (runtime suspended) and COM4,
# a tty, held open by a reader.  User space is frozen across it, the chip
# models included.  Before and after, the Nokia chips l2ping each other both
# ways and the GPS gives gpsd a fix; after it, the closed GPS is runtime
# suspended without an error, and COM4's reader gets the bytes sent after
# resume.  Before
# "gnss: sirf: Let the PM core reset a runtime-suspended receiver's
# status", the ACPI PM domain runtime-resumed the closed receiver on the
# way down, the frozen model did not answer, and the error the PM core
# kept made every later open fail with EINVAL ("failed to runtime resume:
# -22").  (Suspend to idle does not show the bug: for S0 the ACPI PM domain
# leaves a runtime-suspended device alone.)  Shares the boot of acpi-nokia;
# acpi-sleep-open, which sorts after it, holds GPS receivers open across S3.
#@ machines: q35
#@ firmware: uefi
#@ ssdt: acpi-tables/gpio-sim.asl acpi-tables/nokia-com2.asl acpi-tables/nokia-pci.asl acpi-tables/gps-com3.asl acpi-tables/xhci-rhub.asl acpi-tables/gps-usb-nolines.asl
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
ktap_plan 14

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

dev=$(serdev_of_node '\_SB_.GPS3')
gps=/sys/bus/serial/devices/$dev
check "gnss-sirf holds the SSDT's GPS on COM3 ($dev)" \
	test -e "/sys/bus/serial/drivers/gnss-sirf/${dev:-none}"
rpm() { cat $gps/power/runtime_status; }
check "the kernel offers suspend to RAM" grep -qw mem /sys/power/state

# --- a real S3, woken by the host -------------------------------------------------
hA=$(bt_wait_ready '\_SB_.BTH2')
hB=$(bt_wait_ready '\_SB_.BTP0')
for h in $hA $hB; do bt_power_on $h >/dev/null; done
check "before S3: $hA (COM2) l2pings $hB (PCI)" bt_l2ping $hA $hB
check "before S3: $hB (PCI) l2pings $hA (COM2)" bt_l2ping $hB $hA
check "before S3: gpsd on /dev/gnss0 reports a 3D fix at the model's position" \
	gps_fix_at_model /dev/gnss0
wait_for 10 "before S3: closed, the GPS is runtime suspended" \
	sh -c "[ \$(cat $gps/power/runtime_status) = suspended ]"
com4_reader_start

check "suspend to RAM: the guest enters S3 and the host wakes it" host_s3 s3
echo "# suspend, S3 and resume took $(cat /tmp/s3.ms) ms"
dmesg | sed -n '/ttyport-test: mark s3$/,$p' | grep -iE 'sirf|gnss|hci|nokia|error|fail' |
	sed 's/^/# /'

check "after S3: $hA (COM2) l2pings $hB (PCI)" bt_l2ping $hA $hB
check "after S3: $hB (PCI) l2pings $hA (COM2)" bt_l2ping $hB $hA
check_eq "after S3: the GPS is runtime suspended, without an error" \
	suspended "$(rpm)"
check "after S3: gpsd on /dev/gnss0 reports a 3D fix at the model's position" \
	gps_fix_at_model /dev/gnss0
wait_for 10 "after S3: closed again, the GPS is runtime suspended" \
	sh -c "[ \$(cat $gps/power/runtime_status) = suspended ]"
com4_reader_after S3
ktap_done
