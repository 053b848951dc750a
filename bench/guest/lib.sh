# bench/guest/lib.sh, installed in the guest as /lib/ttyport/bench.sh.
# Helpers of the benchmark boots (bench/guest/*.sh).  A figure is one line
# "@@bench NAME VALUE"; a figure this kernel cannot give is one line
# "@@bench-skip NAME why".  bench/run.sh collects them from the guest's
# output.  TEST_KERNEL (stock or patched) says which kernel runs.

bench_rc=0	# a script ends with "exit $bench_rc": 1 if a figure failed
fig() { echo "@@bench $1 $2"; }
fig_skip() { n=$1; shift; echo "@@bench-skip $n $*"; }
patched() { [ "${TEST_KERNEL:-}" = patched ]; }

# timed NAME1 [NAME2...] -- ttyport-bench time arguments: one figure per
# condition, or the failure on stderr and no figure
timed() {
	_names=
	while [ "$1" != "--" ]; do _names="$_names $1"; shift; done
	shift
	_t=$(ttyport-bench time "$@") || {
		echo "bench:$_names failed" >&2
		bench_rc=1
		return 1
	}
	for _n in $_names; do
		fig "$_n" "${_t%% *}"
		_t=${_t#* }
	done
}

# ctrl_of TTY: the serdev controller of TTY's port (patched kernel)
ctrl_of() {
	for _c in /sys/class/tty/$1/device/serial*; do
		[ -e "$_c/new_device" ] && { readlink -f "$_c"; return 0; }
	done
	return 1
}
