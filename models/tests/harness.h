/*
 * Tiny test harness for the model tests: TAP output, child processes that
 * are always cleaned up, ptys, test-hook line files, bounded reads.
 */
#ifndef MODELS_TESTS_HARNESS_H
#define MODELS_TESTS_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Print the plan, arm a watchdog that bails out after timeout_s seconds. */
void t_init(int plan, int timeout_s);
/* "ok N - name" or "not ok N - name"; returns cond. */
bool t_ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void t_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit status for main: 0 if every test passed and the plan was met. */
int t_done(void);

/* A private temporary directory, removed at exit (kept if the environment
 * has MODEL_TEST_KEEP set, for debugging). */
const char *t_tmpdir(void);
/* Start argv[0] (PATH lookup) with stdout+stderr to logfile (NULL: inherit
 * stderr); the child is killed at exit if still running. */
pid_t t_spawn(char *const argv[], const char *logfile);
/* SIGTERM, up to 1 s grace, then SIGKILL; reaps the child. */
void t_kill(pid_t pid);
bool t_have(const char *prog);
/* Wait for the child to exit: its wait status, or -1 after timeout_ms. */
int t_wait_exit(pid_t pid, int timeout_ms);

/* pty pair: returns the master fd (non-blocking) and the slave's path; the
 * slave is put in raw mode and kept open so the setting sticks. */
int t_pty(char *slave, size_t cap);
/* Read until n bytes arrived or timeout_ms passed; returns bytes read. */
long t_read(int fd, void *buf, size_t n, int timeout_ms);
bool t_write(int fd, const void *buf, size_t n);

/* Test-hook lines: DIR/<name>/{value,pull}. */
void t_line(const char *dir, const char *name, const char *value);
void t_set(const char *dir, const char *name, const char *value);
/* Wait until DIR/<name>/pull reads want ("pull-up"/"pull-down"). */
bool t_wait_pull(const char *dir, const char *name, const char *want,
		 int timeout_ms);
bool t_pull_is(const char *dir, const char *name, const char *want);

bool t_wait_path(const char *path, int timeout_ms);
int t_free_port(void);
long long t_now_ms(void);
void t_sleep_ms(long ms);

#endif
