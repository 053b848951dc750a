// SPDX-License-Identifier: GPL-2.0
/*
 * ffs-multiport: the device side of a USB-serial adapter with several ports
 * behind one interface (NovAtel's FlexPack GPS has three; mos7840 has four),
 * as a FunctionFS function of a USB gadget (docs/gadget.md).
 *
 *   ffs-multiport DIR NPORTS LINK
 *
 * DIR is a mounted functionfs instance.  The function is one vendor-specific
 * interface with NPORTS bulk IN/OUT pairs, in port order, so that the host's
 * usb-serial driver (usb_serial_simple for 09d7:0100) gives port N the N-th
 * pair.  Each port's far end is a pseudo-terminal: LINK (port 0), LINK.1,
 * LINK.2, ... link to its slave, where a chip model attaches as it does to
 * a wire's /dev/far-<wire>.  Bytes the host writes to port N come out of
 * its pty, and what is written to the pty goes to the host when it reads.
 *
 * Prints "ready" on stdout once the descriptors are written (the gadget can
 * then be bound to a UDC), and runs until killed.  While the gadget is not
 * plugged, the endpoints wait (f_fs holds endpoint I/O until the function
 * is enabled again): what a pty's writer sent meanwhile reaches the host
 * after the next plug, as from a device that kept running.  A transfer that
 * an unplug fails loses its bytes.  The program holds each pty's slave open
 * and never reads it, so what the host sends while no model is attached
 * waits for the next one (and, once the pty's buffer is full, stalls the
 * host's writes to that port).
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define MAX_PORTS	4
#define BUF_SIZE	512

struct port {
	int index;
	int ep_in;	/* to the host */
	int ep_out;	/* from the host */
	int master;	/* the pty's master; its slave is the far end */
};

static struct port ports[MAX_PORTS];

/* The descriptors: a full-speed and a high-speed set, one interface each */
struct ep_pair {
	struct usb_endpoint_descriptor_no_audio in, out;
} __attribute__((packed));

struct speed_set {
	struct usb_interface_descriptor intf;
	struct ep_pair eps[MAX_PORTS];
} __attribute__((packed));

static void fill_set(struct speed_set *s, int nports, int maxpacket)
{
	int i;

	s->intf = (struct usb_interface_descriptor) {
		.bLength = sizeof(s->intf),
		.bDescriptorType = USB_DT_INTERFACE,
		.bNumEndpoints = 2 * nports,
		.bInterfaceClass = USB_CLASS_VENDOR_SPEC,
		.iInterface = 1,
	};
	for (i = 0; i < nports; i++) {
		s->eps[i].in = (struct usb_endpoint_descriptor_no_audio) {
			.bLength = USB_DT_ENDPOINT_SIZE,
			.bDescriptorType = USB_DT_ENDPOINT,
			.bEndpointAddress = USB_DIR_IN | (2 * i + 1),
			.bmAttributes = USB_ENDPOINT_XFER_BULK,
			.wMaxPacketSize = htole16(maxpacket),
		};
		s->eps[i].out = s->eps[i].in;
		s->eps[i].out.bEndpointAddress = USB_DIR_OUT | (2 * i + 2);
	}
}

static int write_descriptors(int ep0, int nports)
{
	/* Only NPORTS pairs of each set are sent, not MAX_PORTS */
	size_t set_len = sizeof(struct usb_interface_descriptor) +
			 nports * sizeof(struct ep_pair);
	struct usb_functionfs_descs_head_v2 head;
	struct speed_set fs, hs;
	__le32 count = htole32(1 + 2 * nports);
	char buf[sizeof(head) + 2 * sizeof(count) + 2 * sizeof(fs)], *b = buf;
	struct {
		struct usb_functionfs_strings_head head;
		__le16 lang;
		char str[sizeof("ttyport-bus multiport")];
	} __attribute__((packed)) s;

	fill_set(&fs, nports, 64);
	fill_set(&hs, nports, 512);
	head.magic = htole32(FUNCTIONFS_DESCRIPTORS_MAGIC_V2);
	head.flags = htole32(FUNCTIONFS_HAS_FS_DESC | FUNCTIONFS_HAS_HS_DESC);
	head.length = htole32(sizeof(head) + 2 * sizeof(count) + 2 * set_len);
	b = mempcpy(b, &head, sizeof(head));
	b = mempcpy(b, &count, sizeof(count));	/* full speed */
	b = mempcpy(b, &count, sizeof(count));	/* high speed */
	b = mempcpy(b, &fs, set_len);
	b = mempcpy(b, &hs, set_len);
	if (write(ep0, buf, b - buf) != b - buf) {
		perror("ffs-multiport: descriptors");
		return -1;
	}

	s.head.magic = htole32(FUNCTIONFS_STRINGS_MAGIC);
	s.head.length = htole32(sizeof(s));
	s.head.str_count = htole32(1);
	s.head.lang_count = htole32(1);
	s.lang = htole16(0x0409);
	memcpy(s.str, "ttyport-bus multiport", sizeof(s.str));
	if (write(ep0, &s, sizeof(s)) != sizeof(s)) {
		perror("ffs-multiport: strings");
		return -1;
	}
	return 0;
}

