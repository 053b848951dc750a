#!/bin/bash
# Build the guest initramfs:
#   mkinitramfs.sh OUTPUT.cpio.gz STAGING_DIR [EXTRA_DIR...]
#
# Contents: busybox-static, the host's BlueZ tools, btvirt, gpsd and its clients,
# libgpiod tools and socat (with the shared libraries they load), guest-init/, and
# every EXTRA_DIR copied over the root (the models' binaries, firmware files).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "$1")
root=$(realpath -m "$2")
shift 2

# Programs the guest runs, by the name they are found under on the host.
# setpriv is util-linux's: busybox's cannot change uid (tests/core-new-device.sh).
progs="btmgmt hciconfig hcitool l2ping btmon btattach btvirt
	gpsd gpspipe gpsctl gpsmon
	gpioinfo gpioget gpioset gpiodetect gpiomon
	socat setpriv"

die() { echo "mkinitramfs: $*" >&2; exit 1; }

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,tmp,run,root,var/run}
mkdir -p "$root"/lib/firmware "$root"/sys/kernel/config "$root"/sys/kernel/debug

cp /bin/busybox "$root/bin/busybox"
file -L "$root/bin/busybox" | grep -q 'statically linked' ||
	die "/bin/busybox is not static: install busybox-static"
for applet in $("$root/bin/busybox" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

copy_libs() {
	local lib
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*' | sort -u); do
		[ -e "$root$lib" ] || install -D -m 0755 "$(realpath "$lib")" "$root$lib"
	done
}

copy_with_libs() {
	install -D -m 0755 "$1" "$root/usr/bin/$(basename "$1")"
	copy_libs "$1"
}

for p in $progs; do
	path=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$p") ||
		die "$p not found on the host: run 'make deps'"
	copy_with_libs "$path"
done

# Extra trees (models, firmware): copy, then pull in the libraries their
# executables need.
for dir in "$@"; do
	[ -d "$dir" ] || continue
	cp -a "$dir"/. "$root"/
done
while IFS= read -r f; do
	case "$(file -b "$f")" in
	ELF*dynamic*) copy_libs "$f" ;;
	esac
done < <(find "$root/usr/local/bin" -type f 2>/dev/null)

cp -a "$top/guest-init/." "$root/"
chmod 0755 "$root/init"

echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/false" >>"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"
echo "nogroup:x:65534:" >>"$root/etc/group"

(cd "$root" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
echo "mkinitramfs: $(basename "$out") $(du -h "$out" | cut -f1)"
