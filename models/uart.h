/*
 * The model's end of the wire: in the guest a virtio-serial port
 * (/dev/far-<port>), in host tests one side of a pty.
 *
 * A virtio port is not a tty: no termios, no baud rate, bytes just flow.
 * While QEMU's side of the port is not connected, read() returns 0 and
 * poll() reports POLLHUP at once (drivers/char/virtio_console.c), so on EOF
 * (or EIO, a pty whose other side is closed) the port is left out of poll()
 * for 50 ms instead of spinning. Writes are non-blocking through an output
 * queue, so a stalled far side (the guest's 8250 not draining under TCG)
 * never blocks the polling of the sideband lines.
 */
#ifndef MODELS_UART_H
#define MODELS_UART_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#define UART_OUT_MAX (256 * 1024)

struct uart {
	int fd;
	const char *path;
	int64_t retry_at;	/* monotonic ms; left out of poll() until then */
	unsigned char out[UART_OUT_MAX];
	size_t out_len;
};

int uart_open(struct uart *u, const char *path);
/* Fill a pollfd for this port (fd -1 while backing off after EOF). */
void uart_pollfd(struct uart *u, struct pollfd *pfd);
/* > 0: bytes read; 0: nothing now (EAGAIN, or EOF and backing off). */
long uart_read(struct uart *u, void *buf, size_t n);
/* Append to the output queue; -1 (and a log line) if it is full. */
int uart_queue(struct uart *u, const void *buf, size_t n);
/* Write as much of the queue as the port takes now. */
void uart_flush(struct uart *u);
/* Drop queued output (chip reset or powered off: it stops talking). */
void uart_discard(struct uart *u);

#endif
