# Helpers of the device tree overlay tests (tests/dt-*.sh): overlays from
# /lib/ttyport/overlays (compiled from dt-overlays/) applied and removed
# through the configfs loader, and the serdev devices of DT nodes.  Source
# after ktap.sh.

ovl=/sys/kernel/config/device-tree/overlays
dtbo=/lib/ttyport/overlays
base=/sys/firmware/devicetree/base

# ovl_write NAME FILE: give the overlay blob FILE to the loader as NAME
# (rmdir $ovl/NAME removes it); ovl_status NAME: applied, unapplied or
# "error <errno>".  configfs hands the blob over when the file is closed and
# ignores what the loader says, so cat succeeds whatever happened: the
# status tells.  ovl_apply NAME FILE: the same, and the overlay is applied.
ovl_write() { mkdir $ovl/$1 && cat "$2" >$ovl/$1/dtbo; }
ovl_status() { cat $ovl/$1/status 2>/dev/null; }
ovl_apply() {
	ovl_write "$1" "$2" || return 1
	[ "$(ovl_status $1)" = applied ] ||
		{ echo "overlay $1: status '$(ovl_status $1)'"; return 1; }
}

# of_bound DRIVER NODE: DRIVER is bound to the serdev device of DT node NODE
# (a path in the live tree: /serial-ports/.../gnss)
of_bound() {
	for _d in /sys/bus/serial/drivers/$1/serial*-*; do
		[ "$(readlink -f $_d/of_node 2>/dev/null)" = "$base$2" ] && return 0
	done
	return 1
}
sirf_on() { of_bound gnss-sirf "$1"; }

# gnss_of NODE: the gnssN of the serdev device of DT node NODE
gnss_of() {
	for _d in /sys/bus/serial/devices/serial*-*; do
		[ "$(readlink -f $_d/of_node 2>/dev/null)" = "$base$1" ] &&
			ls $_d/gnss 2>/dev/null && return 0
	done
	return 1
}
