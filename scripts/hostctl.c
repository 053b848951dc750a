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
 *   usb-add WIRE     plug a usb-serial adapter (FTDI) whose line is WIRE's
 *                    far end: chardev-add + device_add usb-serial
 *   usb-del WIRE     unplug it: device_del, wait for DEVICE_DELETED,
 *                    chardev-remove
 *   qmp JSON         send a raw QMP command, answer with its reply
 *
 * Doing hotplug on the guest's request keeps each test one self-contained
 * script: the guest knows when it is ready for the next step, the host does not.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

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

/* Read one line (without the newline) into out; 0 on success, -1 on EOF. */
static int read_line(struct conn *c, char *out, size_t outsz, int timeout_ms)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
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
		if (poll(&pfd, 1, timeout_ms) <= 0)
			return -1;
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

static void usb_add(const char *wire)
{
	char cmd[1024], reply[4096];

	snprintf(cmd, sizeof(cmd),
		 "{\"execute\":\"chardev-add\",\"arguments\":{\"id\":\"wire-%s\","
		 "\"backend\":{\"type\":\"socket\",\"data\":{\"server\":false,"
		 "\"addr\":{\"type\":\"unix\",\"data\":{\"path\":\"%s/%s\"}}}}}}",
		 wire, sockdir, wire);
	if (qmp_cmd(cmd, reply, sizeof(reply), NULL, NULL))
		return answer("error chardev-add: %s", reply);
	snprintf(cmd, sizeof(cmd),
		 "{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"usb-serial\","
		 "\"id\":\"usb-%s\",\"chardev\":\"wire-%s\",\"bus\":\"xhci.0\"}}",
		 wire, wire);
	if (qmp_cmd(cmd, reply, sizeof(reply), NULL, NULL))
		return answer("error device_add: %s", reply);
	answer("ok");
}

static void usb_del(const char *wire)
{
	char cmd[1024], reply[4096], ev[64];
	int seen = 0;

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
	answer("ok");
}

static void handle(char *req)
{
	char reply[4096];
	char *arg = strchr(req, ' ');

	if (arg)
		*arg++ = '\0';
	logf_("ctl< %s %s", req, arg ? arg : "");
	if (!strcmp(req, "usb-add") || !strcmp(req, "usb-del")) {
		if (!arg || !valid_wire(arg))
			return answer("error bad wire name");
		return req[4] == 'a' ? usb_add(arg) : usb_del(arg);
	}
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
