#!/bin/bash
# make check-drivers' verdict: compare what each port became on the stock
# and on the patched kernel (tests/drivers/run.sh's logs), one "ok"/"not ok"
# line per check, "N passed, N failed" last; exit 1 if a check failed.
#
# Per boot and kernel: the guest ran its script to the end, and the kernel
# log has no splat (scripts/logcheck.sh).  Per driver: its object is built
# into both kernels; the same serdev controller and device names and the
# same firmware node; the same driver bound (or none); the same class and
# bus devices below the serdev device; the same kernel log lines about it;
# the tty as each kernel's model says (stock: gone once the port has a
# serdev controller; patched: there exactly when no driver is bound, except
# on a port the DELL0501 quirk reserves); and every field that differs is an
# entry of tests/drivers/allow, every entry of which must be seen.
#
# Writes build/drivers/results.tsv (tests/drivers/report.sh makes the table
# of docs/serdev-drivers.md from it), one line per port of the plan: table,
# boot, wire, tty; for stock then patched: controller, device, driver, class
# devices, /dev/ttySn there, the line that says why a probe failed; then the
# fields that differ, whether log lines differ, and the allow-list entries
# used (their indexes among tests/drivers/allow's entries, from 0).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
here=tests/drivers
runs=build/drivers/runs
results=build/drivers/results.tsv
kernels="stock patched"
fields="ctrl dev fw driver class deferred ttydev ttysys opens"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
check() { # status(0 = ok) description...
	local s=$1
	shift
	if [ "$s" -eq 0 ]; then
		echo "ok - $*"
		pass=$((pass + 1))
	else
		echo "not ok - $*"
		fail=$((fail + 1))
	fi
}

plan() { grep -v '^#' $here/plan | awk 'NF >= 3 && $3 != "-" { print $1, $2, $3 }'; }

# The allow-list: "diff" and "log" entries, and whether each was seen.
declare -a allow=()
declare -A seen=()
while IFS= read -r line; do
	case "$line" in "" | "#"*) continue ;; esac
	allow+=("$line")
done <$here/allow

# port_field KERNEL BOOT WIRE FIELD: a field of the port's @@port line
port_field() {
	local f=$runs/$1-$2/guest.txt
	[ -r "$f" ] || { echo "?"; return; }
	awk -v w="wire=$3" -v k="$4" '
		$1 == "@@port" && $2 == w {
			for (i = 3; i <= NF; i++) {
				n = index($i, "=")
				if (substr($i, 1, n - 1) == k) { print substr($i, n + 1); found = 1 }
			}
		}
		END { if (!found) print "?" }' "$f"
}

# The kernel log without timestamps, and with what is random on every boot
# made the same (qcauart's random MAC address).
declare -A klog=()
for b in $(plan | awk '{ print $1 }' | uniq); do
	for k in $kernels; do
		f=$runs/$k-$b/console.log
		klog[$k-$b]=$(tr -d '\r' <"$f" 2>/dev/null | sed -E \
			-e 's/^\[ *[0-9]+\.[0-9]+\] //' \
			-e 's/(random MAC address: )[0-9a-f:]{17}/\1<random>/')
	done
done

# The lines of a whole boot's log that are about serial ports, serdev, ACPI
# devices or the drivers' subsystems (the rest differs from boot to boot:
# timings, calibrations).
# Of those, what /init and the clock calibration print differs too.
noise='^ttyport: at the end: |^tsc: |^calibrate_delay'
relevant='serial|serdev|tty|uart|UART|8250|16550|ACPI|acpi|PNP|gpio|GPIO|Bluetooth|hci|gnss|w1|1-wire|backlight|dell|nfc|NFC|iio|greybus|ALSA|MIDI|snd|ssam|surface|cros|rave|qca|bno|pms|scd30|sps30|probe|firmware|WARN|BUG|error|fail'

# numbers_any: HCI and GNSS device numbers made "hciN" and "gnssN".  They
# follow the order in which the drivers register their class devices, which
# varies from boot to boot on stock 6.12 too: hci1 and hci2 of hci_qca and
# hci_mrvl swapped between two stock boots (deferred probes), and gnss0 and
# gnss1 of gnss-mtk and gnss-ubx (boot a) swapped in one stock boot of a CI
# run.  A boot's set of names is compared on its own.
numbers_any() { sed -E 's/([^A-Za-z0-9_]|^)(hci|gnss)[0-9]+/\1\2N/g'; }

