/*
 * w2sg0004: model of a Wi2Wi W2SG0004 (SiRFstar III) GPS receiver as
 * drivers/gnss/sirf.c (Linux 6.12) drives it.
 *
 * Power: the chip starts off (hibernate). gnss-sirf toggles it with
 * sirf_pulse_on_off(): gpiod_set_value(on_off, 1), msleep(100),
 * gpiod_set_value(on_off, 0) - a LOGICAL-high pulse. With the on/off line
 * described active-high (the default; _DSD active_low = 0) that is a
 * physical 0 -> 1 -> 0 pulse; --onoff-active-low models a description that
 * marks the line active-low (physical 1 -> 0 -> 1). A pulse whose active
 * part lasts 50 ms .. 1 s toggles power when it ends; shorter glitches and
 * longer levels (a polarity change when the driver takes the line) do not.
 *
 * While on: NMEA at 1 Hz on whole UTC seconds, paced at --baud (default
 * 9600, the speed gnss-sirf uses without "current-speed") so a burst takes
 * the ~0.4 s it takes on a real wire. Going off drops the rest of the burst
 * at once: gnss-sirf (no wakeup line) sleeps 200 ms after the pulse and then
 * treats any byte within 2 s as "still on".
 *
 * The optional wakeup line (driver input) mirrors the power state: pull-up
 * when on, pull-down when off; with it gnss-sirf waits for the edge instead
 * of guessing from the data.
 *
 * --always-on models a receiver whose power is wired on, with no sideband
 * lines at all: what gnss-sirf expects of a description without
 * "sirf,onoff-gpios" (it then never pulses, and reads whenever opened).
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "log.h"
#include "mtime.h"
#include "uart.h"
#include "w2sg0004-nmea.h"

#define POLL_MS		5
#define PULSE_MIN_MS	50
#define PULSE_MAX_MS	1000

enum fault {
	F_NONE, F_BAD_CHECKSUM, F_TRUNCATED, F_NEVER_STOP, F_GARBAGE, F_ENDLESS,
};
static const char *const fault_names[] = {
	"none", "bad-checksum", "truncated", "never-stop", "garbage", "endless",
};

struct gps {
	struct uart uart;
	struct line onoff, wakeup;
	bool onoff_active_low;
	bool always_on;		/* no lines: powered from start-up */
	bool flood;		/* bursts back to back, unpaced (make bench) */
	enum fault fault;
	struct nmea_pos pos;
	long baud;

	bool on;
	int level;		/* logical on/off level last seen */
	int64_t rise_at;	/* start of the current active level, -1: none */
	int64_t rt0, mono0;	/* UTC clock: real time at start + monotonic */
	int64_t last_sec;	/* last UTC second a burst was made for */
	int64_t last_tick;
	double credit;		/* bytes the simulated baud rate allows now */
	char burst[4096];
	size_t burst_len, burst_pos;
	unsigned long bursts;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int64_t utc_ms(struct gps *g, int64_t mono)
{
	return g->rt0 + (mono - g->mono0);
}

static void power(struct gps *g, bool on, int64_t width)
{
	if (!on && g->fault == F_NEVER_STOP) {
		msg("off pulse (%lld ms) ignored: fault never-stop",
		    (long long)width);
		return;
	}
	g->on = on;
	if (on) {
		g->last_sec = utc_ms(g, now_ms()) / 1000;
		g->burst_len = g->burst_pos = 0;
		g->credit = 0;
		g->bursts = 0;
		line_pull(&g->wakeup, 1);
		msg("power on (pulse %lld ms)", (long long)width);
	} else {
		size_t dropped = g->burst_len - g->burst_pos + g->uart.out_len;

		g->burst_len = g->burst_pos = 0;
		uart_discard(&g->uart);
		line_pull(&g->wakeup, 0);
		msg("power off (pulse %lld ms, %zu bytes of the burst dropped)",
		    (long long)width, dropped);
	}
}

