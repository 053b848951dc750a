// SPDX-License-Identifier: GPL-2.0
/*
 * hostctl - let a guest test script drive QEMU's monitor (QMP).
 *
 *   hostctl QMP_SOCKET CTL_SOCKET
 *
 * The guest writes one request per line to its virtio port "hostctl"
 * (/lib/ttyport/hostctl.sh wraps this); hostctl performs it through QMP and
 * answers "ok" or "error <text>" on one line.  Requests:
 *
 *   usb-add WIRE [PORT]
 *                    plug a usb-serial adapter (FTDI) whose line is WIRE's
 *                    far end: chardev-add + device_add usb-serial; with
 *                    PORT (1..4), into that port of the xHCI's USB 2 root
 *                    hub (device_add's "port"; usb1-portPORT in the guest,
 *                    whose ACPI companion is RHUB.PRT<PORT+4>, FACTS.md),
 *                    else into the next free port.  The adapter's USB
 *                    serial number (iSerialNumber) is WIRE, so the guest
 *                    finds a wire's ttyUSBn whatever the plug order
 *                    (world_tty_of, guest-init/lib/ttyport/world.sh)
 *   usb-del WIRE     unplug it: device_del, wait for DEVICE_DELETED,
 *                    chardev-remove
 *   qmp JSON         send a raw QMP command, answer with its reply
 *   wake-on-suspend [SECONDS]
 *                    answer "ok", then wait up to SECONDS (default 60)
 *                    for QEMU's SUSPEND event, which comes when the guest
 *                    has entered S3, and wake it with system_wakeup a
 *                    second later.  The guest asks, then writes "mem" to
 *                    /sys/power/state: a wake sent on a timer could come
 *                    before the guest is asleep, and be lost.
 *   wake-report      what became of the last wake-on-suspend, asked by the
 *                    guest after it resumed: "ok" only if QEMU reported
 *                    SUSPEND, system_wakeup was accepted and QEMU reported
 *                    WAKEUP; else "error" and what was missing.  The "ok"
 *                    of wake-on-suspend comes before the guest suspends,
 *                    so it proves nothing about S3.
 *
 * Doing hotplug on the guest's request keeps each test one self-contained
 * script: the guest knows when it is ready for the next step, the host does not.
 *
 * The adapter's chardev does not connect to the far end's socket itself:
 * hostctl relays the bytes between the two (relay_*), so that it can hold
 * back the far end's bytes around device_del.  QEMU 7.2 (Debian 12) crashes
 * in usb_wakeup() (NULL bus) when bytes reach a usb-serial chardev in the
 * main-loop round that unplugs the device: the socket chardev decides in the
 * round's prepare phase that the device has room (usb_serial_can_read), and
 * reads in its dispatch phase, after device_del has taken the device off
 * its bus.  Seen about once in 60 unplugs with a GPS model sending NMEA
 * (usb-serial-tests/usb-stress.sh); a chip that keeps talking through an
 * unplug is what the USB tests are about, so the relay pauses the far end
 * and lets QEMU take what is in flight before it asks for device_del.
 */
#define _GNU_SOURCE	/* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#ifndef SIOCOUTQ
#include <linux/sockios.h>
#endif

struct conn {
	int fd;
	char buf[65536];
	size_t len;
};

static struct conn qmp, ctl;
static const char *sockdir;

static void logf_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* QEMU creates its server sockets as it starts: retry for a while. */
static int connect_unix(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int i, fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	for (i = 0; i < 300; i++) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return fd;
		close(fd);
		usleep(100 * 1000);
	}
	return -1;
}

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * The relays of the plugged wires: QEMU's usb-serial chardev (qfd, a client
 * of the relay's listening socket) <-> the far end's socket (ffd, hostctl a
 * client of it).  Each direction has a buffer; a side is read only when the
 * buffer towards the other is empty, so a slow side holds the other back
 * (as the sockets themselves would).  paused: the far end is not read.
 */
struct relay {
	int used;
	char wire[17];
	char path[108];
	int lfd, qfd, ffd;
	int paused;
	char f2q[4096], q2f[4096];
	size_t f2q_len, q2f_len;
};