# log_lines KERNEL BOOT KEYS: the kernel log lines naming any of KEYS (a
# serdev device, a class device, the ACPI device), as a sorted set
log_lines() {
	local re
	re=$(echo "$3" | tr ' ' '\n' | grep . | sort -u | sed 's/[.]/\\./g' | paste -sd'|')
	[ -n "$re" ] || return 0
	printf '%s\n' "${klog[$1-$2]}" | grep -aE "(^|[^A-Za-z0-9_-])($re)([^0-9]|$)" | sort -u
}

# allowed_diff TABLE FIELD STOCK PATCHED UNBOUND: an allow entry for this
# difference (its index), or nothing
allowed_diff() {
	local i kind t fld s p when
	for i in "${!allow[@]}"; do
		read -r kind t fld s p when <<<"${allow[$i]}"
		[ "$kind" = diff ] || continue
		# shellcheck disable=SC2254 # TABLE may be a glob
		case "$1" in $t) ;; *) continue ;; esac
		[ "$fld" = "$2" ] && [ "$s" = "$3" ] && [ "$p" = "$4" ] || continue
		[ "$when" = always ] || { [ "$when" = unbound ] && [ "$5" = yes ]; } || continue
		echo "$i"
		return
	done
}

# allowed_log TABLE KERNEL LINE: an allow entry for a line only KERNEL printed
allowed_log() {
	local i kind t k re
	for i in "${!allow[@]}"; do
		read -r kind t k re <<<"${allow[$i]}"
		[ "$kind" = log ] || continue
		# shellcheck disable=SC2254
		case "$1" in $t) ;; *) continue ;; esac
		# a boot-wide line ("*") only matches an entry for any table
		[ "$1" != "*" ] || [ "$t" = "*" ] || continue
		[ "$k" = "$2" ] || continue
		printf '%s\n' "$3" | grep -qaE -- "$re" || continue
		echo "$i"
		return
	done
}

# Boots: the guest's script ran to its end; no splat.
for b in $(plan | awk '{ print $1 }' | uniq); do
	for k in $kernels; do
		d=$runs/$k-$b
		grep -q '^@@serial-bus' "$d/guest.txt" 2>/dev/null
		check $? "boot $b [$k]: the guest reported every port"
		splat=$(scripts/logcheck.sh "$d/console.log" 2>&1)
		check $? "boot $b [$k]: no splat in the kernel log${splat:+: $(echo "$splat" | head -n 1)}"
	done
	# ACPI devices and platform devices: the same physical nodes, the same
	# driver bound to the platform device the DELL0501 quirk registers
	a_s=$(grep -E '^@@(acpi|plat|class|backlight) ' "$runs/stock-$b/guest.txt" 2>/dev/null | numbers_any | sort)
	a_p=$(grep -E '^@@(acpi|plat|class|backlight) ' "$runs/patched-$b/guest.txt" 2>/dev/null | numbers_any | sort)
	[ -n "$a_s" ] && [ "$a_s" = "$a_p" ]
	check $? "boot $b: the same ACPI devices with the same physical nodes, the same platform devices and drivers, the same class and bus devices, the same backlight reads$([ "$a_s" = "$a_p" ] || echo ": $(diff <(echo "$a_s") <(echo "$a_p") | grep '^[<>]' | tr '\n' ' ')")"
	n_s=$(sed -n 's/^@@class \([^ ]*\) .*/\1/p' "$runs/stock-$b/guest.txt" 2>/dev/null | sort | paste -sd' ')
	n_p=$(sed -n 's/^@@class \([^ ]*\) .*/\1/p' "$runs/patched-$b/guest.txt" 2>/dev/null | sort | paste -sd' ')
	[ "$n_s" = "$n_p" ]
	check $? "boot $b: the same class and bus device names (${n_s:-none}${n_s:+ / }${n_p})"
	# Far ends: the same conversation on the wire.
	for f in "$runs/stock-$b".far-*.log; do
		[ -e "$f" ] || continue
		w=${f##*.far-}
		w=${w%.log}
		g=$runs/patched-$b.far-$w.log
		cmp -s "$f" "$g" && [ "$(grep -c '^cmd' "$f")" -gt 0 ]
		check $? "boot $b [$w]: the far end got the same commands and gave the same answers on both kernels ($(grep -c '^cmd' "$f") / $(grep -c '^cmd' "$g" 2>/dev/null) commands)"
	done
done

# Drivers: built into both kernels; each in a boot, or a reason why not.
while IFS=$'\t' read -r table obj _ _ _ why; do
	case "$table" in "#"* | "") continue ;; esac
	label=$table
	[ "$table" = - ] && label=$(basename "$obj" .o)
	if [ "$obj" != - ]; then
		[ -f "build/obj-drivers-stock/$obj" ] && [ -f "build/obj-drivers/$obj" ]
		check $? "$label: $obj built into both kernels"
	fi
	{ [ "$table" != - ] && plan | awk -v t="$table" '$3 == t { f = 1 } END { exit !f }'; } ||
		[ -n "${why:-}" ]
	check $? "$label: described in a boot of tests/drivers/plan, or drivers.tsv says why not"
