/*
 * Host tests of the nokia-h4p model: feed it the exact bytes hci_nokia.c
 * (6.12) sends and check the answers byte for byte, with the real btvirt
 * behind it for the HCI part. Usage: test-nokia-h4p BUILD_DIR
 *
 * btvirt 5.66 always creates its sockets in /tmp; it runs here in a private
 * mount namespace with a temporary directory bound over /tmp, so concurrent
 * runs (or a btvirt of the guest tooling) cannot collide. Needs root.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

static const char *build;
static char lines[300];

/* As hci_nokia sends them for a 38.4 MHz sysclk. */
static const uint8_t neg_req[] = { 0x06, 0x0a, 0x00, 0xa1, 0x01, 0x00, 0x00,
				   0x4c, 0x00, 0x96, 0x00, 0x00 };
static const uint8_t neg_ack[] = { 0x06, 0x0c, 0x20, 0xa1, 0x01, 0x00, 0x00,
				   0x4c, 0x00, 0x96, 0x00, 0x00, 0x31, 0x01 };
static const uint8_t alive_req[] = { 0x07, 0x02, 0x55, 0x00 };
static const uint8_t alive_resp[] = { 0x07, 0x02, 0xcc, 0x00 };

static void hex(const char *what, const uint8_t *p, long n)
{
	char s[400] = "";
	long i;

	for (i = 0; i < n && i < 64; i++)
		snprintf(s + 3 * i, sizeof(s) - 3 * i, " %02x", p[i]);
	t_diag("%s (%ld bytes):%s", what, n, s);
}

/* Exactly want[] within timeout, then nothing more for 100 ms. */
static bool expect(int m, const uint8_t *want, long n, int timeout_ms)
{
	uint8_t got[512];
	long r = t_read(m, got, n, timeout_ms);
	long extra = t_read(m, got + r, sizeof(got) - r, 100);

	if (r == n && !extra && !memcmp(got, want, n))
		return true;
	hex("expected", want, n);
	hex("got", got, r + extra);
	return false;
}

static bool silent_for(int m, int ms)
{
	uint8_t got[64];
	long r = t_read(m, got, sizeof(got), ms);

	if (r)
		hex("unexpected", got, r);
	return r == 0;
}

static char *name(const char *inst, const char *fn)
{
	static char s[64];

	snprintf(s, sizeof(s), "%s-%s", inst, fn);
	return s;
}

/* FAULT: a --fault mode or NULL; OPT: one more option (--bcm) or NULL. */
static pid_t start_model(const char *inst, const char *fault, const char *opt,
			 const char *btvirt, int *master)
{
	static char prog[400];
	char slave[128], log[400];
	const char *argv[16];
	int i = 0;

	*master = t_pty(slave, sizeof(slave));
	t_line(lines, name(inst, "reset"), "0");	/* held in reset */
	t_line(lines, name(inst, "bt-wakeup"), "1");
	t_line(lines, name(inst, "host-wakeup"), "0");
	snprintf(log, sizeof(log), "%s/nokia-%s.log", t_tmpdir(), inst);
	snprintf(prog, sizeof(prog), "%s/nokia-h4p", build);
	argv[i++] = prog;
	argv[i++] = "-v";
	argv[i++] = "--uart";
	argv[i++] = slave;
	argv[i++] = "--lines";
	argv[i++] = inst;
	argv[i++] = "--lines-file";
	argv[i++] = lines;
	if (fault) {
		argv[i++] = "--fault";
		argv[i++] = fault;
	}
	if (opt)
		argv[i++] = opt;
	if (btvirt) {
		argv[i++] = "--btvirt";
		argv[i++] = btvirt;
	}
	argv[i] = NULL;
	return t_spawn((char *const *)argv, strdup(log));
}

/* Parse the firmware file as nokia_setup_fw does; return record count of
 * HCI commands, -1 if malformed. Frames (with H4+ pad) go to frames[]. */
