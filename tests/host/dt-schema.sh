#!/bin/bash
# The device tree side, checked with Debian's dt-schema and dtc: the
# binding of the runtime port nodes (serial-ports.yaml, from the kernel tree
# with the series applied) is a valid schema whose example validates, and
# every overlay in dt-overlays/ compiles with no dtc warning and without
# __symbols__ unless it is a bad-* overlay made to carry them.
top=$(cd "$(dirname "$0")/../.." && pwd)
bindings=$top/build/linux/Documentation/devicetree/bindings
yaml=$bindings/serial/serial-ports.yaml
n=0
fail=0
tap() { # status description [diagnostic]
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
		fail=1
	fi
}

if [ ! -f "$yaml" ]; then
	tap 1 "serial-ports.yaml is in the kernel tree" "missing: $yaml (make kernel-tree)"
else
	out=$(dt-doc-validate -u "$bindings" "$yaml" 2>&1)
	tap $? "dt-doc-validate: serial-ports.yaml is a valid binding" "$out"
fi

for f in "$top"/dt-overlays/*.dtso; do
	name=$(basename "$f")
	out=$(dtc -I dts -O dtb -o /dev/null "$f" 2>&1)
	st=$?
	if [ $name = bad-gpio-phandle.dtso ]; then
		# Bad on purpose: dtc itself warns about the phandle to nothing
		echo "$out" | grep -q "gpios" || st=1
		tap $st "dtc: $name compiles, warning about its GPIO phandle" "$out"
		continue
	fi
	[ $st = 0 ] && [ -n "$out" ] && st=1
	tap $st "dtc: $name compiles without warnings" "$out"
	# The positive control: bad-symbols.dtso is made to carry them.
	symbols=$(dtc -I dts -O dts "$f" 2>&1 | grep -c __symbols__)
	case $name in
	bad-symbols.dtso)
		[ "$symbols" -gt 0 ]
		tap $? "$name carries __symbols__ (as it must, to be refused)"
		;;
	*)
		[ "$symbols" -eq 0 ]
		tap $? "$name carries no __symbols__ (the x86 live tree has none)"
		;;
	esac
done
echo "1..$n"
exit $fail
