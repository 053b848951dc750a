#!/bin/bash
# Compile the SSDTs of one boot of make check-drivers.
#
#   tables.sh BOOT OUTDIR
#
# For each line of tests/drivers/plan for BOOT, acpi-tables/drivers/<table>.asl
# with @UART@ replaced by the wire's UART path (tests/drivers/ports), plus the
# GPIO bank (acpi-tables/drivers/gpio.asl) that some of them use.  Warnings
# are errors (as scripts/iasl.sh).  Prints the compiled .aml files, one a line.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
boot=${1:?usage: tables.sh BOOT OUTDIR}
out=${2:?usage: tables.sh BOOT OUTDIR}
src=$top/acpi-tables/drivers
here=$top/tests/drivers

rm -rf "$out"
mkdir -p "$out"

compile() { # src.asl out.aml
	local in=$1 aml=$2 log
	log=$(iasl -we -vi -p "${aml%.aml}" "$in" 2>&1) || {
		echo "$log" >&2
		echo "tables: $in does not compile" >&2
		exit 1
	}
	echo "$aml"
}

compile "$src/gpio.asl" "$out/gpio.aml"
found=0
while read -r b wire table _; do
	[ "$b" = "$boot" ] || continue
	found=1
	[ "$table" = - ] && continue
	path=$(awk -v w="$wire" '$1 == w { print $3 }' "$here/ports")
	[ -n "$path" ] || { echo "tables: no wire $wire in tests/drivers/ports" >&2; exit 1; }
	[ -r "$src/$table.asl" ] || { echo "tables: no $src/$table.asl" >&2; exit 1; }
	sed "s|@UART@|$path|g" "$src/$table.asl" >"$out/$table.asl"
	compile "$out/$table.asl" "$out/$table.aml"
done < <(grep -v '^#' "$here/plan" | grep .)
[ "$found" = 1 ] || { echo "tables: no boot '$boot' in tests/drivers/plan" >&2; exit 1; }
