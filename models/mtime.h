/* Millisecond clocks. Timing decisions (pulse lengths, pacing, timeouts) use
 * CLOCK_MONOTONIC so a guest clock step cannot fake a pulse or a silence. */
#ifndef MODELS_MTIME_H
#define MODELS_MTIME_H

#include <stdint.h>
#include <time.h>

static inline int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline int64_t realtime_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void sleep_ms(int64_t ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0)
		;
}

#endif
