// SPDX-License-Identifier: GPL-2.0
/*
 * make check-drivers: the far end of a Dell AIO's UART backlight controller
 * (the DELL0501 device of drivers/platform/x86/dell/dell-uart-backlight.c),
 * as trivial as the driver allows, so that the driver binds and its
 * backlight device appears on both kernels.
 *
 *   dell-far SOCKET
 *
 * Listens on the unix stream socket SOCKET, where QEMU's chardev of the PCI
 * 16550 connects (tests/drivers/run.sh), and answers each command the
 * driver sends:
 *
 *   command  [len << 5 | 0x0a, cmd, data..., csum]     len 3 (get) or 4 (set)
 *   answer   [len, cmd, data..., csum]
 *   csum     the bytes before it summed, XOR 0xff
 *
 *   0x06 get version       "DLL1" (the driver only logs it)
 *   0x0b set brightness    kept; answer without data
 *   0x0c get brightness    the kept brightness (50 at start)
 *   0x0e set backlight power  answer without data
 *
 * Each command and answer is printed on stdout, one line each, so that the
 * two kernels' conversations can be compared.  Ends when QEMU closes the
 * connection.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static unsigned char csum(const unsigned char *buf, size_t len)
{
	unsigned char v = 0;

	while (len--)
		v += buf[len];
	return v ^ 0xff;
}

static void show(const char *what, const unsigned char *buf, size_t len)
{
	size_t i;

	printf("%s", what);
	for (i = 0; i < len; i++)
		printf(" %02x", buf[i]);
	printf("\n");
	fflush(stdout);
}

static int read_all(int fd, unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = read(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Answer one command; returns the answer's length, 0 for none. */
static size_t answer(const unsigned char *cmd, size_t len, unsigned char *out,
		     unsigned char *brightness)
{
	static const char version[] = "DLL1";
	size_t n = 0;

	if (csum(cmd, len - 1) != cmd[len - 1])
		return 0;		/* the real controller ignores it too */

	out[n++] = 0;			/* the length, below */
	out[n++] = cmd[1];
	switch (cmd[1]) {
	case 0x06:
		memcpy(out + n, version, sizeof(version) - 1);
		n += sizeof(version) - 1;
		break;
	case 0x0b:
		if (len == 4)
			*brightness = cmd[2];
		break;
	case 0x0c:
		out[n++] = *brightness;
		break;
	case 0x0e:
		break;
	default:
		return 0;
	}
	out[0] = (unsigned char)(n + 1);
	out[n] = csum(out, n);
	return n + 1;
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	unsigned char cmd[8], out[16], brightness = 50;
	int ls, fd;

	if (argc != 2 || strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "usage: dell-far SOCKET\n");
		return 2;
	}
	strcpy(sa.sun_path, argv[1]);
	unlink(argv[1]);
	ls = socket(AF_UNIX, SOCK_STREAM, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 1)) {
		perror("dell-far: socket");
		return 1;
	}
	printf("listening\n");
	fflush(stdout);
	fd = accept(ls, NULL, NULL);
	if (fd < 0) {
		perror("dell-far: accept");
		return 1;
	}
	close(ls);

	for (;;) {
		size_t len, n;

		if (read_all(fd, cmd, 1))
			break;
		/* Bytes that start no command (line noise) are skipped. */
		if ((cmd[0] & 0x1f) != 0x0a) {
			show("skip", cmd, 1);
			continue;
		}
		len = cmd[0] >> 5;
		if (len < 3 || len > sizeof(cmd)) {
			show("skip", cmd, 1);
			continue;
		}
		if (read_all(fd, cmd + 1, len - 1))
			break;
		show("cmd", cmd, len);
		n = answer(cmd, len, out, &brightness);
		if (!n)
			continue;
		show("ans", out, n);
		if (write_all(fd, out, n))
			break;
	}
	printf("closed\n");
	return 0;
}
