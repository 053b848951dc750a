# The gadget world (docs/gadget.md): USB devices made inside the guest with
# dummy_hcd and USB gadget configfs (libcomposite).  dummy_hcd is a USB host
# controller (dummy_hcd.N, its own USB bus) wired in software to a device
# controller (UDC dummy_udc.N); a gadget bound to the UDC is plugged into
# that bus, unbinding it unplugs it (milliseconds, against about 0.4 s for
# a QEMU device_del).  A serial function of the gadget (acm: the host's
# cdc-acm, ttyACMn; gser: the generic serial function) has its far end on
# the gadget side, /dev/ttyGSn (u_serial), where a chip model sits as it
# sits on /dev/far-<wire> for QEMU's wires.
#
#   gadget_create acm0 acm    a gadget "acm0" with one ACM function, not
#                             plugged; /dev/far-acm0 -> its /dev/ttyGSn
#   gadget_plug acm0          bind it to a free UDC; waits for the host side
#   gadget_tty acm0           the host side's tty (ttyACMn), while plugged
#   gadget_unplug acm0        unbind it; waits for the USB device to go
#   gadget_remove acm0        unplug if plugged, then take it apart
#
# The gadget's name is its wire's name and its USB serial number, so
# world_usb_of (world.sh) finds its USB device on the host side, as it finds
# a QEMU adapter's.  Source after ktap.sh; sources usb.sh (and through it
# world.sh and serdev.sh, whose helpers work on $tty and $far: gadget_use
# points them at a gadget; no_tty_count_warnings).
#
# The far end is a tty, not a virtio port: gadget_create makes it raw with
# no echo (the termios stay across opens), so that bytes pass as they do on
# a wire.  When the gadget is unplugged, u_serial hangs up the ttyGSn of
# whoever holds it open: a chip model holding it reads EOF for good and must
# be started again after the next plug (gadget_chip_start/_stop).

. /lib/ttyport/usb.sh

gadget_cfs=/sys/kernel/config/usb_gadget

# GADGET_IDS="VID:PID" for the next gadget_create (default 1d6b:0104, the
# Linux Foundation's "Multifunction Composite Gadget"): another driver than
# cdc-acm on the host side matches by the IDs (usb_serial_simple ...).
GADGET_IDS=${GADGET_IDS:-0x1d6b:0x0104}

# gadget_udcs: the UDCs, one a line (dummy_udc.0, ...; boot with
# dummy_hcd.num=N for N of them)
gadget_udcs() {
	ls /sys/class/udc 2>/dev/null
}

# gadget_free_udc: the first UDC no gadget is bound to
gadget_free_udc() {
	for _u in $(gadget_udcs); do
		[ -z "$(cat /sys/class/udc/$_u/function 2>/dev/null)" ] &&
			{ echo "$_u"; return 0; }
	done
	return 1
}

# gadget_create WIRE FUNC...: a gadget named WIRE with one configuration
# holding the functions FUNC, in order: "acm" (CDC ACM) or "gser" (generic
# serial).  Each function's far end is linked: the first as /dev/far-WIRE,
# the next as /dev/far-WIRE.1, /dev/far-WIRE.2, ...  Or one function "ffsN":
# N ports behind one interface (gadget_ffs).  Not plugged.
gadget_create() {
	_w=$1
	shift
	_g=$gadget_cfs/$_w
	[ -d $gadget_cfs ] || { echo "no $gadget_cfs (USB_CONFIGFS)"; return 1; }
	mkdir $_g || return 1
	echo "${GADGET_IDS%%:*}" >$_g/idVendor &&
	echo "${GADGET_IDS#*:}" >$_g/idProduct &&
	mkdir $_g/strings/0x409 &&
	echo "$_w" >$_g/strings/0x409/serialnumber &&
	echo ttyport-bus >$_g/strings/0x409/manufacturer &&
	echo "ttyport-bus gadget $_w" >$_g/strings/0x409/product &&
	mkdir $_g/configs/c.1 &&
	mkdir $_g/configs/c.1/strings/0x409 &&
	echo "$*" >$_g/configs/c.1/strings/0x409/configuration || return 1
	_i=0
	for _f in "$@"; do
		case $_f in
		ffs[1-4])
			gadget_ffs "$_w" "${_f#ffs}" || return 1
			_i=$((_i + 1))
			continue
			;;
		esac
		_fd=$_g/functions/$_f.$_w-$_i
		mkdir $_fd || { echo "function $_f: cannot make $_fd"; return 1; }
		ln -s $_fd $_g/configs/c.1/ || return 1
		_n=$(cat $_fd/port_num 2>/dev/null)
		[ -c /dev/ttyGS$_n ] || { echo "function $_f: no /dev/ttyGS$_n"; return 1; }
		# A transparent 8-bit pipe, like a virtio port (the termios of
		# ttyGSn stay across opens)
		stty -F /dev/ttyGS$_n raw -echo -echoctl -echoke || return 1
		if [ $_i -eq 0 ]; then
			ln -sf /dev/ttyGS$_n /dev/far-$_w
		else
			ln -sf /dev/ttyGS$_n /dev/far-$_w.$_i
		fi
		_i=$((_i + 1))
	done
}