#define MAX_WIRES 4
static struct relay relays[MAX_WIRES];

static struct relay *relay_of(const char *wire)
{
	int i;

	for (i = 0; i < MAX_WIRES; i++)
		if (relays[i].used && !strcmp(relays[i].wire, wire))
			return &relays[i];
	return NULL;
}

static int relay_live(struct relay *r)
{
	return r->used && r->qfd >= 0 && r->ffd >= 0;
}

static void relay_close(struct relay *r)
{
	if (r->qfd >= 0)
		close(r->qfd);
	if (r->ffd >= 0)
		close(r->ffd);
	if (r->lfd >= 0)
		close(r->lfd);
	unlink(r->path);
	memset(r, 0, sizeof(*r));
}

/* Add the relays' descriptors to p (from index n); returns the new count. */
static int relay_pollfds(struct pollfd *p, int n)
{
	int i;

	for (i = 0; i < MAX_WIRES; i++) {
		struct relay *r = &relays[i];

		if (!relay_live(r))
			continue;
		p[n].fd = r->qfd;
		p[n++].events = (r->q2f_len ? 0 : POLLIN) | (r->f2q_len ? POLLOUT : 0);
		p[n].fd = r->ffd;
		p[n++].events = (r->f2q_len || r->paused ? 0 : POLLIN) |
				(r->q2f_len ? POLLOUT : 0);
	}
	return n;
}

/* Move bytes: from fd into buf when it is empty, from buf to the other. */
static int relay_move(int from, char *buf, size_t *len, size_t cap, int to,
		      short rev_from, short rev_to)
{
	ssize_t k;

	if (!*len && (rev_from & (POLLIN | POLLHUP | POLLERR))) {
		k = read(from, buf, cap);
		if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR))
			return -1;
		if (k > 0)
			*len = k;
	}
	if (*len && (rev_to & POLLOUT || rev_from & POLLIN)) {
		k = write(to, buf, *len);
		if (k < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		if (k > 0) {
			memmove(buf, buf + k, *len - k);
			*len -= k;
		}
	}
	return 0;
}

/* Serve the relays whose descriptors p[from..n) reported events. */
static void relay_serve(struct pollfd *p, int from, int n)
{
	int i, j = from;

	for (i = 0; i < MAX_WIRES && j + 1 < n; i++) {
		struct relay *r = &relays[i];
		short q, f;

		if (!relay_live(r))
			continue;
		q = p[j].revents;
		f = p[j + 1].revents;
		j += 2;
		if (relay_move(r->qfd, r->q2f, &r->q2f_len, sizeof(r->q2f), r->ffd, q, f) ||
		    relay_move(r->ffd, r->f2q, &r->f2q_len, sizeof(r->f2q), r->qfd, f, q)) {
			logf_("relay %s: a side closed", r->wire);
			close(r->qfd);
			close(r->ffd);
			r->qfd = r->ffd = -1;
		}
	}
}

/* Read one line (without the newline) into out; 0 on success, -1 on EOF.
 * The relays are served meanwhile. */
static int read_line(struct conn *c, char *out, size_t outsz, int timeout_ms)
{
	long end = now_ms() + timeout_ms;

	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		struct pollfd pfd[1 + 2 * MAX_WIRES] = { { .fd = c->fd, .events = POLLIN } };
		int np, left = -1;
		ssize_t n;

		if (nl) {
			size_t l = nl - c->buf;

			if (l >= outsz)
				l = outsz - 1;
			memcpy(out, c->buf, l);
			out[l] = '\0';
			c->len -= nl + 1 - c->buf;
			memmove(c->buf, nl + 1, c->len);
			return 0;
		}
		if (c->len == sizeof(c->buf))
			c->len = 0;	/* a line too long to matter: drop it */
		if (timeout_ms >= 0) {
			left = end - now_ms();
			if (left <= 0)
				return -1;
		}
		np = relay_pollfds(pfd, 1);
		if (poll(pfd, np, left) < 0 && errno != EINTR)
			return -1;
		relay_serve(pfd, 1, np);
		if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = read(c->fd, c->buf + c->len, sizeof(c->buf) - c->len);
		if (n <= 0)
			return -1;
		c->len += n;
	}
}