/* From the host to the pty.  A failed read is an unplug: wait for the next. */
static void *host_to_pty(void *arg)
{
	struct port *p = arg;
	char buf[BUF_SIZE];
	ssize_t n;

	for (;;) {
		n = read(p->ep_out, buf, sizeof(buf));
		if (n <= 0) {
			usleep(10000);
			continue;
		}
		if (write(p->master, buf, n) != n)
			fprintf(stderr, "ffs-multiport: port %d: pty write: %m\n", p->index);
	}
	return NULL;
}

/* From the pty to the host; what an unplugged host does not take is lost */
static void *pty_to_host(void *arg)
{
	struct port *p = arg;
	char buf[BUF_SIZE];
	ssize_t n;

	for (;;) {
		n = read(p->master, buf, sizeof(buf));
		if (n <= 0) {
			usleep(10000);
			continue;
		}
		if (write(p->ep_in, buf, n) != n)
			usleep(10000);
	}
	return NULL;
}

static int open_pty(struct port *p, const char *link)
{
	char path[256];
	struct termios t;
	const char *slave;

	p->master = posix_openpt(O_RDWR | O_NOCTTY);
	if (p->master < 0 || grantpt(p->master) || unlockpt(p->master))
		return -1;
	slave = ptsname(p->master);
	/*
	 * Hold the slave open, raw: a master whose slave nobody holds reads
	 * EIO, and a model that comes and goes must find the same line.
	 */
	if (!slave || open(slave, O_RDWR | O_NOCTTY) < 0 ||
	    tcgetattr(p->master, &t))
		return -1;
	cfmakeraw(&t);
	if (tcsetattr(p->master, TCSANOW, &t))
		return -1;
	if (p->index)
		snprintf(path, sizeof(path), "%s.%d", link, p->index);
	else
		snprintf(path, sizeof(path), "%s", link);
	unlink(path);
	return symlink(slave, path);
}

static int open_ep(const char *dir, int n)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/ep%d", dir, n);
	return open(path, O_RDWR);
}

int main(int argc, char **argv)
{
	struct usb_functionfs_event ev;
	char path[256];
	pthread_t th;
	int ep0, nports, i;

	if (argc != 4 || atoi(argv[2]) < 1 || atoi(argv[2]) > MAX_PORTS) {
		fprintf(stderr, "usage: ffs-multiport DIR NPORTS(1-%d) LINK\n", MAX_PORTS);
		return 2;
	}
	nports = atoi(argv[2]);
	snprintf(path, sizeof(path), "%s/ep0", argv[1]);
	ep0 = open(path, O_RDWR);
	if (ep0 < 0 || write_descriptors(ep0, nports)) {
		fprintf(stderr, "ffs-multiport: %s: %m\n", path);
		return 1;
	}
	for (i = 0; i < nports; i++) {
		struct port *p = &ports[i];

		p->index = i;
		p->ep_in = open_ep(argv[1], 2 * i + 1);
		p->ep_out = open_ep(argv[1], 2 * i + 2);
		if (p->ep_in < 0 || p->ep_out < 0 || open_pty(p, argv[3])) {
			fprintf(stderr, "ffs-multiport: port %d: %m\n", i);
			return 1;
		}
		if (pthread_create(&th, NULL, host_to_pty, p) ||
		    pthread_detach(th) ||
		    pthread_create(&th, NULL, pty_to_host, p) ||
		    pthread_detach(th)) {
			fprintf(stderr, "ffs-multiport: port %d: no thread\n", i);
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);

	/*
	 * ep0's events.  A control request to the interface is refused: for
	 * one that wants data from us a read stalls it, for one that brings
	 * data a write does (functionfs.h); both then fail with EL2HLT.
	 */
	for (;;) {
		if (read(ep0, &ev, sizeof(ev)) != sizeof(ev)) {
			usleep(10000);
			continue;
		}
		if (ev.type != FUNCTIONFS_SETUP)
			continue;
		if (ev.u.setup.bRequestType & USB_DIR_IN)
			(void)!read(ep0, NULL, 0);
		else
			(void)!write(ep0, NULL, 0);
	}
}
