# The description stress shared by tests/core-stress.sh (an ACPI table
# through configfs) and tests/dt-stress.sh (an overlay through configfs): a
# GPS for COM2 is described and undescribed CYCLES times while another
# process keeps opening and closing /dev/ttyS1 (and a stale node of it), so
# that binds, deferred binds, unbinds and the tty coming and going race with
# opens and closes.  Source after ktap.sh and serdev.sh.
#
# Nothing settles before the removal: every fifth cycle removes the
# description right after adding it, while the devices are still being
# probed; the others remove it as soon as the GPS is bound (its bind uevent
# may still be being built) or, when the tty was held open, while the bind is
# deferred and the opener's next last close starts it.

deferred() {
	grep -q '^serial' /sys/kernel/debug/devices_deferred
}

# stress_run CYCLES WHAT ADD REMOVE [OPENS]: WHAT names the description in
# the checks ("the table"); ADD and REMOVE are commands that add and remove
# it; OPENS is how many opens of each node per cycle prove the opener ran
# (default 4).
stress_run() {
	cycles=$1
	what=$2
	add=$3
	remove=$4
	# What proves the premise (checked at the end), from a healthy 50-cycle
	# run of ACPI tables on a loaded 2-core TCG host: about 17 opens of each
	# node per cycle, and the port came back to the running opener after
	# every unbind (37 of 37; 0 of 39 when it paused around every rmdir).  A
	# quarter of each is asked.  Overlay cycles are shorter (about 3 opens of
	# each node per cycle): their caller asks for fewer opens.
	min_opens=$((cycles * ${5:-4}))
	unbind_ratio=4
	devno=$(cat /sys/class/tty/$tty/dev)
	rm -f /tmp/stale-$tty
	mknod /tmp/stale-$tty c "${devno%%:*}" "${devno##*:}"
	stress_loop
	stress_checks
}

stress_loop() {
# The opener: open, (sometimes) hold a moment, close, until told to stop;
# the live node and the stale one (which fails with EBUSY while the GPS
# holds the port) in turn.  Shell builtins only (a fork per open would
# starve the load/unload loop on a TCG guest), and redirections on compound
# commands, not "exec": a failed redirection of a special builtin would end
# the subshell; stderr is redirected before the node is opened, or each
# refused open prints "can't open" into the test's output.
#
# It counts what proves the premise (checked after the loop): opens of each
# node, and "comebacks": an open of the stale node refused (the GPS holds
# the port) and then one that succeeds with no pause in between, i.e. the
# opener was running while the port was handed back: an unbind that raced
# with opens rather than with a paused opener.
rm -f /tmp/stop /tmp/pause /tmp/paused /tmp/opener.counts
(
	k=0
	live=0
	stale=0
	comebacks=0
	refused=	# the last open of the stale node was refused
	exec 4<>/dev/ptmx	# never readable: "read -t" on it is a sleep
	while [ ! -e /tmp/stop ]; do
		if [ -e /tmp/pause ]; then
			[ -e /tmp/paused ] || : >/tmp/paused
			refused=	# a refusal before a pause proves nothing after it
			read -t 0.02 _x <&4
			continue
		fi
		[ -e /tmp/paused ] && rm -f /tmp/paused
		k=$((k + 1))
		node=/dev/$tty
		[ $((k % 2)) -eq 0 ] && node=/tmp/stale-$tty
		opened=
		if [ $((k % 3)) -eq 0 ]; then
			# held for 50 ms: nothing arrives, so the read times out
			{ read -t 0.05 _x <&3; true; } 2>/dev/null 3<$node && opened=1
		else
			{ true; } 2>/dev/null 3<$node && opened=1
		fi
		if [ $((k % 2)) -ne 0 ]; then
			[ -n "$opened" ] && live=$((live + 1))
		elif [ -n "$opened" ]; then
			stale=$((stale + 1))
			[ -n "$refused" ] && comebacks=$((comebacks + 1))
			refused=
		else
			refused=1
		fi
	done
	echo "$k $live $stale $comebacks" >/tmp/opener.counts
) &
opener=$!

bad=0
unsettled=0
racing=0	# cycles that unload the table with no wait at all
unbinds=0	# cycles whose rmdir unbinds a bound GPS, the opener running
deferrals=0	# cycles whose bind was deferred by the held tty
cycle=0
while [ $cycle -lt $cycles ]; do
	cycle=$((cycle + 1))
	held=
	# every fourth cycle the table arrives while the tty is held open,
	# and goes while the bind is still deferred
	if [ $((cycle % 4)) -eq 0 ] && [ -c /dev/$tty ] && exec 4</dev/$tty; then
		held=1
	fi 2>/dev/null
	$add || bad=$((bad + 1))
	[ $((cycle % 3)) -eq 0 ] && sleep 0.1
	bound=
	if [ $((cycle % 5)) -eq 2 ]; then
		racing=$((racing + 1))	# unload with the probe in flight
	elif [ -n "$held" ]; then
		if poll 10 deferred; then
			deferrals=$((deferrals + 1))
		else
			unsettled=$((unsettled + 1))
		fi
	elif poll 10 sirf_bound; then
		bound=1
		unbinds=$((unbinds + 1))
	else
		unsettled=$((unsettled + 1))
	fi
	$remove || bad=$((bad + 1))
	[ -n "$held" ] && exec 4>&-
done
touch /tmp/stop
wait $opener
read attempts live stale comebacks </tmp/opener.counts || echo "# the opener left no counts"
echo "# opener: $attempts attempts; opens: $live of /dev/$tty, $stale of the stale node"
echo "# $racing cycles removed $what right after adding it"
echo "# the port came back to a running opener after $comebacks of $unbinds unbinds"
}

stress_checks() {
check_eq "$cycles add/remove cycles of $what: every add and remove succeeded (failures)" 0 "$bad"
check_eq "every waiting cycle settled (bound, or deferred while held open)" 0 "$unsettled"
# Binds deferred by the held tty happened (every fourth cycle holds it, if
# the tty is there then)
check "binds were deferred by the held tty ($deferrals cycles)" test "$deferrals" -gt 0
# The opener ran (thresholds: see min_opens)
check "the opener opened /dev/$tty more than $min_opens times" test "${live:-0}" -gt $min_opens
check "the opener opened the stale node more than $min_opens times" test "${stale:-0}" -gt $min_opens
# Unbinds raced with it rather than with a paused opener
check "unbinds happened, and the port came back to a running opener after at least 1 in $unbind_ratio" \
	test "$unbinds" -gt 0 -a $((${comebacks:-0} * unbind_ratio)) -ge "$unbinds"
wait_for 10 "no serdev device is left" no_serdev_dev
wait_for 10 "/dev/$tty is a tty at the end" tty_back
check "$tty carries bytes both ways at the end" tty_bytes
check "$what is added once more" $add
wait_for 20 "gnss-sirf binds it" sirf_bound
wait_for 5 "/dev/$tty gives way" tty_gone
check "$what is removed" $remove
wait_for 10 "/dev/$tty comes back" tty_back
check "$tty carries bytes both ways after that" tty_bytes
n=$(dmesg | grep -c 'is open: binding gnss-sirf deferred')
echo "# deferred binds during the run: $n"
}
