#!/bin/bash
# The cover letters of patches/ say what their postings hold.  For each
# posting of patches/postings, its 0000-cover-letter.patch:
#
#   - announces as many patches as the directory has ([PATCH 00/N]);
#   - has the shortlog and the diffstat that git gives for the posting's
#     patches (applied in a scratch tree: what a reader sees is checked
#     against the patches themselves);
#   - names patches by their subjects only: a quoted "subsystem: subject"
#     must be the subject of a patch of the series, and no patch is
#     referred to by a number ("patch 7", "patches 26-33", "(30)"), which
#     goes stale whenever the series changes.
#
# Prints TAP; exits non-zero if a cover letter disagrees with its posting.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
postings=patches/postings
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}

n=0 fail=0
tap() { # ok|fail description [diagnostic...]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - $2"
	else
		fail=1
		echo "not ok $n - $2"
		shift 2
		printf '%s\n' "$@" | sed 's/^/# /'
	fi
}

# The subject of a patch file, unfolded, without its [PATCH n/m] prefix.
subject() {
	awk '/^Subject: / { s = $0; on = 1; next } on && /^ / { s = s $0; next } on { exit } END { print s }' "$1" |
		sed -E 's/^Subject: (\[[^]]*\] )?//'
}

subjects=$(mktemp)
trap 'rm -f "$subjects"' EXIT
for f in $(find patches -name '*.patch' ! -name '0000-cover-letter.patch' | sort); do
	subject "$f"
done >"$subjects"

# A scratch git tree with the series applied, for the shortlogs and diffstats
# (build/linux when it holds exactly the series, else nothing to compare).
tree=build/linux
have_tree=
if [ -d "$tree/.git" ] && git -C "$tree" rev-parse -q --verify pristine >/dev/null &&
   [ "$(git -C "$tree" log --reverse --format=%s pristine..HEAD)" = "$(cat "$subjects")" ]; then
	have_tree=1
fi

prev=pristine
while IFS=$'\t' read -r dir prefix last; do
	case "$dir" in '' | '#'*) continue ;; esac
	cover=patches/$dir/0000-cover-letter.patch
	count=$(find "patches/$dir" -name '*.patch' ! -name '0000-cover-letter.patch' | wc -l)
	if [ ! -f "$cover" ]; then
		tap fail "$dir has a cover letter" "missing: $cover"
		continue
	fi
	said=$(sed -n -E 's/^Subject: \[[^]]* 0+\/([0-9]+)\].*/\1/p' "$cover")
	if [ "$said" = "$count" ]; then
		tap ok "$dir: the cover letter announces its $count patches"
	else
		tap fail "$dir: the cover letter announces its $count patches" "it says 00/$said"
	fi

	# The text a human wrote: from after the headers to the shortlog.
	blurb=$(awk 'hdr && /^$/ { hdr = 0; next } hdr { next }
		/^[^ ].* \([0-9]+\):$/ { exit } { print }' hdr=1 "$cover")
	bad=$(printf '%s\n' "$blurb" | grep -nE '[Pp]atch(es)? *#?[0-9]|\(([0-9]{1,2}([-, ]+[0-9]{1,2})*)\)' || true)
	if [ -z "$bad" ]; then
		tap ok "$dir: the cover letter refers to no patch by number"
	else
		tap fail "$dir: the cover letter refers to no patch by number" "$bad"
	fi
	unknown=$(printf '%s\n' "$blurb" | tr '\n' ' ' | grep -oE '"([A-Za-z0-9_,./-]+: )+[^"]+"' |
		tr -d '"' | while IFS= read -r s; do
			grep -qxF -- "$s" "$subjects" || echo "$s"
		done)
	if [ -z "$unknown" ]; then
		tap ok "$dir: every patch the cover letter names by subject is in the series"
	else
		tap fail "$dir: every patch the cover letter names by subject is in the series" \
			"no such patch: $unknown"
	fi

	if [ -n "$have_tree" ]; then
		end=$(git -C "$tree" log --reverse --format='%H %s' pristine..HEAD |
			awk -v s="$last" 'substr($0, 42) == s { print $1; exit }')
		want=$(git -C "$tree" format-patch --stdout --cover-letter "$prev..$end" 2>/dev/null |
			awk '/^[^ ].* \([0-9]+\):$/ { on = 1 } on && /^-- $/ { exit } on { print }' |
			grep -v '^$')
		got=$(awk '/^[^ ].* \([0-9]+\):$/ { on = 1 } on && /^(-- |base-commit: |prerequisite-patch-id: )/ { exit } on { print }' "$cover" |
			grep -v '^$')
		if [ "$want" = "$got" ]; then
			tap ok "$dir: the cover letter's shortlog and diffstat are its patches'"
		else
			tap fail "$dir: the cover letter's shortlog and diffstat are its patches'" \
				"$(diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -n 10)"
		fi
		prev=$end
	fi
done <"$postings"
[ -n "$have_tree" ] ||
	echo "# build/linux does not hold the series: shortlogs and diffstats not compared"
echo "1..$n"
exit $fail
