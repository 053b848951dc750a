#!/bin/bash
# The kernel-tree workflow (docs/kernel-tree.md).
#
#   kernel-tree.sh prepare   extract linux-source-6.12 into build/linux, commit it,
#                            tag it "pristine" and "git am" the series on top.  A
#                            tree that already exists is left alone, unless
#                            patches/ has changed since it was prepared: then it
#                            is rebuilt, refusing if it holds work not exported to
#                            patches/.
#   kernel-tree.sh export    cut build/linux's pristine..HEAD into the postings of
#                            patches/postings and write them, each into its own
#                            directory with its cover letter
#   kernel-tree.sh list      the patches of the series, in the order they apply
#
# The series lives in patches/ as postings, in the order they can be merged:
# patches/postings names each posting's directory, the subject prefix of its
# patches, and the subject of its last patch.  Each directory holds
# 'git format-patch --cover-letter' output: the cover letter's subject and
# text are kept across exports (edit them in the file), its shortlog and
# diffstat are regenerated, and To:/Cc: come from scripts/get_maintainer.pl.
# patches/series lists every patch, posting by posting.  build/ is never
# committed.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
stamp=$tree/.git/ttyport-series
postings=$top/patches/postings

die() { echo "kernel-tree: $*" >&2; exit 1; }

# The patches of the series, in order (cover letters are not patches).
series_patches() {
	find "$top/patches" -name '*.patch' ! -name '0000-cover-letter.patch' | sort
}

# The series as one checksum; an empty series has one too.
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
	while read -r p; do
		git_k am -q --keep-cr "$p" || {
			git_k am --abort || true
			die "patch ${p#"$top"/} does not apply"
		}
		n=$((n + 1))
	done < <(series_patches)
	echo "==> apply the series: $n patch(es) on pristine in $((SECONDS - t0)) s"
	series_sum >"$stamp"
}

# A patch as the comparisons below see it: no From line, no index lines, no
# date, no [PATCH n/m] in the subject, nothing after the signature marker.
patch_sig() {
	sed -e 1d -e '/^index /d' -e '/^Date: /d' -e 's/^Subject: \[[^]]*\] */Subject: /' \
		-e '/^-- $/,$d' "$1" | md5sum | cut -d' ' -f1
}

unexported() {
	# Commits or edits in build/linux that patches/ does not have.
	local tmp p
	[ -n "$(git_k status --porcelain --untracked-files=no)" ] && return 0
	tmp=$(mktemp -d)
	git_k format-patch -q -o "$tmp" pristine..HEAD >/dev/null
	for p in "$tmp"/*.patch; do [ -e "$p" ] && patch_sig "$p"; done >"$tmp/tree"
	series_patches | while read -r p; do patch_sig "$p"; done >"$tmp/repo"
	if cmp -s "$tmp/tree" "$tmp/repo"; then
		rm -rf "$tmp"
		return 1
	fi
	rm -rf "$tmp"
	return 0
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

# The subject and text of a cover letter, as a branch description (subject,
# blank line, text); a placeholder for a posting that has none yet.
cover_blurb() { # cover-letter-file
	if [ ! -f "$1" ]; then
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
	' hdr=1 "$1"
}

# --to and --cc options for a range of commits: to the maintainers of what it
# touches, copied to the reviewers and the lists, from get_maintainer.pl.
recipients() { # base end
	local tmp
	tmp=$(mktemp -d)
	git_k format-patch -q -o "$tmp" "$1..$2" >/dev/null
	(
		cd "$tree" || exit
		gm() { perl scripts/get_maintainer.pl --no-git --no-git-fallback \
			--no-rolestats --no-s "$@" "$tmp"/*.patch 2>/dev/null; }
		gm --m --no-r --no-l | sed 's/^/--to=/'
		gm --no-m --r --l | sed 's/^/--cc=/'
	)
	rm -rf "$tmp"
}

# The recipients stay on the cover letter only, so that a patch is its commit
# as format-patch makes it (git send-email --to-cover --cc-cover copies them
# to each patch of the thread).
only_cover_addressed() { # posting-directory
	local f
	for f in "$1"/*.patch; do
		case "$f" in */0000-cover-letter.patch) continue ;; esac
		awk 'done { print; next }
		     /^$/ { done = 1; print; next }
		     /^(To|Cc):/ { skip = 1; next }
		     skip && /^[ \t]/ { next }
		     { skip = 0; print }' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
	done
}

export_series() {
	[ -d "$tree/.git" ] || die "no build/linux: run 'make kernel' first"
	[ -z "$(git_k status --porcelain --untracked-files=no)" ] ||
		die "build/linux has uncommitted changes: commit them first"
	[ -r "$postings" ] || die "patches/postings missing"
	local dir prefix last prev end c tmp n=0 rcpt
	tmp=$(mktemp -d)
	# The commits, oldest first, and where each posting ends.
	git_k log --reverse --format='%H %s' pristine..HEAD >"$tmp/commits"
	prev=pristine
	while IFS=$'\t' read -r dir prefix last; do
		case "$dir" in '' | '#'*) continue ;; esac
		end=$(awk -v s="$last" 'substr($0, 42) == s { print $1; exit }' "$tmp/commits")
		[ -n "$end" ] || die "$dir: no commit with the subject '$last'"
		# The cover letter's text, kept from the previous export.
		cp "$top/patches/$dir/0000-cover-letter.patch" "$tmp/$dir.cover" 2>/dev/null || true
		rm -rf "${top:?}/patches/$dir"
		mapfile -t rcpt < <(recipients "$prev" "$end")
		# A branch at the posting's end: format-patch takes the cover
		# letter from the description of the branch it formats.
		# --base=pristine lists the patches of the postings before this
		# one as prerequisite-patch-id: what this posting applies on.
		git_k branch -f ttyport-posting "$end"
		git_k -c "branch.ttyport-posting.description=$(cover_blurb "$tmp/$dir.cover")" \
			format-patch -q --no-signature --cover-letter \
			--cover-from-description=subject --subject-prefix="$prefix" \
			--base=pristine "${rcpt[@]}" -o "$top/patches/$dir" "$prev..ttyport-posting"
		git_k branch -q -D ttyport-posting
		only_cover_addressed "$top/patches/$dir"
		n=$((n + $(git_k rev-list --count "$prev..$end")))
		prev=$end
	done <"$postings"
	c=$(git_k rev-list --count pristine..HEAD)
	[ "$prev" = "$(git_k rev-parse HEAD)" ] ||
		die "patches/postings ends before HEAD: $((c - n)) commit(s) in no posting"
	# pristine is Debian's tree committed here, a hash nobody else has: the
	# cover letters name the base in words instead.
	sed -i '/^base-commit: /d' "$top"/patches/*/0000-cover-letter.patch
	series_patches | sed "s|^$top/patches/||" >"$top/patches/series"
	series_sum >"$stamp"
	rm -rf "$tmp"
	echo "kernel-tree: exported $n patch(es) in $(awk '/^[^#]/ { n++ } END { print n }' "$postings") postings to patches/"
}

case "${1:-}" in
prepare) prepare ;;
export) export_series ;;
list) series_patches ;;
*) die "usage: $0 prepare|export|list" ;;
esac
