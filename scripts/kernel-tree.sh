#!/bin/bash
# The kernel-tree workflow (docs: DESIGN.md, "The kernel tree workflow").
#
#   kernel-tree.sh prepare   extract linux-source-6.12 into build/linux, commit it,
#                            tag it "pristine" and "git am" patches/ on top.  A tree
#                            that already exists is left alone, unless patches/ has
#                            changed since it was prepared: then it is rebuilt,
#                            refusing if it holds work not exported to patches/.
#   kernel-tree.sh export    regenerate patches/ from pristine..HEAD
#
# The series lives in patches/ (git format-patch output plus a "series" file);
# build/ is never committed.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
stamp=$tree/.git/ttyport-series

die() { echo "kernel-tree: $*" >&2; exit 1; }

# The series as one checksum; an empty series (no patches/*.patch) has one too.
series_sum() {
	local p
	for p in "$top"/patches/*.patch; do
		if [ -e "$p" ]; then cat "$p"; fi
	done | sha1sum | cut -d' ' -f1
}

git_k() {
	git -C "$tree" -c user.name=ttyport-bus -c user.email=ttyport-bus@localhost \
		-c commit.gpgsign=false "$@"
}

extract() {
	[ -r "$tarball" ] || die "$tarball missing: run 'make deps'"
	echo "kernel-tree: extracting $(basename "$tarball") into build/linux"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$tarball" -C "$tree.tmp" --strip-components=1
	mv "$tree.tmp" "$tree"
	git_k init -q
	git_k add -A -f .
	git_k commit -q -m "linux-source-6.12 as shipped by Debian"
	git_k tag pristine
}

apply_series() {
	local p n=0
	for p in "$top"/patches/*.patch; do
		[ -e "$p" ] || continue
		git_k am -q --keep-cr "$p" || {
			git_k am --abort || true
			die "patch $(basename "$p") does not apply"
		}
		n=$((n + 1))
	done
	echo "kernel-tree: applied $n patch(es) on pristine"
	series_sum >"$stamp"
}

unexported() {
	# Commits or edits in build/linux that patches/ does not have.
	local tmp f rc=1
	[ -n "$(git_k status --porcelain --untracked-files=no)" ] && return 0
	tmp=$(mktemp -d)
	git_k format-patch -q -o "$tmp" pristine..HEAD >/dev/null
	if [ "$(ls "$tmp" | wc -l)" -ne "$(ls "$top"/patches/*.patch 2>/dev/null | wc -l)" ]; then
		rc=0
	else
		for f in "$tmp"/*.patch; do
			[ -e "$f" ] || continue
			cmp -s <(sed -e 1d -e '/^index /d' -e '/^-- $/,$d' "$f") \
			       <(sed -e 1d -e '/^index /d' -e '/^-- $/,$d' \
				 "$top/patches/$(basename "$f")" 2>/dev/null) || { rc=0; break; }
		done
	fi
	rm -rf "$tmp"
	return $rc
}

prepare() {
	if [ -d "$tree/.git" ] && git_k rev-parse -q --verify pristine >/dev/null; then
		if [ "$(cat "$stamp" 2>/dev/null)" = "$(series_sum)" ]; then
			return 0
		fi
		if unexported; then
			die "patches/ changed, but build/linux holds work not in patches/: run 'make export-patches' or reset build/linux"
		fi
		echo "kernel-tree: patches/ changed, re-applying the series"
		git_k checkout -q -f pristine
		git_k checkout -q -B series
		apply_series
		return 0
	fi
	extract
	git_k checkout -q -b series
	apply_series
}

export_series() {
	[ -d "$tree/.git" ] || die "no build/linux: run 'make kernel' first"
	[ -z "$(git_k status --porcelain --untracked-files=no)" ] ||
		die "build/linux has uncommitted changes: commit them first"
	rm -f "$top"/patches/*.patch
	git_k format-patch -q --no-signature -o "$top/patches" pristine..HEAD
	(cd "$top/patches" && ls -1 *.patch 2>/dev/null || true) >"$top/patches/series"
	series_sum >"$stamp"
	echo "kernel-tree: exported $(wc -l <"$top/patches/series") patch(es) to patches/"
}

case "${1:-}" in
prepare) prepare ;;
export) export_series ;;
*) die "usage: $0 prepare|export" ;;
esac
