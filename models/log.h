/* One-line-per-event logging to stderr with a "prog[instance]: " prefix,
 * so the interleaved stderr of several models in one guest stays readable. */
#ifndef MODELS_LOG_H
#define MODELS_LOG_H

extern int log_verbose;

void log_init(const char *prog, const char *instance);
/* Always printed: significant events (reset released, power on, ...). */
void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Printed only with -v: per-frame and per-edge detail. */
void dbg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Hex dump of a frame at -v, cut after 32 bytes so a 1 KiB ACL stays one line. */
void dbg_hex(const char *what, const unsigned char *p, unsigned long n);

#endif
