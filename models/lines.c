#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lines.h"
#include "log.h"

/* Look the name up in every /dev/gpiochipN through the chardev's line info
 * (which reports gpio-line-names); the first match wins, duplicates warn. */
static int find_gpio(struct line *l)
{
	DIR *d = opendir("/dev");
	struct dirent *de;
	int found = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		struct gpiochip_info ci;
		char path[300];
		unsigned int i;
		int fd;

		if (strncmp(de->d_name, "gpiochip", 8))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(&ci, 0, sizeof(ci));
		if (ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, &ci) < 0) {
			close(fd);
			continue;
		}
		for (i = 0; i < ci.lines; i++) {
			struct gpio_v2_line_info li;

			memset(&li, 0, sizeof(li));
			li.offset = i;
			if (ioctl(fd, GPIO_V2_GET_LINEINFO_IOCTL, &li) < 0)
				continue;
			if (strncmp(li.name, l->name, sizeof(li.name)))
				continue;
			if (found++) {
				msg("warning: line %s also on %s line %u; using %s",
				    l->name, ci.name, i, l->where);
				continue;
			}
			snprintf(l->where, sizeof(l->where), "%s line %u",
				 ci.name, i);
			snprintf(l->value_path, sizeof(l->value_path),
				 "/sys/bus/gpio/devices/%s/sim_gpio%u/value",
				 ci.name, i);
			snprintf(l->pull_path, sizeof(l->pull_path),
				 "/sys/bus/gpio/devices/%s/sim_gpio%u/pull",
				 ci.name, i);
		}
		close(fd);
	}
	closedir(d);
	return found > 0;
}

unsigned int line_wait_s;

int line_find(struct line *l, const char *files_dir, const char *instance,
	      const char *function, bool optional)
{
	struct stat st;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	snprintf(l->name, sizeof(l->name), "%s-%s", instance, function);

	if (files_dir) {
		l->files = true;
		snprintf(l->where, sizeof(l->where), "%s/%s", files_dir, l->name);
		snprintf(l->value_path, sizeof(l->value_path), "%s/value", l->where);
		snprintf(l->pull_path, sizeof(l->pull_path), "%s/pull", l->where);
		if (stat(l->where, &st) || !S_ISDIR(st.st_mode))
			goto missing;
	} else {
		unsigned int waited_ms = 0;
		bool found;

		/*
		 * Wait (up to line_wait_s) for the line, and for its gpio-sim
		 * files, which gpio-sim adds after the gpiochip appears.
		 */
		while (!(found = find_gpio(l)) || access(l->value_path, R_OK)) {
			if ((!found && optional) || waited_ms >= line_wait_s * 1000)
				break;
			if (!waited_ms)
				msg("waiting up to %u s for line %s", line_wait_s,
				    l->name);
			usleep(100 * 1000);
			waited_ms += 100;
		}
		if (!found)
			goto missing;
		/* Found by name but not a gpio-sim bank: nothing to poll. */
		if (access(l->value_path, R_OK)) {
			msg("line %s is %s, which is not a gpio-sim chip (%s: %s)",
			    l->name, l->where, l->value_path, strerror(errno));
			return -1;
		}
	}
	l->present = true;
	dbg("line %s is %s", l->name, l->where);
	return 0;

missing:
	if (optional) {
		msg("optional line %s not found; running without it", l->name);
		return 1;
	}
	msg("line %s not found (%s)", l->name,
	    files_dir ? l->where : "no gpiochip has a line of that name");
	return -1;
}

int line_get(struct line *l)
{
	char buf[8];
	ssize_t n;
	int fd;

	/*
	 * A gpio-sim value file stays open and is read again from offset 0,
	 * which has sysfs produce it anew: the models sample their lines
	 * every few milliseconds, and a path walk each time was most of what
	 * an idle model cost a debug guest.  The test hook's files are
	 * reopened each time, since it replaces them by rename().
	 */
	if (!l->files && l->fd >= 0) {
		n = pread(l->fd, buf, sizeof(buf), 0);
		if (n > 0 && (buf[0] == '0' || buf[0] == '1')) {
			l->last = buf[0] - '0';
			return l->last;
		}
		close(l->fd);	/* gone (the bank was removed): reopen */
		l->fd = -1;
	}
	fd = open(l->value_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return l->last;
	n = read(fd, buf, sizeof(buf));
	if (!l->files && n > 0)
		l->fd = fd;
	else
		close(fd);
	if (n > 0 && (buf[0] == '0' || buf[0] == '1'))
		l->last = buf[0] - '0';
	return l->last;
}

int line_pull(struct line *l, int up)
{
	const char *s = up ? "pull-up\n" : "pull-down\n";
	char tmp[300];
	const char *path = l->pull_path;
	int fd, ok;

	if (!l->present)
		return 0;
	if (l->files) {
		snprintf(tmp, sizeof(tmp), "%s.tmp", l->pull_path);
		path = tmp;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC | (l->files ? O_CREAT | O_TRUNC : 0),
		  0644);
	if (fd < 0) {
		msg("cannot drive %s (%s): %s", l->name, path, strerror(errno));
		return -1;
	}
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	if (ok && l->files && rename(tmp, l->pull_path))
		ok = 0;
	if (!ok) {
		msg("cannot drive %s: %s", l->name, strerror(errno));
		return -1;
	}
	dbg("%s -> %s", l->name, up ? "pull-up" : "pull-down");
	return 0;
}
