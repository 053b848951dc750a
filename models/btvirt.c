#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "btvirt.h"
#include "log.h"
#include "mtime.h"

#define RETRY_MS 1000

/* What btvirt sends toward the host. ISO (0x05) cannot be carried: the
 * driver's nokia_recv_pkts has no ISO entry, so it is parsed and dropped. */
static const struct h4_type from_ctrl[] = {
	{ 0x02, 4, 2, 2, 0,      "ACL" },
	{ 0x03, 3, 2, 1, 0,      "SCO" },
	{ 0x04, 2, 1, 1, 0,      "event" },
	{ 0x05, 4, 2, 2, 0x3fff, "ISO" },
};

void btvirt_init(struct btvirt *b, const char *path, h4_frame_fn *fn, void *ctx)
{
	b->path = path;
	b->fd = -1;
	b->next_try = 0;
	h4_rx_init(&b->rx, from_ctrl, sizeof(from_ctrl) / sizeof(from_ctrl[0]),
		   false, fn, ctx, "btvirt");
}

int btvirt_connect(struct btvirt *b)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (b->fd >= 0)
		return 0;
	if (!b->path || now_ms() < b->next_try)
		return -1;
	b->next_try = now_ms() + RETRY_MS;
	strncpy(sa.sun_path, b->path, sizeof(sa.sun_path) - 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		msg("cannot connect to btvirt at %s: %s (retrying when needed)",
		    b->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	b->fd = fd;
	h4_rx_reset(&b->rx);
	msg("connected to btvirt at %s (one emulated controller)", b->path);
	return 0;
}

static void drop(struct btvirt *b, const char *why)
{
	msg("btvirt connection lost: %s", why);
	close(b->fd);
	b->fd = -1;
}

int btvirt_send(struct btvirt *b, const uint8_t *pkt, size_t len)
{
	ssize_t w;

	if (btvirt_connect(b))
		return -1;
	/* Blocking socket: a small packet is written whole, in one piece. */
	do
		w = write(b->fd, pkt, len);
	while (w < 0 && errno == EINTR);
	if (w != (ssize_t)len) {
		drop(b, w < 0 ? strerror(errno) : "short write");
		return -1;
	}
	dbg_hex("to btvirt", pkt, len);
	return 0;
}

void btvirt_read(struct btvirt *b)
{
	uint8_t buf[4096];
	ssize_t r;

	if (b->fd < 0)
		return;
	r = read(b->fd, buf, sizeof(buf));
	if (r > 0)
		h4_rx_feed(&b->rx, buf, r);
	else if (r == 0)
		drop(b, "closed by btvirt");
	else if (errno != EINTR && errno != EAGAIN)
		drop(b, strerror(errno));
}
