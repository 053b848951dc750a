#!/bin/bash
# Compile one ASL source to AML with warnings treated as errors.
#   iasl.sh SRC.asl OUT.aml
set -euo pipefail
src=$1
out=$(realpath -m "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# -we: warnings are errors; -vi: do not print the banner; -p: output prefix.
if ! iasl -we -vi -p "$tmp/out" "$src" >"$tmp/log" 2>&1; then
	cat "$tmp/log" >&2
	exit 1
fi
mv "$tmp/out.aml" "$out"
