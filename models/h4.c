#include <string.h>

#include "h4.h"
#include "log.h"

void h4_rx_init(struct h4_rx *rx, const struct h4_type *types, size_t ntypes,
		bool word_aligned, h4_frame_fn *fn, void *ctx, const char *what)
{
	rx->types = types;
	rx->ntypes = ntypes;
	rx->word_aligned = word_aligned;
	rx->on_frame = fn;
	rx->ctx = ctx;
	rx->what = what;
	h4_rx_reset(rx);
}

void h4_rx_reset(struct h4_rx *rx)
{
	rx->cur = NULL;
	rx->len = rx->need = 0;
	rx->skip_pad = false;
}

static const struct h4_type *lookup(struct h4_rx *rx, uint8_t type)
{
	size_t i;

	for (i = 0; i < rx->ntypes; i++)
		if (rx->types[i].type == type)
			return &rx->types[i];
	return NULL;
}

void h4_rx_feed(struct h4_rx *rx, const uint8_t *p, size_t n)
{
	while (n) {
		size_t take;

		if (rx->skip_pad) {
			rx->skip_pad = false;
			p++, n--;
			continue;
		}
		if (!rx->cur) {
			rx->cur = lookup(rx, *p);
			if (!rx->cur) {
				/* Resynchronise byte by byte, as a real UART
				 * receiver would after line noise. */
				if (!rx->bad_bytes++ || log_verbose)
					msg("%s: unknown packet type 0x%02x dropped",
					    rx->what, *p);
				p++, n--;
				continue;
			}
			rx->buf[0] = *p++;
			n--;
			rx->len = 1;
			rx->need = 1 + rx->cur->hlen;
		}
		take = rx->need - rx->len;
		if (take > n)
			take = n;
		memcpy(rx->buf + rx->len, p, take);
		rx->len += take;
		p += take, n -= take;
		if (rx->len < rx->need)
			continue;
		if (rx->len == 1u + rx->cur->hlen) {
			const uint8_t *lf = rx->buf + 1 + rx->cur->loff;
			unsigned int dlen = lf[0];

			if (rx->cur->lsize == 2)
				dlen |= lf[1] << 8;
			if (rx->cur->lmask)
				dlen &= rx->cur->lmask;
			rx->need += dlen;
			if (dlen)
				continue;
		}
		/* Whole frame. */
		rx->skip_pad = rx->word_aligned && (rx->len % 2);
		rx->on_frame(rx->ctx, rx->buf, rx->len);
		rx->cur = NULL;
		rx->len = rx->need = 0;
	}
}
