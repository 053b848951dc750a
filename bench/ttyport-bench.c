// SPDX-License-Identifier: GPL-2.0
/*
 * ttyport-bench: the guest side of make bench (docs/bench.md).
 *
 *   ttyport-bench time [-t SECONDS] {-e PATH | -g PATH}... -- CMD [ARG...]
 *	Run CMD (and wait for it), then poll every millisecond until each
 *	condition holds: -e PATH exists, -g PATH is gone.  Prints, on one
 *	line, the milliseconds from just before CMD started to the moment
 *	each condition was first seen to hold, in the order given.  Exit 1
 *	if CMD failed or a condition did not hold within SECONDS (default 30).
 *
 *   ttyport-bench elapsed -- CMD [ARG...]
 *	Run CMD and print the milliseconds it took; CMD's output goes to
 *	stderr.  Exit 1 if CMD failed.
 *
 *   ttyport-bench read DEV SECONDS [BAUD]
 *	Read DEV for SECONDS, counted from its first byte.  A tty is put in
 *	raw mode at BAUD (default 9600) first.  Prints
 *	"bytes=N bytes_per_s=N cpu_pct=N.N reader_cpu_ms=N": cpu_pct is the
 *	share of all CPUs busy during the read (from /proc/stat, so the
 *	kernel's receive path is counted wherever it runs), reader_cpu_ms
 *	the reader's own user + system time.
 *
 * The kernel's CLOCK_MONOTONIC is the clock: under QEMU's TCG, wall time
 * and guest time run together, and the figures are compared as ratios of
 * two kernels measured in the same run.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONDS 8

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: ttyport-bench time [-t S] {-e PATH | -g PATH | -o PATH}... -- CMD...\n"
		"       ttyport-bench time [-t S] {-e PATH | -g PATH | -o PATH}... -W SRC DST\n"
		"       ttyport-bench elapsed -- CMD...\n"
		"       ttyport-bench read DEV SECONDS [BAUD]\n");
	return 2;
}

/* A condition: PATH exists (-e), is gone (-g), or opens (-o: a tty's
 * open() returned, O_NONBLOCK so that no carrier is waited for). */
enum cond_kind { COND_EXISTS, COND_GONE, COND_OPENS };

struct cond {
	const char *path;
	enum cond_kind kind;
	double at;		/* ms from the start; < 0 until it held */
};

/*
 * The action of -W: SRC's bytes (read before the clock starts) written to DST
 * in one write(), as a configfs attribute takes a table, an overlay or a
 * new_device line: in a child, so that the conditions are polled while the
 * write runs, and without the fork and exec of a shell and cat, which under
 * TCG cost more than some of what is timed.
 */
static char *write_buf;
static ssize_t write_len;
static const char *write_dst;

static int write_child(void)
{
	int fd = open(write_dst, O_WRONLY);

	if (fd < 0 || write(fd, write_buf, write_len) != write_len || close(fd)) {
		fprintf(stderr, "ttyport-bench: write %s: %s\n", write_dst,
			strerror(errno));
		return 1;
	}
	return 0;
}

