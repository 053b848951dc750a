#!/bin/bash
# Configure and build the guest kernel out of tree.
#
#   kernel-build.sh OUTDIR FRAGMENT...
#
#   KBUILD_TARGETS  what to build (default bzImage; "bzImage modules" for a
#                   configuration with modules, scripts/build-matrix.sh)
#
# The configuration is allnoconfig with the fragments merged (KCONFIG_ALLCONFIG),
# so only what the fragments ask for is built.  Kconfig silently drops an option
# whose dependencies are not met; we refuse that: every option a fragment sets must
# have the same value in the final .config, or the build stops naming it.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=${LINUX_TREE:-$top/build/linux}
out=$(realpath -m "$1")
shift
jobs=${JOBS:-$(nproc)}

mkdir -p "$out"
# A later fragment overrides an earlier one (kconfig/modules.config turns
# built-in drivers into modules): keep each option's last line only, so that
# the check below compares what the configuration really asks for.
cat "$@" | awk '
	{ opt = "" }
	/^CONFIG_[A-Za-z0-9_]+=/ { opt = $0; sub(/=.*/, "", opt) }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { opt = $2 }
	{ line[NR] = $0; key[NR] = opt; if (opt != "") last[opt] = NR }
	END { for (i = 1; i <= NR; i++) if (key[i] == "" || last[key[i]] == i) print line[i] }
	' >"$out/fragment.config"

cc="gcc"
if command -v ccache >/dev/null; then
	cc="ccache gcc"
	export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
	# Kernel builds embed the build directory in debug info; ignore it so two
	# output directories share the cache.
	export CCACHE_BASEDIR=$top
	export CCACHE_NOHASHDIR=1
	# Kbuild passes -fmacro-prefix-map=<tree>/= so that __FILE__ is relative
	# to the tree: the option names the clone's path but the output does not
	# depend on it, so a fresh clone (CI) can reuse the cache.
	export CCACHE_IGNOREOPTIONS="-fmacro-prefix-map=*"
fi

# Reconfigure only when the fragments changed, so incremental builds stay quick.
if ! cmp -s "$out/fragment.config" "$out/.fragment.applied" 2>/dev/null ||
   [ ! -f "$out/.config" ]; then
	t0=$SECONDS
	echo "==> configure the kernel in ${out#"$top"/} (allnoconfig + $*) ..."
	make -s -C "$tree" O="$out" CC="$cc" KCONFIG_ALLCONFIG="$out/fragment.config" \
		allnoconfig
	cp "$out/fragment.config" "$out/.fragment.applied"
	echo "==> configure: done in $((SECONDS - t0)) s"
fi

missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) ;;
	"# CONFIG_"*" is not set") ;;
	*) continue ;;
	esac
	if [[ $line == \#* ]]; then
		opt=${line#\# }
		opt=${opt%% *}
		if grep -q "^$opt=" "$out/.config"; then
			echo "kernel-build: $opt is set, but a fragment asks for it off" >&2
			missing=1
		fi
	elif ! grep -qxF "$line" "$out/.config"; then
		opt=${line%%=*}
		# make check-series builds the series patch by patch: an option
		# that a later patch introduces is not in the tree yet.
		if [ -n "${ALLOW_UNKNOWN_OPTIONS:-}" ] &&
		   ! grep -rqsE "^(menu)?config ${opt#CONFIG_}\b" --include='Kconfig*' "$tree"; then
			continue
		fi
		have=$(grep "^$opt=" "$out/.config" || echo "$opt unset")
		echo "kernel-build: fragment asks for $line, .config has $have" >&2
		missing=1
	fi
done <"$out/fragment.config"
if [ $missing -ne 0 ]; then
	echo "kernel-build: the configuration lacks options the fragments ask for" >&2
	exit 1
fi

t0=$SECONDS
targets=${KBUILD_TARGETS:-bzImage}
echo "==> build the kernel in ${out#"$top"/} ($targets, -j$jobs, ccache; about 5 min cold, seconds when built) ..."
# shellcheck disable=SC2086 # one target per word
make -s -C "$tree" O="$out" CC="$cc" -j"$jobs" $targets
echo "==> build: done in $((SECONDS - t0)) s: ${out#"$top"/}/arch/x86/boot/bzImage"