done <$here/drivers.tsv

: >"$results"
while read -r b wire table; do
	tty=$(awk -v w="$wire" '$1 == w { print $2 }' $here/ports)
	name=$(sed -nE 's/^[[:space:]]*Device \(([A-Z0-9_]+)\).*/\1/p' "acpi-tables/drivers/$table.asl" | head -n 1)
	where="$table [$wire, $tty, boot $b]"
	declare -A v=()
	for k in $kernels; do
		for f in $fields; do
			v[$k.$f]=$(port_field "$k" "$b" "$wire" "$f")
		done
	done
	unbound=no
	[ "${v[stock.dev]}" != - ] && [ "${v[patched.dev]}" != - ] &&
		[ "${v[stock.driver]}" = - ] && [ "${v[patched.driver]}" = - ] && unbound=yes

	# Same names, driver, class devices: differences only from the allow-list.
	diffs=() unexplained=() used=()
	for f in $fields; do
		[ "${v[stock.$f]}" = "${v[patched.$f]}" ] && continue
		[ "$f" = class ] && [ "$(echo "${v[stock.$f]}" | numbers_any)" = "$(echo "${v[patched.$f]}" | numbers_any)" ] &&
			continue
		i=$(allowed_diff "$table" "$f" "${v[stock.$f]}" "${v[patched.$f]}" "$unbound")
		if [ -n "$i" ]; then
			seen[$i]=1
			used+=("$i")
			diffs+=("$f")
		else
			unexplained+=("$f: stock ${v[stock.$f]}, patched ${v[patched.$f]}")
		fi
	done
	for f in ctrl dev fw; do
		[ "${v[stock.$f]}" = "${v[patched.$f]}" ] && [ "${v[stock.$f]}" != "?" ]
		check $? "$where: the same $f (${v[stock.$f]}${v[patched.$f]:+ / ${v[patched.$f]}})"
	done
	[ "${v[stock.driver]}" = "${v[patched.driver]}" ] && [ "${v[stock.driver]}" != "?" ]
	check $? "$where: the same driver bound (${v[stock.driver]} / ${v[patched.driver]})"
	[ "$(echo "${v[stock.class]}" | numbers_any)" = "$(echo "${v[patched.class]}" | numbers_any)" ] &&
		[ "${v[stock.deferred]}" = "${v[patched.deferred]}" ]
	check $? "$where: the same class devices (${v[stock.class]} / ${v[patched.class]}) and deferral (${v[stock.deferred]} / ${v[patched.deferred]})"

	# Each kernel's tty model.
	# (opens: a tty that is there takes a speed and a byte)
	want=no opens=-
	[ "${v[stock.ctrl]}" = - ] && want=yes opens=ok
	[ "${v[stock.ttydev]}" = $want ] && [ "${v[stock.ttysys]}" = $want ] && [ "${v[stock.opens]}" = $opens ]
	check $? "$where [stock]: the tty is there and works exactly when the port has no serdev controller (ctrl ${v[stock.ctrl]}, /dev/$tty ${v[stock.ttydev]}, tty device ${v[stock.ttysys]}, opens ${v[stock.opens]})"
	want=no opens=-
	[ "${v[patched.driver]}" = - ] && want=yes opens=ok
	[ "$table" = dell-uart-backlight ] && want=no opens=-
	[ "${v[patched.ttydev]}" = $want ] && [ "${v[patched.ttysys]}" = $want ] && [ "${v[patched.opens]}" = $opens ]
	check $? "$where [patched]: the tty is there and works exactly when no driver is bound, never on the DELL0501 port (driver ${v[patched.driver]}, /dev/$tty ${v[patched.ttydev]}, tty device ${v[patched.ttysys]}, opens ${v[patched.opens]})"

	[ ${#unexplained[@]} -eq 0 ]
	check $? "$where: every difference is an intended one${diffs[*]:+ (${diffs[*]})}${unexplained[*]:+; not in tests/drivers/allow: ${unexplained[*]}}"

	# Kernel log lines about the device: on each kernel, the lines naming
	# the ACPI node, the tty, or that kernel's controller, device and class
	# devices (HCI and GNSS numbers made "hciN", "gnssN").
	declare -A keys=()
	for k in $kernels; do
		keys[$k]="$name $tty"
		for f in ctrl dev class; do
			for x in $(echo "${v[$k.$f]}" | tr ',' ' '); do
				[ "$x" = - ] || [ "$x" = "?" ] || keys[$k]+=" ${x#*:}"
			done
		done
	done
	l_s=$(log_lines stock "$b" "${keys[stock]}" | numbers_any | sort -u)
	l_p=$(log_lines patched "$b" "${keys[patched]}" | numbers_any | sort -u)
	log_lines stock "$b" "${keys[stock]}" >>"$tmp/attributed-$b"
	log_lines patched "$b" "${keys[patched]}" >>"$tmp/attributed-$b"
	unset keys
	bad=()
	logdiff=no
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		k=stock
		case "$line" in ">"*) k=patched ;; esac
		line=${line#[<>] }
		logdiff=yes
		i=$(allowed_log "$table" "$k" "$line")
		if [ -n "$i" ]; then seen[$i]=1; used+=("$i"); else bad+=("[$k only] $line"); fi
	done < <(diff <(printf '%s\n' "$l_s") <(printf '%s\n' "$l_p") | grep '^[<>]')
	[ ${#bad[@]} -eq 0 ]
	check $? "$where: the same kernel log lines about it ($(printf '%s\n' "$l_s" | grep -c .) lines)$(for x in "${bad[@]}"; do printf '\n#   %s' "$x"; done)"

	# The line that says why it failed, for the table: the driver core's
	# "probe ... failed", or else the first error the driver logged.
	printf '%s\t%s\t%s\t%s' "$table" "$b" "$wire" "$tty" >>"$results"
	for k in $kernels; do
		l=$l_s
		[ $k = patched ] && l=$l_p
		e=$(printf '%s\n' "$l" | grep -a 'probe with driver .* failed' | head -n 1)
		[ -n "$e" ] || e=$(printf '%s\n' "$l" |
			grep -aiE 'fail|error|timed? ?out|refus|not found|unable|invalid|no gpio' | head -n 1)
		e=${e//$'\t'/ }
		printf '\t%s' "${v[$k.ctrl]}" "${v[$k.dev]}" "${v[$k.driver]}" "${v[$k.class]}" \
			"${v[$k.ttydev]}" "${e:--}" >>"$results"
	done
	u=$(printf '%s\n' "${used[@]}" | grep . | sort -un | paste -sd,)
	printf '\t%s\t%s\t%s\n' "${diffs[*]:--}" "$logdiff" "${u:--}" >>"$results"
	unset v
done < <(plan)

# The whole boot's log: no line about serial ports, serdev or the drivers
# that only one kernel printed, other than the allow-list's "*" entries.
# Lines about a port's device were judged with that port, above.
for b in $(plan | awk '{ print $1 }' | uniq); do
	bad=()
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		k=stock
		case "$line" in ">"*) k=patched ;; esac
		line=${line#[<>] }
		grep -qxF -- "$line" "$tmp/attributed-$b" 2>/dev/null && continue
		i=$(allowed_log "*" "$k" "$line")
		if [ -n "$i" ]; then seen[$i]=1; else bad+=("[$k only] $line"); fi
	done < <(diff <(printf '%s\n' "${klog[stock-$b]}" | grep -aE "$relevant" | grep -avE "$noise" | sort -u) \
		<(printf '%s\n' "${klog[patched-$b]}" | grep -aE "$relevant" | grep -avE "$noise" | sort -u) | grep '^[<>]')
	[ ${#bad[@]} -eq 0 ]
	check $? "boot $b: no other line about ports, serdev or the drivers' subsystems in one kernel's log only$(for x in "${bad[@]}"; do printf '\n#   %s' "$x"; done)"
done

# Every allowed difference happened (the list says exactly what differs).
for i in "${!allow[@]}"; do
	[ -n "${seen[$i]:-}" ]
	check $? "tests/drivers/allow: seen in a boot: $(echo "${allow[$i]}" | tr '\t' ' ')"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