static int load_fw(uint8_t frames[][64], size_t *flen, int max)
{
	uint8_t fw[4096];
	char path[400];
	size_t size, off = 0;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/firmware/nokia/ti1273.bin", build);
	f = fopen(path, "rb");
	if (!f)
		return -1;
	size = fread(fw, 1, sizeof(fw), f);
	fclose(f);
	while (size - off >= 4) {
		unsigned int len = fw[off] | fw[off + 1] << 8;

		if (len > size - off - 2 || len < 4 || fw[off + 2] != 0x01 ||
		    fw[off + 5] != len - 4 || n == max || len + 1 > 64)
			return -1;
		memcpy(frames[n], fw + off + 2, len);	/* type + command */
		flen[n] = len;
		if (len % 2)
			frames[n][flen[n]++] = 0x00;	/* nokia_enqueue pad */
		n++;
		off += 2 + len;
	}
	return off == size ? n : -1;
}

static void fault_tests(void)
{
	static const uint8_t valid[] = { 0x02, 0x03, 0x04, 0x06, 0x07, 0x08 };
	static const uint8_t fc01[] = { 0x01, 0x01, 0xfc, 0x03, 'T', 'I', '1', 0x00 };
	static const uint8_t hci_reset[] = { 0x01, 0x03, 0x0c, 0x00 };
	static const uint8_t cc_unknown[] = { 0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c,
					      0x01, 0x00 };
	static const char *const faults[] = { "garbage", "bad-length", "nak",
					      "silent", "no-padding" };
	size_t i;

	for (i = 0; i < sizeof(faults) / sizeof(*faults); i++) {
		char inst[16];
		uint8_t got[64];
		long r;
		int m;
		pid_t pid;

		snprintf(inst, sizeof(inst), "f%zu", i);
		pid = start_model(inst, faults[i], NULL, NULL, &m);
		t_wait_pull(lines, name(inst, "host-wakeup"), "pull-down", 2000);
		t_set(lines, name(inst, "reset"), "1");
		t_write(m, neg_req, sizeof(neg_req));
		r = t_read(m, got, 14, 500);

		switch (i) {
		case 0:
			t_ok(r == 14 && !memchr(valid, got[0], sizeof(valid)),
			     "fault garbage: negotiation answered with bytes of no H4+ type");
			break;
		case 1:
			t_ok(r == 14 && got[0] == 0x06 && got[1] == 0x0b && got[13] == 0,
			     "fault bad-length: negotiation reply has dlen 11, not 12");
			break;
		case 2:
			t_ok(r == 14 && got[0] == 0x06 && got[1] == 0x0c && got[2] == 0x40,
			     "fault nak: negotiation reply carries NOKIA_NEG_NAK 0x40");
			/* Same instance: no --btvirt, so HCI commands fail
			 * visibly instead of timing out. */
			t_write(m, hci_reset, sizeof(hci_reset));
			t_ok(expect(m, cc_unknown, sizeof(cc_unknown), 1000),
			     "without --btvirt: HCI Reset -> Command Complete status 0x01");
			break;
		case 3:
			t_write(m, alive_req, sizeof(alive_req));
			r += t_read(m, got, sizeof(got), 300);
			t_ok(r == 0, "fault silent: no reply to negotiation or alive");
			break;
		case 4:
			if (r == 14 && !memcmp(got, neg_ack, 14)) {
				t_write(m, fc01, sizeof(fc01));
				r = t_read(m, got, 8, 500);
			}
			t_ok(r == 7 && got[0] == 0x04 && got[1] == 0x0e,
			     "fault no-padding: 7-byte Command Complete sent without its pad byte");
			break;
		}
		t_kill(pid);
		close(m);
	}
}

/*
 * --bcm: plain H4 (no padding, no lines), the two Broadcom vendor commands
 * btbcm_initialize() reads answered with parameters of the lengths it
 * checks, any other vendor command with status 0, the rest through btvirt.
 */
