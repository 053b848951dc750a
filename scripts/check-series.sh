#!/bin/bash
# make check-series: each patch of patches/ as a maintainer's build bots see it,
# and each posting as its reviewers would try it.  For every patch, applied in
# turn to pristine linux-source-6.12 with git am, in the order of
# patches/postings:
#
#   - checkpatch --strict is clean;
#   - the kernel builds (allnoconfig + the kconfig fragments, as 'make kernel');
#   - the directories the patch touches build without OF_DYNAMIC too (the
#     configuration of most device tree boards; scripts/build-matrix.sh's
#     of-static, after 'make prepare');
#   - sparse (C=2) and a W=1 build of each C file the patch touches add no
#     warning: the file is checked before and after the patch, and a warning
#     that is new (compared without line numbers) fails the patch;
#   - dt_binding_check passes on each DT binding (YAML) the patch touches.
#
# After the last patch of each posting, the QEMU tests of what the postings so
# far provide run on that kernel (SERIES_BOOT=0 leaves them out), and the
# cover letters are checked against their postings (scripts/check-covers.sh).
#
# SERIES_FROM=N starts the checks at patch N (of scripts/kernel-tree.sh
# list, counted from 1; the TAP numbers count the boots too): the patches before it are only
# applied (a rerun after a change late in the series; say so when you report
# a run), and the postings that end before it are not booted.
# SERIES_BOOTS_ONLY=1 leaves out the checks of each patch: the patches are
# applied, and the tree is built and booted at the end of each posting (a
# rerun of the boots after a change to the tests).  SERIES_TO=N stops after
# patch N (and the boot of the posting it ends).
#
# Uses a scratch worktree of build/linux, so the working tree is untouched.
# Cover letters (0000-cover-letter.patch) are not patches to apply.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
command -v sparse >/dev/null || { echo "check-series: sparse missing: run 'make deps'" >&2; exit 2; }
command -v dt-doc-validate >/dev/null ||
	{ echo "check-series: dt-schema missing: run 'make deps'" >&2; exit 2; }
scripts/kernel-tree.sh prepare || exit 2
# The worktree and its output sit as build/linux and build/obj-debug do
# (../linux from the output), so ccache finds what 'make kernel' compiled.
wt=$top/build/series/linux
out=$top/build/series/obj-debug
sout=$top/build/series/obj-of-static
dtout=$top/build/series/dt
mkdir -p "$top/build/series"
git -C build/linux worktree remove --force "$wt" 2>/dev/null
rm -rf "$wt"
git -C build/linux worktree add -q --detach "$wt" pristine || exit 2
trap 'git -C "$top/build/linux" worktree remove --force "$wt"' EXIT
fragments=(kconfig/base.config kconfig/debug.config kconfig/kunit.config kconfig/sleep.config kconfig/gadget.config)
# Debian's python3 first: checkpatch's SPDX check needs python3-ply and
# python3-git, and dt-schema is installed for it; a python3 from elsewhere on
# PATH may have neither.
export PATH=/usr/bin:/bin:$PATH

cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"

build() { # log: configure anew (a patch may add an option a fragment asks for) and build
	rm -f "$out/.fragment.applied"
	ALLOW_UNKNOWN_OPTIONS=1 LINUX_TREE=$wt scripts/kernel-build.sh "$out" \
		"${fragments[@]}" >"$1" 2>&1
}

# The configuration of a device tree board without overlays (OF=y,
# OF_DYNAMIC=n): the directories a patch touches, compiled after 'make
# prepare', which is enough to catch a call with no stub.
static_fragment=$top/build/series/of-static.config
mkdir -p "$sout"
grep -vE '^CONFIG_(OF_OVERLAY|OF_CONFIGFS|SERIAL_DEV_OF_PORT_NODES)=' kconfig/base.config \
	>"$static_fragment"
build_static() { # log dir...
	local log=$1
	shift
	make -s -C "$wt" O="$sout" CC="$cc" KCONFIG_ALLCONFIG="$static_fragment" \
		allnoconfig >"$log" 2>&1 &&
	make -s -C "$wt" O="$sout" CC="$cc" -j"$(nproc)" prepare >>"$log" 2>&1 &&
	if grep -q '^CONFIG_OF_DYNAMIC=y' "$sout/.config"; then
		echo "OF_DYNAMIC is set" >>"$log"
		return 1
	fi &&
	make -s -C "$wt" O="$sout" CC="$cc" -j"$(nproc)" "$@" >>"$log" 2>&1
}

