# The guest's view of the test world (sourced by /init and by test scripts).
#
# Every wire in the world has two ends: the slave port the kernel sees (ttyS1,
# ttyS2, ttyS3, the PCI 16550, a USB-serial port) and a far end, a virtio-serial
# port named "far-<wire>" that QEMU pairs with the port's chardev.  Chip models
# and tests open /dev/far-<wire> to be the chip.

fwcfg=/sys/firmware/qemu_fw_cfg/by_name/opt/ttyport

# fw_cfg entries appear when the qemu_fw_cfg driver probes; it is built in,
# but give it a moment on a slow TCG boot.
world_wait_fw_cfg() {
	i=0
	while [ ! -d $fwcfg ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# /dev/far-<wire> and /dev/hostctl -> /dev/vportXpY, from the names QEMU gave
# the ports.
world_link_far_ends() {
	for p in /sys/class/virtio-ports/*; do
		[ -r "$p/name" ] || continue
		name=$(cat "$p/name")
		case "$name" in
		far-* | hostctl) ln -sf "/dev/${p##*/}" "/dev/$name" ;;
		esac
	done
}

# CHIPS="model:wire[:lines] ..." as the host passed it.  The lines name is the
# prefix of the chip's gpio-sim line names (docs/models.md); by default the
# model's own prefix numbered per model (bt0, bt1, gps0, ...).
world_start_chips() {
	nbt=0
	ngps=0
	for chip in $CHIPS; do
		model=${chip%%:*}
		rest=${chip#*:}
		wire=${rest%%:*}
		lines=
		[ "$rest" != "$wire" ] && lines=${rest#*:}
		case "$model" in
		nokia)
			[ -n "$lines" ] || lines=bt$nbt
			nbt=$((nbt + 1))
			world_start_btvirt
			nokia-h4p --uart /dev/far-$wire --lines $lines \
				--btvirt /tmp/bt-server-bredrle \
				$(eval echo \$CHIP_OPTS_$lines) \
				2>>/tmp/chip-$lines.log &
			;;
		bcm)
			# a plain H4 Broadcom controller (no lines): make
			# bench's hci_bcm boots
			[ -n "$lines" ] || lines=bcm$nbt
			nbt=$((nbt + 1))
			world_start_btvirt
			nokia-h4p --bcm --uart /dev/far-$wire --lines $lines \
				--btvirt /tmp/bt-server-bredrle \
				$(eval echo \$CHIP_OPTS_$lines) \
				2>>/tmp/chip-$lines.log &
			;;
		gps)
			[ -n "$lines" ] || lines=gps$ngps
			ngps=$((ngps + 1))
			w2sg0004 --uart /dev/far-$wire --lines $lines \
				$(eval echo \$CHIP_OPTS_$lines) \
				2>>/tmp/chip-$lines.log &
			;;
		*)
			echo "ttyport: unknown chip model '$model' in CHIPS (nokia, bcm, gps)"
			continue
			;;
		esac
		echo $! >/run/chip-$lines.pid
		echo "ttyport: chip $model on $wire (lines $lines), log /tmp/chip-$lines.log"
	done
}

