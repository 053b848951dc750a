#!/bin/bash
# Install, with apt-get, the Debian packages the project needs that are missing.
set -euo pipefail

pkgs=(
	# the kernel source and what building it takes
	linux-source-6.12 build-essential bc bison flex libelf-dev libssl-dev
	cpio xz-utils rsync kmod ccache git python3
	# checkpatch's SPDX check (scripts/spdxcheck.py) needs these
	python3-ply python3-git
	# what the kernel's build bots run on each patch (make check-series):
	# sparse (C=1) and dt_binding_check (dt-schema, yamllint)
	sparse dt-schema yamllint
	# QEMU, firmware, table and overlay compilers
	qemu-system-x86 ovmf acpica-tools device-tree-compiler
	# the preprocessor of the bad-input corpus's SSDT template
	cpp
	# the guest's userspace and the real clients
	busybox-static bluez bluez-test-tools gpsd gpsd-clients gpiod socat
	# host-side tools of the harness and the tests
	file procps psmisc
	# the guest's setpriv (busybox's cannot change uid)
	util-linux
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#pkgs[@]} packages are installed"
	exit 0
fi
echo "==> install ${#missing[@]} missing Debian package(s) (a few minutes on a new machine): ${missing[*]}"
t0=$SECONDS
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "==> install: done in $((SECONDS - t0)) s"
