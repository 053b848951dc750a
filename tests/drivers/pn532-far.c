// SPDX-License-Identifier: GPL-2.0
/*
 * make check-drivers: the far end of an NXP PN532 NFC controller on a UART
 * (drivers/nfc/pn533/uart.c), as trivial as the driver allows.  With
 * nothing on the wire pn532_uart's probe never ends (it resends its first
 * command every 25 ms, for ever), so the driver can only be booted with an
 * answer.
 *
 *   pn532-far SOCKET
 *
 * Listens on the unix stream socket SOCKET, where QEMU's chardev of the PCI
 * 16550 connects (tests/drivers/run.sh).  Every normal information frame
 * from the host,
 *
 *   00 00 ff LEN LCS d4 CMD data... DCS 00     (LEN counts d4..data,
 *                                               LCS = -LEN, DCS = -sum)
 *
 * gets an ACK frame (00 00 ff 00 ff 00) and then the answer d5 CMD+1 data:
 * GetFirmwareVersion (02) answers IC 0x32 (a PN532), version 1.6, support
 * 7; every other command (SAMConfiguration, RFConfiguration, ...) answers
 * with no data, which is success for them.  Bytes before a frame's start
 * (the driver's 55 55 00 00 00 wake-up) and the host's own ACK frames are
 * skipped.  Each command and answer is printed on stdout, one line each, so
 * that the two kernels' conversations can be compared.  Ends when QEMU
 * closes the connection.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

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

/* A normal information frame around body[0..len), in out; its length. */
static size_t frame(const unsigned char *body, size_t len, unsigned char *out)
{
	unsigned char sum = 0;
	size_t i, n = 0;

	out[n++] = 0x00;
	out[n++] = 0x00;
	out[n++] = 0xff;
	out[n++] = (unsigned char)len;
	out[n++] = (unsigned char)(0x100 - len);
	for (i = 0; i < len; i++) {
		out[n++] = body[i];
		sum += body[i];
	}
	out[n++] = (unsigned char)(0x100 - sum);
	out[n++] = 0x00;
	return n;
}

int main(int argc, char **argv)
{
	static const unsigned char ack[] = { 0x00, 0x00, 0xff, 0x00, 0xff, 0x00 };
	static const unsigned char fw[] = { 0x32, 0x01, 0x06, 0x07 };
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	unsigned char b, prev[2] = { 0xaa, 0xaa }, hdr[2], body[260], resp[16], out[32];
	int ls, fd;

	if (argc != 2 || strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "usage: pn532-far SOCKET\n");
		return 2;
	}
	strcpy(sa.sun_path, argv[1]);
	unlink(argv[1]);
	ls = socket(AF_UNIX, SOCK_STREAM, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 1)) {
		perror("pn532-far: socket");
		return 1;
	}
	printf("listening\n");
	fflush(stdout);
	fd = accept(ls, NULL, NULL);
	if (fd < 0) {
		perror("pn532-far: accept");
		return 1;
	}
	close(ls);

	for (;;) {
		size_t len, n, rn;
		unsigned char sum = 0;

		/* The start of a frame: 00 00 ff. */
		if (read_all(fd, &b, 1))
			break;
		if (!(prev[0] == 0x00 && prev[1] == 0x00 && b == 0xff)) {
			prev[0] = prev[1];
			prev[1] = b;
			continue;
		}
		prev[0] = prev[1] = 0xaa;
		if (read_all(fd, hdr, 2))
			break;
		len = hdr[0];
		/* The host's ACK (00 ff) or NACK (ff 00) frame: the postamble. */
		if ((hdr[0] == 0x00 && hdr[1] == 0xff) || (hdr[0] == 0xff && hdr[1] == 0x00)) {
			if (read_all(fd, &b, 1))
				break;
			continue;
		}
		if ((unsigned char)(hdr[0] + hdr[1]) != 0 || len == 0) {
			show("bad length", hdr, 2);
			continue;
		}
		/* body, DCS, postamble */
		if (read_all(fd, body, len + 2))
			break;
		for (n = 0; n <= len; n++)
			sum += body[n];
		show("cmd", body, len);
		if (sum != 0 || body[0] != 0xd4 || len < 2) {
			show("ignored", body, len + 2);
			continue;
		}
		rn = 0;
		resp[rn++] = 0xd5;
		resp[rn++] = (unsigned char)(body[1] + 1);
		if (body[1] == 0x02) {
			memcpy(resp + rn, fw, sizeof(fw));
			rn += sizeof(fw);
		}
		n = frame(resp, rn, out);
		show("ans", resp, rn);
		if (write_all(fd, ack, sizeof(ack)) || write_all(fd, out, n))
			break;
	}
	printf("closed\n");
	return 0;
}