# gadget_ffs WIRE NPORTS: the FunctionFS function of gadget_create's "ffsN":
# one interface with NPORTS bulk pairs, served by ffs-multiport (models/),
# whose ports' far ends are ptys linked as /dev/far-WIRE, /dev/far-WIRE.1,
# ...  It must be the gadget's only function.  Its descriptors must be
# written before the gadget can bind to a UDC: waits for "ready".
gadget_ffs() {
	_fd=$gadget_cfs/$1/functions/ffs.$1
	mkdir $_fd || { echo "function ffs: cannot make $_fd"; return 1; }
	mkdir -p /dev/ffs-$1 && mount -t functionfs $1 /dev/ffs-$1 || return 1
	rm -f /tmp/ffs-$1.out	# (a "ready" of an earlier run must not count)
	ffs-multiport /dev/ffs-$1 $2 /dev/far-$1 >/tmp/ffs-$1.out 2>/tmp/ffs-$1.log &
	echo $! >/tmp/ffs-$1.pid
	poll 5 grep -q ready /tmp/ffs-$1.out ||
		{ echo "ffs-multiport not ready: $(cat /tmp/ffs-$1.log)"; return 1; }
	ln -s $_fd $gadget_cfs/$1/configs/c.1/
}

# gadget_far WIRE [N]: the gadget side's tty of WIRE's function N (default
# 0): ttyGSn
gadget_far() {
	_l=/dev/far-$1
	[ -n "${2:-}" ] && [ "$2" != 0 ] && _l=/dev/far-$1.$2
	_t=$(readlink $_l) || return 1
	echo "${_t#/dev/}"
}

# gadget_udc WIRE: the UDC WIRE's gadget is bound to, if plugged
gadget_udc() {
	_u=$(cat $gadget_cfs/$1/UDC 2>/dev/null)
	[ -n "$_u" ] && echo "$_u"
}

