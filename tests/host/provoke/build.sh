#!/bin/bash
# Build the throwaway provoke kernel (README): the debug kernel with two more
# lkdtm crash types, LEAK (kmemleak) and LOCKDEP_ABBA (lockdep), from
# lkdtm-provoke.patch.  Not part of make check, which never needs it (the
# fixtures it captured are committed).
#
#   tests/host/provoke/build.sh      -> build/provoke/obj-debug/arch/x86/boot/bzImage
#
# Minutes, not an hour: the output directory starts as a copy of the built debug
# kernel's, and the patched bugs.c is put in it, where make's VPATH search finds
# it before the source tree's.  The copy is built in a private mount namespace
# with it mounted over build/obj-debug: every path the build recorded is then
# the same (at another path the host tools, objtool first, are rebuilt, and
# every object depends on objtool), so only bugs.o is compiled again.  A new
# configuration option instead (modules, UBSAN) changes every object's flags:
# a ccache-cold build of the whole kernel.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$top"
[ -r build/obj-debug/vmlinux ] || { echo "provoke: run 'make kernel' first" >&2; exit 1; }

out=build/provoke/obj-debug
f=drivers/misc/lkdtm/bugs.c
rm -rf "$out"
mkdir -p build/provoke
cp -a build/obj-debug "$out"
cp build/linux/$f "$out/$f"
patch -s -d "$out" -p1 <tests/host/provoke/lkdtm-provoke.patch

# shellcheck disable=SC2016 # (the inner shell expands "$1")
unshare --mount --propagation private sh -c '
	mount --bind "$1" build/obj-debug &&
	scripts/kernel-build.sh build/obj-debug kconfig/base.config \
		kconfig/debug.config kconfig/kunit.config' sh "$top/$out"