static int read_src(const char *src)
{
	struct stat st;
	int fd = open(src, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) || !(write_buf = malloc(st.st_size + 1)) ||
	    (write_len = read(fd, write_buf, st.st_size)) != st.st_size) {
		fprintf(stderr, "ttyport-bench: %s: %s\n", src, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

static int cond_holds(const struct cond *c, struct stat *st)
{
	int fd;

	switch (c->kind) {
	case COND_EXISTS:
		return stat(c->path, st) == 0;
	case COND_GONE:
		return stat(c->path, st) != 0;
	default:
		fd = open(c->path, O_RDWR | O_NOCTTY | O_NONBLOCK);
		if (fd < 0)
			return 0;
		close(fd);
		return 1;
	}
}

static int cmd_time(int argc, char **argv)
{
	struct cond c[MAX_CONDS];
	int n = 0, i, left, status;
	double limit_s = 30, t0, t;
	struct stat st;
	pid_t pid;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		if (i + 1 >= argc)
			return usage();
		if (!strcmp(argv[i], "-W")) {
			if (i + 3 != argc || !n || read_src(argv[i + 1]))
				return usage();
			write_dst = argv[i + 2];
			break;
		}
		if (!strcmp(argv[i], "-t")) {
			limit_s = atof(argv[++i]);
		} else if (!strcmp(argv[i], "-e") || !strcmp(argv[i], "-g") ||
			   !strcmp(argv[i], "-o")) {
			if (n == MAX_CONDS)
				return usage();
			c[n].kind = argv[i][1] == 'e' ? COND_EXISTS :
				    argv[i][1] == 'g' ? COND_GONE : COND_OPENS;
			c[n].path = argv[++i];
			c[n++].at = -1;
		} else {
			return usage();
		}
	}
	if (write_dst) {
		static char *write_argv[] = { "write", NULL };

		argv = write_argv;
	} else {
		if (i + 1 >= argc || !n)
			return usage();
		argv += i + 1;
	}

	t0 = now_ms();
	pid = fork();
	if (pid < 0) {
		perror("ttyport-bench: fork");
		return 1;
	}
	if (!pid) {
		if (write_dst)
			_exit(write_child());
		execvp(argv[0], argv);
		fprintf(stderr, "ttyport-bench: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	/*
	 * Poll while CMD runs too: a write to configfs may return after the
	 * device was bound, or before.
	 */
	for (left = n; ; usleep(1000)) {
		t = now_ms();
		for (i = 0; i < n; i++) {
			if (c[i].at >= 0)
				continue;
			if (cond_holds(&c[i], &st)) {
				c[i].at = t - t0;
				left--;
			}
		}
		if (pid > 0 && waitpid(pid, &status, WNOHANG) == pid) {
			pid = 0;
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				fprintf(stderr, "ttyport-bench: %s failed\n", argv[0]);
				return 1;
			}
		}
		if (!left && !pid)
			break;
		if (t - t0 > limit_s * 1e3) {
			for (i = 0; i < n; i++)
				if (c[i].at < 0)
					fprintf(stderr, "ttyport-bench: %s %s after %.1f s\n",
						c[i].path, c[i].kind == COND_EXISTS ?
						"still missing" : c[i].kind == COND_GONE ?
						"still there" : "still not open", limit_s);
			if (pid > 0)
				fprintf(stderr, "ttyport-bench: %s still running\n", argv[0]);
			return 1;
		}
	}
	for (i = 0; i < n; i++)
		printf("%s%.1f", i ? " " : "", c[i].at);
	printf("\n");
	return 0;
}

static int cmd_elapsed(int argc, char **argv)
{
	double t0;
	int status;
	pid_t pid;

	if (argc < 2 || strcmp(argv[0], "--"))
		return usage();
	t0 = now_ms();
	pid = fork();
	if (pid < 0) {
		perror("ttyport-bench: fork");
		return 1;
	}
	if (!pid) {
		dup2(2, 1);
		execvp(argv[1], argv + 1);
		fprintf(stderr, "ttyport-bench: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "ttyport-bench: %s failed\n", argv[1]);
		return 1;
	}
	printf("%.1f\n", now_ms() - t0);
	return 0;
}

/* Busy and total jiffies of all CPUs, from the first line of /proc/stat. */
static int cpu_jiffies(unsigned long long *busy, unsigned long long *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int k;

	if (!f)
		return -1;
	k = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (k < 5)
		return -1;
	*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	*busy = *total - v[3] - v[4];	/* minus idle and iowait */
	return 0;
}

static speed_t baud_const(long baud)
{
	switch (baud) {
	case 4800: return B4800;
	case 9600: return B9600;
	case 19200: return B19200;
	case 38400: return B38400;
	case 57600: return B57600;
	case 115200: return B115200;
	default: return 0;
	}
}

static int cmd_read(int argc, char **argv)
{
	unsigned long long b0, tot0, b1, tot1, bytes = 0;
	double secs, t0 = 0, t, elapsed;
	struct rusage ru0, ru1;
	struct termios tio;
	struct pollfd pfd;
	char buf[4096];
	long baud;
	ssize_t r;
	int fd;

	if (argc < 2)
		return usage();
	secs = atof(argv[1]);
	baud = argc > 2 ? atol(argv[2]) : 9600;
	fd = open(argv[0], O_RDONLY | O_NOCTTY);
	if (fd < 0) {
		fprintf(stderr, "ttyport-bench: %s: %s\n", argv[0], strerror(errno));
		return 1;
	}
	if (isatty(fd)) {
		if (!baud_const(baud)) {
			fprintf(stderr, "ttyport-bench: baud %ld not supported\n", baud);
			return 2;
		}
		tcgetattr(fd, &tio);
		cfmakeraw(&tio);
		cfsetspeed(&tio, baud_const(baud));
		tio.c_cflag |= CLOCAL | CREAD;
		tio.c_cc[VMIN] = 1;
		tio.c_cc[VTIME] = 0;
		tcsetattr(fd, TCSANOW, &tio);
		tcflush(fd, TCIFLUSH);
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	/* The first byte starts the clock: a GPS takes time to power up. */
	if (poll(&pfd, 1, 30000) != 1) {
		fprintf(stderr, "ttyport-bench: %s: no data in 30 s\n", argv[0]);
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru0);
	if (cpu_jiffies(&b0, &tot0))
		return 1;
	t0 = now_ms();
	for (;;) {
		t = now_ms();
		if (t - t0 >= secs * 1e3)
			break;
		if (poll(&pfd, 1, (int)(secs * 1e3 - (t - t0)) + 1) != 1)
			continue;
		r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno != EINTR && errno != EAGAIN) {
			fprintf(stderr, "ttyport-bench: read %s: %s\n", argv[0],
				strerror(errno));
			return 1;
		}
		if (r > 0)
			bytes += r;
	}
	elapsed = (now_ms() - t0) / 1e3;
	getrusage(RUSAGE_SELF, &ru1);
	if (cpu_jiffies(&b1, &tot1))
		return 1;
	printf("bytes=%llu bytes_per_s=%.0f cpu_pct=%.1f reader_cpu_ms=%.0f\n",
	       bytes, bytes / elapsed,
	       tot1 > tot0 ? 100.0 * (b1 - b0) / (tot1 - tot0) : 0.0,
	       (ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec +
		ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) * 1e3 +
	       (ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec +
		ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e3);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "time"))
		return cmd_time(argc - 2, argv + 2);
	if (!strcmp(argv[1], "elapsed"))
		return cmd_elapsed(argc - 2, argv + 2);
	if (!strcmp(argv[1], "read"))
		return cmd_read(argc - 2, argv + 2);
	return usage();
}
