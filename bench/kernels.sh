#!/bin/bash
# Build the two kernels make bench compares, with the same configuration
# (kconfig/base.config + kconfig/bench.config + kconfig/gadget.config, no
# debug checkers), both
# through ccache:
#   build/obj-bench-stock  the pristine linux-source-6.12 tree (tag "pristine"
#                          of build/linux, checked out in build/linux-stock)
#   build/obj-bench        the tree with the series (build/linux)
# Options the series adds (CONFIG_OF_CONFIGFS) do not exist in the stock tree
# and are left out of its configuration (ALLOW_UNKNOWN_OPTIONS).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

scripts/kernel-tree.sh prepare
stock=build/linux-stock
if [ ! -d "$stock" ] ||
   [ "$(git -C "$stock" rev-parse HEAD)" != "$(git -C build/linux rev-parse pristine)" ]; then
	rm -rf "$stock"
	git -C build/linux worktree prune
	git -C build/linux worktree add -q --detach "$top/$stock" pristine
fi

mkdir -p build/bench
frag=build/bench/kernel.config
grep -vE '^CONFIG_SERIAL_8250_(NR|RUNTIME)_UARTS=' kconfig/base.config >"$frag.tmp"
cat kconfig/bench.config >>"$frag.tmp"
# The gadget world (dummy_hcd, configfs ACM) for the CDC-ACM figures of bind.sh
cat kconfig/gadget.config >>"$frag.tmp"
cmp -s "$frag.tmp" "$frag" 2>/dev/null && rm "$frag.tmp" || mv "$frag.tmp" "$frag"

LINUX_TREE=$top/$stock ALLOW_UNKNOWN_OPTIONS=1 \
	scripts/kernel-build.sh build/obj-bench-stock "$frag"
scripts/kernel-build.sh build/obj-bench "$frag"
