#!/bin/bash
# The kernel-tree workflow (docs: DESIGN.md, "The kernel tree workflow").
#
#   kernel-tree.sh prepare   extract linux-source-6.12 into build/linux, commit it,
#                            tag it "pristine" and "git am" patches/ on top.  A tree
#                            that already exists is left alone, unless patches/ has
#                            changed since it was prepared: then it is rebuilt,
#                            refusing if it holds work not exported to patches/.
#   kernel-tree.sh export    regenerate patches/ from pristine..HEAD, with the
#                            cover letter
#
# The series lives in patches/ (git format-patch output plus a "series" file);
# build/ is never committed.  patches/0000-cover-letter.patch is the series'
# cover letter as 'git format-patch --cover-letter' writes it: its subject and
# text are kept across exports (edit them in the file), its shortlog and
# diffstat are regenerated.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
stamp=$tree/.git/ttyport-series

die() { echo "kernel-tree: $*" >&2; exit 1; }

cover=$top/patches/0000-cover-letter.patch

# The patches of the series, in order (the cover letter is not one).
series_patches() {
	local p
	for p in "$top"/patches/*.patch; do
		[ -e "$p" ] && [ "$p" != "$cover" ] && echo "$p"
	done
	return 0
}

# The series as one checksum; an empty series (no patches/*.patch) has one too.
series_sum() {
	local p
	series_patches | while read -r p; do cat "$p"; done | sha1sum | cut -d' ' -f1
}

git_k() {
	git -C "$tree" -c user.name=ttyport-bus -c user.email=ttyport-bus@localhost \
		-c commit.gpgsign=false "$@"
}

extract() {
	[ -r "$tarball" ] || die "$tarball missing: run 'make deps'"
	local t0=$SECONDS
	echo "==> extract $(basename "$tarball") into build/linux and commit it (about 2 min) ..."
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$tarball" -C "$tree.tmp" --strip-components=1
	mv "$tree.tmp" "$tree"
	git_k init -q
	git_k add -A -f .
	git_k commit -q -m "linux-source-6.12 as shipped by Debian"
	git_k tag pristine
	echo "==> extract: done in $((SECONDS - t0)) s"
}

apply_series() {
	local p n=0 t0=$SECONDS
	for p in $(series_patches); do
		git_k am -q --keep-cr "$p" || {
			git_k am --abort || true
			die "patch $(basename "$p") does not apply"
		}
		n=$((n + 1))
	done
	echo "==> apply the series: $n patch(es) on pristine in $((SECONDS - t0)) s"
	series_sum >"$stamp"
}

unexported() {
	# Commits or edits in build/linux that patches/ does not have.
	local tmp f rc=1
	[ -n "$(git_k status --porcelain --untracked-files=no)" ] && return 0
	tmp=$(mktemp -d)
	git_k format-patch -q -o "$tmp" pristine..HEAD >/dev/null
	if [ "$(ls "$tmp" | wc -l)" -ne "$(series_patches | wc -l)" ]; then
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
	local blurb branch
	blurb=$(cover_blurb)
	branch=$(git_k symbolic-ref -q --short HEAD) ||
		die "build/linux is on a detached HEAD: check out a branch (git checkout -B series)"
	rm -f "$top"/patches/*.patch
	# The branch description is where git keeps a cover letter's text:
	# its first paragraph becomes the subject, the rest the body.
	git_k -c "branch.$branch.description=$blurb" format-patch -q --no-signature \
		--cover-letter --cover-from-description=subject \
		-o "$top/patches" pristine..HEAD
	series_patches | xargs -r -n1 basename >"$top/patches/series"
	series_sum >"$stamp"
	echo "kernel-tree: exported $(wc -l <"$top/patches/series") patch(es) to patches/"
}

# The subject and text of the current cover letter, as a branch description
# (subject, blank line, text); a placeholder for a series that has none yet.
cover_blurb() {
	if [ ! -f "$cover" ]; then
		printf '%s\n\n%s\n' "*** SUBJECT HERE ***" "*** BLURB HERE ***"
		return
	fi
	awk '
		hdr && /^Subject: / { sub(/^Subject: (\[[^]]*\] )?/, ""); subj = $0; insubj = 1; next }
		hdr && insubj && /^ / { subj = subj $0; next }
		hdr && /^$/ { hdr = 0; print subj; print ""; next }
		hdr { insubj = 0; next }
		/^[^ ].* \([0-9]+\):$/ { exit }	# the shortlog: "Author (N):"
		{ body = body $0 "\n" }
		END { sub(/\n+$/, "", body); print body }
	' hdr=1 "$cover"
}

case "${1:-}" in
prepare) prepare ;;
export) export_series ;;
*) die "usage: $0 prepare|export" ;;
esac