static int write_all(int fd, const char *s)
{
	size_t len = strlen(s);

	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		s += n;
		len -= n;
	}
	return 0;
}

/*
 * Send one QMP command and wait for its reply, skipping asynchronous events
 * (remembering whether wait_event arrived meanwhile).  reply gets the line.
 */
static int qmp_cmd(const char *json, char *reply, size_t sz,
		   const char *wait_event, int *seen_event)
{
	char line[65536];

	logf_("qmp> %s", json);
	if (write_all(qmp.fd, json) || write_all(qmp.fd, "\n"))
		return -1;
	for (;;) {
		if (read_line(&qmp, line, sizeof(line), 20000))
			return -1;
		logf_("qmp< %s", line);
		if (strstr(line, "\"event\"")) {
			if (wait_event && strstr(line, wait_event))
				*seen_event = 1;
			continue;
		}
		strncpy(reply, line, sz - 1);
		reply[sz - 1] = '\0';
		return strstr(line, "\"return\"") ? 0 : 1;
	}
}

static int qmp_wait_event(const char *event, int timeout_ms)
{
	char line[65536];
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		long left;

		clock_gettime(CLOCK_MONOTONIC, &t);
		left = timeout_ms - ((t.tv_sec - t0.tv_sec) * 1000 +
				     (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0 || read_line(&qmp, line, sizeof(line), left))
			return -1;
		logf_("qmp< %s", line);
		if (strstr(line, event))
			return 0;
	}
}

/* A wire name goes into QMP ids and socket paths: keep it to [a-z0-9]. */
static int valid_wire(const char *w)
{
	if (!*w || strlen(w) > 16)
		return 0;
	for (; *w; w++)
		if (!((*w >= 'a' && *w <= 'z') || (*w >= '0' && *w <= '9')))
			return 0;
	return 1;
}

static void answer(const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg) - 1, fmt, ap);
	va_end(ap);
	logf_("ctl> %s", msg);
	strcat(msg, "\n");
	write_all(ctl.fd, msg);
}

/* A root hub port number for device_add's "port": 1..4 (QEMU's qemu-xhci). */
static int valid_port(const char *p)
{
	return p[0] >= '1' && p[0] <= '4' && !p[1];
}

/* Serve the relays only, for up to ms milliseconds. */
static void relay_wait(int ms)
{
	long end = now_ms() + ms;
	struct pollfd pfd[2 * MAX_WIRES];
	int np, left;

	while ((left = end - now_ms()) > 0) {
		np = relay_pollfds(pfd, 0);
		if (poll(pfd, np, left) < 0 && errno != EINTR)
			return;
		relay_serve(pfd, 0, np);
	}
}

/* Bytes written to QEMU's side that QEMU has not read yet. */
static int relay_unread(struct relay *r)
{
	int q = 0;

	if (!relay_live(r) || ioctl(r->qfd, SIOCOUTQ, &q))
		return 0;
	return q + (int)r->f2q_len;
}

/*
 * A relay for wire: listen where QEMU's chardev will connect.  After
 * chardev-add, relay_connect takes QEMU's connection and connects to the far
 * end's socket (QEMU's far-<wire> chardev, a server).
 */
static struct relay *relay_listen(const char *wire)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct relay *r = NULL;
	int i;

	for (i = 0; i < MAX_WIRES && !r; i++)
		if (!relays[i].used)
			r = &relays[i];
	if (!r)
		return NULL;
	r->used = 1;
	r->lfd = r->qfd = r->ffd = -1;
	snprintf(r->wire, sizeof(r->wire), "%s", wire);
	if (snprintf(r->path, sizeof(r->path), "%s/relay-%s", sockdir, wire) >=
	    (int)sizeof(sa.sun_path)) {
		relay_close(r);
		return NULL;
	}
	strcpy(sa.sun_path, r->path);
	unlink(r->path);
	r->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (r->lfd < 0 || bind(r->lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(r->lfd, 1)) {
		relay_close(r);
		return NULL;
	}
	return r;
}

