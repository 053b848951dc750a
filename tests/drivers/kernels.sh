#!/bin/bash
# Build the two kernels make check-drivers compares, with one configuration
# (kconfig/base.config without its 8250 line counts, plus kconfig/drivers.config),
# both through ccache:
#   build/obj-drivers-stock  stock 6.12: a worktree of tag "pristine" of
#                            build/linux, in build/drivers-linux-stock
#   build/obj-drivers        the series: a worktree of build/linux at one commit
#                            (DRIVERS_COMMIT, default build/linux's HEAD now), in
#                            build/drivers-linux; never build/linux's working
#                            directory, which may be edited meanwhile
# The patched commit is written to build/drivers/commit.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

# A fresh clone has no tree yet; an existing one is used as it is (its HEAD is
# what is tested, whoever is working in it).
[ -d build/linux/.git ] || scripts/kernel-tree.sh prepare
commit=$(git -C build/linux rev-parse "${DRIVERS_COMMIT:-HEAD}")

# worktree DIR COMMIT: a detached worktree of build/linux at COMMIT
worktree() {
	local dir=$1 want=$2
	if [ -d "$dir" ] && git -C "$dir" rev-parse HEAD >/dev/null 2>&1; then
		if [ -n "$(git -C "$dir" status --porcelain --untracked-files=no)" ]; then
			echo "kernels: $dir has local changes; remove it to start again" >&2
			exit 2
		fi
		[ "$(git -C "$dir" rev-parse HEAD)" = "$want" ] ||
			git -C "$dir" checkout -q --detach "$want"
	else
		rm -rf "$dir"
		git -C build/linux worktree prune
		git -C build/linux worktree add -q --detach "$top/$dir" "$want"
	fi
}
worktree build/drivers-linux-stock "$(git -C build/linux rev-parse pristine)"
worktree build/drivers-linux "$commit"

mkdir -p build/drivers
frag=build/drivers/kernel.config
{
	grep -vE '^CONFIG_SERIAL_8250_(NR|RUNTIME)_UARTS=' kconfig/base.config
	cat kconfig/drivers.config
} >"$frag.tmp"
cmp -s "$frag.tmp" "$frag" 2>/dev/null && rm "$frag.tmp" || mv "$frag.tmp" "$frag"

# Options the series adds (CONFIG_OF_CONFIGFS) are not in the stock tree.
LINUX_TREE=$top/build/drivers-linux-stock ALLOW_UNKNOWN_OPTIONS=1 \
	scripts/kernel-build.sh build/obj-drivers-stock "$frag"
LINUX_TREE=$top/build/drivers-linux ALLOW_UNKNOWN_OPTIONS=1 \
	scripts/kernel-build.sh build/obj-drivers "$frag"
echo "$commit" >build/drivers/commit
echo "kernels: stock $(git -C build/linux rev-parse --short pristine), patched $(git -C build/linux rev-parse --short "$commit")"