# gadget_host_ready WIRE: the host side has WIRE's USB device, configured,
# and a driver bound to each of its communication interfaces (CDC control
# and data: cdc-acm's).  A vendor-class interface (gser's) is served only
# when a driver knows the gadget's IDs (GADGET_IDS): a test that expects one
# waits for its port itself.
gadget_host_ready() {
	world_usb_of "$1" >/dev/null || return 1
	[ -n "$(cat "$world_usb/bConfigurationValue" 2>/dev/null)" ] || return 1
	_nif=0
	for _if in "$world_usb"/*:*; do
		[ -d "$_if" ] || continue
		_nif=$((_nif + 1))
		case "$(cat "$_if/bInterfaceClass" 2>/dev/null)" in
		02 | 0a) [ -e "$_if/driver" ] || return 1 ;;
		esac
	done
	# (every interface of the configuration is there: bNumInterfaces)
	[ $_nif -eq $(cat "$world_usb/bNumInterfaces") ]
}

# gadget_plug WIRE [UDC]: bind WIRE's gadget to UDC (default: the first
# free one) and wait up to 10 s for the host side (gadget_host_ready).
gadget_plug() {
	_u=${2:-$(gadget_free_udc)} || { echo "no free UDC ($(gadget_udcs))"; return 1; }
	echo "$_u" >$gadget_cfs/$1/UDC || return 1
	poll 10 gadget_host_ready "$1" ||
		{ echo "no USB device with drivers for $1 10 s after the plug"; return 1; }
}

# gadget_unplug WIRE: unbind WIRE's gadget from its UDC and wait up to 10 s
# for its USB device to go on the host side.
gadget_unplug() {
	echo "" >$gadget_cfs/$1/UDC || return 1
	poll 10 eval "! world_usb_of $1" ||
		{ echo "USB device of $1 still there 10 s after the unplug"; return 1; }
}

# gadget_remove WIRE: unplug WIRE's gadget if it is plugged, and take it
# apart (configfs wants the reverse order of gadget_create)
gadget_remove() {
	_g=$gadget_cfs/$1
	[ -d $_g ] || return 0
	[ -n "$(gadget_udc "$1")" ] && { gadget_unplug "$1" || return 1; }
	for _l in $_g/configs/c.1/*.*; do
		[ -L "$_l" ] && rm "$_l"
	done
	rmdir $_g/configs/c.1/strings/0x409 $_g/configs/c.1 || return 1
	if [ -f /tmp/ffs-$1.pid ]; then	# an ffsN function: its daemon first
		_p=$(cat /tmp/ffs-$1.pid)
		kill $_p
		# (started inside a check's subshell, it is no child of ours:
		# wait for it to let go of its endpoint files)
		poll 5 eval "! kill -0 $_p 2>/dev/null" ||
			{ echo "ffs-multiport ($_p) did not end"; return 1; }
		umount /dev/ffs-$1 || return 1
		rmdir /dev/ffs-$1
		rm -f /tmp/ffs-$1.pid /tmp/ffs-$1.out
	fi
	for _f in $_g/functions/*; do
		[ -d "$_f" ] && { rmdir "$_f" || return 1; }
	done
	rmdir $_g/strings/0x409 $_g || return 1
	rm -f /dev/far-$1 /dev/far-$1.*
}

# gadget_tty WIRE [N]: the host side's tty of WIRE's serial port N
# (default 0), while plugged: the ttyACMn or ttyUSBn; ports are counted
# over the interfaces in order, those behind one interface by their index
# there (port_number).  While a serdev driver holds the port its tty
# device is hidden; the name gadget_use recorded at the plug stays in $tty.
gadget_tty() {
	world_usb_of "$1" >/dev/null || return 1
	_want=${2:-0}
	_k=0
	for _if in "$world_usb"/*:*; do
		for _t in "$_if"/tty/ttyACM*; do	# an ACM function: one port
			[ -e "$_t" ] || continue
			[ "$_k" = "$_want" ] && { echo "${_t##*/}"; return 0; }
			_k=$((_k + 1))
		done
		# usb-serial ports, by their index on the interface (the glob
		# would put ttyUSB10 before ttyUSB9)
		_n=0
		for _t in "$_if"/ttyUSB*; do
			[ -e "$_t" ] || continue
			[ $((_k + $(cat "$_t/port_number"))) = "$_want" ] &&
				{ echo "${_t##*/}"; return 0; }
			_n=$((_n + 1))
		done
		_k=$((_k + _n))
	done
	return 1
}

