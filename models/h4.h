/*
 * H4 frame reassembly by header length, the way the kernel's h4_recv_buf()
 * (drivers/bluetooth/hci_h4.c) does it: a type byte, a fixed header, and a
 * 1- or 2-byte length field at a fixed offset in that header.
 *
 * Used for both directions of the Nokia model: bytes from the host arrive in
 * arbitrary pieces through the virtio port, and btvirt may hand over partial
 * packets, but every consumer wants whole frames (btvirt 5.66 needs each H4
 * packet in ONE write(), see FACTS.md).
 *
 * With "word_aligned" set (Nokia H4+), one pad byte follows every frame whose
 * total length including the type byte is odd, and is skipped here.
 */
#ifndef MODELS_H4_H
#define MODELS_H4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct h4_type {
	uint8_t type;
	uint8_t hlen;		/* header bytes after the type byte */
	uint8_t loff;		/* offset of the length field in the header */
	uint8_t lsize;		/* 1 or 2 (little endian) */
	uint16_t lmask;		/* ISO packs flags in the top bits; 0 = none */
	const char *name;
};

typedef void h4_frame_fn(void *ctx, const uint8_t *frame, size_t len);

struct h4_rx {
	const struct h4_type *types;
	size_t ntypes;
	bool word_aligned;
	h4_frame_fn *on_frame;	/* whole frame, type byte first */
	void *ctx;
	const char *what;	/* for log lines: "host", "btvirt" */

	const struct h4_type *cur;
	size_t len, need;
	bool skip_pad;
	unsigned long bad_bytes;
	uint8_t buf[1 + 4 + 65535];
};

void h4_rx_init(struct h4_rx *rx, const struct h4_type *types, size_t ntypes,
		bool word_aligned, h4_frame_fn *fn, void *ctx, const char *what);
/* Forget a partial frame and any pending pad byte (chip reset). */
void h4_rx_reset(struct h4_rx *rx);
void h4_rx_feed(struct h4_rx *rx, const uint8_t *p, size_t n);

#endif
