/*
 * Host tests of the w2sg0004 model: power toggling by on/off pulses, the
 * 200 ms silence after going off, NMEA content, the real gpsd parsing it,
 * and the fault modes. Usage: test-w2sg0004 BUILD_DIR
 *
 * Lines are simulated with the --lines-file hook; the test plays the driver
 * (sirf_pulse_on_off: logical 1 for 100 ms, then 0).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static const char *build;
static char lines[300];

static pid_t start_model(const char *inst, const char *uart, bool wakeup,
			 const char *const *extra)
{
	static char prog[400];
	char log[400], nm[64];
	const char *argv[24];
	int i = 0;

	snprintf(nm, sizeof(nm), "%s-onoff", inst);
	t_line(lines, nm, "0");
	if (wakeup) {
		snprintf(nm, sizeof(nm), "%s-wakeup", inst);
		t_line(lines, nm, "0");
	}
	snprintf(prog, sizeof(prog), "%s/w2sg0004", build);
	snprintf(log, sizeof(log), "%s/gps-%s.log", t_tmpdir(), inst);
	argv[i++] = prog;
	argv[i++] = "-v";
	argv[i++] = "--uart";
	argv[i++] = uart;
	argv[i++] = "--lines";
	argv[i++] = inst;
	argv[i++] = "--lines-file";
	argv[i++] = lines;
	while (extra && *extra)
		argv[i++] = *extra++;
	argv[i] = NULL;
	return t_spawn((char *const *)argv, strdup(log));
}

/* The driver's pulse: logical 1 for width_ms, then 0. */
static void pulse(const char *inst, int width_ms)
{
	char nm[64];

	snprintf(nm, sizeof(nm), "%s-onoff", inst);
	t_set(lines, nm, "1");
	t_sleep_ms(width_ms);
	t_set(lines, nm, "0");
}

static char *wake(const char *inst)
{
	static char nm[64];

	snprintf(nm, sizeof(nm), "%s-wakeup", inst);
	return nm;
}

struct stats {
	int sentences, good_ck, bad_ck, gga, gsa, gsv, rmc;
	int gsa_mode, gga_quality, gga_sats;
	int gga_secs[8], n_gga;
	char rmc_date[8];
	long long first_gga_sec;	/* seconds of day of first GGA */
};

static int hexval(const char *s)
{
	unsigned int v;

	return sscanf(s, "%2x", &v) == 1 ? (int)v : -1;
}

/* Split output into "$...*hh\r\n" sentences and tally them. */
static void scan(const char *buf, struct stats *st)
{
	const char *p = buf;

	memset(st, 0, sizeof(*st));
	st->first_gga_sec = -1;
	while ((p = strchr(p, '$'))) {
		const char *end = strstr(p, "\r\n");
		const char *star;
		char s[128];
		unsigned int ck = 0;
		size_t len;

		if (!end)
			break;
		len = end - p;
		if (len >= sizeof(s)) {
			p++;
			continue;
		}
		memcpy(s, p, len);
		s[len] = '\0';
		p = end + 2;
		star = strchr(s, '*');
		if (!star || star + 3 != s + len)
			continue;
		st->sentences++;
		for (const char *q = s + 1; q < star; q++)
			ck ^= (unsigned char)*q;
		if ((int)ck == hexval(star + 1))
			st->good_ck++;
		else
			st->bad_ck++;
		if (!strncmp(s, "$GPGGA,", 7)) {
			int hh, mm, ss, q, n;

			st->gga++;
			/* time, lat, N, lon, E, quality, sats */
			if (sscanf(s, "$GPGGA,%2d%2d%2d.%*d,%*[^,],%*c,%*[^,],%*c,%d,%d",
				   &hh, &mm, &ss, &q, &n) == 5) {
				st->gga_quality = q;
				st->gga_sats = n;
				if (st->n_gga < 8)
					st->gga_secs[st->n_gga++] = hh * 3600 + mm * 60 + ss;
			}
		} else if (!strncmp(s, "$GPGSA,", 7)) {
			st->gsa++;
			sscanf(s, "$GPGSA,%*c,%d", &st->gsa_mode);
		} else if (!strncmp(s, "$GPGSV,", 7)) {
			st->gsv++;
		} else if (!strncmp(s, "$GPRMC,", 7)) {
			st->rmc++;
			sscanf(s, "$GPRMC,%*[^,],A,%*[^,],%*c,%*[^,],%*c,%*[^,],%*[^,],%6[0-9]",
			       st->rmc_date);
		}
	}
}

