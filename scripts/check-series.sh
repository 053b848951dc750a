#!/bin/bash
# make check-series: each patch of patches/ as a maintainer's build bots see it.
# For every patch, applied in turn to pristine linux-source-6.12 with git am:
#
#   - checkpatch --strict is clean;
#   - the kernel builds (allnoconfig + the kconfig fragments, as 'make kernel');
#   - sparse (C=2) and a W=1 build of each C file the patch touches add no
#     warning: the file is checked before and after the patch, and a warning
#     that is new (compared without line numbers) fails the patch;
#   - dt_binding_check passes on each DT binding (YAML) the patch touches.
#
# Uses a scratch worktree of build/linux, so the working tree is untouched.
# The cover letter (0000-cover-letter.patch) is not a patch to apply.
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
dtout=$top/build/series/dt
mkdir -p "$top/build/series"
git -C build/linux worktree remove --force "$wt" 2>/dev/null
rm -rf "$wt"
git -C build/linux worktree add -q --detach "$wt" pristine || exit 2
trap 'git -C "$top/build/linux" worktree remove --force "$wt"' EXIT
fragments=(kconfig/base.config kconfig/debug.config kconfig/kunit.config kconfig/sleep.config)
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
		make -s -C "$wt" O="$out" CC="$cc" W=1 C=2 "${f%.c}.o" 2>&1 |
			grep -E '(warning|error):' |
			sed -E 's/^([^:]+):[0-9]+:([0-9]+:)?/\1:/' | sort
	done
}

# The files a patch touches: added or modified (+++ b/...), as in the patch.
touched() { sed -n 's|^+++ b/||p' "$1" | sort -u; }

fail=0
n=0
echo "==> check-series: the tree before the first patch ..."
if ! build "$out.log"; then
	echo "Bail out! pristine does not build (see $out.log)"
	exit 1
fi
for p in patches/*.patch; do
	[ -e "$p" ] || continue
	name=$(basename "$p")
	[ "$name" = 0000-cover-letter.patch ] && continue
	n=$((n + 1))
	problems=()
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
	[ -z "$cp_out" ] || problems+=("checkpatch --strict:" "$cp_out")

	if ! build "$out.log"; then
		problems+=("does not build:" "$(grep -E 'error|Error' "$out.log" | head -n 10)")
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

	if [ ${#problems[@]} -eq 0 ]; then
		echo "ok $n - $name: applies, checkpatch --strict, builds, $bots"
	else
		echo "not ok $n - $name"
		printf '%s\n' "${problems[@]}" | sed 's/^/# /'
		fail=1
	fi
done
echo "1..$n"
exit $fail
