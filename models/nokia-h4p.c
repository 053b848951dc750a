/*
 * nokia-h4p: model of a Nokia H4+ Bluetooth chip (TI1273 / BCM2048 class) as
 * drivers/bluetooth/hci_nokia.c (Linux 6.12) drives it.
 *
 * Wire protocol, as the driver sends and expects it:
 *   - reset (driver output, active-low in the description): physical 0 means
 *     the chip is held in reset; it ignores the UART and holds host-wakeup
 *     low (the driver checks that 100 ms after asserting reset).
 *   - after release, host-wakeup goes high and the chip answers:
 *       negotiation  06 0A 00 <baud16> 00 00 4C <sysclk16> 00 00
 *                 -> 06 0C 20 <baud16> 00 00 <proto> <sysclk16> 00 00 <man> <ver>
 *         (struct hci_nokia_neg_evt; baud/proto/sysclk echoed from the request)
 *       alive        07 02 55 00  ->  07 02 CC 00
 *       HCI commands (0x01), ACL (0x02) -> btvirt; events/ACL come back.
 *   - every frame in both directions is padded to an even length (the driver
 *     sets hu->alignment = 2): the chip pads what it sends and skips one byte
 *     after each odd-length frame from the host.
 *
 * Firmware: the driver sends the HCI command records of nokia/ti1273.bin
 * (man_id 0x31) or nokia/bcmfw.bin (0x04) and waits for a Command Complete for
 * each. btvirt does not know vendor commands, so every command in the vendor
 * OGF 0x3F is answered here with Command Complete, status 0, no parameters.
 * That rule needs no notion of "setup phase" and also covers later vendor
 * commands (btbcm_set_bdaddr's 0xFC01 with --man-id 0x04).
 *
 * --plain-h4 makes it a plain H4 UART controller instead (no sideband lines,
 * no negotiation, no padding, out of reset from the start), the kind
 * `btattach -P h4` attaches through the hci_uart line discipline: make bench
 * compares that path with hci_nokia's, in front of the same btvirt.
 *
 * --bcm makes it a plain H4 Broadcom UART controller as hci_bcm (Linux 6.12)
 * sets it up when no patchram file is found: btbcm_initialize() wants
 * parameters from two vendor commands, Read Verbose Config (0xFC79: status,
 * chip id, target id, build base, build number; 7 bytes) and Read Controller
 * Features (0xFC6E: status and 8 feature bytes); the rest of its setup
 * (Read Local Name, the patchram file looked for and not found) needs
 * nothing more.
 * The same model is then attached both ways, `btattach -P bcm` through the
 * line discipline and BCM2E1A from ACPI through serdev, so make bench
 * compares the two paths with the same protocol code and the same chip.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btvirt.h"
#include "h4.h"
#include "lines.h"
#include "log.h"
#include "mtime.h"
#include "uart.h"

#define POLL_MS 5

enum fault { F_NONE, F_GARBAGE, F_BAD_LENGTH, F_NAK, F_SILENT, F_NO_PADDING };
static const char *const fault_names[] = {
	"none", "garbage", "bad-length", "nak", "silent", "no-padding",
};

struct nokia {
	struct uart uart;
	struct line reset, host_wakeup, bt_wakeup;
	struct h4_rx host_rx;
	struct btvirt bt;
	enum fault fault;
	bool plain;		/* --plain-h4 or --bcm */
	bool bcm;		/* --bcm */
	unsigned int man_id, ver_id;
	bool in_reset;
	int bt_wake;
	unsigned int fw_cmds;	/* vendor commands since reset release */
	bool fw_reported;
	unsigned long dropped_in_reset;
};

