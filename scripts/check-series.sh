#!/bin/bash
# make check-series: every patch of patches/ applies to pristine
# linux-source-6.12 with git am, passes checkpatch --strict, and the kernel
# builds after each one (allnoconfig + the kconfig fragments, as 'make kernel').
# Uses a scratch worktree of build/linux, so the working tree is untouched.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
scripts/kernel-tree.sh prepare || exit 2
# The worktree and its output sit as build/linux and build/obj-debug do
# (../linux from the output), so ccache finds what 'make kernel' compiled.
wt=$top/build/series/linux
out=$top/build/series/obj-debug
mkdir -p "$top/build/series"
git -C build/linux worktree remove --force "$wt" 2>/dev/null
rm -rf "$wt"
git -C build/linux worktree add -q --detach "$wt" pristine || exit 2
trap 'git -C "$top/build/linux" worktree remove --force "$wt"' EXIT

fail=0
n=0
for p in patches/*.patch; do
	[ -e "$p" ] || continue
	n=$((n + 1))
	name=$(basename "$p")
	if ! git -C "$wt" -c user.name=ttyport-bus -c user.email=ttyport-bus@localhost \
		am -q "$top/$p"; then
		echo "not ok $n - $name applies"
		exit 1
	fi
	# From inside the kernel worktree: checkpatch checks a file that git
	# tracks as a source file, not as a patch (and patches/ is tracked).
	# Debian's python3 first: its SPDX check needs python3-ply and
	# python3-git, which a python3 from elsewhere on PATH may not have.
	cp_out=$(cd "$wt" && PATH=/usr/bin:/bin:$PATH ./scripts/checkpatch.pl --strict --terse "$top/$p" 2>&1 |
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
	# Configure anew each time: a patch may add an option a fragment asks for.
	rm -f "$out/.fragment.applied"
	if ALLOW_UNKNOWN_OPTIONS=1 LINUX_TREE=$wt scripts/kernel-build.sh "$out" \
		kconfig/base.config kconfig/debug.config kconfig/kunit.config >"$out.log" 2>&1; then
		if [ -z "$cp_out" ]; then
			echo "ok $n - $name applies, is checkpatch --strict clean and builds"
		else
			echo "not ok $n - $name: checkpatch --strict"
			printf '%s\n' "$cp_out" | sed 's/^/# /'
			fail=1
		fi
	else
		echo "not ok $n - $name does not build"
		grep -E 'error|Error' "$out.log" | head -n 10 | sed 's/^/# /'
		fail=1
	fi
done
echo "1..$n"
exit $fail
