# Ask the host to act on QEMU (sourced).  One request, one answer line; see
# scripts/hostctl.c for the requests.  Returns 0 on "ok".
#
#   host usb-add usb0     plug a USB-serial adapter on the usb0 wire, into
#                         the next free port of the xHCI
#   host usb-add usb0 2   the same into port 2 (1..4) of its USB 2 root hub:
#                         usb1-port2, USB device 1-2, whose ACPI companion is
#                         RHUB.PRT6 when an SSDT describes the root hub
#                         (acpi-tables/xhci-rhub.asl; port N is PRT<N+4>)
#   host usb-del usb0     unplug it
#   host wake-on-suspend  wake the guest once QEMU reports it in S3
#   host wake-report      after resume: did QEMU report the guest suspended,
#                         and was the wake-up sent?  ("ok ..." if both)
# The adapter's USB serial number is the wire's name (world_tty_of in
# world.sh finds a wire's ttyUSBn by it).
host() {
	[ -e /dev/hostctl ] || { echo "host: no /dev/hostctl port" >&2; return 1; }
	exec 9<>/dev/hostctl
	echo "$*" >&9
	IFS= read -r host_reply <&9
	exec 9<&-
	case "$host_reply" in
	ok*) return 0 ;;
	*) echo "host $*: $host_reply" >&2; return 1 ;;
	esac
}

# host_s3 MARK: a real suspend to RAM, woken by the host once QEMU reports
# the guest in S3 (a wake sent on a timer could come before it is asleep),
# after the kernel log mark MARK; the milliseconds it took in /tmp/s3.ms
# (check runs it in a subshell).  Needs serdev.sh (kmsg_mark, log_since).
# That the guest really was in S3 is shown, not assumed:
#  - no pm_test mode ([none]): with one, the kernel stops short of S3 and
#    still says it woke up;
#  - "mem" is S3 ([deep] in mem_sleep), not suspend to idle;
#  - the kernel logs "ACPI: PM: Low-level resume complete", which only a
#    resume from a real S3 prints ("Waking up from system sleep state S3"
#    comes on the pm_test path and after a failed entry too, FACTS.md);
#  - the host says QEMU reported the guest suspended and that it sent the
#    wake-up (hostctl's wake-report).
host_s3() {
	kmsg_mark "$1"
	echo '?' >/tmp/s3.ms
	grep -q '\[none\]' /sys/power/pm_test ||
		{ echo "pm_test is '$(cat /sys/power/pm_test)', not [none]"; return 1; }
	grep -q '\[deep\]' /sys/power/mem_sleep ||
		{ echo "mem_sleep is '$(cat /sys/power/mem_sleep)', not [deep]"; return 1; }
	host wake-on-suspend 60 || return 1
	ttyport-bench elapsed -- sh -c 'echo mem >/sys/power/state' \
		>/tmp/s3.ms 2>/tmp/s3.err || { cat /tmp/s3.err; return 1; }
	host wake-report || return 1
	echo "host: $host_reply"
	log_since "$1" 'ACPI: PM: Low-level resume complete' >/dev/null
}