/* gpsd + gpspipe on the far side of a socat pty pair. */
static void gpsd_test(void)
{
	const double lat = -33.4489, lon = -70.6693;
	static const char *const pos[] = { "--lat", "-33.4489", "--lon",
					   "-70.6693", "--alt", "520", NULL };
	char model[400], host[400], port[16], out[400], log[400], line[2048];
	bool ok = false;
	double glat = 0, glon = 0;
	pid_t pipe_pid;
	int tries;
	FILE *f;

	if (!t_have("gpsd") || !t_have("gpspipe") || !t_have("socat")) {
		t_ok(false, "gpsd reports a 3D fix at the configured position");
		t_diag("needs gpsd, gpsd-clients and socat");
		return;
	}
	snprintf(model, sizeof(model), "%s/gps-model", t_tmpdir());
	snprintf(host, sizeof(host), "%s/gps-host", t_tmpdir());
	{
		char a[450], b[450];
		char *const av[] = { "socat", a, b, NULL };

		snprintf(a, sizeof(a), "PTY,link=%s,rawer", model);
		snprintf(b, sizeof(b), "PTY,link=%s,rawer", host);
		snprintf(log, sizeof(log), "%s/socat.log", t_tmpdir());
		t_spawn(av, strdup(log));
	}
	t_wait_path(model, 2000);
	t_wait_path(host, 2000);
	/* No wakeup line here: the optional line's absence is handled. */
	start_model("gps1", model, false, pos);
	t_sleep_ms(200);
	pulse("gps1", 100);

	snprintf(port, sizeof(port), "%d", t_free_port());
	{
		char *const av[] = { "gpsd", "-N", "-n", "-b", "-S", port, host, NULL };

		snprintf(log, sizeof(log), "%s/gpsd.log", t_tmpdir());
		t_spawn(av, strdup(log));
	}
	snprintf(out, sizeof(out), "%s/gpspipe.out", t_tmpdir());
	for (tries = 0; tries < 3 && !ok; tries++) {
		char srv[64];
		char *const av[] = { "gpspipe", "-w", "-n", "20", srv, NULL };

		t_sleep_ms(300);
		snprintf(srv, sizeof(srv), "localhost:%s", port);
		unlink(out);
		pipe_pid = t_spawn(av, out);
		if (t_wait_exit(pipe_pid, 15000) < 0)
			t_kill(pipe_pid);
		f = fopen(out, "r");
		while (f && fgets(line, sizeof(line), f)) {
			char *a = strstr(line, "\"lat\":"), *o = strstr(line, "\"lon\":");

			if (!strstr(line, "\"class\":\"TPV\"") ||
			    !strstr(line, "\"mode\":3") || !a || !o)
				continue;
			glat = strtod(a + 6, NULL);
			glon = strtod(o + 6, NULL);
			if (fabs(glat - lat) < 1e-4 && fabs(glon - lon) < 1e-4) {
				ok = true;
				break;
			}
		}
		if (f)
			fclose(f);
	}
	if (!t_ok(ok, "gpsd reports TPV mode 3 at %.4f %.4f (got %.6f %.6f)",
		  lat, lon, glat, glon))
		t_diag("gpspipe output in %s", out);
}

static void fault_test(const char *inst, const char *fault)
{
	static char buf[8192];
	const char *extra[] = { "--fault", fault, NULL };
	char slave[128];
	struct stats st;
	long n;
	int m = t_pty(slave, sizeof(slave));
	pid_t pid = start_model(inst, slave, true, extra);

	t_sleep_ms(100);
	pulse(inst, 100);
	n = t_read(m, buf, sizeof(buf) - 1, 2300);
	buf[n] = '\0';

	if (!strcmp(fault, "bad-checksum")) {
		scan(buf, &st);
		t_ok(st.sentences >= 5 && st.good_ck == 0,
		     "fault bad-checksum: %d sentences, none with a valid checksum",
		     st.sentences);
	} else if (!strcmp(fault, "truncated")) {
		int starts = 0;

		for (char *p = buf; (p = strchr(p, '$')); p++)
			starts++;
		t_ok(n > 0 && starts >= 5 && !strstr(buf, "\r\n") &&
		     !strchr(buf, '*'),
		     "fault truncated: %d sentence starts, no checksum or line end", starts);
	} else if (!strcmp(fault, "garbage")) {
		long hi = 0;

		for (long i = 0; i < n; i++)
			hi += (unsigned char)buf[i] >= 0x80;
		t_ok(n > 100 && hi == n,
		     "fault garbage: %ld bytes, all of them 0x80-0xFF (%ld)", n, hi);
	} else if (!strcmp(fault, "endless")) {
		t_ok(n > 100 && !memchr(buf, '$', n) && !memchr(buf, '\n', n) &&
		     !memchr(buf, '\r', n) && strstr(buf, "GPGGA,"),
		     "fault endless: %ld bytes of sentence bodies, no '$' and no line end", n);
	} else {
		/* never-stop: an off pulse mid-stream changes nothing. */
		pulse(inst, 100);
		t_read(m, buf, sizeof(buf), 300);
		n = t_read(m, buf, sizeof(buf), 1500);
		t_ok(n > 0 && t_pull_is(lines, wake(inst), "pull-up"),
		     "fault never-stop: %ld bytes 0.3-1.8 s after the off pulse, wakeup still high", n);
	}
	t_kill(pid);
	close(m);
}

