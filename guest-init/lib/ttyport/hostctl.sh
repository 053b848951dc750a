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
