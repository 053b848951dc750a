#include <math.h>
#include <stdio.h>
#include <string.h>

#include "w2sg0004-nmea.h"

/* The fixed sky: PRN, elevation, azimuth, SNR. All eight are used in the
 * fix, which GSA lists; >= 6 so gpsd and tests see a healthy 3D fix. */
static const struct { int prn, el, az, snr; } sky[] = {
	{ 2, 45, 120, 42 }, { 5, 60, 200, 45 }, { 9, 30, 310, 38 },
	{ 12, 15, 45, 33 }, { 17, 70, 90, 47 }, { 21, 25, 250, 36 },
	{ 25, 50, 170, 44 }, { 29, 10, 15, 30 },
};
#define NSAT ((int)(sizeof(sky) / sizeof(sky[0])))

unsigned int nmea_checksum(const char *body)
{
	unsigned int x = 0;

	for (; *body && *body != '*'; body++)
		x ^= (unsigned char)*body;
	return x;
}

struct out {
	char *p;
	size_t cap, len;
	enum nmea_fault fault;
	int overflow;
};

/* Overwrite n bytes with line noise: 0x80-0xFF, a function of seed. */
static void garble(char *s, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		s[i] = (char)(0x80 | (seed >> 16));
	}
}

/* Append "$<body>*hh\r\n", or the faulted form of it. */
static void sentence(struct out *o, const char *body)
{
	char s[300];
	size_t n;
	unsigned int ck = nmea_checksum(body);

	if (o->fault == NMEA_BAD_CHECKSUM)
		ck ^= 0x5a;
	n = snprintf(s, sizeof(s), "$%s*%02X\r\n", body, ck);
	if (o->fault == NMEA_TRUNCATED)
		n = (1 + strlen(body)) / 2;
	if (o->fault == NMEA_GARBAGE)
		garble(s, n, o->len + body[0]);
	if (o->fault == NMEA_ENDLESS) {
		/* the body's characters, with the commas, and no framing */
		n = strlen(body);
		memcpy(s, body, n);
	}
	if (o->len + n >= o->cap) {
		o->overflow = 1;
		return;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

/* ddmm.mmmmm / dddmm.mmmmm plus hemisphere letter. */
static void coord(char *buf, size_t cap, double deg, int lon)
{
	double a = fabs(deg);
	int d = (int)a;
	double min = (a - d) * 60.0;

	/* Rounding can carry 59.999995 into 60.00000. */
	if (min >= 59.999995) {
		d++;
		min = 0;
	}
	snprintf(buf, cap, lon ? "%03d%08.5f,%c" : "%02d%08.5f,%c", d, min,
		 lon ? (deg < 0 ? 'W' : 'E') : (deg < 0 ? 'S' : 'N'));
}

size_t nmea_burst(char *out, size_t cap, time_t t, const struct nmea_pos *p,
		  enum nmea_fault fault)
{
	struct out o = { out, cap, 0, fault, 0 };
	char body[256], lat[32], lon[32], hms[32], dmy[32], prns[64] = "";
	struct tm tm;
	int i, j, pages = (NSAT + 3) / 4;

	gmtime_r(&t, &tm);
	snprintf(hms, sizeof(hms), "%02d%02d%02d.00", tm.tm_hour, tm.tm_min,
		 tm.tm_sec);
	snprintf(dmy, sizeof(dmy), "%02d%02d%02d", tm.tm_mday, tm.tm_mon + 1,
		 tm.tm_year % 100);
	coord(lat, sizeof(lat), p->lat, 0);
	coord(lon, sizeof(lon), p->lon, 1);
	if (cap)
		out[0] = '\0';

	/* GGA: quality 1 (GPS fix), satellites, HDOP, MSL altitude, geoid
	 * separation 18.0 m (a plausible constant). */
	snprintf(body, sizeof(body), "GPGGA,%s,%s,%s,1,%02d,0.9,%.1f,M,18.0,M,,",
		 hms, lat, lon, NSAT, p->alt);
	sentence(&o, body);

	/* GSA: automatic, mode 3 (3D), 12 PRN slots, PDOP/HDOP/VDOP. */
	for (i = 0; i < 12; i++) {
		size_t l = strlen(prns);

		if (i < NSAT)
			snprintf(prns + l, sizeof(prns) - l, "%02d,", sky[i].prn);
		else
			snprintf(prns + l, sizeof(prns) - l, ",");
	}
	snprintf(body, sizeof(body), "GPGSA,A,3,%s1.6,0.9,1.3", prns);
	sentence(&o, body);

	/* GSV: four satellites per sentence. */
	for (i = 0; i < pages; i++) {
		int l = snprintf(body, sizeof(body), "GPGSV,%d,%d,%02d", pages,
				 i + 1, NSAT);

		for (j = 4 * i; j < NSAT && j < 4 * i + 4; j++)
			l += snprintf(body + l, sizeof(body) - l,
				      ",%02d,%02d,%03d,%02d", sky[j].prn,
				      sky[j].el, sky[j].az, sky[j].snr);
		sentence(&o, body);
	}

	/* RMC: valid, standing still, date, mode A (NMEA 2.3). */
	snprintf(body, sizeof(body), "GPRMC,%s,A,%s,%s,0.0,0.0,%s,,,A", hms, lat,
		 lon, dmy);
	sentence(&o, body);

	return o.overflow ? 0 : o.len;
}
