/*
 * Link to BlueZ's btvirt (bluez-test-tools) as the controller behind the
 * Nokia model's H4+ framing. `btvirt -s` listens on unix stream sockets such
 * as /tmp/bt-server-bredrle; every connection gets its own emulated
 * controller, so the model keeps ONE connection for its whole life (the
 * controller and its BD address stay the same across chip resets; the host
 * sends HCI Reset after every setup anyway).
 *
 * The socket speaks plain H4. btvirt 5.66 accepts only command (0x01) and
 * ACL (0x02) packets and loses its place if a packet arrives in pieces, so
 * each whole packet goes out in one write().
 */
#ifndef MODELS_BTVIRT_H
#define MODELS_BTVIRT_H

#include <stddef.h>
#include <stdint.h>

#include "h4.h"

struct btvirt {
	const char *path;	/* NULL: no controller behind the model */
	int fd;
	int64_t next_try;	/* monotonic ms: don't hammer a dead path */
	struct h4_rx rx;	/* events/ACL/SCO coming back */
};

void btvirt_init(struct btvirt *b, const char *path, h4_frame_fn *fn, void *ctx);
/* Connect if not connected; 0 when connected. */
int btvirt_connect(struct btvirt *b);
/* Send one whole H4 packet (type byte first); -1 if no controller. */
int btvirt_send(struct btvirt *b, const uint8_t *pkt, size_t len);
/* Read what is there and feed whole packets to the frame callback. */
void btvirt_read(struct btvirt *b);

#endif
