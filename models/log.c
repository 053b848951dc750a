#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log.h"

int log_verbose;
static char prefix[96];

void log_init(const char *prog, const char *instance)
{
	snprintf(prefix, sizeof(prefix), "%s[%s]: ", prog, instance);
	/* stderr is unbuffered already; line buffering keeps lines whole. */
	setvbuf(stderr, NULL, _IOLBF, 0);
}

static void vlog(const char *fmt, va_list ap)
{
	char line[512];

	vsnprintf(line, sizeof(line), fmt, ap);
	fprintf(stderr, "%s%s\n", prefix, line);
}

void msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

void dbg(const char *fmt, ...)
{
	va_list ap;

	if (!log_verbose)
		return;
	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

void dbg_hex(const char *what, const unsigned char *p, unsigned long n)
{
	char hex[3 * 32 + 8];
	unsigned long i, shown = n < 32 ? n : 32;

	if (!log_verbose)
		return;
	hex[0] = '\0';
	for (i = 0; i < shown; i++)
		snprintf(hex + 3 * i, sizeof(hex) - 3 * i, " %02x", p[i]);
	if (shown < n)
		strcat(hex, " ...");
	dbg("%s (%lu bytes):%s", what, n, hex);
}
