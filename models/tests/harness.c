#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static int n_run, n_fail, n_plan;
static pid_t kids[32];
static int n_kids;
static char tmpdir[64];
static char logs[32][300];
static int n_logs;

long long t_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

void t_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static void on_alarm(int sig)
{
	static const char m[] = "Bail out! test timed out\n";
	int i;

	(void)sig;
	for (i = 0; i < n_kids; i++)
		if (kids[i] > 0)
			kill(kids[i], SIGKILL);
	if (write(1, m, sizeof(m) - 1) < 0)
		_exit(1);
	_exit(1);
}

static void dump_log(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");
	long count = 0, skip = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		count++;
	if (count > 80)
		skip = count - 80;
	rewind(f);
	printf("# --- %s (last %ld lines)\n", path, count - skip);
	while (fgets(line, sizeof(line), f))
		if (skip-- <= 0)
			printf("#   %s", line);
	fclose(f);
}

static void cleanup(void)
{
	int i;

	for (i = 0; i < n_kids; i++)
		if (kids[i] > 0)
			t_kill(kids[i]);
	if (n_fail)
		for (i = 0; i < n_logs; i++)
			dump_log(logs[i]);
	if (tmpdir[0] && getenv("MODEL_TEST_KEEP")) {
		printf("# kept %s\n", tmpdir);
	} else if (tmpdir[0]) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd))
			printf("# could not remove %s\n", tmpdir);
	}
	fflush(stdout);
}

void t_init(int plan, int timeout_s)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGALRM, on_alarm);
	alarm(timeout_s);
	atexit(cleanup);
	n_plan = plan;
	printf("1..%d\n", plan);
}

bool t_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++n_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		n_fail++;
	return cond;
}

void t_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

int t_done(void)
{
	if (n_run != n_plan) {
		printf("# planned %d tests, ran %d\n", n_plan, n_run);
		n_fail++;
	}
	printf("# %d/%d passed\n", n_run - n_fail, n_run);
	return n_fail ? 1 : 0;
}

const char *t_tmpdir(void)
{
	if (!tmpdir[0]) {
		strcpy(tmpdir, "/tmp/model-test.XXXXXX");
		if (!mkdtemp(tmpdir)) {
			perror("mkdtemp");
			exit(1);
		}
	}
	return tmpdir;
}

pid_t t_spawn(char *const argv[], const char *logfile)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_RDONLY);

		dup2(fd, 0);
		if (logfile) {
			fd = open(logfile, O_WRONLY | O_CREAT | O_APPEND, 0644);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		/* Own process group: a kill reaches what it forks too. */
		setpgid(0, 0);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid > 0 && n_kids < 32)
		kids[n_kids++] = pid;
	if (logfile && n_logs < 32) {
		int i;

		for (i = 0; i < n_logs && strcmp(logs[i], logfile); i++)
			;
		if (i == n_logs)
			snprintf(logs[n_logs++], sizeof(logs[0]), "%s", logfile);
	}
	return pid;
}

void t_kill(pid_t pid)
{
	long long end = t_now_ms() + 1000;
	int i;

	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	while (waitpid(pid, NULL, WNOHANG) == 0) {
		if (t_now_ms() > end) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			break;
		}
		t_sleep_ms(10);
	}
	for (i = 0; i < n_kids; i++)
		if (kids[i] == pid)
			kids[i] = 0;
}

int t_wait_exit(pid_t pid, int timeout_ms)
{
	long long end = t_now_ms() + timeout_ms;
	int st, i;

	do {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			for (i = 0; i < n_kids; i++)
				if (kids[i] == pid)
					kids[i] = 0;
			return st;
		}
		t_sleep_ms(10);
	} while (t_now_ms() < end);
	return -1;
}

bool t_have(const char *prog)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

int t_pty(char *slave, size_t cap)
{
	struct termios t;
	int m = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
	int s;

	if (m < 0 || grantpt(m) || unlockpt(m) || ptsname_r(m, slave, cap)) {
		perror("pty");
		exit(1);
	}
	s = open(slave, O_RDWR | O_NOCTTY);
	if (s < 0 || tcgetattr(s, &t)) {
		perror(slave);
		exit(1);
	}
	cfmakeraw(&t);
	tcsetattr(s, TCSANOW, &t);
	/* s stays open on purpose (leaked until exit). */
	return m;
}

long t_read(int fd, void *buf, size_t n, int timeout_ms)
{
	long long end = t_now_ms() + timeout_ms;
	size_t got = 0;

	while (got < n) {
		struct pollfd p = { fd, POLLIN, 0 };
		long long left = end - t_now_ms();
		ssize_t r;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			break;
		r = read(fd, (char *)buf + got, n - got);
		if (r > 0)
			got += r;
		else if (r < 0 && errno != EAGAIN && errno != EINTR)
			t_sleep_ms(10);	/* EIO: pty slave not open yet */
	}
	return (long)got;
}

bool t_write(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	long long end = t_now_ms() + 2000;

	while (n && t_now_ms() < end) {
		ssize_t w = write(fd, p, n);

		if (w > 0) {
			p += w;
			n -= w;
		} else {
			t_sleep_ms(1);
		}
	}
	return n == 0;
}

static void write_file(const char *path, const char *s)
{
	char tmp[420];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fputs(s, f) < 0 || fclose(f) || rename(tmp, path)) {
		perror(path);
		exit(1);
	}
}

void t_line(const char *dir, const char *name, const char *value)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	mkdir(path, 0755);
	t_set(dir, name, value);
}

void t_set(const char *dir, const char *name, const char *value)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/%s/value", dir, name);
	write_file(path, value);
}

bool t_pull_is(const char *dir, const char *name, const char *want)
{
	char path[400], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/pull", dir, name);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return !strncmp(buf, want, strlen(want)) &&
	       (buf[strlen(want)] == '\n' || buf[strlen(want)] == '\0');
}

bool t_wait_pull(const char *dir, const char *name, const char *want,
		 int timeout_ms)
{
	long long end = t_now_ms() + timeout_ms;

	do {
		if (t_pull_is(dir, name, want))
			return true;
		t_sleep_ms(2);
	} while (t_now_ms() < end);
	return false;
}

bool t_wait_path(const char *path, int timeout_ms)
{
	long long end = t_now_ms() + timeout_ms;

	do {
		if (access(path, F_OK) == 0)
			return true;
		t_sleep_ms(10);
	} while (t_now_ms() < end);
	return false;
}

int t_free_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	if (fd >= 0 && !bind(fd, (struct sockaddr *)&sa, sizeof(sa)) &&
	    !getsockname(fd, (struct sockaddr *)&sa, &len))
		port = ntohs(sa.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}
