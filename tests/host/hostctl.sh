#!/bin/bash
# scripts/hostctl.c's wake-up for S3, against a fake QEMU monitor: the guest's
# "wake-on-suspend" is answered "ok" before the guest suspends, so it proves
# nothing; "wake-report", asked after resume, must be "ok" only when QEMU
# reported the guest suspended (SUSPEND), took system_wakeup and reported
# WAKEUP, and say what was missing otherwise.  The fake monitor
# (socat + a shell loop) sends SUSPEND when the test says the guest
# suspended, and answers every command; the test is the guest, talking on
# hostctl's control socket.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
n=0
fail=0
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

gcc -O2 -Wall -Wextra -Werror -o "$tmp/hostctl" "$top/scripts/hostctl.c" ||
	{ echo "not ok 1 - hostctl builds"; echo 1..1; exit 1; }

# The fake monitor: a QMP greeting, "return" to every command; SUSPEND once
# $tmp/suspend exists (the guest "entered S3"), WAKEUP after system_wakeup
# unless $tmp/no-wakeup exists.
cat >"$tmp/qmp.sh" <<'EOF'
#!/bin/bash
d=$1
echo '{"QMP": {"version": {}, "capabilities": []}}'
sent=
while :; do
	if [ -z "$sent" ] && [ -e "$d/suspend" ]; then
		echo '{"event": "SUSPEND", "data": {}}'
		sent=1
	fi
	IFS= read -r -t 0.1 line || { [ $? -gt 128 ] && continue; exit 0; }
	echo "$line" >>"$d/qmp.log"
	echo '{"return": {}}'
	case "$line" in
	*system_wakeup*) [ -e "$d/no-wakeup" ] || echo '{"event": "WAKEUP", "data": {}}' ;;
	esac
done
EOF
chmod +x "$tmp/qmp.sh"

# start: a fresh monitor and control socket, hostctl between them; the
# control connection is the coprocess CTL (the guest's port)
start() {
	rm -f "$tmp/suspend" "$tmp/no-wakeup" "$tmp/qmp" "$tmp/ctl"
	socat UNIX-LISTEN:"$tmp/qmp" EXEC:"$tmp/qmp.sh $tmp" 2>/dev/null &
	pids+=($!)
	coproc CTL { socat UNIX-LISTEN:"$tmp/ctl" STDIO 2>/dev/null; }
	pids+=($CTL_PID)
	"$tmp/hostctl" "$tmp/qmp" "$tmp/ctl" 2>>"$tmp/hostctl.log" &
	pids+=($!)
}
# ask REQUEST [SECONDS]: one request, its answer in $reply (empty after
# SECONDS, default 15)
ask() {
	reply=
	echo "$1" >&"${CTL[1]}"
	IFS= read -r -t "${2:-15}" reply <&"${CTL[0]}"
}
tap() { # DESC PATTERN: the last reply matches PATTERN
	n=$((n + 1))
	# shellcheck disable=SC2053 # PATTERN is a glob
	if [[ $reply == $2 ]]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		echo "# reply: '$reply', wanted '$2'"
		tail -n 5 "$tmp/hostctl.log" | sed 's/^/# hostctl: /'
		fail=1
	fi
}

start
ask "wake-report"
tap "wake-report before any wake-on-suspend is an error" "error no wake-on-suspend*"
ask "wake-on-suspend 5"
tap "wake-on-suspend is answered before the guest suspends" "ok"
touch "$tmp/suspend"
sleep 2.5	# (hostctl wakes the guest a second after SUSPEND)
ask "wake-report"
tap "after SUSPEND, system_wakeup and WAKEUP: wake-report is ok" "ok QEMU reported SUSPEND *"
n=$((n + 1))
if grep -q system_wakeup "$tmp/qmp.log"; then echo "ok $n - the monitor got system_wakeup"
else echo "not ok $n - the monitor got system_wakeup"; fail=1; fi
ask "wake-report"
tap "a second wake-report, with no S3 in between, is an error" "error no wake-on-suspend since*"

# No SUSPEND: the guest never got to S3.
ask "wake-on-suspend 1"
tap "wake-on-suspend (a guest that will not suspend)" "ok"
sleep 1.5
ask "wake-report"
tap "no SUSPEND from QEMU: wake-report is an error" "error no SUSPEND event*"

# SUSPEND, but no WAKEUP after system_wakeup (a fresh monitor: SUSPEND once).
kill "${pids[@]}" 2>/dev/null
wait 2>/dev/null
pids=()
start
touch "$tmp/no-wakeup"
ask "wake-on-suspend 5"
touch "$tmp/suspend"
sleep 1.5
# hostctl answers once its wake-on-suspend has given up on WAKEUP: a second
# after SUSPEND, then 10 s waiting; on a machine busy with boots (make check
# runs this beside them) that came to more than 15 s once
ask "wake-report" 40
tap "SUSPEND but no WAKEUP: wake-report is an error" "error *no WAKEUP event*"

echo "1..$n"
exit $fail
