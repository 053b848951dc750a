#!/bin/bash
# The random stress's model alone, on the host (ttyport-random --model-only,
# docs/random-stress.md): make check draws a new seed each run, so what its
# premises claim ("gnss-sirf bound the device", "the adapter was unplugged
# with its ttyUSBn held", ...) must hold for any seed, not only for the ones
# tried by hand.  Over SEEDS seeds at make check's step count, every premise
# that tests/random-stress.sh checks has a non-zero count in the summary; and
# a seed replays: two runs of one seed draw the same steps.  (RANDOM_MODEL_SEEDS
# and RANDOM_MODEL_STEPS override the sweep; too few steps must fail it.)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seeds=${RANDOM_MODEL_SEEDS:-500}
n=0
fail=0
tap() { # ok|fail DESC [WHY]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
		fail=1
	fi
}

bin=$tmp/ttyport-random
if ! gcc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -o "$bin" \
	"$top/tests/random/ttyport-random.c" 2>"$tmp/cc.log"; then
	tap fail "ttyport-random builds for the host" "$(head -n 5 "$tmp/cc.log")"
	echo "1..$n"
	exit 1
fi
# make check's step count and the summary counts its premises read
steps=${RANDOM_MODEL_STEPS:-}
[ -n "$steps" ] || steps=$(sed -n 's/^steps=\${TEST_RANDOM_STEPS:-\([0-9]*\)}.*/\1/p' "$top/tests/random-stress.sh")
mapfile -t premises < <(grep -o '"\$ev_[a-z_]*"' "$top/tests/random-stress.sh" |
	tr -d '"$' | sort -u)
[ -n "$steps" ] && [ ${#premises[@]} -ge 10 ] ||
	tap fail "tests/random-stress.sh names its step count and premises" \
		"steps '$steps', ${#premises[@]} premises"

# A seed replays: the same steps, in the same order.  (Each step line ends
# with the time it took, which depends on the host's load: left out.)
replay() {
	"$bin" --model-only --verbose --seed 1205 --steps "$steps" 2>&1 |
		grep -v ' s (' | sed -E 's/ +[0-9]+ ms$//'
}
replay >"$tmp/a"
replay >"$tmp/b"
if [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then
	tap ok "a seed replays: two model runs of seed 1205 draw the same $steps steps"
else
	tap fail "a seed replays: two model runs of seed 1205 draw the same $steps steps" \
		"$(diff "$tmp/a" "$tmp/b" | head -n 5)"
fi

# Every premise, for every seed.
bad=
min_cycles=
for ((s = 1; s <= seeds; s++)); do
	if ! "$bin" --model-only --seed $s --steps "$steps" \
		--summary "$tmp/sum" >/dev/null 2>&1; then
		bad+="seed $s: the model run failed"$'\n'
		continue
	fi
	# one awk a seed: the premises at zero or missing, then the USB cycles
	out=$(awk -F= -v want="${premises[*]}" '
		{ v[$1] = $2 }
		END {
			n = split(want, w, " ")
			for (i = 1; i <= n; i++)
				if (!(v[w[i]] > 0)) printf "%s is %s, ", w[i], (w[i] in v) ? v[w[i]] : "missing"
			printf "|%d\n", v["ev_usb_unplugs"] < v["ev_acm_unplugs"] ? v["ev_usb_unplugs"] : v["ev_acm_unplugs"]
		}' "$tmp/sum")
	[ -z "${out%|*}" ] || bad+="seed $s: ${out%|*}"$'\n'
	c=${out##*|}
	if [ -z "$min_cycles" ] || [ "$c" -lt "$min_cycles" ]; then min_cycles=$c; fi
done
if [ -z "$bad" ]; then
	tap ok "every premise of random-stress holds for each of $seeds seeds at $steps steps (${#premises[@]} premises; at least $min_cycles plug cycles of each USB port)"
else
	tap fail "every premise of random-stress holds for each of $seeds seeds at $steps steps" \
		"$(printf '%s' "$bad" | head -n 10)"
fi
echo "1..$n"
exit $fail
