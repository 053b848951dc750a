#!/bin/sh
# make check-drivers, in the guest (run by scripts/qemu-run.sh as SCRIPT=):
# wait until the drivers' probes have settled, then report what each port
# of the boot became, one "@@port" line each, for tests/drivers/compare.sh.
#
# TEST_DRV_PORTS lists the ports, "wire=tty=kind=id" each (tests/drivers/ports):
# kind pnp finds the host by the end of its ACPI path, kind pci by its address.
#
#   @@port wire=W tty=ttySn ttydev=yes|no ttysys=yes|no ctrl=serialN|- \
#          dev=serialN-0|- fw=<ACPI path>|- driver=<name>|- class=<subsys:name,...>|- \
#          deferred=yes|no opens=ok|fail|-
#   @@acpi path=<ACPI path> hid=<HID> phys=<physical node names>|-
#       the tables' devices (\_SB.X...) and the DELL0501 UART
#   @@plat name=<platform device> driver=<name>|-
#   @@backlight name=<device> actual=<brightness> set=42 now=<brightness>
#   @@class <subsystem>:<name> under=<serdev device>|-
#       every device of the classes and buses the drivers register (some,
#       such as w1's bus masters, are not below the serdev device)
#
# ttydev: /dev/ttySn exists; ttysys: the port's tty device is registered;
# opens: /dev/ttySn takes a speed and a byte ("-": there is no /dev/ttySn).

# Settle: the kernel log has been quiet for QUIET seconds (probe time-outs
# log), after at least MIN and at most MAX seconds.
MIN=${TEST_DRV_MIN:-15}
QUIET=${TEST_DRV_QUIET:-10}
MAX=${TEST_DRV_MAX:-120}
t=0 still=0 last=-1
while [ $t -lt "$MAX" ]; do
	n=$(dmesg | wc -l)
	if [ "$n" = "$last" ]; then still=$((still + 1)); else still=0; last=$n; fi
	[ $t -ge "$MIN" ] && [ $still -ge "$QUIET" ] && break
	sleep 1
	t=$((t + 1))
done
echo "# settled after $t s (log quiet for $still s)"

host_of() { # kind id: the host device's sysfs directory
	case $1 in
	pnp)
		for d in /sys/bus/pnp/devices/*; do
			case "$(cat "$d/firmware_node/path" 2>/dev/null)" in
			*"$2") readlink -f "$d"; return ;;
			esac
		done ;;
	pci) readlink -f "/sys/bus/pci/devices/$2" ;;
	esac
}

classes() { # device dir: the class and bus devices below it, subsys:name,...
	find "$1" -mindepth 2 -maxdepth 6 -name subsystem 2>/dev/null |
	while read -r s; do
		d=${s%/subsystem}
		echo "$(basename "$(readlink "$s")"):$(basename "$d")"
	done | sort | tr '\n' ',' | sed 's/,$//'
}

deferred=$(cat /sys/kernel/debug/devices_deferred 2>/dev/null)

for p in $TEST_DRV_PORTS; do
	wire=${p%%=*}; r=${p#*=}
	tty=${r%%=*}; r=${r#*=}
	kind=${r%%=*}; id=${r#*=}
	host=$(host_of "$kind" "$id")
	if [ -z "$host" ] || [ ! -d "$host" ]; then
		echo "@@port wire=$wire tty=$tty host=missing"
		continue
	fi
	hn=$(basename "$host")
	port=$host/$hn:0/$hn:0.0
	ttydev=no; [ -c "/dev/$tty" ] && ttydev=yes
	# A tty that is there must work: set a speed and write a byte
	# (nothing listens; the 16550 sends it anyway).
	opens=-
	if [ $ttydev = yes ]; then
		opens=fail
		timeout 5 sh -c "stty -F /dev/$tty 9600 && printf x >/dev/$tty" 2>/dev/null && opens=ok
	fi
	ttysys=no; [ -e "$port/tty/$tty" ] && ttysys=yes
	ctrl=- dev=- fw=- drv=- cls=- def=no
	for c in "$port"/serial[0-9]*; do
		[ -d "$c" ] || continue
		ctrl=$(basename "$c")
		for d in "$c"/serial[0-9]*-[0-9]*; do
			[ -d "$d" ] || continue
			dev=$(basename "$d")
			fw=$(cat "$d/firmware_node/path" 2>/dev/null || echo -)
			[ -e "$d/driver" ] && drv=$(basename "$(readlink "$d/driver")")
			cls=$(classes "$d")
			[ -n "$cls" ] || cls=-
			case "$deferred" in *"$dev"*) def=yes ;; esac
		done
	done
	echo "@@port wire=$wire tty=$tty ttydev=$ttydev ttysys=$ttysys ctrl=$ctrl dev=$dev fw=$fw driver=$drv class=$cls deferred=$def opens=$opens"
done

for a in /sys/bus/acpi/devices/*; do
	path=$(cat "$a/path" 2>/dev/null)
	hid=$(cat "$a/hid" 2>/dev/null)
	case "$path" in \\_SB_.X*) ;; *) [ "$hid" = DELL0501 ] || continue ;; esac
	phys=
	for n in "$a"/physical_node*; do
		[ -e "$n" ] && phys="$phys${phys:+,}$(basename "$(readlink "$n")")"
	done
	echo "@@acpi path=$path hid=$hid phys=${phys:--}"
done

for n in dell-uart-backlight; do
	d=/sys/bus/platform/devices/$n
	[ -e "$d" ] || continue
	drv=-
	[ -e "$d/driver" ] && drv=$(basename "$(readlink "$d/driver")")
	echo "@@plat name=$n driver=$drv"
done
for c in class/bluetooth class/gnss class/net class/sound class/nfc \
	class/backlight bus/iio bus/w1 bus/greybus; do
	dir=/sys/$c
	[ "${c%%/*}" = bus ] && dir=$dir/devices
	for d in "$dir"/*; do
		[ -e "$d" ] || continue
		n=$(basename "$d")
		[ "$n" = lo ] && continue
		under=$(readlink -f "$d" | tr '/' '\n' | grep -E '^serial[0-9]+-[0-9]+$' | head -n 1)
		echo "@@class ${c#*/}:$n under=${under:--}"
	done
done
# A bound backlight (dell-uart-backlight with its far end): the data path,
# a brightness written and read back through the driver.
for b in /sys/class/backlight/*; do
	[ -e "$b/brightness" ] || continue
	was=$(cat "$b/actual_brightness" 2>&1)
	echo 42 >"$b/brightness" 2>/dev/null
	now=$(cat "$b/actual_brightness" 2>&1)
	echo "@@backlight name=$(basename "$b") actual=$was set=42 now=$now"
done
echo "@@serial-bus $(ls /sys/bus/serial/devices | tr '\n' ' ')"