static void sample_onoff(struct gps *g, int64_t t)
{
	int level;
	int64_t width;

	if (g->always_on)
		return;
	level = line_get(&g->onoff) ^ g->onoff_active_low;
	if (level == g->level)
		return;
	g->level = level;
	if (level) {
		g->rise_at = t;
		return;
	}
	if (g->rise_at < 0)
		return;		/* active since start-up: not a pulse */
	width = t - g->rise_at;
	g->rise_at = -1;
	if (width < PULSE_MIN_MS || width > PULSE_MAX_MS) {
		msg("on/off pulse of %lld ms ignored (needs %d..%d ms)",
		    (long long)width, PULSE_MIN_MS, PULSE_MAX_MS);
		return;
	}
	power(g, !g->on, width);
}

/* Make a burst at each new UTC second and feed it out at the baud rate. */
static void produce(struct gps *g, int64_t t)
{
	int64_t sec = utc_ms(g, t) / 1000;
	size_t n;

	/* Flood: the next second's burst as soon as the last one is out. */
	if (g->flood && g->burst_pos == g->burst_len && !g->uart.out_len)
		sec = g->last_sec + 1;
	if (sec > g->last_sec) {
		static const enum nmea_fault nf[] = {
			[F_NONE] = NMEA_OK, [F_BAD_CHECKSUM] = NMEA_BAD_CHECKSUM,
			[F_TRUNCATED] = NMEA_TRUNCATED, [F_NEVER_STOP] = NMEA_OK,
			[F_GARBAGE] = NMEA_GARBAGE, [F_ENDLESS] = NMEA_ENDLESS,
		};

		g->last_sec = sec;
		/* Keep any unsent tail (only if --baud is too slow for 1 Hz). */
		memmove(g->burst, g->burst + g->burst_pos,
			g->burst_len - g->burst_pos);
		g->burst_len -= g->burst_pos;
		g->burst_pos = 0;
		n = nmea_burst(g->burst + g->burst_len,
			       sizeof(g->burst) - g->burst_len, (time_t)sec,
			       &g->pos, nf[g->fault]);
		if (!n)
			msg("burst does not fit (baud too low?): skipped");
		g->burst_len += n;
		if (!g->bursts++)
			msg("first NMEA burst (%zu bytes)", n);
		else
			dbg("burst %lu (%zu bytes)", g->bursts, n);
	}
	n = g->burst_len - g->burst_pos;
	if (g->baud > 0) {
		g->credit += (double)(t - g->last_tick) * g->baud / 10000.0;
		if ((double)n > g->credit)
			n = (size_t)g->credit;
	}
	if (n) {
		uart_queue(&g->uart, g->burst + g->burst_pos, n);
		g->burst_pos += n;
		g->credit -= n;
	}
	if (g->burst_pos == g->burst_len)
		g->credit = 0;	/* idle time earns no burst credit */
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: w2sg0004 --uart PATH --lines NAME [options]\n"
		"  --uart PATH         far end of the slave UART (/dev/far-com3)\n"
		"  --lines NAME        instance name; lines NAME-onoff and optional\n"
		"                      NAME-wakeup (gpio-sim line names)\n"
		"  --lines-file DIR    test hook: line L is DIR/L/value and DIR/L/pull\n"
		"  --wait-lines S      wait up to S seconds for the lines to appear (an\n"
		"                      overlay that wires them applied after the start)\n"
		"  --lat DEG --lon DEG --alt M   position (default 60.1699 24.9384 25)\n"
		"  --baud N            pace output as N baud 8N1 (default 9600; 0: no pacing)\n"
		"  --onoff-active-low  on/off pulses are physical 1->0->1\n"
		"  --always-on         no sideband lines: powered from start-up\n"
		"  --flood             bursts back to back as fast as the wire takes\n"
		"                      them, one simulated second each (benchmarks)\n"
		"  --fault MODE        none|bad-checksum|truncated|never-stop|garbage|endless\n"
		"  -v                  log every burst and line change\n");
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (!*s || *end || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	static struct gps g;
	static const struct option opts[] = {
		{ "uart", required_argument, NULL, 'u' },
		{ "lines", required_argument, NULL, 'l' },
		{ "lines-file", required_argument, NULL, 'f' },
		{ "wait-lines", required_argument, NULL, 'W' },
		{ "lat", required_argument, NULL, 'a' },
		{ "lon", required_argument, NULL, 'o' },
		{ "alt", required_argument, NULL, 'A' },
		{ "baud", required_argument, NULL, 'b' },
		{ "onoff-active-low", no_argument, NULL, 'L' },
		{ "always-on", no_argument, NULL, 'O' },
		{ "flood", no_argument, NULL, 'D' },
		{ "fault", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *uart_path = NULL, *inst = NULL, *files = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	double baud;
	int c, bad = 0;
	size_t i;

	g.pos = (struct nmea_pos){ 60.1699, 24.9384, 25.0 };
	g.baud = 9600;
	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'u': uart_path = optarg; break;
		case 'l': inst = optarg; break;
		case 'f': files = optarg; break;
		case 'W': line_wait_s = strtoul(optarg, NULL, 0); break;
		case 'a': bad |= parse_double(optarg, -90, 90, &g.pos.lat); break;
		case 'o': bad |= parse_double(optarg, -180, 180, &g.pos.lon); break;
		case 'A': bad |= parse_double(optarg, -1000, 100000, &g.pos.alt); break;
		case 'b':
			bad |= parse_double(optarg, 0, 4000000, &baud);
			g.baud = (long)baud;
			break;
		case 'L': g.onoff_active_low = true; break;
		case 'O': g.always_on = true; break;
		case 'D': g.flood = true; g.baud = 0; break;
		case 'v': log_verbose = 1; break;
		case 'F':
			for (i = 0; i < sizeof(fault_names) / sizeof(*fault_names); i++)
				if (!strcmp(optarg, fault_names[i]))
					break;
			if (i == sizeof(fault_names) / sizeof(*fault_names)) {
				fprintf(stderr, "w2sg0004: unknown fault '%s'\n", optarg);
				return 2;
			}
			g.fault = i;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (bad) {
		fprintf(stderr, "w2sg0004: bad number in options\n");
		return 2;
	}
	if (g.flood)
		g.baud = 0;
	if (!uart_path || !inst || optind != argc) {
		usage(stderr);
		return 2;
	}
	log_init("w2sg0004", inst);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	if (!g.always_on &&
	    (line_find(&g.onoff, files, inst, "onoff", false) < 0 ||
	     line_find(&g.wakeup, files, inst, "wakeup", true) < 0))
		return 1;
	if (uart_open(&g.uart, uart_path))
		return 1;

	g.rt0 = realtime_ms();
	g.mono0 = g.last_tick = now_ms();
	g.rise_at = -1;
	if (g.always_on) {
		power(&g, true, 0);
	} else {
		g.level = line_get(&g.onoff) ^ g.onoff_active_low;
		line_pull(&g.wakeup, 0);
	}
	msg("up: uart %s, %s, position %.6f %.6f alt %.1f m, %ld baud, on/off active-%s, fault %s",
	    uart_path, g.on ? "on" : "off", g.pos.lat, g.pos.lon, g.pos.alt, g.baud,
	    g.onoff_active_low ? "low" : "high", fault_names[g.fault]);

	while (!stop) {
		struct pollfd pfd;
		char buf[512];
		int64_t t;
		long n;

		uart_pollfd(&g.uart, &pfd);
		poll(&pfd, 1, POLL_MS);
		t = now_ms();
		sample_onoff(&g, t);

		/* The host may write (SiRF/NMEA commands through /dev/gnss0);
		 * the model does not interpret them. */
		while ((n = uart_read(&g.uart, buf, sizeof(buf))) > 0)
			dbg("host wrote %ld bytes (ignored)", n);

		if (g.on)
			produce(&g, t);
		g.last_tick = t;
		uart_flush(&g.uart);
	}
	msg("stopping");
	return 0;
}
