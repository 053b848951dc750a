#!/bin/bash
# corpus-tables.sh CASES TEMPLATE OUTDIR: compile the SSDT of every "ssdt"
# case of the bad-input corpus (tests/bad-input/cases) to OUTDIR/NAME.aml.
# A case's input is its preprocessor definitions (NAME or NAME=VALUE,
# separated by blanks; "-" for none), applied to TEMPLATE
# (tests/bad-input/ssdt.asl.in) by cpp, as the kernel preprocesses its
# device trees; iasl compiles the result.  A case whose ASL iasl refuses
# stops the build: the corpus is of tables a firmware could ship.
set -euo pipefail
cases=$1 template=$2 outdir=$3
rm -rf "$outdir" && mkdir -p "$outdir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
while IFS='|' read -r kind name input _; do
	kind=$(echo $kind) name=$(echo $name)
	[ "$kind" = ssdt ] || continue
	defs=()
	# shellcheck disable=SC2086 # one definition per blank-separated word
	for d in $input; do
		[ "$d" = - ] || defs+=("-D$d")
	done
	cpp -P -undef -nostdinc -x c "${defs[@]}" "$template" >"$tmp/$name.asl"
	if ! iasl -p "$tmp/$name" "$tmp/$name.asl" >"$tmp/$name.log" 2>&1; then
		echo "corpus-tables: case $name: iasl refused it:" >&2
		grep -E 'Error|error' "$tmp/$name.log" >&2 || cat "$tmp/$name.log" >&2
		exit 1
	fi
	mv "$tmp/$name.aml" "$outdir/$name.aml"
	n=$((n + 1))
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$cases")
echo "  IASL    $n corpus tables ($cases)"