int main(int argc, char **argv)
{
	static char buf[8192];
	char slave[128];
	struct stats st;
	long long t0;
	time_t now;
	struct tm tm;
	char date[32];
	int m, st_exit, i;
	bool ok;
	long n;
	pid_t pid;

	if (argc != 2) {
		fprintf(stderr, "usage: %s BUILD_DIR\n", argv[0]);
		return 2;
	}
	build = argv[1];
	t_init(15, 90);
	snprintf(lines, sizeof(lines), "%s/lines", t_tmpdir());
	mkdir(lines, 0755);

	/* A required line that does not exist stops the model at start-up. */
	{
		char prog[400], slave2[128], log[400];
		int m2 = t_pty(slave2, sizeof(slave2));
		char *const av[] = { prog, "--uart", slave2, "--lines", "nope",
				     "--lines-file", lines, NULL };

		snprintf(prog, sizeof(prog), "%s/w2sg0004", build);
		snprintf(log, sizeof(log), "%s/gps-nope.log", t_tmpdir());
		pid = t_spawn(av, log);
		st_exit = t_wait_exit(pid, 2000);
		t_ok(st_exit >= 0 && WIFEXITED(st_exit) && WEXITSTATUS(st_exit) == 1,
		     "missing nope-onoff line: exit status 1 at start-up");
		close(m2);
	}

	m = t_pty(slave, sizeof(slave));
	start_model("gps0", slave, true, NULL);
	t_ok(t_wait_pull(lines, wake("gps0"), "pull-down", 2000) &&
	     t_read(m, buf, sizeof(buf), 1200) == 0,
	     "starts off: no data for 1.2 s, wakeup low");

	pulse("gps0", 100);
	t0 = t_now_ms();
	n = t_read(m, buf, 1, 1500);
	t_ok(n == 1, "100 ms pulse: first byte after %lld ms (limit 1500)", t_now_ms() - t0);
	t_ok(t_pull_is(lines, wake("gps0"), "pull-up"), "wakeup high while on");

	/* Whole bursts: wait for the start of the next one, then 2.4 s. */
	t_read(m, buf, sizeof(buf), 900);
	n = t_read(m, buf, sizeof(buf) - 1, 2400);
	buf[n] = '\0';
	scan(buf, &st);
	t_ok(st.sentences >= 8 && st.bad_ck == 0 && st.gga && st.gsa && st.gsv &&
	     st.rmc,
	     "NMEA: %d sentences with valid checksums (GGA %d, GSA %d, GSV %d, RMC %d)",
	     st.sentences, st.gga, st.gsa, st.gsv, st.rmc);
	t_ok(st.gsa_mode == 3 && st.gga_quality == 1 && st.gga_sats >= 6,
	     "3D fix: GSA mode %d, GGA quality %d, %d satellites",
	     st.gsa_mode, st.gga_quality, st.gga_sats);

	now = time(NULL);
	gmtime_r(&now, &tm);
	snprintf(date, sizeof(date), "%02d%02d%02d", tm.tm_mday, tm.tm_mon + 1,
		 tm.tm_year % 100);
	ok = st.n_gga >= 2;
	for (i = 1; i < st.n_gga; i++)
		ok &= (st.gga_secs[i] - st.gga_secs[i - 1] + 86400) % 86400 == 1;
	if (st.n_gga) {
		int host = tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
		int d = (host - st.gga_secs[st.n_gga - 1] + 86400) % 86400;

		ok &= d <= 3;
	}
	t_ok(ok && !strcmp(st.rmc_date, date),
	     "UTC clock: host time, advancing 1 s per burst (%d GGA), RMC date %s",
	     st.n_gga, st.rmc_date);

	/* A 20 ms glitch is no pulse: still on. */
	pulse("gps0", 20);
	t_read(m, buf, sizeof(buf), 200);
	t_ok(t_read(m, buf, sizeof(buf), 1200) > 0 &&
	     t_pull_is(lines, wake("gps0"), "pull-up"),
	     "20 ms glitch on on/off ignored: data continues");

	/* Turn off in the middle of a burst (one takes ~350 ms at 9600 baud):
	 * wait for the gap between bursts, catch the next first byte, pulse. */
	for (i = 0; i < 10 && t_read(m, buf, sizeof(buf), 300) > 0; i++)
		;
	t_read(m, buf, 1, 1500);
	t_sleep_ms(30);
	pulse("gps0", 100);
	t0 = t_now_ms();
	t_read(m, buf, sizeof(buf), 200);
	n = t_read(m, buf, sizeof(buf), 1500);
	t_ok(n == 0 && t_pull_is(lines, wake("gps0"), "pull-down"),
	     "off pulse mid-burst: silent from 200 ms to 1.7 s after it (%ld bytes), wakeup low", n);
	close(m);

	gpsd_test();
	fault_test("gps2", "bad-checksum");
	fault_test("gps3", "truncated");
	fault_test("gps4", "never-stop");
	fault_test("gps5", "garbage");
	fault_test("gps6", "endless");
	return t_done();
}