# gadget_ctrl WIRE: the serdev controller (serialN) on the host side of
# WIRE's first serial port, there for the port's life, a device bound or not
gadget_ctrl() {
	world_usb_of "$1" >/dev/null || return 1
	for _c in "$world_usb"/*:*/serial[0-9]* "$world_usb"/*:*/ttyUSB*/serial[0-9]*; do
		case ${_c##*/} in *-*) continue ;; esac
		[ -e "$_c" ] && { echo "${_c##*/}"; return 0; }
	done
	return 1
}

# gadget_ctrl_undescribed WIRE: the port has a controller, numbered from 256
# up as no firmware describes a device on it (usb.sh's usb_ctrl_undescribed)
gadget_ctrl_undescribed() {
	_c=$(gadget_ctrl "$1") || { echo "no serdev controller on $1's port"; return 1; }
	[ "${_c#serial}" -ge 256 ] || { echo "$_c: numbered as described by firmware"; return 1; }
}

# gadget_serdevs WIRE: the serdev devices (serialN-M) on WIRE's ports
gadget_serdevs() {
	world_usb_of "$1" >/dev/null || return 0
	for _d in "$world_usb"/*:*/serial*/serial*-* "$world_usb"/*:*/ttyUSB*/serial*/serial*-*; do
		[ -e "$_d" ] && echo "${_d##*/}"
	done
	return 0
}
gadget_no_serdev() { # WIRE: none
	[ -z "$(gadget_serdevs "$1")" ] || { echo "on $1: $(gadget_serdevs "$1")"; return 1; }
}

# gadget_serdev DRIVER WIRE: the serdev device on WIRE that DRIVER is bound to
gadget_serdev() {
	for _d in $(gadget_serdevs "$2"); do
		[ -e /sys/bus/serial/drivers/$1/$_d ] && { echo $_d; return 0; }
	done
	return 1
}
gadget_bound() { # DRIVER WIRE: gadget_serdev, quiet
	gadget_serdev "$1" "$2" >/dev/null
}

# gadget_use WIRE: point serdev.sh's helpers at WIRE: tty is the host side's
# ttyACMn (or ttyUSBn), far the gadget side's /dev/far-WIRE.  Not inside
# "check" (a subshell); call it while the port's tty is shown.
gadget_use() {
	tty=$(gadget_tty "$1")
	far=/dev/far-$1
}

# gadget_chip_start WIRE LINES [MODEL]: the chip model that
# CHIPS="MODEL:WIRE:LINES" would start (world.sh; MODEL gps, the default, or
# nokia), on the gadget's far end; gadget_chip_stop LINES ends it.  (An always-on model with no lines is serdev.sh's
# gps_model_start on $far.)  A model started before an unplug holds a hung
# up ttyGSn afterwards: stop it and start another after the next plug.
gadget_chip_start() {
	_chips=$CHIPS
	CHIPS="${3:-gps}:$1:$2"
	world_start_chips >/dev/null
	CHIPS=$_chips
}
gadget_chip_stop() {
	[ -r /run/chip-$1.pid ] || return 0
	_p=$(cat /run/chip-$1.pid)
	kill $_p 2>/dev/null
	wait $_p 2>/dev/null
	rm -f /run/chip-$1.pid
}

# gadget_log_mark NAME: a line in the kernel log; gadget_log_since NAME
# REGEX: a kernel log line after that mark matches the extended regex REGEX
gadget_log_mark() {
	echo "ttyport-test: gadget mark $1" >/dev/kmsg
}
gadget_log_since() {
	dmesg | sed -n "/ttyport-test: gadget mark $1\$/,\$p" | grep -E "$2"
}

# gadget_unplug_timed WIRE: gadget_unplug, and the milliseconds from the
# write to the UDC file until the USB device's sysfs directory is gone
# (which the USB core removes after every interface driver's disconnect,
# so after the port and the serdev device on it went) in /tmp/unplug.ms;
# polled every 10 ms.
gadget_unplug_timed() {
	world_usb_of "$1" >/dev/null || { echo "$1 is not plugged"; return 1; }
	_dir=$world_usb
	read -r _t0 _ </proc/uptime
	echo "" >$gadget_cfs/$1/UDC || return 1
	_n=0
	while [ -e "$_dir" ] && [ $_n -lt 1000 ]; do
		sleep 0.01
		_n=$((_n + 1))
	done
	read -r _t1 _ </proc/uptime
	[ -e "$_dir" ] && { echo "$_dir still there 10 s after the unplug"; return 1; }
	echo $(( (${_t1%.*}${_t1#*.} - ${_t0%.*}${_t0#*.}) * 10 )) >/tmp/unplug.ms
}
