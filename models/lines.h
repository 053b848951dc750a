/*
 * Sideband lines of a model: gpio-sim lines found by name, or plain files
 * for host tests.
 *
 * gpio-sim (drivers/gpio/gpio-sim.c) gives each line of a bank two sysfs
 * attributes on the gpiochipN device: sim_gpio<offset>/value (read-only: the
 * PHYSICAL level, i.e. after gpiolib applied any active-low flag) and
 * sim_gpio<offset>/pull ("pull-up"/"pull-down": what the outside world drives
 * onto a line the driver uses as input; it fires the edge interrupts).
 *
 * Why polling sysfs instead of requesting the line through /dev/gpiochipN:
 * the slave driver owns the line (gpiod_get), so a second request would fail
 * with -EBUSY, and gpio-sim offers no change notification on "value" (no
 * sysfs_notify). Polling every 5 ms is well inside the slowest timing the
 * drivers need (hci_nokia checks host-wakeup 100 ms after asserting reset;
 * gnss-sirf pulses on/off for 100 ms).
 *
 * Test hook (--lines-file DIR): a line is the directory DIR/<name>/ holding
 * files "value" ("0"/"1", written by the test in place of the driver) and
 * "pull" ("pull-up"/"pull-down", written by the model). Writers replace the
 * file with rename() so a reader never sees a half-written file.
 */
#ifndef MODELS_LINES_H
#define MODELS_LINES_H

#include <stdbool.h>

struct line {
	char name[64];		/* "<instance>-<function>", e.g. "bt0-reset" */
	char where[96];		/* "gpiochip1 line 3" or the test directory */
	char value_path[256];
	char pull_path[256];
	bool files;		/* test hook: rename() writes */
	bool present;
	int fd;			/* value_path kept open (gpio-sim), or -1 */
	int last;		/* last level read, reused if a read fails */
};

/*
 * Find line "<instance>-<function>". files_dir == NULL means gpio-sim.
 * Returns 0 when found, 1 when missing and optional, -1 when missing and
 * required (an error message was logged).
 */
/*
 * Seconds line_find() waits for a required line to appear (0: not at all):
 * for a chip whose lines are wired by an overlay applied after it starts.
 */
extern unsigned int line_wait_s;

int line_find(struct line *l, const char *files_dir, const char *instance,
	      const char *function, bool optional);

/* Physical level 0/1 (on a read error: the last level read). */
int line_get(struct line *l);

/* Drive a driver-input line from outside: up = 1 "pull-up", 0 "pull-down". */
int line_pull(struct line *l, int up);

#endif