static int relay_connect(struct relay *r)
{
	struct pollfd pfd = { .fd = r->lfd, .events = POLLIN };
	char far[4096];

	if (poll(&pfd, 1, 5000) <= 0)
		return -1;
	r->qfd = accept4(r->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	snprintf(far, sizeof(far), "%s/%s", sockdir, r->wire);
	r->ffd = connect_unix(far);
	if (r->qfd < 0 || r->ffd < 0)
		return -1;
	return fcntl(r->ffd, F_SETFL, fcntl(r->ffd, F_GETFL) | O_NONBLOCK);
}

static void usb_add(const char *wire, const char *port)
{
	char cmd[1024], reply[4096], portarg[32] = "";
	struct relay *r;

	if (relay_of(wire))
		return answer("error %s is plugged already", wire);
	r = relay_listen(wire);
	if (!r)
		return answer("error no relay socket for %s", wire);
	snprintf(cmd, sizeof(cmd),
		 "{\"execute\":\"chardev-add\",\"arguments\":{\"id\":\"wire-%s\","
		 "\"backend\":{\"type\":\"socket\",\"data\":{\"server\":false,"
		 "\"addr\":{\"type\":\"unix\",\"data\":{\"path\":\"%s\"}}}}}}",
		 wire, r->path);
	if (qmp_cmd(cmd, reply, sizeof(reply), NULL, NULL)) {
		relay_close(r);
		return answer("error chardev-add: %s", reply);
	}
	if (relay_connect(r)) {
		relay_close(r);
		return answer("error relay for %s: %s", wire, strerror(errno));
	}
	if (port)
		snprintf(portarg, sizeof(portarg), ",\"port\":\"%s\"", port);
	snprintf(cmd, sizeof(cmd),
		 "{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"usb-serial\","
		 "\"id\":\"usb-%s\",\"chardev\":\"wire-%s\",\"serial\":\"%s\","
		 "\"bus\":\"xhci.0\"%s}}",
		 wire, wire, wire, portarg);
	if (qmp_cmd(cmd, reply, sizeof(reply), NULL, NULL)) {
		answer("error device_add: %s", reply);
		snprintf(cmd, sizeof(cmd), "{\"execute\":\"chardev-remove\","
			 "\"arguments\":{\"id\":\"wire-%s\"}}", wire);
		qmp_cmd(cmd, reply, sizeof(reply), NULL, NULL);
		relay_close(r);
		return;
	}
	answer("ok");
}

static void usb_del(const char *wire)
{
	char cmd[1024], reply[4096], ev[64];
	struct relay *r = relay_of(wire);
	int seen = 0, i;

	/*
	 * Hold the far end's bytes back and let QEMU take what is in flight
	 * (up to 0.5 s: bytes QEMU leaves unread mean that the adapter's
	 * buffer is full, so QEMU reads nothing in the unplug's round either).
	 */
	if (r) {
		r->paused = 1;
		for (i = 0; i < 50 && relay_unread(r); i++)
			relay_wait(10);
		if (relay_unread(r))
			logf_("relay %s: %d bytes unread at device_del", wire, relay_unread(r));
		relay_wait(20);
	}
	snprintf(ev, sizeof(ev), "\"usb-%s\"", wire);
	snprintf(cmd, sizeof(cmd),
		 "{\"execute\":\"device_del\",\"arguments\":{\"id\":\"usb-%s\"}}",
		 wire);
	if (qmp_cmd(cmd, reply, sizeof(reply), ev, &seen))
		return answer("error device_del: %s", reply);
	/* USB devices go at once, but the event may still be on its way. */
	if (!seen && qmp_wait_event(ev, 10000))
		return answer("error no DEVICE_DELETED for usb-%s", wire);
	snprintf(cmd, sizeof(cmd),
		 "{\"execute\":\"chardev-remove\",\"arguments\":{\"id\":\"wire-%s\"}}",
		 wire);
	if (qmp_cmd(cmd, reply, sizeof(reply), NULL, NULL))
		return answer("error chardev-remove: %s", reply);
	if (r)
		relay_close(r);
	answer("ok");
}

/* What became of the last wake-on-suspend, for wake-report. */
static char wake_result[4200] = "error no wake-on-suspend was asked for";

static void wake_set(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(wake_result, sizeof(wake_result), fmt, ap);
	va_end(ap);
	logf_("wake-on-suspend: %s", wake_result);
}

/* wake-on-suspend: see the top of the file */
static void wake_on_suspend(const char *arg)
{
	char reply[4096];
	int secs = arg ? atoi(arg) : 60, woke = 0;
	long t0, asleep;

	if (secs <= 0 || secs > 600)
		return answer("error bad seconds '%s' (1..600)", arg);
	answer("ok");
	t0 = now_ms();
	if (qmp_wait_event("\"SUSPEND\"", secs * 1000))
		return wake_set("error no SUSPEND event from QEMU within %d s", secs);
	asleep = now_ms() - t0;
	sleep(1);
	if (qmp_cmd("{\"execute\":\"system_wakeup\"}", reply, sizeof(reply),
		    "\"WAKEUP\"", &woke))
		return wake_set("error QEMU reported SUSPEND, system_wakeup failed: %s", reply);
	if (!woke && qmp_wait_event("\"WAKEUP\"", 10000))
		return wake_set("error QEMU reported SUSPEND, system_wakeup was sent, no WAKEUP event");
	wake_set("ok QEMU reported SUSPEND %ld ms after the request; system_wakeup sent, WAKEUP reported",
		 asleep);
}

/* wake-report: the outcome, once (the next S3 must earn its own) */
static void wake_report(void)
{
	answer("%s", wake_result);
	snprintf(wake_result, sizeof(wake_result),
		 "error no wake-on-suspend since the last wake-report");
}

static void handle(char *req)
{
	char reply[4096];
	char *arg = strchr(req, ' ');

	if (arg)
		*arg++ = '\0';
	logf_("ctl< %s %s", req, arg ? arg : "");
	if (!strcmp(req, "usb-add") || !strcmp(req, "usb-del")) {
		char *port = arg ? strchr(arg, ' ') : NULL;

		if (port)
			*port++ = '\0';
		if (!arg || !valid_wire(arg))
			return answer("error bad wire name");
		if (req[4] == 'd' && port)
			return answer("error usb-del takes a wire only");
		if (port && !valid_port(port))
			return answer("error bad port '%s' (1..4)", port);
		return req[4] == 'a' ? usb_add(arg, port) : usb_del(arg);
	}
	if (!strcmp(req, "wake-on-suspend"))
		return wake_on_suspend(arg);
	if (!strcmp(req, "wake-report"))
		return wake_report();
	if (!strcmp(req, "qmp") && arg) {
		int rc = qmp_cmd(arg, reply, sizeof(reply), NULL, NULL);

		return answer("%s %s", rc ? "error" : "ok", reply);
	}
	answer("error unknown request '%s'", req);
}

int main(int argc, char **argv)
{
	char line[65536], reply[4096], *slash;
	static char dir[4096];

	if (argc != 3) {
		fprintf(stderr, "usage: hostctl QMP_SOCKET CTL_SOCKET\n");
		return 2;
	}
	/* A relay's side that closed is seen as a write error, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	sockdir = dir;

	qmp.fd = connect_unix(argv[1]);
	if (qmp.fd < 0 || read_line(&qmp, line, sizeof(line), 20000)) {
		logf_("hostctl: no QMP at %s", argv[1]);
		return 1;
	}
	if (qmp_cmd("{\"execute\":\"qmp_capabilities\"}", reply, sizeof(reply),
		    NULL, NULL)) {
		logf_("hostctl: QMP refused capabilities: %s", reply);
		return 1;
	}
	ctl.fd = connect_unix(argv[2]);
	if (ctl.fd < 0) {
		logf_("hostctl: no control socket at %s", argv[2]);
		return 1;
	}
	/* Until QEMU exits: the guest closes and reopens its port as it likes. */
	while (read_line(&ctl, line, sizeof(line), -1) == 0)
		if (line[0])
			handle(line);
	return 0;
}
