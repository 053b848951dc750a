#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "log.h"
#include "mtime.h"
#include "uart.h"

#define EOF_BACKOFF_MS 50

int uart_open(struct uart *u, const char *path)
{
	struct termios t;

	u->path = path;
	u->out_len = 0;
	u->retry_at = 0;
	u->fd = open(path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (u->fd < 0) {
		msg("cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	/* Only for ptys (host tests) or a real tty: make it a transparent
	 * 8-bit pipe like the virtio port. A virtio port has no termios. */
	if (tcgetattr(u->fd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(u->fd, TCSANOW, &t);
	}
	return 0;
}

void uart_pollfd(struct uart *u, struct pollfd *pfd)
{
	pfd->fd = now_ms() < u->retry_at ? -1 : u->fd;
	pfd->events = POLLIN | (u->out_len ? POLLOUT : 0);
	pfd->revents = 0;
}

long uart_read(struct uart *u, void *buf, size_t n)
{
	ssize_t r;

	if (now_ms() < u->retry_at)
		return 0;
	r = read(u->fd, buf, n);
	if (r > 0)
		return r;
	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	/* EOF: far side not connected (yet). EIO: pty peer closed. */
	if (r == 0 || errno == EIO) {
		u->retry_at = now_ms() + EOF_BACKOFF_MS;
		return 0;
	}
	msg("read %s: %s", u->path, strerror(errno));
	u->retry_at = now_ms() + EOF_BACKOFF_MS;
	return 0;
}

int uart_queue(struct uart *u, const void *buf, size_t n)
{
	if (n > UART_OUT_MAX - u->out_len) {
		msg("output queue full (%zu bytes pending): dropping %zu bytes",
		    u->out_len, n);
		return -1;
	}
	memcpy(u->out + u->out_len, buf, n);
	u->out_len += n;
	uart_flush(u);
	return 0;
}

void uart_flush(struct uart *u)
{
	while (u->out_len) {
		ssize_t w = write(u->fd, u->out, u->out_len);

		if (w <= 0) {
			if (w < 0 && errno != EAGAIN && errno != EINTR)
				dbg("write %s: %s (kept queued)", u->path,
				    strerror(errno));
			return;
		}
		memmove(u->out, u->out + w, u->out_len - w);
		u->out_len -= w;
	}
}

void uart_discard(struct uart *u)
{
	u->out_len = 0;
}