# The QEMU tests each posting's end runs: what the postings up to it give.
# Tests of later postings' features are left out (new_device and port nodes
# come with the fifth, USB-serial ports with the fourth).
posting_tests() { # posting directory -> ONLY glob for scripts/check.sh
	case "$1" in
	1-*) echo 'models-smoke' ;;
	2-*) echo 'acpi-nokia' ;;
	# (core-kunit's case list has new_device's parser cases, and
	# acpi-sleep-open makes its GPS with new_device: of the fifth posting,
	# they run with it)
	3-*) echo '@(acpi-!(sleep-open)|core-bind-unbind|core-open-defer|core-runtime-*|core-stress|core-unknown-device|bad-input)' ;;
	4-*) echo '@(usb-gps-acpi|usb-plain|usb-runtime|usb-stress|usb-nokia|hotplug-ftdi)' ;;
	*) echo '*' ;;
	esac
}

# posting_env DIR: settings for those tests, one a line (qemu-run.sh passes
# TEST_* to the guest): before the fifth posting, the bad-input corpus runs
# only its kinds that need no new_device and no overlay loader, and
# usb-nokia leaves out its overlay part (its header allows those skips)
posting_env() {
	case "$1" in
	[1-4]-*) printf '%s\n' 'TEST_CORPUS_KINDS=ssdt aml' 'TEST_NO_OVERLAYS=1' ;;
	esac
}

# bot_warnings FILE.c...: the W=1 and sparse warnings of each file that this
# configuration builds, one per line, without line and column numbers (so the
# same warning before and after a patch compares equal).  Files the
# configuration does not build are listed on fd 3.
bot_warnings() {
	local f
	for f in "$@"; do
		if [ ! -f "$out/${f%.c}.o" ]; then
			echo "$f" >&3
			continue
		fi
		# (compiled anew: W=1's kernel-doc warnings come with a compile,
		# and the object may be up to date before the patch)
		touch "$wt/$f"
		make -s -C "$wt" O="$out" CC="$cc" W=1 C=2 "${f%.c}.o" 2>&1 |
			grep -E '(warning|error):' |
			sed -E 's/^([^:]+):[0-9]+:([0-9]+:)?/\1:/' | sort
	done
}

# The files a patch touches: added or modified (+++ b/...), as in the patch.
touched() { sed -n 's|^+++ b/||p' "$1" | sort -u; }

fail=0
n=0
patch_n=0
echo "==> check-series: the tree before the first patch ..."
if ! build "$out.log"; then
	echo "Bail out! pristine does not build (see $out.log)"
	exit 1