/* What the host may send (hci_nokia: nokia_enqueue + H4 types). */
static const struct h4_type from_host[] = {
	{ 0x01, 3, 2, 1, 0, "command" },
	{ 0x02, 4, 2, 2, 0, "ACL" },
	{ 0x03, 3, 2, 1, 0, "SCO" },
	{ 0x06, 1, 0, 1, 0, "negotiation" },
	{ 0x07, 1, 0, 1, 0, "alive" },
	{ 0x08, 2, 1, 1, 0, "radio" },
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Send one frame toward the host, padded to even length (H4+). */
static void send_frame(struct nokia *m, const uint8_t *f, size_t len)
{
	static const uint8_t pad;

	if (m->in_reset || m->fault == F_SILENT)
		return;
	dbg_hex("to host", f, len);
	uart_queue(&m->uart, f, len);
	if ((len % 2) && m->fault != F_NO_PADDING && !m->plain)
		uart_queue(&m->uart, &pad, 1);
}

static void command_complete(struct nokia *m, uint16_t opcode, uint8_t status)
{
	uint8_t ev[] = { 0x04, 0x0e, 0x04, 0x01, opcode & 0xff, opcode >> 8,
			 status };

	send_frame(m, ev, sizeof(ev));
}

/* Command Complete, status 0, with the return parameters P (LEN bytes). */
static void command_complete_params(struct nokia *m, uint16_t opcode,
				    const uint8_t *p, size_t len)
{
	uint8_t ev[3 + 4 + 16] = { 0x04, 0x0e, 4 + len, 0x01, opcode & 0xff,
				   opcode >> 8, 0x00 };

	memcpy(ev + 7, p, len);
	send_frame(m, ev, 7 + len);
}

/*
 * The Broadcom vendor commands whose answers btbcm_initialize() reads (their
 * lengths are checked; the values only printed): a BCM20702-like chip id 0x3f,
 * target 0x09, build 2.5.
 */
static bool bcm_command(struct nokia *m, uint16_t opcode)
{
	static const uint8_t verbose_config[] = { 0x3f, 0x09, 0x02, 0x00, 0x05, 0x00 };
	static const uint8_t features[] = { 0x01, 0, 0, 0, 0, 0, 0, 0 };

	switch (opcode) {
	case 0xfc79:
		command_complete_params(m, opcode, verbose_config, sizeof(verbose_config));
		return true;
	case 0xfc6e:
		command_complete_params(m, opcode, features, sizeof(features));
		return true;
	default:
		return false;
	}
}

static void negotiation(struct nokia *m, const uint8_t *f, size_t len)
{
	/* f: 06 dlen ack baud16 unused16 proto sysclk16 unused16 */
	uint8_t r[14] = { 0x06, 0x0c, 0x20 };

	if (len != 12 || f[1] != 10 || f[2] != 0x00) {
		msg("negotiation frame not understood (len %zu): ignored", len);
		return;
	}
	msg("negotiation: baud divisor %u, sysclk %u kHz, proto 0x%02x -> man_id 0x%02x ver_id 0x%02x%s%s",
	    f[3] | f[4] << 8, f[8] | f[9] << 8, f[7], m->man_id, m->ver_id,
	    m->fault != F_NONE ? ", fault " : "",
	    m->fault != F_NONE ? fault_names[m->fault] : "");
	memcpy(r + 3, f + 3, 2);	/* baud */
	r[7] = f[7];			/* proto */
	memcpy(r + 8, f + 8, 2);	/* sys_clk */
	r[12] = m->man_id;
	r[13] = m->ver_id;

	switch (m->fault) {
	case F_GARBAGE: {
		/* Bytes that are no H4+ packet type: the driver's
		 * h4_recv_buf() fails with -EILSEQ, negotiation times out. */
		size_t i;

		for (i = 0; i < sizeof(r); i++)
			r[i] = 0xff - i;
		break;
	}
	case F_BAD_LENGTH:
		/* dlen 11 instead of 12: hci_nokia answers -EIO. */
		r[1] = 0x0b;
		send_frame(m, r, 13);
		return;
	case F_NAK:
		r[2] = 0x40;	/* NOKIA_NEG_NAK: "wrong reply", -EINVAL */
		break;
	default:
		break;
	}
	send_frame(m, r, sizeof(r));
}

static void host_command(struct nokia *m, const uint8_t *f, size_t len)
{
	uint16_t opcode = f[1] | f[2] << 8;

	if ((opcode >> 10) == 0x3f) {
		if (m->bcm && bcm_command(m, opcode)) {
			msg("BCM vendor command 0x%04x answered", opcode);
			return;
		}
		if (!m->fw_cmds++)
			msg("firmware: first vendor command 0x%04x", opcode);
		dbg("vendor command 0x%04x, %u parameter bytes: answered here",
		    opcode, f[3]);
		command_complete(m, opcode, 0x00);
		return;
	}
	if (m->fw_cmds && !m->fw_reported) {
		msg("firmware: %u vendor commands acknowledged", m->fw_cmds);
		m->fw_reported = true;
	}
	if (btvirt_send(&m->bt, f, len)) {
		/* No controller: fail the command visibly, don't time out. */
		msg("no controller for command 0x%04x: Unknown HCI Command", opcode);
		command_complete(m, opcode, 0x01);
	}
}

static void on_host_frame(void *ctx, const uint8_t *f, size_t len)
{
	struct nokia *m = ctx;
	static const uint8_t alive_resp[] = { 0x07, 0x02, 0xcc, 0x00 };

	dbg_hex("from host", f, len);
	switch (f[0]) {
	case 0x06:
		negotiation(m, f, len);
		break;
	case 0x07:
		if (len == 4 && f[1] == 2 && f[2] == 0x55) {
			msg("alive");
			send_frame(m, alive_resp, sizeof(alive_resp));
		} else {
			msg("alive frame not understood: ignored");
		}
		break;
	case 0x01:
		host_command(m, f, len);
		break;
	case 0x02:
		if (btvirt_send(&m->bt, f, len))
			dbg("no controller: ACL dropped");
		break;
	default:
		/* SCO: btvirt 5.66 takes only commands and ACL. */
		msg("host sent packet type 0x%02x (%zu bytes): dropped", f[0], len);
		break;
	}
}

static void on_ctrl_frame(void *ctx, const uint8_t *f, size_t len)
{
	struct nokia *m = ctx;

	if (f[0] == 0x05) {
		msg("btvirt sent an ISO packet: H4+ cannot carry it, dropped");
		return;
	}
	if (m->in_reset) {
		dbg("chip in reset: btvirt packet type 0x%02x dropped", f[0]);
		return;
	}
	send_frame(m, f, len);
}

static void sample_lines(struct nokia *m)
{
	bool reset;
	int wake;

	if (m->plain)
		return;
	reset = line_get(&m->reset) == 0;	/* physical 0 = asserted */
	wake = line_get(&m->bt_wakeup);

	if (wake != m->bt_wake) {
		dbg("bt-wakeup %d", wake);
		m->bt_wake = wake;
	}
	if (reset == m->in_reset)
		return;
	m->in_reset = reset;
	h4_rx_reset(&m->host_rx);
	if (reset) {
		uart_discard(&m->uart);
		line_pull(&m->host_wakeup, 0);
		msg("reset asserted");
	} else {
		m->fw_cmds = 0;
		m->fw_reported = false;
		m->dropped_in_reset = 0;
		line_pull(&m->host_wakeup, 1);
		msg("reset released");
		btvirt_connect(&m->bt);	/* early, so setup finds it up */
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nokia-h4p --uart PATH --lines NAME [options]\n"
		"  --uart PATH        far end of the slave UART (/dev/far-com2)\n"
		"  --lines NAME       instance name; lines NAME-reset, NAME-host-wakeup,\n"
		"                     NAME-bt-wakeup (gpio-sim line names)\n"
		"  --lines-file DIR   test hook: line L is DIR/L/value and DIR/L/pull\n"
		"  --wait-lines S     wait up to S seconds for the lines to appear (an\n"
		"                     overlay that wires them applied after the start)\n"
		"  --btvirt PATH      btvirt socket (/tmp/bt-server-bredrle); without\n"
		"                     it non-vendor commands fail with status 0x01\n"
		"  --man-id N         negotiation man_id (default 0x31 = TI1271/1273)\n"
		"  --ver-id N         negotiation ver_id (default 0x01)\n"
		"  --fault MODE       none|garbage|bad-length|nak|silent|no-padding\n"
		"  --plain-h4         a plain H4 controller (btattach -P h4): no lines,\n"
		"                     no negotiation, no padding (make bench)\n"
		"  --bcm              a plain H4 Broadcom controller as hci_bcm sets\n"
		"                     it up without a patchram file (make bench)\n"
		"  -v                 log every frame and line edge\n");
}

static int parse_byte(const char *s, unsigned int *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end || v > 0xff)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	static struct nokia m;	/* big (queues): not on the stack */
	static const struct option opts[] = {
		{ "uart", required_argument, NULL, 'u' },
		{ "lines", required_argument, NULL, 'l' },
		{ "lines-file", required_argument, NULL, 'f' },
		{ "wait-lines", required_argument, NULL, 'W' },
		{ "btvirt", required_argument, NULL, 'b' },
		{ "man-id", required_argument, NULL, 'm' },
		{ "ver-id", required_argument, NULL, 'V' },
		{ "fault", required_argument, NULL, 'F' },
		{ "plain-h4", no_argument, NULL, 'P' },
		{ "bcm", no_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *uart_path = NULL, *inst = NULL, *files = NULL, *bt = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	int c, err;
	size_t i;

	m.man_id = 0x31;
	m.ver_id = 0x01;
	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'u': uart_path = optarg; break;
		case 'l': inst = optarg; break;
		case 'f': files = optarg; break;
		case 'W': line_wait_s = strtoul(optarg, NULL, 0); break;
		case 'b': bt = optarg; break;
		case 'P': m.plain = true; break;
		case 'B': m.plain = m.bcm = true; break;
		case 'v': log_verbose = 1; break;
		case 'm':
		case 'V':
			if (parse_byte(optarg, c == 'm' ? &m.man_id : &m.ver_id)) {
				fprintf(stderr, "nokia-h4p: bad byte '%s'\n", optarg);
				return 2;
			}
			break;
		case 'F':
			for (i = 0; i < sizeof(fault_names) / sizeof(*fault_names); i++)
				if (!strcmp(optarg, fault_names[i]))
					break;
			if (i == sizeof(fault_names) / sizeof(*fault_names)) {
				fprintf(stderr, "nokia-h4p: unknown fault '%s'\n", optarg);
				return 2;
			}
			m.fault = i;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!uart_path || !inst || optind != argc) {
		usage(stderr);
		return 2;
	}
	log_init("nokia-h4p", inst);
	signal(SIGPIPE, SIG_IGN);	/* btvirt going away is handled */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	err = 0;
	if (!m.plain) {
		err = line_find(&m.reset, files, inst, "reset", false);
		err |= line_find(&m.host_wakeup, files, inst, "host-wakeup", false);
		err |= line_find(&m.bt_wakeup, files, inst, "bt-wakeup", false);
	}
	if (err < 0 || uart_open(&m.uart, uart_path))
		return 1;
	h4_rx_init(&m.host_rx, from_host, sizeof(from_host) / sizeof(*from_host),
		   !m.plain, on_host_frame, &m, "host");
	btvirt_init(&m.bt, bt, on_ctrl_frame, &m);
	if (m.plain) {
		msg("up: plain H4%s on uart %s, controller %s",
		    m.bcm ? " (Broadcom)" : "", uart_path, bt ? bt : "(none)");
		btvirt_connect(&m.bt);
		goto run;
	}

	/* Start from the line's real state; treat "reset" as the default. */
	m.in_reset = true;
	m.bt_wake = line_get(&m.bt_wakeup);
	line_pull(&m.host_wakeup, 0);
	msg("up: uart %s, man_id 0x%02x, ver_id 0x%02x, controller %s, fault %s",
	    uart_path, m.man_id, m.ver_id, bt ? bt : "(none)",
	    fault_names[m.fault]);
	sample_lines(&m);
	if (m.in_reset)
		msg("reset asserted");

run:
	while (!stop) {
		struct pollfd pfd[2];
		uint8_t buf[4096];
		long n;

		uart_pollfd(&m.uart, &pfd[0]);
		pfd[1].fd = m.bt.fd;
		pfd[1].events = POLLIN;
		pfd[1].revents = 0;
		poll(pfd, 2, POLL_MS);
		sample_lines(&m);

		if (pfd[1].revents)
			btvirt_read(&m.bt);
		n = uart_read(&m.uart, buf, sizeof(buf));
		if (n > 0) {
			/* The driver releases reset before it writes; bytes can
			 * beat our 5 ms poll, so look at the line again now. */
			sample_lines(&m);
			if (m.in_reset) {
				if (!m.dropped_in_reset)
					msg("in reset: ignoring UART bytes");
				m.dropped_in_reset += n;
				dbg_hex("ignored in reset", buf, n);
			} else {
				h4_rx_feed(&m.host_rx, buf, n);
			}
		}
		uart_flush(&m.uart);
	}
	msg("stopping");
	return 0;
}