static void bcm_tests(const char *sock)
{
	static const uint8_t verbose[] = { 0x01, 0x79, 0xfc, 0x00 };
	static const uint8_t cc_verbose[] = { 0x04, 0x0e, 0x0a, 0x01, 0x79, 0xfc,
					      0x00, 0x3f, 0x09, 0x02, 0x00, 0x05, 0x00 };
	static const uint8_t features[] = { 0x01, 0x6e, 0xfc, 0x00 };
	static const uint8_t cc_features[] = { 0x04, 0x0e, 0x0c, 0x01, 0x6e, 0xfc,
					       0x00, 0x01, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t baud[] = { 0x01, 0x18, 0xfc, 0x06, 0x00, 0x00,
					0x00, 0xc2, 0x01, 0x00 };
	static const uint8_t cc_baud[] = { 0x04, 0x0e, 0x04, 0x01, 0x18, 0xfc, 0x00 };
	static const uint8_t hci_reset[] = { 0x01, 0x03, 0x0c, 0x00 };
	static const uint8_t cc_reset[] = { 0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00 };
	pid_t pid;
	int m;

	pid = start_model("bcm0", NULL, "--bcm", sock, &m);
	t_write(m, verbose, sizeof(verbose));
	t_ok(expect(m, cc_verbose, sizeof(cc_verbose), 2000),
	     "--bcm: Read Verbose Config 0xfc79 -> status 0 and 6 bytes (btbcm checks 7), unpadded");
	t_write(m, features, sizeof(features));
	t_ok(expect(m, cc_features, sizeof(cc_features), 1000),
	     "--bcm: Read Controller Features 0xfc6e -> status 0 and 8 bytes (btbcm checks 9)");
	t_write(m, baud, sizeof(baud));
	t_ok(expect(m, cc_baud, sizeof(cc_baud), 1000),
	     "--bcm: another vendor command (Update UART Baud Rate 0xfc18) -> status 0 only");
	t_write(m, hci_reset, sizeof(hci_reset));
	t_ok(expect(m, cc_reset, sizeof(cc_reset), 2000),
	     "--bcm: HCI Reset via btvirt -> Command Complete, 7 bytes, no pad");
	t_kill(pid);
	close(m);
}

int main(int argc, char **argv)
{
	static const uint8_t hci_reset[] = { 0x01, 0x03, 0x0c, 0x00 };
	static const uint8_t cc_reset[] = { 0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c,
					    0x00, 0x00 };
	static const uint8_t read_bdaddr[] = { 0x01, 0x09, 0x10, 0x00 };
	static const uint8_t odd_then_even[] = {
		0x01, 0x01, 0xfc, 0x03, 'T', 'I', '1', 0x00,	/* 7 + pad */
		0x01, 0x03, 0xfc, 0x00,				/* 4 */
	};
	static const uint8_t cc_two[] = {
		0x04, 0x0e, 0x04, 0x01, 0x01, 0xfc, 0x00, 0x00,
		0x04, 0x0e, 0x04, 0x01, 0x03, 0xfc, 0x00, 0x00,
	};
	uint8_t frames[8][64], got[64];
	size_t flen[8];
	char btdir[300], sock[400], cmd[700];
	int nfw, i, m, fd;
	bool ok;
	long r;

	if (argc != 2) {
		fprintf(stderr, "usage: %s BUILD_DIR\n", argv[0]);
		return 2;
	}
	build = argv[1];
	t_init(23, 60);
	snprintf(lines, sizeof(lines), "%s/lines", t_tmpdir());
	mkdir(lines, 0755);

	nfw = load_fw(frames, flen, 8);
	t_ok(nfw >= 2, "ti1273.bin parses like nokia_setup_fw (%d HCI command records)", nfw);

	/* btvirt with a private /tmp. */
	snprintf(btdir, sizeof(btdir), "%s/bt", t_tmpdir());
	mkdir(btdir, 0700);
	/* btvirt's BR/EDR+LE controller needs AF_ALG (cmac(aes)); a host
	 * kernel without it closes the connection at once. The BR/EDR-only
	 * controller uses no crypto and serves the same tests. */
	fd = socket(AF_ALG, SOCK_SEQPACKET, 0);
	snprintf(sock, sizeof(sock), "%s/bt-server-%s", btdir,
		 fd >= 0 ? "bredrle" : "bredr");
	if (fd >= 0)
		close(fd);
	snprintf(cmd, sizeof(cmd), "mount --bind '%s' /tmp && exec btvirt -s", btdir);
	{
		char log[400];
		char *const av[] = { "unshare", "-m", "--propagation", "private",
				     "sh", "-c", cmd, NULL };

		snprintf(log, sizeof(log), "%s/btvirt.log", t_tmpdir());
		if (t_have("btvirt") && t_have("unshare"))
			t_spawn(av, strdup(log));
	}
	if (!t_ok(t_wait_path(sock, 3000), "btvirt -s serves %s", sock))
		t_diag("needs btvirt (Debian bluez-test-tools) and root for unshare -m");

	start_model("bt0", NULL, NULL, sock, &m);

	t_ok(t_wait_pull(lines, "bt0-host-wakeup", "pull-down", 2000),
	     "host-wakeup low while reset is asserted");

	t_write(m, neg_req, sizeof(neg_req));
	t_ok(silent_for(m, 300), "no reply to negotiation while in reset (300 ms)");

	/* Like the driver: release reset and send at once. */
	t_set(lines, "bt0-reset", "1");
	t_write(m, neg_req, sizeof(neg_req));
	t_ok(expect(m, neg_ack, sizeof(neg_ack), 1000),
	     "negotiation 06 0A ... -> 06 0C 20 A1 01 00 00 4C 00 96 00 00 31 01");
	t_ok(t_pull_is(lines, "bt0-host-wakeup", "pull-up"),
	     "host-wakeup high after reset released");

	/* One byte at a time, as a 16550 may hand them over. */
	for (i = 0; i < (int)sizeof(alive_req); i++) {
		t_write(m, alive_req + i, 1);
		t_sleep_ms(20);
	}
	t_ok(expect(m, alive_resp, sizeof(alive_resp), 1000),
	     "alive 07 02 55 00 (sent byte by byte) -> 07 02 CC 00");

	ok = nfw > 0;
	for (i = 0; i < nfw && ok; i++) {
		uint8_t cc[8] = { 0x04, 0x0e, 0x04, 0x01, frames[i][1], frames[i][2],
				  0x00, 0x00 };

		t_write(m, frames[i], flen[i]);
		ok = expect(m, cc, sizeof(cc), 1000);
	}
	t_ok(ok, "every firmware command answered with Command Complete, status 0, padded to 8 bytes");

	t_write(m, odd_then_even, sizeof(odd_then_even));
	t_ok(expect(m, cc_two, sizeof(cc_two), 1000),
	     "host pad byte after an odd-length frame is skipped (two commands in one write)");

	t_write(m, hci_reset, sizeof(hci_reset));
	t_ok(expect(m, cc_reset, sizeof(cc_reset), 2000),
	     "HCI Reset via btvirt -> Command Complete 0x0c03 status 0, padded to 8 bytes");

	/* 04 0E 0A 01 09 10 00 <bdaddr 6> = 13 bytes + pad. */
	t_write(m, read_bdaddr, sizeof(read_bdaddr));
	r = t_read(m, got, 14, 2000);
	r += t_read(m, got + r, sizeof(got) - r, 100);
	ok = r == 14 && got[0] == 0x04 && got[1] == 0x0e && got[2] == 0x0a &&
	     got[4] == 0x09 && got[5] == 0x10 && got[6] == 0x00 &&
	     got[12] == 0x00 && got[11] == 0xaa && got[7] == 0x42 && got[13] == 0;
	if (!ok)
		hex("got", got, r);
	t_ok(ok, "Read BD_ADDR via btvirt -> 00:AA:01:%02X:00:42 in a frame padded to 14 bytes",
	     r == 14 ? got[9] : 0);

	t_set(lines, "bt0-reset", "0");
	t_ok(t_wait_pull(lines, "bt0-host-wakeup", "pull-down", 100),
	     "host-wakeup low within 100 ms of reset asserted again");
	t_write(m, alive_req, sizeof(alive_req));
	t_ok(silent_for(m, 300), "alive ignored while in reset");

	bcm_tests(sock);
	fault_tests();
	return t_done();
}
