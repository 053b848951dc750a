/*
 * NMEA 0183 output of the W2SG0004 model: one burst per second in the order
 * a SiRFstar III sends it (GGA, GSA, GSV..., RMC), a 3D fix with 8 satellites.
 * Pure functions of (time, position, fault) so the tests can check them.
 */
#ifndef MODELS_W2SG0004_NMEA_H
#define MODELS_W2SG0004_NMEA_H

#include <stddef.h>
#include <time.h>

enum nmea_fault {
	NMEA_OK,
	NMEA_BAD_CHECKSUM,	/* every checksum is wrong (xor 0x5A) */
	NMEA_TRUNCATED,		/* every sentence cut in half: no *hh, no CR LF */
	NMEA_GARBAGE,		/* line noise: bytes 0x80-0xFF, as a wrong baud gives */
	NMEA_ENDLESS,		/* one line that never ends: no '$', no CR LF */
};

struct nmea_pos {
	double lat, lon;	/* degrees, north/east positive */
	double alt;		/* metres above mean sea level (GGA field 9) */
};

/* XOR of the bytes between '$' and '*' (exclusive). */
unsigned int nmea_checksum(const char *body);

/* Write the burst for UTC second t into out (NUL-terminated); returns its
 * length, or 0 if cap is too small. */
size_t nmea_burst(char *out, size_t cap, time_t t, const struct nmea_pos *p,
		  enum nmea_fault fault);

#endif
