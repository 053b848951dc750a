# GPS helpers: gpsd as the client a user runs, and the model's position
# (w2sg0004 defaults, docs/models.md).  Source after ktap.sh.

gps_lat=60.1699
gps_lon=24.9384

# gps_fix DEV SECONDS: run gpsd on DEV until it reports a 3D fix or SECONDS
# pass; the fix's TPV report goes to /tmp/tpv, the seconds it took to
# /tmp/tpv.took.  gpsd is stopped again, so DEV is closed on return.
gps_fix() {
	gpsd_start "$1"
	_t0=$(date +%s)
	gpsd_wait_fix "$2"
	echo $(($(date +%s) - _t0)) >/tmp/tpv.took
	gpsd_stop
	[ -s /tmp/tpv ] || { tail -n 5 /tmp/gpsd.log; return 1; }
}

# gpsd_start DEV: a gpsd reading DEV in the background, its pid in gpsd_pid,
# its log in /tmp/gpsd.log; gpsd_stop ends it; gpsd_alive: it still runs.
gpsd_start() {
	gpsd -N -n -b "$1" >/tmp/gpsd.log 2>&1 &
	gpsd_pid=$!
}
gpsd_stop() {
	kill $gpsd_pid 2>/dev/null
	wait $gpsd_pid 2>/dev/null
	return 0
}
gpsd_alive() {
	kill -0 $gpsd_pid 2>/dev/null
}

# gpsd_wait_fix SECONDS: the running gpsd reports a 3D fix within SECONDS;
# the fix's TPV report goes to /tmp/tpv.
gpsd_wait_fix() {
	_w0=$(date +%s)
	: >/tmp/tpv
	while [ $(($(date +%s) - _w0)) -lt "$1" ]; do
		timeout $(($1 + 1 - ($(date +%s) - _w0))) gpspipe -w 127.0.0.1 2>/dev/null |
			grep -m1 '"class":"TPV".*"mode":3' >/tmp/tpv
		[ -s /tmp/tpv ] && return 0
		sleep 0.3	# gpsd not listening yet
	done
	return 1
}

# tpv_field NAME: a number from the last fix (/tmp/tpv)
tpv_field() {
	sed -n "s/.*\"$1\":\\([-0-9.]*\\).*/\\1/p" /tmp/tpv
}

# near A B [EPS]: |A - B| < EPS (default 1e-4)
near() {
	awk -v a="$1" -v b="$2" -v e="${3:-0.0001}" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d < e) }'
}

# gps_fix_at_model DEV: gpsd on DEV reports, within 10 s, a 3D fix at the
# model's position
gps_fix_at_model() {
	gps_fix "$1" 10 || return 1
	tpv_at_model
}

# tpv_at_model: the last fix (/tmp/tpv) is at the model's position
tpv_at_model() {
	near "$(tpv_field lat)" $gps_lat && near "$(tpv_field lon)" $gps_lon ||
		{ echo "fix at $(tpv_field lat) $(tpv_field lon)"; return 1; }
}
