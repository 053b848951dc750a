#!/bin/bash
# Write docs/serdev-drivers.md from make check-drivers' results.
#
#   report.sh CHECKS OUT SECONDS
#
# CHECKS is compare.sh's output, OUT the markdown file, SECONDS the run's
# time.  Reads build/drivers/results.tsv (compare.sh), tests/drivers/drivers.tsv,
# tests/drivers/allow and tests/drivers/report.md.in (the text around the
# tables, with @RUN@, @BOOTS@, @TABLE@, @DIFFERENCES@ and @NOTBOOTED@ where
# they go).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
checks=${1:?usage: report.sh CHECKS OUT SECONDS}
out=${2:?usage: report.sh CHECKS OUT SECONDS}
secs=${3:-?}
here=tests/drivers
results=build/drivers/results.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The allow-list's explanations: each block of comment lines right above
# entries is one difference, D1, D2, ...; entry index -> its D number.
# A block's first line "## <title>" is its name.
awk '
	/^## / { title = substr($0, 4); text = ""; incomment = 1; next }
	/^#/ { if (!incomment) { text = ""; title = ""; incomment = 1 }
	       sub(/^# ?/, ""); text = text (text == "" ? "" : " ") $0; next }
	/^$/ { incomment = 0; text = ""; title = ""; next }
	{ if (text != "") { n++; print "D" n "\t" title "\t" text > "'"$tmp"'/blocks"; text = "" }
	  incomment = 0; print entry++ "\tD" n }
' $here/allow >"$tmp/entries"

# cell KIND CTRL DEV DRIVER CLASS TTYDEV ERROR TTY: what a port became
cell() {
	local ctrl=$1 dev=$2 drv=$3 cls=$4 ttydev=$5 err=$6 tty=$7 s
	if [ "$drv" != - ]; then
		s="binds \`$drv\`"
	elif [ "$dev" != - ]; then
		s="not bound"
	else
		s="no device"
	fi
	[ "$dev" != - ] && s+="; $dev on $ctrl"
	[ "$dev" = - ] && [ "$ctrl" != - ] && s+="; controller $ctrl"
	[ "$cls" != - ] && s+="; ${cls//,/, }"
	[ "$err" != - ] && s+="; \`${err//|/\\|}\`"
	if [ "$ttydev" = yes ]; then s+="; **/dev/$tty kept**"; else s+="; no /dev/$tty"; fi
	echo "$s"
}

# The table, one row per port of the plan.
{
	echo "| Driver | Device (firmware ID) | Port | Stock 6.12 | Series | Same? | Difference, explained |"
	echo "|---|---|---|---|---|---|---|"
	while IFS=$'\t' read -r table boot wire tty sc sd sdrv scls stty serr pc pd pdrv pcls ptty perr diffs logdiff used; do
		obj=$(awk -F'\t' -v t="$table" '$1 == t { print $2 }' $here/drivers.tsv)
		fwid=$(awk -F'\t' -v t="$table" '$1 == t { print $4 }' $here/drivers.tsv)
		what=$(awk -F'\t' -v t="$table" '$1 == t { print $5 }' $here/drivers.tsv)
		src="\`${obj%.o}.c\`"
		[ "$obj" = - ] && src="no driver"
		same=yes
		expl=
		if [ "$diffs" != - ] || [ "$logdiff" = yes ]; then
			parts=()
			[ "$diffs" != - ] && parts+=("tty")
			[ "$logdiff" = yes ] && parts+=("log")
			same="no: $(IFS=,; echo "${parts[*]}" | sed 's/,/, /')"
			expl=$(for i in ${used//,/ }; do awk -F'\t' -v i="$i" '$1 == i { print $2 }' "$tmp/entries"; done |
				sort -u -V | while read -r d; do
					printf '%s (%s)\n' "$d" "$(awk -F'\t' -v d="$d" '$1 == d { print $2 }' "$tmp/blocks")"
				done | paste -sd';' | sed 's/;/; /g')
			expl="intended: $expl"
		fi
		printf '| %s (%s) | %s: %s | %s (%s), boot %s | %s | %s | %s | %s |\n' \
			"$table" "$src" "$what" "$fwid" "$wire" "$tty" "$boot" \
			"$(cell "$sc" "$sd" "$sdrv" "$scls" "$stty" "$serr" "$tty")" \
			"$(cell "$pc" "$pd" "$pdrv" "$pcls" "$ptty" "$perr" "$tty")" "$same" "${expl:--}"
	done <"$results"
} >"$tmp/table"

# The differences, as the allow-list explains them.
{
	while IFS=$'\t' read -r d title text; do
		echo "- **$d, $title.** $text"
		echo
		echo '  ```'
		for i in $(awk -F'\t' -v d="$d" '$2 == d { print $1 }' "$tmp/entries"); do
			grep -v '^#' $here/allow | grep . | sed -n "$((i + 1))p" | tr '\t' ' ' | sed 's/^/  /'
		done
		echo '  ```'
		echo
	done <"$tmp/blocks"
} >"$tmp/differences"

# Drivers no boot describes, from drivers.tsv's notes.
{
	echo "| Driver | Kconfig | Built | Why not booted |"
	echo "|---|---|---|---|"
	while IFS=$'\t' read -r table obj kconfig _ what note; do
		case "$table" in "#"* | "") continue ;; esac
		[ -n "${note:-}" ] || continue
		built=no
		[ -f "build/obj-drivers-stock/$obj" ] && [ -f "build/obj-drivers/$obj" ] && built="yes, both"
		echo "| ${obj%.o}.c ($what) | $kconfig | $built | $note |"
	done <$here/drivers.tsv
} >"$tmp/notbooted"

commit=$(cat build/drivers/commit 2>/dev/null || echo '?')
pristine=$(git -C build/linux rev-parse --short pristine 2>/dev/null || echo '?')
{
	echo "Last run: $(date -u '+%Y-%m-%d %H:%M UTC'), stock \`$pristine\` (tag \`pristine\` of"
	echo "build/linux), series at \`${commit:0:12}\`; $secs s of boots and checks;"
	echo "**$(tail -n 1 "$checks")** ($(grep -c '^ok' "$checks") checks passed)."
	fails=$(grep -c '^not ok' "$checks" || true)
	if [ "$fails" -gt 0 ]; then
		echo
		echo "Failed checks:"
		echo
		grep -A3 '^not ok' "$checks" | grep -v '^ok' | sed 's/^/    /'
	fi
} >"$tmp/run"

# Each boot's time on each kernel.
{
	echo "| Boot | Devices | Stock 6.12 | Series |"
	echo "|---|---|---|---|"
	for b in $(grep -v '^#' $here/plan | awk 'NF >= 3 { print $1 }' | uniq); do
		n=$(grep -v '^#' $here/plan | awk -v b="$b" '$1 == b && $3 != "-"' | wc -l)
		printf '| %s | %s | %s s | %s s |\n' "$b" "$n" \
			"$(cat "build/drivers/runs/stock-$b/seconds" 2>/dev/null || echo '?')" \
			"$(cat "build/drivers/runs/patched-$b/seconds" 2>/dev/null || echo '?')"
	done
} >"$tmp/boots"

awk -v t="$tmp" '
	/^@BOOTS@$/ { while ((getline l < (t "/boots")) > 0) print l; next }
	/^@TABLE@$/ { while ((getline l < (t "/table")) > 0) print l; next }
	/^@DIFFERENCES@$/ { while ((getline l < (t "/differences")) > 0) print l; next }
	/^@NOTBOOTED@$/ { while ((getline l < (t "/notbooted")) > 0) print l; next }
	/^@RUN@$/ { while ((getline l < (t "/run")) > 0) print l; next }
	{ print }
' $here/report.md.in >"$out.tmp"
mv "$out.tmp" "$out"