world_start_btvirt() {
	[ -S /tmp/bt-server-bredrle ] && return 0
	btvirt -s >/tmp/btvirt.log 2>&1 &
	echo $! >/run/btvirt.pid
	i=0
	while [ ! -S /tmp/bt-server-bredrle ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# world_swap_chip OLD MODEL:WIRE:LINES: stop the chip whose lines are OLD and
# start MODEL on WIRE with lines LINES instead (CHIP_OPTS_<LINES> apply): for a
# test that wires a far end to a chip described another way (an overlay).
world_swap_chip() {
	[ -r /run/chip-$1.pid ] && kill "$(cat /run/chip-$1.pid)" 2>/dev/null
	rm -f /run/chip-$1.pid
	sleep 0.2
	CHIPS=$2 world_start_chips
}

world_stop_chips() {
	for f in /run/chip-*.pid /run/btvirt.pid; do
		[ -r "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	return 0
}

# OVERLAY: fw_cfg entries opt/ttyport/overlay<N> holding .dtbo blobs.
world_apply_overlays() {
	for o in $fwcfg/overlay*; do
		[ -r "$o/raw" ] || continue
		name=${o##*/}
		dir=/sys/kernel/config/device-tree/overlays
		if [ ! -d $dir ]; then
			echo "ttyport: $name not applied: this kernel has no overlay loader ($dir)"
			continue
		fi
		# (the loader's answer is its status: configfs takes the blob at
		# close and ignores what the loader says)
		mkdir $dir/$name && cat "$o/raw" >$dir/$name/dtbo
		echo "ttyport: overlay $name: $(cat $dir/$name/status 2>/dev/null)"
	done
}

# kmemleak reports an object only on a scan that finds it unreferenced and
# unchanged since the scan before, and only once it is older than 5 s (FACTS.md):
# one scan at the end of a boot misses any leak made late in the test.  So scan,
# start a second scan 5.5 s after the first started (so every leak of
# the test is old enough; a scan itself takes seconds under KASAN and TCG, so
# sleep only for the rest), and print what it found to the kernel log, where
# the host looks for splats.
# The verdict goes to stdout, one line the host reads (scripts/check.sh):
# "@@ttyport-kmemleak scanned", or "@@ttyport-kmemleak not-scanned <why>",
# which fails the boot unless one of its tests allows that skip: a boot
# whose leaks nobody looked for is not a clean one.
# Returns 1 if nothing was scanned (so the caller knows no time passed).
world_kmemleak_report() {
	k=/sys/kernel/debug/kmemleak
	if [ ! -w $k ]; then
		echo "@@ttyport-kmemleak not-scanned $k is not writable (no debugfs, or kmemleak off)"
		return 1
	fi
	read -r t0 _ </proc/uptime
	# A locked-down kernel (lockdown=integrity) closes debugfs: say so.  On
	# any other kernel a refused scan is also a line in the kernel log,
	# where scripts/logcheck.sh fails it as it would a leak.
	if ! o=$(echo scan 2>&1 >$k); then
		if dmesg | grep -q 'Kernel is locked down'; then
			echo "@@ttyport-kmemleak not-scanned the kernel is locked down ($o)"
		else
			echo "ttyport: kmemleak scan failed: $o" >/dev/kmsg
			echo "@@ttyport-kmemleak not-scanned the scan failed: $o"
		fi
		return 1
	fi
	read -r t1 _ </proc/uptime
	# The second scan starts 5.5 s after the first started (uptime has two
	# decimals: count in hundredths).
	nap=$((${t0%.*}${t0#*.} + 550 - ${t1%.*}${t1#*.}))
	[ $nap -gt 0 ] && sleep $((nap / 100)).$(printf %02d $((nap % 100)))
	if ! o=$(echo scan 2>&1 >$k); then
		echo "ttyport: kmemleak scan failed: $o" >/dev/kmsg
		echo "@@ttyport-kmemleak not-scanned the second scan failed: $o"
		return 1
	fi
	# (debugfs files have no size: read, do not test with -s.)  One echo per
	# line: /dev/kmsg rate-limits each open file to 10 lines per 5 s.
	while IFS= read -r line; do
		echo "kmemleak: $line" >/dev/kmsg
	done <$k
	echo "@@ttyport-kmemleak scanned"
	return 0
}

# The tasks in uninterruptible sleep (state D) now, one "pid comm" a line.
world_tasks_in_d() {
	for f in /proc/[0-9]*/stat; do
		# The task may be gone; comm may hold spaces and parentheses, the
		# state follows the last ")".
		read -r stat 2>/dev/null <"$f" || continue
		rest=${stat##*) }
		[ "${rest%% *}" = D ] || continue
		comm=${stat#*(}
		echo "${stat%% *} ${comm%)*}"
	done
}

# A task still in D state at poweroff is a hang that the hung-task detector
# (20 s) does not live to report.  Given an earlier world_tasks_in_d sample
# (taken at least a few seconds ago), print each task that is in D in both to
# the kernel log with its kernel stack; scripts/logcheck.sh fails the boot on it.
world_blocked_report() { # earlier sample
	world_tasks_in_d | while read -r pid comm; do
		printf '%s\n' "$1" | grep -qxF "$pid $comm" || continue
		echo "ttyport: task $comm:$pid blocked in D state at shutdown" >/dev/kmsg
		while IFS= read -r line; do
			echo "ttyport:   $line" >/dev/kmsg
		done 2>/dev/null </proc/$pid/stack
	done
}

# Which tty device a wire's slave port is, by firmware path or driver.
#   com1..com4 -> ttyS0..ttyS3 (ISA ports; numbered by I/O address)
#   usb0, usb1 -> the ttyUSBn of the adapter plugged on that wire, whatever
#                 the plug order: hostctl gives each adapter its wire's name
#                 as USB serial number, and the usb-serial port device
#                 (named ttyUSBn, there also while a serdev device hides the
#                 tty) is a child of the adapter's interface.  Fails while
#                 no adapter is plugged on the wire.
world_tty_of() {
	case "$1" in
	com1) echo ttyS0 ;;
	com2) echo ttyS1 ;;
	com3) echo ttyS2 ;;
	com4) echo ttyS3 ;;
	pci0) echo ttyS4 ;;
	usb[0-9]) world_usb_of "$1" >/dev/null &&
		for _p in "$world_usb"/*:*/ttyUSB*; do
			[ -e "$_p" ] && { echo "${_p##*/}"; return 0; }
		done
		return 1 ;;
	*) return 1 ;;
	esac
}

# world_usb_of WIRE: the USB device (1-2, ...) of the adapter plugged on
# WIRE, by its serial number; its sysfs directory is left in $world_usb.
world_usb_of() {
	for world_usb in /sys/bus/usb/devices/[0-9]*-*; do
		case "${world_usb##*/}" in *:*) continue ;; esac
		[ "$(cat "$world_usb/serial" 2>/dev/null)" = "$1" ] &&
			{ echo "${world_usb##*/}"; return 0; }
	done
	world_usb=
	return 1
}
