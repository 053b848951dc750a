# Ask the host to act on QEMU (sourced).  One request, one answer line; see
# scripts/hostctl.c for the requests.  Returns 0 on "ok".
#
#   host usb-add usb0     plug a USB-serial adapter on the usb0 wire
#   host usb-del usb0     unplug it
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