fi
# The last patch of each posting, by its file name
declare -A posting_end=()
while IFS=$'\t' read -r dir _ last; do
	case "$dir" in '' | '#'*) continue ;; esac
	for f in patches/"$dir"/*.patch; do
		[ "$(basename "$f")" = 0000-cover-letter.patch ] && continue
		s=$(awk '/^Subject: / { s = $0; on = 1; next } on && /^ / { s = s $0; next } on { exit } END { print s }' "$f" |
			sed -E 's/^Subject: (\[[^]]*\] )?//')
		[ "$s" = "$last" ] && posting_end[$f]=$dir
	done
done <patches/postings
# check_patch: the checks of patch $p (named $name, number $n), just before
# it is applied: checkpatch, the builds, sparse and W=1, dt_binding_check.
check_patch() {
	mapfile -t cfiles < <(touched "$p" | grep '\.c$')
	mapfile -t bindings < <(touched "$p" | grep '^Documentation/devicetree/bindings/')

	# Before: the warnings the touched C files already have.
	existing=()
	for f in "${cfiles[@]}"; do [ -f "$wt/$f" ] && existing+=("$f"); done
	before=$(bot_warnings "${existing[@]}" 3>/dev/null)

	if ! git -C "$wt" -c user.name=ttyport-bus -c user.email=ttyport-bus@localhost \
		am -q "$top/$p"; then
		echo "not ok $n - $name applies"
		echo "1..$n"
		exit 1
	fi

	# checkpatch, from inside the kernel worktree: it checks a file that git
	# tracks as a source file, not as a patch (and patches/ is tracked).
	# The Debian source tree has no git history, so checkpatch cannot look
	# up the commit a Fixes: tag names (UNKNOWN_COMMIT_ID); the form of the
	# tag is still checked (GIT_COMMIT_ID).
	cp_out=$(cd "$wt" && ./scripts/checkpatch.pl --strict --terse \
		--ignore UNKNOWN_COMMIT_ID "$top/$p" 2>&1 |
		grep -E '(ERROR|WARNING|CHECK)' || true)
	# checkpatch asks "does MAINTAINERS need updating?" for every new file.
	# It does not when a MAINTAINERS section already covers the file: then
	# drop the warning, and keep it for files only "THE REST" covers.
	if printf '%s\n' "$cp_out" | grep -q 'does MAINTAINERS need updating'; then
		uncovered=
		for f in $(sed -n '/^--- \/dev\/null/{n;s|^+++ b/||p}' "$p"); do
			secs=$(cd "$wt" && perl scripts/get_maintainer.pl --no-git \
				--no-git-fallback --subsystem --no-email --no-l \
				--no-rolestats -f "$f" 2>/dev/null | grep -v '^THE REST$')
			[ -n "$secs" ] || uncovered="$uncovered $f"
		done
		[ -n "$uncovered" ] ||
			cp_out=$(printf '%s\n' "$cp_out" | grep -v 'does MAINTAINERS need updating')
	fi
	# checkpatch takes a deleted file's name from "+++ /dev/null", so a
	# patch that only converts a binding (adds the .yaml, deletes the .txt)
	# reads to it as mixing a binding with "dev/null": drop that warning
	# when every file the patch touches is a binding.
	if printf '%s\n' "$cp_out" | grep -q 'DT binding docs and includes should be a separate patch' &&
	   ! { touched "$p"; sed -n 's|^--- a/||p' "$p"; } |
		grep -vqE '^(Documentation/devicetree/|include/dt-bindings/)'; then
		cp_out=$(printf '%s\n' "$cp_out" |
			grep -v 'DT binding docs and includes should be a separate patch' || true)
	fi
	# ACPICA is written in its own style and merged from upstream ACPICA
	# (https://github.com/acpica/acpica) into drivers/acpi/acpica/ and
	# include/acpi/ac*.h (not acpi_bus.h and the like, which are Linux's): braces on every block, return_ACPI_STATUS()
	# with parentheses, ACPI_EXPORT_SYMBOL() after the function's banner.
	# For a patch that touches ACPICA only, drop what that style trips.
	if ! touched "$p" | grep -vqE '^(drivers/acpi/acpica/|include/acpi/ac[a-z0-9]*\.h$)'; then
		cp_out=$(printf '%s\n' "$cp_out" |
			grep -vE 'braces \{\} are not necessary|return is not a function|EXPORT_SYMBOL\(foo\); should immediately follow' || true)
	fi
	[ -z "$cp_out" ] || problems+=("checkpatch --strict:" "$cp_out")

	if ! build "$out.log"; then
		problems+=("does not build:" "$(grep -E 'error|Error' "$out.log" | head -n 10)")
	fi
	mapfile -t dirs < <(touched "$p" | grep '\.c$' | xargs -r -n1 dirname | sort -u | sed 's|$|/|')
	if [ ${#dirs[@]} -gt 0 ] && ! build_static "$sout.log" "${dirs[@]}"; then
		problems+=("does not build without OF_DYNAMIC:" \
			"$(grep -E 'error|Error|OF_DYNAMIC' "$sout.log" | head -n 10)")
	fi

	# After: sparse and W=1 on the touched C files; only new warnings count.
	after=$(bot_warnings "${cfiles[@]}" 3>"$out.unbuilt")
	new=$(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after") | grep . || true)
	[ -z "$new" ] || problems+=("sparse / W=1: new warnings:" "$new")
	checked=$(( ${#cfiles[@]} - $(wc -l <"$out.unbuilt") ))
	bots="sparse and W=1 on $checked file(s)"
	[ -s "$out.unbuilt" ] && bots="$bots ($(wc -l <"$out.unbuilt") not built by this configuration)"

	# dt_binding_check on each YAML binding the patch touches.  Debian 12's
	# dt-schema is 2022.08, older than the 2023.9 that 6.12 asks for: the
	# binding is checked with it (it validates the schema and its examples),
	# and schemas elsewhere in the tree that it cannot read are ignored.
	for f in "${bindings[@]}"; do
		case "$f" in
		*.yaml)
			[ -f "$wt/$f" ] || continue
			rel=${f#Documentation/devicetree/bindings/}
			dt_log=$(make -C "$wt" O="$dtout" DT_SCHEMA_MIN_VERSION=2022.08 \
				DT_SCHEMA_FILES="$rel" dt_binding_check 2>&1)
			rc=$?
			# Only what concerns this binding: its schema and its examples.
			dt_bad=$(printf '%s\n' "$dt_log" | grep -F "$(basename "$f" .yaml)" |
				grep -vE '^ *(CHKDT|LINT|DTEX|DTC|CHECK|SCHEMA)' || true)
			if [ $rc -ne 0 ] || [ -n "$dt_bad" ]; then
				problems+=("dt_binding_check $rel:" "${dt_bad:-$(printf '%s\n' "$dt_log" | tail -n 5)}")
			fi
			bots="$bots, dt_binding_check on $rel"
			;;
		*.txt) bots="$bots, ${f#Documentation/devicetree/bindings/} is a .txt binding (dt_binding_check reads YAML only)" ;;
		esac
	done

	[ ${#dirs[@]} -gt 0 ] && bots="$bots, ${#dirs[@]} director(y/ies) without OF_DYNAMIC"
	if [ ${#problems[@]} -eq 0 ]; then
		echo "ok $n - $name: applies, checkpatch --strict, builds, $bots"
	else
		echo "not ok $n - $name"
		printf '%s\n' "${problems[@]}" | sed 's/^/# /'
		fail=1
	fi
}

# boot_posting: after patch $p, if it ends a posting, the QEMU tests of the
# postings so far on the tree as built.
boot_posting() {
	dir=${posting_end[$p]:-}
	if [ -n "$dir" ] && [ "${SERIES_BOOT:-1}" != 0 ]; then
		n=$((n + 1))
		glob=$(posting_tests "$dir")
		log=$top/build/series/boot-$dir.log
		echo "==> check-series: the QEMU tests of the postings up to $dir ($glob) ..."
		mapfile -t penv < <(posting_env "$dir")
		if env "${penv[@]}" KERNEL=$out/arch/x86/boot/bzImage \
			CHECK_OUT=$top/build/series/check-$dir \
			ONLY="$glob" scripts/check.sh >"$log" 2>&1; then
			echo "ok $n - $dir: $(tail -n 1 "$log") (the QEMU tests of the postings so far)"
		else
			echo "not ok $n - $dir: $(tail -n 1 "$log") (see $log)"
			grep '^not ok' "$log" | head -n 10 | sed 's/^/# /'
			fail=1
		fi
	fi
}

for p in $(scripts/kernel-tree.sh list | sed "s|^$top/||"); do
	name=${p#patches/}
	n=$((n + 1))
	patch_n=$((patch_n + 1))
	problems=()
	if [ "$patch_n" -lt "${SERIES_FROM:-1}" ] || [ "${SERIES_BOOTS_ONLY:-0}" = 1 ]; then
		git -C "$wt" -c user.name=ttyport-bus -c user.email=ttyport-bus@localhost \
			am -q "$top/$p" || { echo "Bail out! $name does not apply"; exit 1; }
		echo "# $n - $name: applied only (SERIES_FROM=${SERIES_FROM:-1}," \
			"SERIES_BOOTS_ONLY=${SERIES_BOOTS_ONLY:-0})"
		[ "$patch_n" -ge "${SERIES_FROM:-1}" ] && [ -n "${posting_end[$p]:-}" ] || continue
		# the end of a posting: built for its boot
		if ! build "$out.log"; then
			echo "not ok $n - $name does not build (see $out.log)"
			fail=1
			continue
		fi
	else
		check_patch
	fi
	boot_posting
	[ "$patch_n" -lt "${SERIES_TO:-100000}" ] || break
done
# The cover letters against their postings
while IFS= read -r line; do
	case "$line" in
	"ok "* | "not ok "*)
		n=$((n + 1))
		echo "$line" | sed -E "s/^(not )?ok [0-9]+/\1ok $n/"
		[[ $line == not* ]] && fail=1
		;;
	"#"*) echo "$line" ;;
	esac
done < <(scripts/check-covers.sh)
echo "1..$n"
exit $fail
