// SPDX-License-Identifier: GPL-2.0
/*
 * ttyport-random: a seeded, model-checked random stress of the serdev bus on
 * one port (COM2: /dev/ttyS1, far end /dev/far-com2) and on two USB serial
 * ports that come and go: a usb-serial port (an FTDI adapter on the usb0
 * wire, plugged and unplugged by the host through /dev/hostctl, far end
 * /dev/far-usb0) and a CDC-ACM port (the gadget --acm names, made in the
 * guest and plugged by binding it to a UDC, far end its ttyGSn), run
 * in the guest by tests/random-stress.sh; docs/random-stress.md says what
 * it checks.
 *
 *   ttyport-random --seed S --steps N [--settle-ms MS] [--trace FILE]
 *                  [--summary FILE] [--acm WIRE] [--model-only] [--no-usb]
 *                  [--no-ftdi] [--verbose] [--flip-at STEP]
 *
 * Each step picks an operation at random (weighted: the cheap tty and gnss
 * operations far more often than table loads and binds), predicts its
 * outcome from a model of what has been done (table loaded, hand-made
 * device, driver unbound by hand, tty held open, ...), does it, checks its
 * immediate result (a write refused or not, with which errno), then polls
 * (every 10 ms, up to --settle-ms) until what the kernel shows matches the
 * model: the invariants of docs/architecture.md.  The first mismatch ends
 * the run: the step, the invariant and the last steps are printed, and the
 * same seed replays the same operations.
 *
 * --model-only runs the model alone, with no kernel (on the host): to see
 * which operations and events a seed and step count give.  The FTDI
 * adapter's steps are drawn when the guest has /dev/hostctl (else one line
 * says they are left out), the ACM gadget's with --acm; both always with
 * --model-only; --no-ftdi leaves out the adapter's (the steps of a guest
 * with no hostctl), --no-usb both ports'.
 *
 * --flip-at STEP makes the model wrong after that step (it expects the
 * opposite of gnss-sirf's bound state), to see a failure reported and the
 * port left clean (TEST_RANDOM_FLIP_AT in tests/random-stress.sh).
 *
 * Output: "# " lines (KTAP diagnostics) on stdout; the trace of every step
 * in --trace (default /tmp/ttyport-random.trace); counts as shell variable
 * assignments in --summary (default /tmp/ttyport-random.summary).  Exit 0
 * if every step kept the model, 1 if one did not, 2 on a set-up error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define TTY		"ttyS1"
#define TTY_NODE	"/dev/ttyS1"
#define TTY_CLASS	"/sys/class/tty/ttyS1"
#define FAR		"/dev/far-com2"
#define TABLES		"/sys/kernel/config/acpi/table"
#define TABLE_DIR	TABLES "/random"
#define TABLE_AML	"/lib/ttyport/tables/runtime-gps-com2.aml"
#define TABLE_FWNODE	"\\_SB_.GPSR"
#define OVERLAYS	"/sys/kernel/config/device-tree/overlays"
#define OVERLAY_DIR	OVERLAYS "/random"
#define OVERLAY_DTBO	"/lib/ttyport/overlays/gps-com2-nolines.dtbo"
/*
 * Both the overlay and new_device describe a device with a device tree node
 * under the port's node; they are told apart by the node's name: the
 * overlay's is "gnss" (gps-com2-nolines.dtso), new_device names its node
 * after the model in the compatible ("w2sg0004").
 */
#define OVERLAY_NODE	"gnss"
#define SERIAL_DEVS	"/sys/bus/serial/devices"
#define SIRF		"/sys/bus/serial/drivers/gnss-sirf"
#define GNSS_CLASS	"/sys/class/gnss"
#define DEFERRED	"/sys/kernel/debug/devices_deferred"
#define STALE		"/tmp/ttyport-random-stale-" TTY
#define GPSD_LOG	"/tmp/ttyport-random-gpsd.log"
#define COMPATIBLE	"wi2wi,w2sg0004"
#define HOSTCTL		"/dev/hostctl"
#define USB_WIRE	"usb0"
#define FAR_USB		"/dev/far-" USB_WIRE
#define USB_DEVS	"/sys/bus/usb/devices"
#define USB_SERIAL_DEVS	"/sys/bus/usb-serial/devices"
#define GADGETS		"/sys/kernel/config/usb_gadget"
#define UDCS		"/sys/class/udc"
#define MAX_TTY_FDS	2
#define RING		30

/* ---- the random numbers: splitmix64, the same on every libc ------------- */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rng_below(unsigned int n)
{
	return (unsigned int)(rng_next() % n);
}

/* ---- time, output ---------------------------------------------------------- */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static bool model_only;
static bool verbose;
static FILE *trace;
static char ring[RING][512];
static unsigned int ring_n;

/* One line of the trace: to the trace file, and kept for a failure report. */
static void __attribute__((format(printf, 1, 2))) trace_line(const char *fmt, ...)
{
	va_list ap;
	char *l = ring[ring_n++ % RING];

	va_start(ap, fmt);
	vsnprintf(l, sizeof(ring[0]), fmt, ap);
	va_end(ap);
	if (trace) {
		fprintf(trace, "%s\n", l);
		fflush(trace);
	}
	if (verbose)
		printf("# %s\n", l);
}

/* ---- the model ------------------------------------------------------------- */

enum slot { SLOT_NONE, SLOT_TABLE, SLOT_MANUAL, SLOT_OVERLAY };
static const char *const slot_name[] = { "-", "table", "manual", "overlay" };

enum pending { PEND_NONE, PEND_PROBE, PEND_SYSFS };

struct model {
	bool table;		/* the runtime table is loaded */
	bool overlay;		/* the overlay is applied */
	enum slot slot;		/* the device on the controller, and whence */
	bool bound;		/* gnss-sirf is bound to it */
	bool unbound;		/* unbound by hand (sysfs unbind), not pending */
	enum pending pending;	/* a bind deferred until the tty's last close */
	int ntty;		/* fds held on /dev/ttyS1 */
	bool gnss_held;		/* an fd held on the device's /dev/gnssN */
	bool gnss_stale;	/* ... whose device has gone since */
	bool gpsd;		/* a gpsd was started (it may have ended since) */
};

static struct model m;

/*
 * The USB ports, each with a GPS made by hand on its controller or none,
 * and each plugged and unplugged again and again: an FTDI adapter on the
 * usb0 wire, plugged by the host (QMP, through /dev/hostctl), and a CDC-ACM
 * gadget made in the guest (gadget.sh's gadget_create, --acm WIRE), plugged
 * by binding it to a dummy_hcd UDC (docs/gadget.md).  A port's fds: one on
 * its tty (ttyUSBn, ttyACMn), one on the GPS's /dev/gnssN; either may
 * outlive what it was opened on (stale: the adapter unplugged, the GPS
 * unbound or deleted).
 */
struct umodel {
	bool plugged;
	bool dev;		/* a hand-made GPS on the port's controller */
	bool bound;		/* gnss-sirf is bound to it */
	bool unbound;		/* unbound by hand */
	enum pending pending;	/* a bind deferred until the tty's last close */
	bool tty_held;		/* an fd held on the port's tty */
	bool tty_stale;		/* ... whose adapter has gone since */
	bool gnss_held;		/* an fd held on the GPS's /dev/gnssN */
	bool gnss_stale;	/* ... whose device has gone since */
	unsigned long unplugs;	/* unplugs so far: how the next one is done */
};

/* What happened on a USB port (counted for each port). */
enum uev {
	UEV_PLUG, UEV_UNPLUG, UEV_UNPLUG_BOUND, UEV_UNPLUG_GNSS_HELD,
	UEV_UNPLUG_TTY_HELD, UEV_UNPLUG_PENDING, UEV_UNPLUG_DEVICE,
	UEV_PLUG_STALE_HELD, UEV_STALE_CLOSED, UEV_BIND, UEV_DEFERRED_BIND,
	UEV_SYSFS_BIND_DEFERRED, UEV_NEW_DEVICE_EBUSY, UEV_DELETE, UEV_UNBIND,
	UEV_TTY_ROUNDTRIP, UEV_GNSS_ROUNDTRIP, UEV_N
};
static const char *const uev_name[UEV_N] = {
	"plugs", "unplugs", "unplugs_bound", "unplugs_gnss_held", "unplugs_tty_held",
	"unplugs_pending", "unplugs_with_device", "plugs_stale_fd_held",
	"stale_fds_closed", "binds", "deferred_binds_on_close", "sysfs_binds_deferred",
	"new_device_ebusy", "deletes", "unbinds", "tty_roundtrips", "gnss_roundtrips",
};

struct uport {
	const char *tag;	/* "usb", "acm": its operations' and counts' prefix */
	const char *what;	/* "the FTDI adapter", "the ACM gadget" */
	char wire[32];		/* its USB serial number: the wire's name */
	bool gadget;		/* plugged through a UDC in the guest, else by the host */
	char udc_file[128];	/* the gadget's UDC file in configfs */
	char udc[64];		/* the UDC it is bound to when plugged */
	char far_path[64];	/* the far end: /dev/far-WIRE */
	bool on;		/* its steps are drawn */
	struct umodel m;
	unsigned long ev[UEV_N];
	int tty_fd, gnss_fd, far_fd;
	char port[32];		/* ttyUSBn or ttyACMn, while plugged */
	char held_port[32];	/* the tty the held tty fd was opened on */
	bool set_up;		/* its set-up went through: teardown may unplug it */
	char ctrl_path[512];
	char ctrl_name[64];
	char dev_name[64];	/* the GPS on it, once seen */
	char gnss_name[32];	/* its gnssN while bound */
	/* observe_usb()'s finds, kept while they are there */
	char seen_udev[64], seen_intf[80], seen_port[32], seen_ctrl[64];
	char seen_ctrl_path[512];
};

#define NUPORTS		2
static struct uport uports[NUPORTS] = {
	{ .tag = "usb", .what = "the FTDI adapter", .wire = USB_WIRE, .far_path = FAR_USB,
	  .tty_fd = -1, .gnss_fd = -1, .far_fd = -1 },
	{ .tag = "acm", .what = "the ACM gadget", .gadget = true,
	  .tty_fd = -1, .gnss_fd = -1, .far_fd = -1 },
};
static struct uport *const ftdi = &uports[0];
static struct uport *const acm = &uports[1];
static int hostctl_fd = -1;
static int tty_fd[MAX_TTY_FDS] = { -1, -1 };
static int gnss_fd = -1;
static pid_t gpsd_pid;
static int far_fd = -1;

static char ctrl_path[512];	/* .../serialN of ttyS1's port */
static char ctrl_name[64];		/* serialN */
static char dev_name[64];		/* serialN-0, once seen */
static char gnss_name[32];		/* gnssN of the bound device, once seen */
static char *aml;
static size_t aml_len;
static char *dtbo;		/* NULL: no overlay loader, no overlay steps */
static size_t dtbo_len;

/* What happened (not just what was tried): the premise of the run. */
enum ev {
	EV_BIND, EV_DEFERRED_BIND, EV_SYSFS_BIND_DEFERRED, EV_PROBE_DEFERRED,
	EV_TTY_ROUNDTRIP, EV_GNSS_ROUNDTRIP, EV_GNSS_WRITE, EV_STALE_EBUSY,
	EV_STALE_OPEN, EV_TTY_OPEN_REFUSED, EV_NEW_DEVICE_EBUSY,
	EV_DELETE_REFUSED, EV_SLOT_WAITED, EV_TABLE_DEVICE, EV_MANUAL_DEVICE,
	EV_UNBIND_BOUND, EV_REMOVED_BOUND, EV_REMOVED_PENDING, EV_GPSD_EXITED,
	EV_REFUSED_BIND, EV_REFUSED_UNBIND, EV_OVERLAY_DEVICE, EV_OVERLAY_REFUSED,
	EV_RACE, EV_RACE_BIND_DEFERRED,
	EV_N
};
static const char *const ev_name[EV_N] = {
	"binds", "deferred_binds_on_close", "sysfs_binds_deferred",
	"probes_deferred", "tty_roundtrips", "gnss_roundtrips", "gnss_writes",
	"stale_opens_ebusy", "stale_opens", "tty_opens_refused",
	"new_device_ebusy", "delete_device_refused", "table_device_waited_for_slot",
	"table_devices_added", "manual_devices_added", "unbinds_of_bound",
	"removals_while_bound", "removals_while_pending", "gpsd_exited_alone",
	"binds_refused", "unbinds_refused", "overlay_devices_added",
	"overlays_refused", "races", "race_binds_deferred",
};
static unsigned long ev[EV_N];

/* A device enters the controller's slot: it binds, or defers if the tty is open. */
static void model_enter(enum slot s)
{
	m.slot = s;
	m.unbound = false;
	ev[s == SLOT_TABLE ? EV_TABLE_DEVICE : s == SLOT_MANUAL ? EV_MANUAL_DEVICE :
	   EV_OVERLAY_DEVICE]++;
	if (m.ntty) {
		m.bound = false;
		m.pending = PEND_PROBE;
		ev[EV_PROBE_DEFERRED]++;
	} else {
		m.bound = true;
		m.pending = PEND_NONE;
		ev[EV_BIND]++;
	}
}

/* The device leaves; a table device that was refused the slot takes it. */
static void model_leave(void)
{
	enum slot was = m.slot;

	if (m.bound)
		ev[EV_REMOVED_BOUND]++;
	if (m.pending)
		ev[EV_REMOVED_PENDING]++;
	m.slot = SLOT_NONE;
	m.bound = false;
	m.unbound = false;
	m.pending = PEND_NONE;
	if (m.gnss_held)
		m.gnss_stale = true;
	if (was != SLOT_TABLE && m.table) {
		ev[EV_SLOT_WAITED]++;
		model_enter(SLOT_TABLE);
	}
}

static void model_unbind(void)
{
	m.bound = false;
	m.unbound = true;
	if (m.gnss_held)
		m.gnss_stale = true;
}

static void model_str(char *buf, size_t len)
{
	int n = snprintf(buf, len, "T%d O%d %s%s%s%s tty=%d gnss=%s gpsd=%d",
			 m.table, m.overlay, slot_name[m.slot], m.bound ? " bound" : "",
			 m.unbound ? " unbound" : "",
			 m.pending == PEND_PROBE ? " pending(probe)" :
			 m.pending == PEND_SYSFS ? " pending(sysfs)" : "",
			 m.ntty, m.gnss_held ? (m.gnss_stale ? "stale" : "held") : "-",
			 m.gpsd);

	for (int i = 0; i < NUPORTS; i++) {
		const struct uport *up = &uports[i];
		const struct umodel *u = &up->m;

		if (!up->on || n < 0 || (size_t)n >= len)
			return;
		n += snprintf(buf + n, len - n, " | %c%d %s%s%s%s tty=%s gnss=%s",
			      up->tag[0] - 32, u->plugged,
			      u->dev ? "manual" : "-", u->bound ? " bound" : "",
			      u->unbound ? " unbound" : "",
			      u->pending == PEND_PROBE ? " pending(probe)" :
			      u->pending == PEND_SYSFS ? " pending(sysfs)" : "",
			      u->tty_held ? (u->tty_stale ? "stale" : "held") : "-",
			      u->gnss_held ? (u->gnss_stale ? "stale" : "held") : "-");
	}
}

/* ---- file helpers ---------------------------------------------------------- */

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* Write STR to PATH in one write(): 0 or -errno. */
static int write_file(const char *path, const char *str, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, str, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static int write_str(const char *path, const char *str)
{
	return write_file(path, str, strlen(str));
}

static char *read_all(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	char *buf;
	ssize_t r;

	if (fd < 0)
		return NULL;
	buf = malloc(cap + 1);
	while (buf && (r = read(fd, buf + n, cap - n)) > 0) {
		n += r;
		if (n == cap) {
			char *nb = realloc(buf, 2 * cap + 1);

			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	close(fd);
	if (buf) {
		buf[n] = '\0';
		if (len)
			*len = n;
	}
	return buf;
}

static const char *err_name(int err)
{
	static char b[32];

	switch (-err) {
	case 0: return "ok";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	case ENOENT: return "ENOENT";
	case EAGAIN: return "EAGAIN";
	case EINVAL: return "EINVAL";
	case EEXIST: return "EEXIST";
	case EIO: return "EIO";
	case EPERM: return "EPERM";
	}
	snprintf(b, sizeof(b), "errno %d", -err);
	return b;
}

/* ---- what the kernel shows ------------------------------------------------- */

/* A port's side of an observation: its serdev device, driver, tty, gnss. */
struct pobs {
	int ndev;		/* serdev devices on the port's controller */
	char dev[64];		/* the first one */
	bool dev_acpi;		/* its firmware node is the table's GPSR */
	bool dev_of;		/* its device tree node is the overlay's */
	bool bound;		/* gnss-sirf holds it */
	bool bound_other;	/* some other driver does */
	bool tty_node, tty_class;
	char gnss[32];		/* the gnss class device whose parent is dev */
	bool gnss_node;		/* /dev/<gnss> */
	bool deferred;		/* dev is in devices_deferred */
};

/* A USB port's side of an observation: the USB device, its port, controller. */
struct uobs {
	bool usb_dev;		/* a USB device whose serial number is the wire's name */
	int nports;		/* its serial ports (FTDI: all usb-serial ports) */
	char port[32];		/* the port's tty name (the first port's) */
	bool ctrl;		/* the port's serdev controller, with new_device */
	char ctrl_name[64];	/* serialN */
	char ctrl_path[512];
	struct pobs p;		/* the port's device */
};

struct obs {
	bool ctrl;		/* COM2's controller's new_device file is there */
	struct pobs p;		/* COM2 */
	int nstray;		/* serdev devices on no port's controller */
	char stray[64];
	int ngnss;		/* gnss class devices, all of them */
	struct uobs u[NUPORTS];	/* the USB ports, when their steps are drawn */
};

/*
 * The serdev controller (serialN, with new_device) under DIR: 0, or -1.
 * (No realpath(): every settle poll comes here, and it costs a syscall a
 * path component.)
 */
static int find_ctrl(const char *dir, char path[512], char name[64])
{
	char p[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);
	int r = -1;

	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "serial", 6))
			continue;
		snprintf(p, sizeof(p), "%.400s/%.63s/new_device", dir, de->d_name);
		if (!exists(p))
			continue;
		snprintf(path, 512, "%.400s/%.63s", dir, de->d_name);
		snprintf(name, 64, "%.63s", de->d_name);
		r = 0;
		break;
	}
	if (d)
		closedir(d);
	return r;
}

/* Is serdev device DEV on the controller called CTRL (serialN)? */
static bool on_ctrl(const char *dev, const char *ctrl)
{
	size_t cl = strlen(ctrl);

	return cl && !strncmp(dev, ctrl, cl) && dev[cl] == '-';
}

static bool in_deferred(const char *def, const char *dev)
{
	size_t dl = strlen(dev);

	for (const char *s = def; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : s)
		if (!strncmp(s, dev, dl) && (s[dl] == '\t' || s[dl] == ' ' ||
					     s[dl] == '\n' || !s[dl]))
			return true;
	return false;
}

/* Is LINK a link to a device tree node called NAME (with no unit address)? */
static bool of_node_named(const char *link, const char *name)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n;

	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	return !strcmp(base, name);
}

/* The device's side of a port: driver, firmware node, deferred. */
static void observe_dev(struct pobs *o, const char *def)
{
	char p[PATH_MAX];
	char *fw;

	if (!o->ndev)
		return;
	snprintf(p, sizeof(p), SERIAL_DEVS "/%s/firmware_node/path", o->dev);
	fw = read_all(p, NULL);
	o->dev_acpi = fw && !strncmp(fw, TABLE_FWNODE, strlen(TABLE_FWNODE));
	free(fw);
	snprintf(p, sizeof(p), SERIAL_DEVS "/%s/of_node", o->dev);
	o->dev_of = of_node_named(p, OVERLAY_NODE);
	snprintf(p, sizeof(p), SIRF "/%s", o->dev);
	o->bound = exists(p);
	snprintf(p, sizeof(p), SERIAL_DEVS "/%s/driver", o->dev);
	o->bound_other = !o->bound && exists(p);
	o->deferred = in_deferred(def, o->dev);
}

/* The port's serdev controller under DIR, looked for again only once gone. */
static void observe_ctrl(struct uport *up, struct uobs *o, const char *dir)
{
	char p[PATH_MAX];

	if (up->seen_ctrl[0]) {
		snprintf(p, sizeof(p), "%s/new_device", up->seen_ctrl_path);
		o->ctrl = exists(p);
	}
	if (!o->ctrl) {
		o->ctrl = !find_ctrl(dir, up->seen_ctrl_path, up->seen_ctrl);
		if (!o->ctrl)
			up->seen_ctrl[0] = '\0';
	}
	if (o->ctrl) {
		snprintf(o->ctrl_path, sizeof(o->ctrl_path), "%s", up->seen_ctrl_path);
		snprintf(o->ctrl_name, sizeof(o->ctrl_name), "%s", up->seen_ctrl);
	}
}

/*
 * The FTDI adapter's port: the usb-serial ports, all of them (only this
 * program plugs an adapter), and the first one's controller.
 */
static void observe_ftdi(struct uport *up, struct uobs *o)
{
	char p[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(USB_SERIAL_DEVS);

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (o->nports++ == 0)
			snprintf(o->port, sizeof(o->port), "%.31s", de->d_name);
	}
	if (d)
		closedir(d);
	if (!o->nports)
		return;
	if (strcmp(up->seen_port, o->port)) {	/* another port: another controller */
		snprintf(up->seen_port, sizeof(up->seen_port), "%s", o->port);
		up->seen_ctrl[0] = '\0';
	}
	snprintf(p, sizeof(p), USB_SERIAL_DEVS "/%s", o->port);
	observe_ctrl(up, o, p);
}

/*
 * The ACM gadget's port on the host side: cdc-acm's communication
 * interface (class 02) of the gadget's USB device, its tty (ttyACMn, in
 * the interface's tty/ while shown; the name seen last while a driver
 * hides it) and its controller.  Once the USB device is gone, the port is
 * still counted while the tty class device of the name seen last is there.
 */
static void observe_acm(struct uport *up, struct uobs *o)
{
	char p[PATH_MAX], *s;
	struct dirent *de;
	DIR *d;

	/*
	 * With the USB device gone, its interfaces and the controller under
	 * them are gone from sysfs with it: only the tty class device could
	 * linger.
	 */
	if (!o->usb_dev) {
		snprintf(p, sizeof(p), "/sys/class/tty/%s", up->seen_port);
		if (up->seen_port[0] && exists(p)) {
			o->nports = 1;
			snprintf(o->port, sizeof(o->port), "%s", up->seen_port);
		}
		return;
	}
	if (!up->seen_intf[0]) {
		size_t ul = strlen(up->seen_udev);
		int nintf = 0;

		d = opendir(USB_DEVS);
		while (d && (de = readdir(d))) {
			if (strncmp(de->d_name, up->seen_udev, ul) || de->d_name[ul] != ':')
				continue;
			snprintf(p, sizeof(p), USB_DEVS "/%s/bInterfaceClass", de->d_name);
			s = read_all(p, NULL);
			if (s && !strcmp(s, "02\n") && nintf++ == 0)
				snprintf(up->seen_intf, sizeof(up->seen_intf), "%.63s", de->d_name);
			free(s);
		}
		if (d)
			closedir(d);
		if (nintf > 1) {	/* one ACM function: one communication interface */
			o->nports = nintf;
			up->seen_intf[0] = '\0';
			return;
		}
		if (!up->seen_intf[0])
			return;
	}
	/*
	 * The driver link comes before cdc-acm's probe has registered the
	 * port: an empty tty name below keeps the settle polling until then.
	 */
	snprintf(p, sizeof(p), USB_DEVS "/%s/driver", up->seen_intf);
	if (!exists(p))
		return;
	o->nports = 1;
	snprintf(p, sizeof(p), USB_DEVS "/%s/tty", up->seen_intf);
	d = opendir(p);
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "ttyACM", 6))
			continue;
		if (o->port[0])		/* a second tty on the one port */
			o->nports++;
		snprintf(o->port, sizeof(o->port), "%.31s", de->d_name);
		snprintf(up->seen_port, sizeof(up->seen_port), "%.31s", de->d_name);
	}
	if (d)
		closedir(d);
	if (!o->port[0])	/* hidden while a driver holds the port */
		snprintf(o->port, sizeof(o->port), "%s", up->seen_port);
	snprintf(p, sizeof(p), USB_DEVS "/%s", up->seen_intf);
	observe_ctrl(up, o, p);
}

/*
 * The USB ports' USB devices, found by their serial numbers (the wires'
 * names).  Every settle poll comes here, and under TCG each sysfs lookup
 * costs (a plugged adapter made COM2's cheap steps 3 to 4 ms dearer): a
 * device found is kept, and only looked for again once gone; the ports
 * not plugged are looked for in one pass over the USB devices.
 */
static void observe_usb_devices(struct obs *o)
{
	char p[PATH_MAX], *s;
	struct dirent *de;
	DIR *d = NULL;
	bool look = false;

	for (int i = 0; i < NUPORTS; i++) {
		struct uport *up = &uports[i];

		if (!up->on)
			continue;
		if (up->seen_udev[0]) {
			snprintf(p, sizeof(p), USB_DEVS "/%s", up->seen_udev);
			o->u[i].usb_dev = exists(p);
			if (!o->u[i].usb_dev)
				up->seen_udev[0] = up->seen_intf[0] = up->seen_ctrl[0] = '\0';
		}
		look |= !o->u[i].usb_dev;
	}
	if (look)
		d = opendir(USB_DEVS);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || strchr(de->d_name, ':') || !strchr(de->d_name, '-'))
			continue;
		snprintf(p, sizeof(p), USB_DEVS "/%s/serial", de->d_name);
		s = read_all(p, NULL);
		for (int i = 0; s && i < NUPORTS; i++) {
			struct uport *up = &uports[i];
			size_t wl = strlen(up->wire);

			if (!up->on || o->u[i].usb_dev || strncmp(s, up->wire, wl) || s[wl] != '\n')
				continue;
			o->u[i].usb_dev = true;
			snprintf(up->seen_udev, sizeof(up->seen_udev), "%.63s", de->d_name);
			if (up->gadget)		/* a new plug: a new port */
				up->seen_port[0] = '\0';
		}
		free(s);
	}
	if (d)
		closedir(d);
}

/* A USB port: its port and controller, its tty. */
static void observe_usb(struct uport *up, struct uobs *o)
{
	char p[PATH_MAX];

	if (up->gadget)
		observe_acm(up, o);
	else
		observe_ftdi(up, o);
	if (!o->nports || !o->port[0])
		return;
	snprintf(p, sizeof(p), "/dev/%s", o->port);
	o->p.tty_node = exists(p);
	snprintf(p, sizeof(p), "/sys/class/tty/%s", o->port);
	o->p.tty_class = exists(p);
}

static void observe(struct obs *o)
{
	char p[PATH_MAX], l[PATH_MAX];
	struct dirent *de;
	DIR *d;
	ssize_t n;
	char *def;
	bool any = false;

	memset(o, 0, sizeof(*o));
	snprintf(p, sizeof(p), "%s/new_device", ctrl_path);
	o->ctrl = exists(p);
	observe_usb_devices(o);
	for (int i = 0; i < NUPORTS; i++)
		if (uports[i].on)
			observe_usb(&uports[i], &o->u[i]);
	d = opendir(SERIAL_DEVS);
	while (d && (de = readdir(d))) {
		struct pobs *po = NULL;

		if (strncmp(de->d_name, "serial", 6) || !strchr(de->d_name, '-'))
			continue;
		if (on_ctrl(de->d_name, ctrl_name))
			po = &o->p;
		for (int i = 0; !po && i < NUPORTS; i++)
			if (o->u[i].ctrl && on_ctrl(de->d_name, o->u[i].ctrl_name))
				po = &o->u[i].p;
		if (!po) {
			if (o->nstray++ == 0)
				snprintf(o->stray, sizeof(o->stray), "%.63s", de->d_name);
			continue;
		}
		if (po->ndev++ == 0)
			snprintf(po->dev, sizeof(po->dev), "%.63s", de->d_name);
		any = true;
	}
	if (d)
		closedir(d);
	def = any ? read_all(DEFERRED, NULL) : NULL;
	observe_dev(&o->p, def);
	for (int i = 0; i < NUPORTS; i++)
		observe_dev(&o->u[i].p, def);
	free(def);
	o->p.tty_node = exists(TTY_NODE);
	o->p.tty_class = exists(TTY_CLASS);
	d = opendir(GNSS_CLASS);
	while (d && (de = readdir(d))) {
		struct pobs *po = NULL;

		if (de->d_name[0] == '.')
			continue;
		o->ngnss++;
		snprintf(p, sizeof(p), GNSS_CLASS "/%s/device", de->d_name);
		n = readlink(p, l, sizeof(l) - 1);
		if (n <= 0)
			continue;
		l[n] = '\0';
		const char *b = strrchr(l, '/');

		b = b ? b + 1 : l;
		if (o->p.ndev && !strcmp(b, o->p.dev))
			po = &o->p;
		for (int i = 0; !po && i < NUPORTS; i++)
			if (o->u[i].p.ndev && !strcmp(b, o->u[i].p.dev))
				po = &o->u[i].p;
		if (!po)
			continue;
		snprintf(po->gnss, sizeof(po->gnss), "%.31s", de->d_name);
		snprintf(p, sizeof(p), "/dev/%s", de->d_name);
		po->gnss_node = exists(p);
	}
	if (d)
		closedir(d);
}

/*
 * The invariants of one port's device against its side of the model: the
 * device exactly while described, bound as predicted, the tty exactly
 * while no driver is bound (and the port is there), a GNSS device exactly
 * while bound, a probe deferred by the open tty on devices_deferred.
 */
static bool port_matches(const char *port, const struct pobs *o, bool dev, const char *what,
			 bool bound, enum pending pending, bool tty_open, bool present,
			 char *why, size_t len)
{
	if (o->ndev != dev) {
		snprintf(why, len, "no device without its description, none missing: "
			 "expected %d serdev device%s on %s's controller (%s), found %d%s%s",
			 dev, dev ? "" : "s", port, what, o->ndev,
			 o->ndev ? ": " : "", o->dev);
		return false;
	}
	if (o->bound_other) {
		snprintf(why, len, "%s is bound to a driver other than gnss-sirf", o->dev);
		return false;
	}
	if (o->bound != bound) {
		snprintf(why, len, "%s: expected gnss-sirf %s, it is %s%s", o->dev,
			 bound ? "bound" : "not bound", o->bound ? "bound" : "not bound",
			 o->bound && tty_open ? " while the tty is held open (an open tty is never taken)" :
			 pending ? " (the deferred bind)" : "");
		return false;
	}
	if (o->tty_node != (present && !o->bound) || o->tty_class != (present && !o->bound)) {
		snprintf(why, len, "the tty exists exactly when %sno serdev driver is bound: "
			 "gnss-sirf %s, /dev/%s %s, /sys/class/tty/%s %s",
			 present ? "" : "the port is there and ",
			 o->bound ? "bound" : "not bound", port, o->tty_node ? "present" : "absent",
			 port, o->tty_class ? "present" : "absent");
		return false;
	}
	if (o->bound && (!o->gnss[0] || !o->gnss_node)) {
		snprintf(why, len, "a GNSS device exactly while gnss-sirf is bound: %s bound, "
			 "its gnss device: '%s', its node %s",
			 o->dev, o->gnss, o->gnss_node ? "present" : "absent");
		return false;
	}
	if (!o->bound && o->gnss[0]) {
		snprintf(why, len, "a GNSS device exactly while gnss-sirf is bound: %s not bound, "
			 "its gnss device %s is there", o->dev, o->gnss);
		return false;
	}
	if (o->deferred != (pending == PEND_PROBE)) {
		snprintf(why, len, "a bind deferred by the open tty is in devices_deferred "
			 "(pending: %s): %s is %sthere",
			 pending == PEND_PROBE ? "probe" : pending == PEND_SYSFS ? "sysfs bind" : "no",
			 o->dev, o->deferred ? "" : "not ");
		return false;
	}
	return true;
}

/* A USB port against its model: there exactly while plugged, its device. */
static bool uport_matches(const struct uport *up, const struct uobs *o, char *why, size_t len)
{
	const struct umodel *u = &up->m;

	if (o->usb_dev != u->plugged || o->nports != (int)u->plugged) {
		snprintf(why, len, "the USB port exists exactly while plugged: %s %s, "
			 "its USB device (serial %s) %s, %d port%s%s%s", up->what,
			 u->plugged ? "plugged" : "unplugged", up->wire,
			 o->usb_dev ? "present" : "absent",
			 o->nports, o->nports == 1 ? "" : "s", o->nports ? ": " : "", o->port);
		return false;
	}
	if (o->ctrl != u->plugged) {
		snprintf(why, len, "the controller lives as long as the port: %s plugged, "
			 "no serdev controller with new_device on its port %s", up->what, o->port);
		return false;
	}
	if (!u->plugged)
		return true;
	if (!port_matches(o->port[0] ? o->port : "(no tty seen)", &o->p, u->dev,
			  u->dev ? "manual" : "-", u->bound, u->pending,
			  u->tty_held && !u->tty_stale, true, why, len))
		return false;
	if (u->dev && (o->p.dev_acpi || o->p.dev_of)) {
		snprintf(why, len, "the device on %s comes from its description: expected "
			 "a hand-made one, %s has a firmware node", o->port, o->p.dev);
		return false;
	}
	return true;
}

/*
 * Does what the kernel shows match the model?  If not, say which invariant
 * it breaks in WHY.
 */
static bool matches(const struct obs *o, char *why, size_t len)
{
	bool dev = m.slot != SLOT_NONE;
	const struct pobs *p = &o->p;
	int nbound = p->bound;

	if (!o->ctrl) {
		snprintf(why, len, "the controller lives as long as the port: %s's new_device is gone",
			 ctrl_name);
		return false;
	}
	if (o->nstray) {
		snprintf(why, len, "no device without its description: %d serdev device%s on "
			 "neither %s's controller %s nor a plugged USB port's: %s", o->nstray,
			 o->nstray > 1 ? "s" : "", TTY, ctrl_name, o->stray);
		return false;
	}
	if (!port_matches(TTY, p, dev, slot_name[m.slot], m.bound, m.pending, m.ntty, true,
			  why, len))
		return false;
	if (dev && (p->dev_acpi != (m.slot == SLOT_TABLE) ||
		    p->dev_of != (m.slot == SLOT_OVERLAY))) {
		snprintf(why, len, "the device in the slot comes from its description: "
			 "expected the %s device, %s is %s",
			 slot_name[m.slot], p->dev,
			 p->dev_acpi ? "the table's (firmware node " TABLE_FWNODE ")" :
			 p->dev_of ? "the overlay's (node " OVERLAY_NODE ")" :
			 "a hand-made one");
		return false;
	}
	for (int i = 0; i < NUPORTS; i++) {
		if (!uports[i].on)
			continue;
		if (!uport_matches(&uports[i], &o->u[i], why, len))
			return false;
		nbound += o->u[i].p.bound;
	}
	if (o->ngnss != nbound) {
		snprintf(why, len, "a GNSS device exactly while gnss-sirf is bound: %d gnss "
			 "class devices, %d serdev devices bound to gnss-sirf", o->ngnss, nbound);
		return false;
	}
	return true;
}

/* ---- the run ---------------------------------------------------------------- */

static unsigned long step;
static unsigned long steps;
static unsigned long long seed;
/*
 * Up to 20 s: under TCG on a loaded host the guest loses whole seconds at a
 * time (a table load once settled after 10.4 s at a load average of 9,
 * with "clocksource: Long readout interval" in the kernel log); a state the
 * kernel never reaches fails all the same.
 */
static int settle_max_ms = 20000;
#define SLOW_MS		2000
#define SLOW_MAX	8
static char slow[SLOW_MAX][3][384];	/* slow steps: the two before, the step */
static unsigned int nslow;
static double settle_worst;
static unsigned long settle_worst_step;
static char settle_worst_desc[256];
static double settle_total;
static char failure[1024];
static unsigned long flip_at;
static char step_desc[256];

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(failure, sizeof(failure), fmt, ap);
	va_end(ap);
	return -1;
}

/* Poll until the kernel matches the model, up to settle_max_ms. */
static int settle(void)
{
	double t0 = now_ms(), t;
	char why[512];
	struct obs o;

	if (model_only) {	/* names as the guest gives them */
		if (m.slot != SLOT_NONE)
			snprintf(dev_name, sizeof(dev_name), "serial256-0");
		if (m.bound)
			snprintf(gnss_name, sizeof(gnss_name), "gnss0");
		for (int i = 0; i < NUPORTS; i++) {
			struct uport *up = &uports[i];

			if (up->m.plugged)
				snprintf(up->port, sizeof(up->port), "%s0",
					 up->gadget ? "ttyACM" : "ttyUSB");
			if (up->m.dev)
				snprintf(up->dev_name, sizeof(up->dev_name), "serial%d-0", 258 + i);
			if (up->m.bound)
				snprintf(up->gnss_name, sizeof(up->gnss_name), "gnss%d", 1 + i);
		}
		return 0;
	}
	for (;;) {
		observe(&o);
		t = now_ms() - t0;
		if (matches(&o, why, sizeof(why)))
			break;
		if (t > settle_max_ms)
			return fail("not settled after %.0f ms: %s", t, why);
		sleep_ms(10);
	}
	if (o.p.ndev)
		snprintf(dev_name, sizeof(dev_name), "%s", o.p.dev);
	if (o.p.bound)
		snprintf(gnss_name, sizeof(gnss_name), "%s", o.p.gnss);
	for (int i = 0; i < NUPORTS; i++) {
		struct uport *up = &uports[i];
		const struct uobs *uo = &o.u[i];

		up->port[0] = up->ctrl_name[0] = up->ctrl_path[0] = up->gnss_name[0] = '\0';
		if (uo->nports) {
			snprintf(up->port, sizeof(up->port), "%s", uo->port);
			snprintf(up->ctrl_name, sizeof(up->ctrl_name), "%s", uo->ctrl_name);
			snprintf(up->ctrl_path, sizeof(up->ctrl_path), "%s", uo->ctrl_path);
		}
		if (uo->p.ndev)
			snprintf(up->dev_name, sizeof(up->dev_name), "%s", uo->p.dev);
		if (uo->p.bound)
			snprintf(up->gnss_name, sizeof(up->gnss_name), "%s", uo->p.gnss);
	}
	settle_total += t;
	if (t > settle_worst) {
		settle_worst = t;
		settle_worst_step = step;
		snprintf(settle_worst_desc, sizeof(settle_worst_desc), "%s", step_desc);
	}
	return 0;
}

/* expect RESULT of WHAT to be WANT (0 or -errno), or any error if WANT is 1 */
static int expect(const char *what, int got, int want)
{
	if (model_only || got == want || (want == 1 && got < 0))
		return 0;
	return fail("%s: expected %s, got %s", what,
		    want == 1 ? "an error" : err_name(want), err_name(got));
}

static void set_raw(int fd, speed_t speed)
{
	struct termios t;

	if (tcgetattr(fd, &t))
		return;
	cfmakeraw(&t);
	t.c_cflag |= CLOCAL | CREAD;
	cfsetispeed(&t, speed);
	cfsetospeed(&t, speed);
	tcsetattr(fd, TCSANOW, &t);
}

/* Read FD until TOKEN has come, up to MS: 0, or -1. */
static int read_token(int fd, const char *token, int ms, char *got, size_t glen)
{
	double end = now_ms() + ms;
	size_t n = 0;

	got[0] = '\0';
	for (;;) {
		int left = (int)(end - now_ms());
		struct pollfd p = { fd, POLLIN, 0 };

		if (left <= 0)
			return -1;
		if (poll(&p, 1, left) <= 0)
			continue;
		if (n >= glen - 1) {	/* keep the tail */
			memmove(got, got + glen / 2, n - glen / 2);
			n -= glen / 2;
		}
		ssize_t r = read(fd, got + n, glen - 1 - n);

		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r <= 0)
			return -1;
		n += r;
		got[n] = '\0';
		if (memmem(got, n, token, strlen(token)))
			return 0;
	}
}

static void drain(int fd)
{
	char b[256];

	while (read(fd, b, sizeof(b)) > 0)
		;
}

static void printable(char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = '.';
}

/* Bytes go from FD to the far end and back (tty: both ways; gnss: read
 * direction unless a gpsd competes for it). */
static int bytes_both_ways(int fd, int far, const char *what, bool to_dev)
{
	char tok[48], got[256];

	drain(far);
	snprintf(tok, sizeof(tok), "o%lu.%llx", step, seed);
	if (write(fd, tok, strlen(tok)) != (ssize_t)strlen(tok))
		return fail("%s: write of '%s' failed: %s", what, tok, strerror(errno));
	if (read_token(far, tok, 3000, got, sizeof(got))) {
		printable(got);
		return fail("%s: '%s' written to it did not reach the far end (got '%s')",
			    what, tok, got);
	}
	if (!to_dev)
		return 0;
	snprintf(tok, sizeof(tok), "i%lu.%llx\r\n", step, seed);
	if (write(far, tok, strlen(tok)) != (ssize_t)strlen(tok))
		return fail("far end: write failed: %s", strerror(errno));
	tok[strlen(tok) - 2] = '\0';
	if (read_token(fd, tok, 3000, got, sizeof(got))) {
		printable(got);
		return fail("%s: '%s' written to the far end did not reach it (got '%s')",
			    what, tok, got);
	}
	return 0;
}

/* ---- the operations ----------------------------------------------------------- */

static int op_tty_open(void)
{
	int fd, want = m.bound ? -ENOENT : 0, got;

	snprintf(step_desc, sizeof(step_desc), "open %s (%d held)", TTY_NODE, m.ntty);
	if (model_only) {
		got = want;
		fd = 99;
	} else {
		fd = open(TTY_NODE, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		got = fd < 0 ? -errno : 0;
	}
	if (got == 0 && want == 0) {
		if (!model_only)
			set_raw(fd, B115200);
		tty_fd[m.ntty++] = fd;
		return 0;
	}
	if (got == 0 && !model_only)
		close(fd);
	if (got < 0)
		ev[EV_TTY_OPEN_REFUSED]++;
	return expect("open " TTY_NODE, got, want);
}

static int op_tty_close(void)
{
	snprintf(step_desc, sizeof(step_desc), "close %s (%d held)", TTY_NODE, m.ntty);
	m.ntty--;
	if (!model_only)
		close(tty_fd[m.ntty]);
	tty_fd[m.ntty] = -1;
	if (m.ntty == 0 && m.pending) {
		/* the last close: the deferred bind happens now */
		m.pending = PEND_NONE;
		m.bound = true;
		ev[EV_BIND]++;
		ev[EV_DEFERRED_BIND]++;
	}
	return 0;
}

static int op_tty_bytes(void)
{
	int fd, r, which;

	if (m.bound) {
		snprintf(step_desc, sizeof(step_desc), "tty bytes: %s is gone (bound)", TTY_NODE);
		if (model_only)
			return 0;
		if (exists(TTY_NODE))
			return fail(TTY_NODE " is there while gnss-sirf is bound");
		return 0;
	}
	which = m.ntty ? (int)rng_below(m.ntty) : -1;
	snprintf(step_desc, sizeof(step_desc), "tty bytes both ways (%s fd)",
		 m.ntty ? "held" : "new");
	ev[EV_TTY_ROUNDTRIP]++;
	if (model_only)
		return 0;
	if (m.ntty) {
		fd = tty_fd[which];
	} else {
		fd = open(TTY_NODE, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return fail("open " TTY_NODE " with no driver bound: %s", strerror(errno));
		set_raw(fd, B115200);
	}
	tcflush(fd, TCIOFLUSH);
	r = bytes_both_ways(fd, far_fd, TTY_NODE, true);
	if (!m.ntty)
		close(fd);
	return r;
}

static int op_stale_open(void)
{
	int fd, got, want = m.bound ? -EBUSY : 0;

	snprintf(step_desc, sizeof(step_desc), "open the stale node of %s", TTY);
	if (model_only) {
		got = want;
	} else {
		fd = open(STALE, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		got = fd < 0 ? -errno : 0;
		if (fd >= 0)
			close(fd);
	}
	ev[got ? EV_STALE_EBUSY : EV_STALE_OPEN]++;
	return expect("open of a stale node of " TTY, got, want);
}

static int open_gnss(int *fd)
{
	char p[64];

	snprintf(p, sizeof(p), "/dev/%s", gnss_name);
	*fd = open(p, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0)
		return fail("open %s (gnss-sirf bound): %s", p, strerror(errno));
	return 0;
}

static int op_gnss_bytes(void)
{
	int fd, r;
	bool read_dir = !m.gpsd;

	if (!m.bound) {
		snprintf(step_desc, sizeof(step_desc), "gnss bytes: none (not bound)");
		return 0;	/* settle() checks that no gnss device is there */
	}
	snprintf(step_desc, sizeof(step_desc), "gnss bytes %s (%s fd)",
		 read_dir ? "both ways" : "to the far end (gpsd reads)",
		 m.gnss_held && !m.gnss_stale ? "held" : "new");
	ev[read_dir ? EV_GNSS_ROUNDTRIP : EV_GNSS_WRITE]++;
	if (model_only)
		return 0;
	if (m.gnss_held && !m.gnss_stale)
		fd = gnss_fd;
	else if (open_gnss(&fd))
		return -1;
	r = bytes_both_ways(fd, far_fd, gnss_name, read_dir);
	if (fd != gnss_fd)
		close(fd);
	return r;
}

static int op_gnss_hold(void)
{
	if (m.gnss_held) {
		snprintf(step_desc, sizeof(step_desc), "close the held gnss fd%s",
			 m.gnss_stale ? " (its device is gone)" : "");
		if (!model_only)
			close(gnss_fd);
		gnss_fd = -1;
		m.gnss_held = m.gnss_stale = false;
		return 0;
	}
	if (!m.bound) {
		snprintf(step_desc, sizeof(step_desc), "hold a gnss fd: none (not bound)");
		return 0;
	}
	snprintf(step_desc, sizeof(step_desc), "hold /dev/%s open", gnss_name);
	if (!model_only && open_gnss(&gnss_fd))
		return -1;
	m.gnss_held = true;
	m.gnss_stale = false;
	return 0;
}

static void gpsd_reap(bool wait_for_it)
{
	int st;

	if (model_only || !gpsd_pid)
		return;
	if (!wait_for_it) {
		/* the model still says "started": a replay takes the same steps */
		if (waitpid(gpsd_pid, &st, WNOHANG) == gpsd_pid) {
			ev[EV_GPSD_EXITED]++;
			trace_line("       gpsd %d ended by itself (status 0x%x)", gpsd_pid, st);
			gpsd_pid = 0;
		}
		return;
	}
	kill(gpsd_pid, SIGTERM);
	for (int i = 0; i < 300; i++) {
		if (waitpid(gpsd_pid, &st, WNOHANG) == gpsd_pid) {
			gpsd_pid = 0;
			return;
		}
		sleep_ms(10);
	}
	kill(gpsd_pid, SIGKILL);
	waitpid(gpsd_pid, &st, 0);
	gpsd_pid = 0;
}

static int op_gpsd(void)
{
	char dev[64];

	gpsd_reap(false);
	if (m.gpsd) {
		snprintf(step_desc, sizeof(step_desc), "stop gpsd%s", gpsd_pid ? "" : " (it had ended)");
		gpsd_reap(true);
		m.gpsd = false;
		return 0;
	}
	if (!m.bound) {
		snprintf(step_desc, sizeof(step_desc), "start gpsd: no gnss (not bound)");
		return 0;
	}
	snprintf(dev, sizeof(dev), "/dev/%s", gnss_name);
	snprintf(step_desc, sizeof(step_desc), "start gpsd -N -n -b %s", dev);
	m.gpsd = true;
	if (model_only)
		return 0;
	fflush(stdout);
	gpsd_pid = fork();
	if (gpsd_pid < 0)
		return fail("fork: %s", strerror(errno));
	if (gpsd_pid == 0) {
		int fd = open(GPSD_LOG, O_WRONLY | O_CREAT | O_APPEND, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execlp("gpsd", "gpsd", "-N", "-n", "-b", dev, (char *)NULL);
		_exit(127);
	}
	return 0;
}

static int table_load(void)
{
	int r;

	if (model_only)
		return 0;
	if (mkdir(TABLE_DIR, 0755))
		return -errno;
	r = write_file(TABLE_DIR "/aml", aml, aml_len);
	if (r)
		rmdir(TABLE_DIR);
	return r;
}

static int table_unload(void)
{
	if (model_only)
		return 0;
	return rmdir(TABLE_DIR) ? -errno : 0;
}

static void model_table_load(void)
{
	m.table = true;
	if (m.slot == SLOT_NONE)
		model_enter(SLOT_TABLE);
	/* else: "controller busy"; added when the slot frees */
}

static void model_table_unload(void)
{
	m.table = false;
	if (m.slot == SLOT_TABLE)
		model_leave();
}

static int op_table(void)
{
	if (m.table) {
		snprintf(step_desc, sizeof(step_desc), "unload the table (rmdir)");
		if (expect("rmdir " TABLE_DIR, table_unload(), 0))
			return -1;
		model_table_unload();
		return 0;
	}
	snprintf(step_desc, sizeof(step_desc), "load the table%s",
		 m.slot == SLOT_MANUAL ? " (slot taken by hand)" : "");
	if (expect("load " TABLE_AML " through configfs", table_load(), 0))
		return -1;
	model_table_load();
	return 0;
}

/* The table unloaded and loaded again with no pause: the old device's
 * removal may still be in progress when the new one is added. */
static int op_table_reload(void)
{
	if (!m.table)
		return op_table();
	snprintf(step_desc, sizeof(step_desc), "reload the table, no pause");
	if (expect("rmdir " TABLE_DIR, table_unload(), 0))
		return -1;
	model_table_unload();
	if (expect("load " TABLE_AML " again at once", table_load(), 0))
		return -1;
	model_table_load();
	return 0;
}

static int overlay_apply(char *status, size_t len)
{
	char *st;
	int r;

	if (model_only)
		return 0;
	if (mkdir(OVERLAY_DIR, 0755))
		return -errno;
	/* configfs hands the blob over on close: the status tells */
	r = write_file(OVERLAY_DIR "/dtbo", dtbo, dtbo_len);
	st = read_all(OVERLAY_DIR "/status", NULL);
	snprintf(status, len, "%s", st ? st : "(no status)");
	free(st);
	status[strcspn(status, "\n")] = '\0';
	return r;
}

static int op_overlay(void)
{
	char status[64] = "applied";
	const char *want = m.slot == SLOT_NONE ? "applied" : "error -16";

	if (!dtbo && !model_only)
		return 0;
	if (m.overlay) {
		snprintf(step_desc, sizeof(step_desc), "remove the overlay (rmdir)");
		if (expect("rmdir " OVERLAY_DIR, model_only ? 0 : rmdir(OVERLAY_DIR) ? -errno : 0, 0))
			return -1;
		m.overlay = false;
		if (m.slot == SLOT_OVERLAY)
			model_leave();
		return 0;
	}
	snprintf(step_desc, sizeof(step_desc), "apply the overlay%s",
		 m.slot != SLOT_NONE ? " (slot taken: refused)" : "");
	if (expect("apply " OVERLAY_DTBO " through configfs", overlay_apply(status, sizeof(status)), 0))
		return -1;
	if (!model_only && strcmp(status, want))
		return fail("overlay status: expected '%s', got '%s'", want, status);
	if (m.slot != SLOT_NONE) {
		/* refused before anything was applied: take the directory away */
		ev[EV_OVERLAY_REFUSED]++;
		if (expect("rmdir of the refused overlay", model_only ? 0 : rmdir(OVERLAY_DIR) ? -errno : 0, 0))
			return -1;
		return 0;
	}
	m.overlay = true;
	model_enter(SLOT_OVERLAY);
	return 0;
}

static int op_new_device(void)
{
	char p[PATH_MAX];
	int want = m.slot == SLOT_NONE ? 0 : -EBUSY, got = want;

	snprintf(step_desc, sizeof(step_desc), "new_device %s%s", COMPATIBLE,
		 want ? " (slot taken)" : "");
	snprintf(p, sizeof(p), "%s/new_device", ctrl_path);
	if (!model_only)
		got = write_str(p, COMPATIBLE "\n");
	if (expect("new_device", got, want))
		return -1;
	if (want)
		ev[EV_NEW_DEVICE_EBUSY]++;
	else
		model_enter(SLOT_MANUAL);
	return 0;
}

static int op_delete_device(void)
{
	char p[PATH_MAX], name[80];
	int want = m.slot == SLOT_MANUAL ? 0 : -ENODEV, got = want;

	/* a name that is no device when the controller has none */
	snprintf(name, sizeof(name), "%s", dev_name[0] ? dev_name : "serial99-0");
	snprintf(step_desc, sizeof(step_desc), "delete_device %s%s", name,
		 m.slot == SLOT_TABLE ? " (the table's)" : m.slot == SLOT_NONE ? " (none)" : "");
	snprintf(p, sizeof(p), "%s/delete_device", ctrl_path);
	strcat(name, "\n");
	if (!model_only)
		got = write_str(p, name);
	if (expect("delete_device", got, want))
		return -1;
	if (want)
		ev[EV_DELETE_REFUSED]++;
	else
		model_leave();
	return 0;
}

static int op_unbind(void)
{
	int want = m.bound ? 0 : -ENODEV, got = want;

	if (!dev_name[0]) {
		snprintf(step_desc, sizeof(step_desc), "unbind: no device seen yet");
		return 0;
	}
	snprintf(step_desc, sizeof(step_desc), "unbind %s%s", dev_name, m.bound ? "" : " (not bound)");
	if (!model_only)
		got = write_str(SIRF "/unbind", dev_name);
	if (expect("gnss-sirf/unbind", got, want))
		return -1;
	if (want) {
		ev[EV_REFUSED_UNBIND]++;
	} else {
		ev[EV_UNBIND_BOUND]++;
		model_unbind();
	}
	return 0;
}

static int op_bind(void)
{
	int want, got;
	bool dev = m.slot != SLOT_NONE;

	if (!dev_name[0]) {
		snprintf(step_desc, sizeof(step_desc), "bind: no device seen yet");
		return 0;
	}
	if (!dev)
		want = -ENODEV;
	else if (m.bound)
		want = -EBUSY;
	else if (m.ntty)
		want = -EAGAIN;	/* -EPROBE_DEFER: deferred until the last close */
	else
		want = 0;
	got = want;
	snprintf(step_desc, sizeof(step_desc), "bind %s%s", dev_name,
		 !dev ? " (no device)" : m.bound ? " (bound)" : m.ntty ? " (tty open)" : "");
	if (!model_only)
		got = write_str(SIRF "/bind", dev_name);
	if (expect("gnss-sirf/bind", got, want))
		return -1;
	if (want == -EAGAIN) {
		m.unbound = false;
		if (!m.pending) {
			m.pending = PEND_SYSFS;
			ev[EV_SYSFS_BIND_DEFERRED]++;
		}
	} else if (want) {
		ev[EV_REFUSED_BIND]++;
	} else {
		m.unbound = false;
		m.bound = true;
		ev[EV_BIND]++;
	}
	return 0;
}

/*
 * A race: a child opens and closes /dev/ttyS1 and the stale node as fast as
 * it can (some opens hold the tty for 5 ms) while this process adds or
 * removes the description, binds or unbinds; then the child is killed.
 * Whatever the interleaving, once the child's fds are closed the state is
 * the one the model predicts with the tty closed: a bind the child's open
 * deferred has happened at its last close.  Only a sysfs bind may fail with
 * EAGAIN (deferred by the child's open) as well as succeed.
 */
static pid_t opener_start(void)
{
	pid_t pid;

	fflush(stdout);
	if (trace)
		fflush(trace);
	pid = fork();
	if (pid)
		return pid;
	for (unsigned long n = 0;; n++) {
		int fd = open(n & 1 ? STALE : TTY_NODE, O_RDWR | O_NOCTTY | O_NONBLOCK);

		if (fd < 0)
			continue;
		if (n % 3 == 0)
			sleep_ms(5);
		close(fd);
	}
}

static void opener_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

enum race {
	RACE_TABLE_LOAD, RACE_NEW_DEVICE, RACE_OVERLAY_APPLY, RACE_UNBIND,
	RACE_REMOVE, RACE_BIND
};

static int op_race(void)
{
	static const char *const what[] = {
		"load the table", "new_device", "apply the overlay", "unbind",
		"remove the description", "bind",
	};
	char p[PATH_MAX], status[64] = "applied";
	enum race rc;
	pid_t pid = 0;
	int got = 0, want = 0, lead;

	if (m.ntty)
		return op_tty_close();
	if (m.slot == SLOT_NONE)
		rc = (enum race)rng_below(3);
	else if (m.bound)
		rc = rng_below(2) ? RACE_UNBIND : RACE_REMOVE;
	else
		rc = RACE_BIND;
	if (rc == RACE_OVERLAY_APPLY && !dtbo && !model_only)
		rc = RACE_TABLE_LOAD;
	lead = (int)rng_below(20);	/* ms of opens before the action */
	if (rc == RACE_REMOVE)
		snprintf(step_desc, sizeof(step_desc), "remove the %s description against opens",
			 slot_name[m.slot]);
	else
		snprintf(step_desc, sizeof(step_desc), "%s against opens", what[rc]);
	if (!model_only) {
		pid = opener_start();
		if (pid < 0)
			return fail("fork: %s", strerror(errno));
		sleep_ms(lead);
	}
	switch (rc) {
	case RACE_TABLE_LOAD:
		got = table_load();
		break;
	case RACE_NEW_DEVICE:
		snprintf(p, sizeof(p), "%s/new_device", ctrl_path);
		got = model_only ? 0 : write_str(p, COMPATIBLE "\n");
		break;
	case RACE_OVERLAY_APPLY:
		got = overlay_apply(status, sizeof(status));
		break;
	case RACE_UNBIND:
		got = model_only ? 0 : write_str(SIRF "/unbind", dev_name);
		break;
	case RACE_REMOVE:
		if (m.slot == SLOT_TABLE) {
			got = table_unload();
		} else if (m.slot == SLOT_OVERLAY) {
			got = model_only ? 0 : rmdir(OVERLAY_DIR) ? -errno : 0;
		} else {
			snprintf(p, sizeof(p), "%s/delete_device", ctrl_path);
			got = model_only ? 0 : write_str(p, dev_name);
		}
		break;
	case RACE_BIND:
		got = model_only ? 0 : write_str(SIRF "/bind", dev_name);
		if (got == -EAGAIN)
			want = -EAGAIN;
		break;
	}
	if (!model_only) {
		sleep_ms(30);
		opener_stop(pid);
	}
	if (expect(what[rc], got, want))
		return -1;
	if (rc == RACE_OVERLAY_APPLY && !model_only && strcmp(status, "applied"))
		return fail("overlay status: expected 'applied', got '%s'", status);
	ev[EV_RACE]++;
	switch (rc) {
	case RACE_TABLE_LOAD:
		model_table_load();
		break;
	case RACE_NEW_DEVICE:
		model_enter(SLOT_MANUAL);
		break;
	case RACE_OVERLAY_APPLY:
		m.overlay = true;
		model_enter(SLOT_OVERLAY);
		break;
	case RACE_UNBIND:
		model_unbind();
		break;
	case RACE_REMOVE:
		if (m.slot == SLOT_TABLE)
			model_table_unload();
		else if (m.slot == SLOT_OVERLAY)
			m.overlay = false, model_leave();
		else
			model_leave();
		break;
	case RACE_BIND:
		if (want == -EAGAIN)
			ev[EV_RACE_BIND_DEFERRED]++;
		m.unbound = false;
		m.bound = true;
		ev[EV_BIND]++;
		break;
	}
	return 0;
}

/* ---- the USB port ------------------------------------------------------------ */

static void __attribute__((format(printf, 1, 2))) desc_add(const char *fmt, ...)
{
	size_t n = strlen(step_desc);
	va_list ap;

	if (n && n < sizeof(step_desc) - 2) {
		memcpy(step_desc + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(step_desc + n, sizeof(step_desc) - n, fmt, ap);
	va_end(ap);
}

/* One request to the host (scripts/hostctl.c), one answer line: "ok ..." */
static int host_request(const char *req)
{
	char line[64], ans[512];
	size_t n = 0;
	double end = now_ms() + 30000;

	if (model_only)
		return 0;
	snprintf(line, sizeof(line), "%s\n", req);
	if (write(hostctl_fd, line, strlen(line)) != (ssize_t)strlen(line))
		return fail("write of '%s' to " HOSTCTL ": %s", req, strerror(errno));
	ans[0] = '\0';
	for (;;) {
		int left = (int)(end - now_ms());
		struct pollfd p = { hostctl_fd, POLLIN, 0 };
		ssize_t r;

		if (left <= 0)
			return fail("host %s: no answer in 30 s (got '%s')", req, ans);
		if (poll(&p, 1, left) <= 0)
			continue;
		r = read(hostctl_fd, ans + n, sizeof(ans) - 1 - n);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r <= 0)
			return fail("host %s: read of " HOSTCTL ": %s", req, r ? strerror(errno) : "EOF");
		n += r;
		ans[n] = '\0';
		if (strchr(ans, '\n') || n == sizeof(ans) - 1)
			break;
	}
	ans[strcspn(ans, "\n")] = '\0';
	if (strncmp(ans, "ok", 2))
		return fail("host %s: the host answered '%s'", req, ans);
	return 0;
}

/*
 * An fd whose device has gone (adapter unplugged: the tty hung up; GPS
 * unbound or removed: the gnss device disconnected): reads give what was
 * queued, then EOF (or EIO), never EAGAIN; a write fails.
 */
static int check_stale(int fd, const char *what)
{
	char b[256];
	ssize_t r = 0;

	if (model_only)
		return 0;
	for (int i = 0; i < 64; i++) {
		r = read(fd, b, sizeof(b));
		if (r <= 0)
			break;
	}
	if (r > 0)
		return fail("%s: a held fd of a device that has gone still reads bytes", what);
	if (r < 0 && errno != EIO)
		return fail("%s: read of a held fd of a device that has gone: %s (expected EOF or EIO)",
			    what, strerror(errno));
	if (write(fd, "x", 1) >= 0)
		return fail("%s: write on a held fd of a device that has gone succeeded", what);
	return 0;
}

/* Close a held fd: 0, or a failure if close() fails. */
static int close_held(int *fd, const char *what)
{
	int r = 0;

	if (!model_only && close(*fd))
		r = fail("close of the held %s fd: %s", what, strerror(errno));
	*fd = -1;
	return r;
}

static bool usb_tty_live(const struct uport *up)
{
	return up->m.tty_held && !up->m.tty_stale;
}

/* The GPS leaves the port (delete_device, unplug), bound or not. */
static void usb_model_leave(struct uport *up)
{
	struct umodel *u = &up->m;

	u->dev = u->bound = u->unbound = false;
	u->pending = PEND_NONE;
	if (u->gnss_held)
		u->gnss_stale = true;
}

static int usb_tty_open(struct uport *up)
{
	char p[64];
	int fd = 99, got = 0;

	snprintf(p, sizeof(p), "/dev/%s", up->port);
	desc_add("hold %s open", p);
	if (!model_only) {
		fd = open(p, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		got = fd < 0 ? -errno : 0;
	}
	if (expect("open of the USB port's tty (no driver bound)", got, 0))
		return -1;
	if (!model_only)
		set_raw(fd, B115200);
	up->tty_fd = fd;
	snprintf(up->held_port, sizeof(up->held_port), "%s", up->port);
	up->m.tty_held = true;
	up->m.tty_stale = false;
	return 0;
}

static int usb_tty_close(struct uport *up)
{
	struct umodel *u = &up->m;
	bool stale = u->tty_stale;

	desc_add("close the held tty fd%s", stale ? " (its adapter is gone)" : "");
	if (stale && check_stale(up->tty_fd, "the USB port's tty (unplugged)"))
		return -1;
	if (close_held(&up->tty_fd, "tty"))
		return -1;
	u->tty_held = u->tty_stale = false;
	if (stale) {
		up->ev[UEV_STALE_CLOSED]++;
	} else if (u->pending) {
		/* the last close: the deferred bind happens now */
		u->pending = PEND_NONE;
		u->bound = true;
		up->ev[UEV_BIND]++;
		up->ev[UEV_DEFERRED_BIND]++;
	}
	return 0;
}

static int usb_gnss_open(struct uport *up)
{
	char p[64];
	int fd = 99, got = 0;

	snprintf(p, sizeof(p), "/dev/%s", up->gnss_name);
	desc_add("hold %s open", p);
	if (!model_only) {
		fd = open(p, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		got = fd < 0 ? -errno : 0;
	}
	if (expect("open of the USB GPS's gnss device (bound)", got, 0))
		return -1;
	up->gnss_fd = fd;
	up->m.gnss_held = true;
	up->m.gnss_stale = false;
	return 0;
}

static int usb_gnss_close(struct uport *up)
{
	bool stale = up->m.gnss_stale;

	desc_add("close the held gnss fd%s", stale ? " (its device is gone)" : "");
	if (stale && check_stale(up->gnss_fd, "gnss of the USB GPS (gone)"))
		return -1;
	if (close_held(&up->gnss_fd, "gnss"))
		return -1;
	if (stale)
		up->ev[UEV_STALE_CLOSED]++;
	up->m.gnss_held = up->m.gnss_stale = false;
	return 0;
}

static int usb_new_device(struct uport *up)
{
	struct umodel *u = &up->m;
	char p[PATH_MAX];
	int want = u->dev ? -EBUSY : 0, got = want;

	desc_add("new_device %s%s", COMPATIBLE, u->dev ? " (slot taken)" : "");
	snprintf(p, sizeof(p), "%s/new_device", up->ctrl_path);
	if (!model_only)
		got = write_str(p, COMPATIBLE "\n");
	if (expect("new_device of the USB port", got, want))
		return -1;
	if (want) {
		up->ev[UEV_NEW_DEVICE_EBUSY]++;
		return 0;
	}
	u->dev = true;
	u->unbound = false;
	if (usb_tty_live(up)) {
		u->pending = PEND_PROBE;
	} else {
		u->bound = true;
		up->ev[UEV_BIND]++;
	}
	return 0;
}

static int usb_delete_device(struct uport *up)
{
	char p[PATH_MAX], name[80];
	int want = up->m.dev ? 0 : -ENODEV, got = want;

	/* with no device: the last one seen, or a name that never was one */
	snprintf(name, sizeof(name), "%s", up->dev_name[0] ? up->dev_name : "serial99-0");
	desc_add("delete_device %s%s", name, up->m.dev ? "" : " (none)");
	snprintf(p, sizeof(p), "%s/delete_device", up->ctrl_path);
	strcat(name, "\n");
	if (!model_only)
		got = write_str(p, name);
	if (expect("delete_device of the USB port", got, want))
		return -1;
	if (!want) {
		up->ev[UEV_DELETE]++;
		usb_model_leave(up);
	}
	return 0;
}

static int usb_unbind(struct uport *up)
{
	int got = 0;

	desc_add("unbind %s", up->dev_name);
	if (!model_only)
		got = write_str(SIRF "/unbind", up->dev_name);
	if (expect("gnss-sirf/unbind of the USB GPS", got, 0))
		return -1;
	up->ev[UEV_UNBIND]++;
	up->m.bound = false;
	up->m.unbound = true;
	if (up->m.gnss_held)
		up->m.gnss_stale = true;
	return 0;
}

static int usb_bind(struct uport *up)
{
	struct umodel *u = &up->m;
	int want = usb_tty_live(up) ? -EAGAIN : 0, got = want;

	desc_add("bind %s%s", up->dev_name, want ? " (tty open)" : "");
	if (!model_only)
		got = write_str(SIRF "/bind", up->dev_name);
	if (expect("gnss-sirf/bind of the USB GPS", got, want))
		return -1;
	u->unbound = false;
	if (!want) {
		u->bound = true;
		up->ev[UEV_BIND]++;
	} else if (!u->pending) {
		u->pending = PEND_SYSFS;
		up->ev[UEV_SYSFS_BIND_DEFERRED]++;
	}
	return 0;
}

/*
 * Plug or unplug: the FTDI adapter by the host (QMP device_add/del of its
 * usb-serial device); the ACM gadget by binding it to its UDC, or writing
 * an empty line to its UDC file (USB gadget configfs).
 */
static int usb_host_plug(struct uport *up, bool plug)
{
	char req[48];
	int got = 0;

	if (!up->gadget) {
		snprintf(req, sizeof(req), "usb-%s %.31s", plug ? "add" : "del", up->wire);
		return host_request(req);
	}
	if (!model_only)
		got = write_str(up->udc_file, plug ? up->udc : "\n");
	if (got)
		return fail("%s: write of '%s' to %s: %s", up->what, plug ? up->udc : "",
			    up->udc_file, strerror(-got));
	return 0;
}

/*
 * The gadget's far end (ttyGSn) after a plug: u_serial hangs up whoever
 * holds it open at an unplug, so it is opened anew at each plug.
 */
static int usb_far_open(struct uport *up)
{
	if (!up->gadget || model_only)
		return 0;
	if (up->far_fd >= 0)
		close(up->far_fd);
	up->far_fd = open(up->far_path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (up->far_fd < 0)
		return fail("open of %s (the gadget's far end) after the plug: %s",
			    up->far_path, strerror(errno));
	drain(up->far_fd);
	return 0;
}

static int usb_plug(struct uport *up)
{
	struct umodel *u = &up->m;

	desc_add("plug %s (%s %s)%s", up->what, up->gadget ? "UDC bind of" : "host usb-add",
		 up->wire, u->tty_held || u->gnss_held ? " with an old fd held" : "");
	if (usb_host_plug(up, true))
		return -1;
	up->ev[UEV_PLUG]++;
	if (u->tty_held || u->gnss_held)
		up->ev[UEV_PLUG_STALE_HELD]++;
	u->plugged = true;
	if (settle() || usb_far_open(up))
		return -1;
	desc_add("%s", up->port);	/* ttyUSB1 while the last one's tty is held */
	/* the held fd keeps its tty's minor: the new port has another */
	if (!model_only && u->tty_held && !strcmp(up->port, up->held_port))
		return fail("%s: the new port is %s, the tty still held open from before "
			    "the unplug", up->what, up->port);
	return 0;
}

/* Unplug; then the fds held on the port read EOF and fail writes. */
static int usb_unplug(struct uport *up)
{
	struct umodel *u = &up->m;
	bool tty = usb_tty_live(up), gnss = u->gnss_held && !u->gnss_stale;

	desc_add("unplug %s (%s %s)%s%s%s", up->what, up->gadget ? "UDC unbind of" : "host usb-del",
		 up->wire, u->bound ? ": GPS bound" : u->pending ? ": GPS's bind pending" :
		 u->dev ? ": GPS not bound" : "", gnss ? ", gnss fd held" : "",
		 tty ? ", tty fd held" : "");
	if (usb_host_plug(up, false))
		return -1;
	up->ev[UEV_UNPLUG]++;
	up->ev[UEV_UNPLUG_BOUND] += u->bound;
	up->ev[UEV_UNPLUG_GNSS_HELD] += gnss;
	up->ev[UEV_UNPLUG_TTY_HELD] += tty;
	up->ev[UEV_UNPLUG_PENDING] += u->pending != PEND_NONE;
	up->ev[UEV_UNPLUG_DEVICE] += u->dev;
	u->unplugs++;
	u->plugged = false;
	usb_model_leave(up);
	if (u->tty_held)
		u->tty_stale = true;
	if (settle())
		return -1;
	if (tty && check_stale(up->tty_fd, "the held tty fd after the unplug"))
		return -1;
	if (gnss && check_stale(up->gnss_fd, "the held gnss fd after the unplug"))
		return -1;
	if (up->gadget && up->far_fd >= 0) {
		close(up->far_fd);
		up->far_fd = -1;
	}
	return 0;
}

/* Bytes both ways between the far end and the port's tty, or the GPS's gnssN. */
static int op_usb_bytes(struct uport *up)
{
	const struct umodel *u = &up->m;
	char p[64];
	bool gnss = u->bound, held = gnss ? u->gnss_held && !u->gnss_stale : usb_tty_live(up);
	int fd, r;

	if (!u->plugged) {
		desc_add("%s bytes: not plugged", up->tag);
		return 0;
	}
	snprintf(p, sizeof(p), "/dev/%s", gnss ? up->gnss_name : up->port);
	desc_add("%s bytes both ways through %s (%s fd)", up->tag, p, held ? "held" : "new");
	up->ev[gnss ? UEV_GNSS_ROUNDTRIP : UEV_TTY_ROUNDTRIP]++;
	if (model_only)
		return 0;
	if (held) {
		fd = gnss ? up->gnss_fd : up->tty_fd;
	} else {
		fd = open(p, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return fail("open %s (%s): %s", p, gnss ? "gnss-sirf bound" :
				    "no driver bound", strerror(errno));
		if (!gnss)
			set_raw(fd, B115200);
	}
	if (!gnss)
		tcflush(fd, TCIOFLUSH);
	r = bytes_both_ways(fd, up->far_fd, p + 5, true);
	if (!held)
		close(fd);
	return r;
}

/*
 * usb_plug: plug the port's adapter, or unplug it.  Unplugs take turns at
 * how: the first with the GPS bound and its /dev/gnssN held open (made so
 * first: new_device or bind, and the fd opened), the second with the tty
 * held open and the GPS's bind pending on it (unbound, the tty opened,
 * then new_device or bind); bytes go both ways through the held fd just
 * before the unplug takes it away.  The third as the other steps left the
 * port; and again.  So every run that unplugs a port three times has
 * unplugged it under both (the model decides, not the seed: a replay
 * takes the same turns).
 */
static int op_usb_plug(struct uport *up)
{
	struct umodel *u = &up->m;

	if (!u->plugged)
		return usb_plug(up);
	switch (u->unplugs % 3) {
	case 0:		/* with the GPS bound and its gnss fd held */
		if (u->tty_held && usb_tty_close(up))
			return -1;
		if (!u->dev) {
			if (usb_new_device(up))
				return -1;
		} else if (!u->bound && usb_bind(up)) {
			return -1;
		}
		if (settle())
			return -1;
		if (u->gnss_held && u->gnss_stale && usb_gnss_close(up))
			return -1;
		if (!u->gnss_held && usb_gnss_open(up))
			return -1;
		if (op_usb_bytes(up))
			return -1;
		break;
	case 1:		/* with the tty held, and a bind pending on it */
		if (u->bound && usb_unbind(up))
			return -1;
		if (settle())
			return -1;
		if (u->tty_held && u->tty_stale && usb_tty_close(up))
			return -1;
		if (!u->tty_held && usb_tty_open(up))
			return -1;
		if (!u->dev) {
			if (usb_new_device(up))
				return -1;
		} else if (!u->pending && usb_bind(up)) {
			return -1;
		}
		if (settle() || op_usb_bytes(up))
			return -1;
		break;
	}
	return usb_unplug(up);
}

static int op_usb_new_device(struct uport *up)
{
	if (!up->m.plugged) {
		desc_add("%s new_device: not plugged", up->tag);
		return 0;
	}
	return usb_new_device(up);
}

static int op_usb_delete_device(struct uport *up)
{
	if (!up->m.plugged) {
		desc_add("%s delete_device: not plugged", up->tag);
		return 0;
	}
	return usb_delete_device(up);
}

/* unbind the USB GPS if bound, else bind it */
static int op_usb_bind(struct uport *up)
{
	if (!up->m.plugged || !up->m.dev) {
		desc_add("%s bind/unbind: no GPS on the port", up->tag);
		return 0;
	}
	return up->m.bound ? usb_unbind(up) : usb_bind(up);
}

/*
 * Hold or let go: an fd whose device has gone is closed first (checked:
 * EOF, writes fail); else, on the plugged port, the GPS's gnss fd while it
 * is bound, the tty's while not.
 */
static int op_usb_hold(struct uport *up)
{
	const struct umodel *u = &up->m;

	if (u->tty_held && u->tty_stale)
		return usb_tty_close(up);
	if (u->gnss_held && u->gnss_stale)
		return usb_gnss_close(up);
	if (!u->plugged) {
		desc_add("%s hold: not plugged", up->tag);
		return 0;
	}
	if (u->bound)
		return u->gnss_held ? usb_gnss_close(up) : usb_gnss_open(up);
	return u->tty_held ? usb_tty_close(up) : usb_tty_open(up);
}

/* ---- choosing --------------------------------------------------------------- */

enum op {
	OP_TTY_OPEN, OP_TTY_CLOSE, OP_TTY_BYTES, OP_STALE_OPEN, OP_GNSS_BYTES,
	OP_GNSS_HOLD, OP_GPSD, OP_TABLE, OP_TABLE_RELOAD, OP_OVERLAY, OP_NEW_DEVICE,
	OP_DELETE_DEVICE, OP_UNBIND, OP_BIND, OP_RACE,
	OP_USB_PLUG, OP_USB_NEW_DEVICE, OP_USB_DELETE_DEVICE, OP_USB_BIND, OP_USB_HOLD,
	OP_USB_BYTES,
	OP_ACM_PLUG, OP_ACM_NEW_DEVICE, OP_ACM_DELETE_DEVICE, OP_ACM_BIND, OP_ACM_HOLD,
	OP_ACM_BYTES, OP_N
};

static const struct {
	const char *name;
	unsigned int weight;
	int (*fn)(void);		/* a step on COM2 */
	int (*ufn)(struct uport *);	/* a step on the USB port UP */
	struct uport *up;
} ops[OP_N] = {
	[OP_TTY_OPEN]		= { "tty_open", 14, op_tty_open },
	[OP_TTY_CLOSE]		= { "tty_close", 14, op_tty_close },
	[OP_TTY_BYTES]		= { "tty_bytes", 14, op_tty_bytes },
	[OP_STALE_OPEN]		= { "stale_open", 10, op_stale_open },
	[OP_GNSS_BYTES]		= { "gnss_bytes", 10, op_gnss_bytes },
	[OP_GNSS_HOLD]		= { "gnss_hold", 5, op_gnss_hold },
	[OP_GPSD]		= { "gpsd", 2, op_gpsd },
	[OP_TABLE]		= { "table", 5, op_table },
	[OP_TABLE_RELOAD]	= { "table_reload", 1, op_table_reload },
	[OP_OVERLAY]		= { "overlay", 3, op_overlay },
	[OP_NEW_DEVICE]		= { "new_device", 4, op_new_device },
	[OP_DELETE_DEVICE]	= { "delete_device", 4, op_delete_device },
	[OP_UNBIND]		= { "unbind", 5, op_unbind },
	[OP_BIND]		= { "bind", 7, op_bind },
	[OP_RACE]		= { "race", 3, op_race },
	/* the FTDI adapter: a plug or an unplug takes 1 to 2 s under TCG */
	[OP_USB_PLUG]		= { "usb_plug", 2, NULL, op_usb_plug, &uports[0] },
	[OP_USB_NEW_DEVICE]	= { "usb_new_device", 1, NULL, op_usb_new_device, &uports[0] },
	[OP_USB_DELETE_DEVICE]	= { "usb_delete_device", 1, NULL, op_usb_delete_device, &uports[0] },
	[OP_USB_BIND]		= { "usb_bind", 1, NULL, op_usb_bind, &uports[0] },
	[OP_USB_HOLD]		= { "usb_hold", 2, NULL, op_usb_hold, &uports[0] },
	[OP_USB_BYTES]		= { "usb_bytes", 2, NULL, op_usb_bytes, &uports[0] },
	/* the ACM gadget: a plug or an unplug takes a few hundred ms */
	[OP_ACM_PLUG]		= { "acm_plug", 2, NULL, op_usb_plug, &uports[1] },
	[OP_ACM_NEW_DEVICE]	= { "acm_new_device", 1, NULL, op_usb_new_device, &uports[1] },
	[OP_ACM_DELETE_DEVICE]	= { "acm_delete_device", 1, NULL, op_usb_delete_device, &uports[1] },
	[OP_ACM_BIND]		= { "acm_bind", 1, NULL, op_usb_bind, &uports[1] },
	[OP_ACM_HOLD]		= { "acm_hold", 2, NULL, op_usb_hold, &uports[1] },
	[OP_ACM_BYTES]		= { "acm_bytes", 2, NULL, op_usb_bytes, &uports[1] },
};
static unsigned long op_count[OP_N];
static double op_ms[OP_N];	/* the time steps of each took, settling included */

/* The weight of an operation in this run: none for a USB port left out. */
static unsigned int op_weight(enum op o)
{
	return ops[o].up && !ops[o].up->on ? 0 : ops[o].weight;
}

static enum op pick(void)
{
	unsigned int total = 0, r;
	enum op o;

	for (o = 0; o < OP_N; o++)
		total += op_weight(o);
	r = rng_below(total);
	for (o = 0; r >= op_weight(o); o++)
		r -= op_weight(o);
	if (o == OP_OVERLAY && !dtbo && !model_only)
		o = OP_TABLE;
	/* tty_open and tty_close stand for each other at the ends */
	if (o == OP_TTY_OPEN && m.ntty == MAX_TTY_FDS)
		o = OP_TTY_CLOSE;
	else if (o == OP_TTY_CLOSE && m.ntty == 0)
		o = OP_TTY_OPEN;
	return o;
}

/* ---- set-up and tear-down --------------------------------------------------- */

/* A virtio port opens once: the test before may still be letting it go. */
static int open_virtio(const char *path)
{
	int fd = -1;

	for (int i = 0; i <= 500; i++) {
		fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0 || errno != EBUSY)
			break;
		if (i == 0)
			printf("# %s is busy: waiting up to 5 s for it\n", path);
		sleep_ms(10);
	}
	return fd;
}

/*
 * The FTDI adapter's steps need the host's hand (hostctl) and the wire's
 * far end; where either is missing they are left out, as they are on a
 * machine with no hostctl.
 */
static int setup_ftdi(void)
{
	if (!ftdi->on)
		return 0;
	if (!exists(HOSTCTL) || !exists(FAR_USB)) {
		printf("# no " HOSTCTL " or no " FAR_USB ": the FTDI adapter's steps are left out\n");
		ftdi->on = false;
		return 0;
	}
	hostctl_fd = open_virtio(HOSTCTL);
	if (hostctl_fd < 0) {
		printf("# open " HOSTCTL ": %s\n", strerror(errno));
		return -1;
	}
	ftdi->far_fd = open_virtio(FAR_USB);
	if (ftdi->far_fd < 0) {
		printf("# open " FAR_USB ": %s\n", strerror(errno));
		return -1;
	}
	printf("# USB: an FTDI adapter on the " USB_WIRE " wire, plugged by the host through "
	       HOSTCTL "\n");
	ftdi->set_up = true;
	return 0;
}

/*
 * The ACM gadget that --acm WIRE names (made by the test, not plugged):
 * its UDC file, its far end, and a free UDC to bind it to.  Asked for and
 * not there is a set-up error.
 */
static int setup_acm(void)
{
	char p[PATH_MAX], *s, wire[32];
	struct dirent *de;
	DIR *d;

	if (!acm->on)
		return 0;
	memcpy(wire, acm->wire, sizeof(wire));	/* (not from the object written to) */
	snprintf(acm->udc_file, sizeof(acm->udc_file), GADGETS "/%.31s/UDC", wire);
	snprintf(acm->far_path, sizeof(acm->far_path), "/dev/far-%.31s", wire);
	s = read_all(acm->udc_file, NULL);
	if (!s || strcmp(s, "\n")) {
		printf("# --acm %s: %s %s\n", acm->wire, acm->udc_file,
		       s ? "is not empty: the gadget is plugged" : "cannot be read: no such gadget");
		free(s);
		return -1;
	}
	free(s);
	if (!exists(acm->far_path)) {
		printf("# --acm %s: no %s\n", acm->wire, acm->far_path);
		return -1;
	}
	d = opendir(UDCS);
	while (d && (de = readdir(d)) && !acm->udc[0]) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), UDCS "/%.63s/function", de->d_name);
		s = read_all(p, NULL);
		if (s && (!s[0] || !strcmp(s, "\n")))
			snprintf(acm->udc, sizeof(acm->udc), "%.63s", de->d_name);
		free(s);
	}
	if (d)
		closedir(d);
	if (!acm->udc[0]) {
		printf("# --acm %s: no free UDC in " UDCS "\n", acm->wire);
		return -1;
	}
	printf("# USB: an ACM gadget %s, plugged by binding it to %s (far end %s)\n",
	       acm->wire, acm->udc, acm->far_path);
	acm->set_up = true;
	return 0;
}

/* Nothing held on the port, the adapter unplugged, the far end let go. */
static int teardown_uport(struct uport *up)
{
	struct obs o;
	int bad = 0;
	int i = up - uports;
	bool plugged;

	if (up->gnss_fd >= 0)
		close(up->gnss_fd);
	if (up->tty_fd >= 0)
		close(up->tty_fd);
	up->gnss_fd = up->tty_fd = -1;
	up->m.gnss_held = up->m.tty_held = false;
	if (!up->on || !up->set_up)
		goto out;
	observe(&o);
	if (up->gadget) {	/* bound to its UDC: plugged (by this program) */
		char *udc = read_all(up->udc_file, NULL);

		plugged = udc && strcmp(udc, "\n");
		free(udc);
	} else {
		plugged = up->m.plugged || o.u[i].usb_dev || o.u[i].nports;
	}
	if (plugged && usb_host_plug(up, false)) {
		printf("# teardown: %s\n", failure);
		bad = 1;
	}
	up->m.plugged = false;
	for (int n = 0; n <= 1000; n++) {
		observe(&o);
		if (!o.u[i].usb_dev && !o.u[i].nports)
			break;
		if (n == 1000) {
			printf("# teardown: %s is still there 10 s after its unplug\n", up->what);
			bad = 1;
		}
		sleep_ms(10);
	}
out:
	if (up->far_fd >= 0)
		close(up->far_fd);
	up->far_fd = -1;
	return bad;
}

static int teardown_usb(void)
{
	int bad = 0;

	for (int i = 0; i < NUPORTS; i++)
		bad |= teardown_uport(&uports[i]);
	if (hostctl_fd >= 0)
		close(hostctl_fd);
	hostctl_fd = -1;
	return bad;
}

static int setup(void)
{
	char p[PATH_MAX], *s;
	struct dirent *de;
	DIR *d;
	unsigned int ma, mi;

	d = opendir(TTY_CLASS "/device");
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "serial", 6))
			continue;
		snprintf(p, sizeof(p), TTY_CLASS "/device/%s/new_device", de->d_name);
		if (!exists(p))
			continue;
		snprintf(p, sizeof(p), TTY_CLASS "/device/%s", de->d_name);
		if (!realpath(p, ctrl_path))
			break;
		snprintf(ctrl_name, sizeof(ctrl_name), "%.63s", de->d_name);
	}
	if (d)
		closedir(d);
	if (!ctrl_name[0]) {
		printf("# no serdev controller with new_device under " TTY_CLASS "/device\n");
		return -1;
	}
	s = read_all(TTY_CLASS "/dev", NULL);
	if (!s || sscanf(s, "%u:%u", &ma, &mi) != 2) {
		printf("# cannot read " TTY_CLASS "/dev\n");
		return -1;
	}
	free(s);
	unlink(STALE);
	if (mknod(STALE, S_IFCHR | 0600, makedev(ma, mi))) {
		printf("# mknod " STALE ": %s\n", strerror(errno));
		return -1;
	}
	aml = read_all(TABLE_AML, &aml_len);
	if (!aml || !aml_len) {
		printf("# cannot read " TABLE_AML "\n");
		return -1;
	}
	if (!exists(TABLES)) {
		printf("# no ACPI configfs at " TABLES "\n");
		return -1;
	}
	if (exists(OVERLAYS))
		dtbo = read_all(OVERLAY_DTBO, &dtbo_len);
	if (!dtbo || !dtbo_len)
		printf("# no overlay loader (" OVERLAYS ") or no " OVERLAY_DTBO ": no overlay steps\n");
	/* a virtio port opens once: a chip model of the test before may be ending */
	far_fd = open_virtio(FAR);
	if (far_fd < 0) {
		printf("# open " FAR ": %s\n", strerror(errno));
		return -1;
	}
	printf("# port %s, controller %s (%s)\n", TTY, ctrl_name, ctrl_path);
	return setup_ftdi() || setup_acm() ? -1 : 0;
}

/* Leave the world as found: nothing held, no description, the port a tty. */
static int teardown(void)
{
	char p[PATH_MAX];
	int bad = 0;

	bad = teardown_usb();
	if (m.gpsd || gpsd_pid)
		gpsd_reap(true);
	m.gpsd = false;
	if (gnss_fd >= 0)
		close(gnss_fd);
	gnss_fd = -1;
	m.gnss_held = false;
	while (m.ntty)
		close(tty_fd[--m.ntty]);
	if (exists(TABLE_DIR) && rmdir(TABLE_DIR)) {
		printf("# teardown: rmdir " TABLE_DIR ": %s\n", strerror(errno));
		bad = 1;
	}
	if (exists(OVERLAY_DIR) && rmdir(OVERLAY_DIR)) {
		printf("# teardown: rmdir " OVERLAY_DIR ": %s\n", strerror(errno));
		bad = 1;
	}
	/* the hand-made device, or a table device still going */
	for (int i = 0; i < 500; i++) {
		struct obs o;

		observe(&o);
		if (!o.p.ndev && o.p.tty_node)
			break;
		if (o.p.ndev && !o.p.dev_acpi && !o.p.dev_of) {
			snprintf(p, sizeof(p), "%s/delete_device", ctrl_path);
			write_str(p, o.p.dev);
		}
		sleep_ms(10);
	}
	if (far_fd >= 0)
		close(far_fd);
	far_fd = -1;
	unlink(STALE);
	return bad;
}

static void write_summary(const char *path, int result, double secs)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return;
	fprintf(f, "run_seed=%llu\nrun_steps=%lu\nrun_result=%d\nrun_seconds=%.1f\n",
		seed, step, result, secs);
	for (int i = 0; i < NUPORTS; i++)
		fprintf(f, "%s=%d\n%s_cycles=%lu\n", uports[i].tag, uports[i].on,
			uports[i].tag, uports[i].ev[UEV_UNPLUG]);
	fprintf(f, "settle_max_ms=%.0f\nsettle_max_step=%lu\nsettle_mean_ms=%.1f\n",
		settle_worst, settle_worst_step, step ? settle_total / step : 0.0);
	for (int o = 0; o < OP_N; o++)
		fprintf(f, "op_%s=%lu\n", ops[o].name, op_count[o]);
	for (int e = 0; e < EV_N; e++)
		fprintf(f, "ev_%s=%lu\n", ev_name[e], ev[e]);
	for (int i = 0; i < NUPORTS; i++)
		for (int e = 0; e < UEV_N; e++)
			fprintf(f, "ev_%s_%s=%lu\n", uports[i].tag, uev_name[e], uports[i].ev[e]);
	fclose(f);
}

/* The command that replays N steps of the seed on the host (docs/random-stress.md). */
static const char *replay(unsigned long n)
{
	static char b[200];
	char tf[40] = "";

	/* tests/random-stress.sh's timeout covers about 4000 steps */
	if (n > 4000)
		snprintf(tf, sizeof(tf), "TIMEOUT_FACTOR=%lu ", n / 4000 + 1);
	snprintf(b, sizeof(b), "TEST_RANDOM_SEED=%llu TEST_RANDOM_STEPS=%lu %sONLY=random-stress make check",
		 seed, n, tf);
	return b;
}

static int usage(void)
{
	fprintf(stderr, "usage: ttyport-random --seed S --steps N [--settle-ms MS] [--trace FILE]\n"
		"                      [--summary FILE] [--acm WIRE] [--model-only] [--no-usb]\n"
		"                      [--no-ftdi] [--verbose] [--flip-at STEP]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *trace_path = "/tmp/ttyport-random.trace";
	const char *summary = "/tmp/ttyport-random.summary";
	bool have_seed = false, no_usb = false, no_ftdi = false;
	char ms[320];
	double t0;
	int result = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--model-only")) {
			model_only = true;
		} else if (!strcmp(a, "--no-usb")) {
			no_usb = true;
		} else if (!strcmp(a, "--no-ftdi")) {
			no_ftdi = true;
		} else if (!strcmp(a, "--verbose")) {
			verbose = true;
		} else if (!v) {
			return usage();
		} else if (!strcmp(a, "--seed")) {
			seed = strtoull(v, NULL, 0);
			have_seed = true;
			i++;
		} else if (!strcmp(a, "--steps")) {
			steps = strtoul(v, NULL, 0);
			i++;
		} else if (!strcmp(a, "--flip-at")) {
			flip_at = strtoul(v, NULL, 0);
			i++;
		} else if (!strcmp(a, "--acm")) {
			snprintf(acm->wire, sizeof(acm->wire), "%s", v);
			i++;
		} else if (!strcmp(a, "--settle-ms")) {
			settle_max_ms = atoi(v);
			i++;
		} else if (!strcmp(a, "--trace")) {
			trace_path = v;
			i++;
		} else if (!strcmp(a, "--summary")) {
			summary = v;
			i++;
		} else {
			return usage();
		}
	}
	if (!have_seed || !steps)
		return usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	rng_state = seed;
	/* (setup() may find no hostctl) */
	ftdi->on = !no_usb && !no_ftdi;
	acm->on = !no_usb && (acm->wire[0] || model_only);
	if (model_only && !acm->wire[0])
		snprintf(acm->wire, sizeof(acm->wire), "acmr");
	if (no_usb)
		printf("# --no-usb: the USB steps are left out\n");
	else if (no_ftdi)
		printf("# --no-ftdi: the FTDI adapter's steps are left out\n");
	else if (!acm->on)
		printf("# no --acm WIRE: the ACM gadget's steps are left out\n");
	printf("# seed %llu (replay: %s)\n", seed, replay(steps));
	trace = fopen(trace_path, "w");
	if (!model_only && setup()) {
		teardown();
		return 2;
	}
	trace_line("seed %llu, %lu steps%s", seed, steps, model_only ? ", model only" : "");
	t0 = now_ms();
	if (settle()) {
		printf("# at the start: %s\n", failure);
		teardown();
		return 2;
	}
	enum op last = OP_N;

	for (step = 1; step <= steps; step++) {
		enum op o = pick();
		double s0 = now_ms();
		int r;

		last = o;
		op_count[o]++;
		step_desc[0] = '\0';
		gpsd_reap(false);
		r = ops[o].fn ? ops[o].fn() : ops[o].ufn(ops[o].up);
		if (step == flip_at) {
			m.bound = !m.bound;
			snprintf(step_desc + strlen(step_desc), sizeof(step_desc) - strlen(step_desc),
				 " [model flipped: --flip-at]");
		}
		if (!r)
			r = settle();
		model_str(ms, sizeof(ms));
		op_ms[o] += now_ms() - s0;
		trace_line("%6lu %-17s %-44s -> %s  %.0f ms%s", step, ops[o].name, step_desc, ms,
			   now_ms() - s0, r ? "  FAILED" : "");
		if (!r && now_ms() - s0 > SLOW_MS && nslow < SLOW_MAX) {
			for (unsigned int i = 0; i < 3; i++)
				memcpy(slow[nslow][i], ring[(ring_n + RING - 3 + i) % RING],
				       sizeof(ring[0]));
			nslow++;
		}
		if (r) {
			result = 1;
			break;
		}
		if (!model_only && step % 500 == 0)
			printf("# step %lu, %.0f s\n", step, (now_ms() - t0) / 1e3);
	}
	if (step > steps)
		step = steps;
	double secs = (now_ms() - t0) / 1e3;

	if (result) {
		printf("# FAILED at step %lu (%s: %s)\n", step, ops[last].name, step_desc);
		printf("# invariant: %s\n", failure);
		printf("# replay: %s\n", replay(step));
		printf("# the last steps (step op what -> the model after it):\n");
		for (unsigned int i = ring_n > RING ? ring_n - RING : 0; i < ring_n; i++)
			printf("#   %s\n", ring[i % RING]);
	}
	if (!model_only && teardown())
		result = result ? result : 1;
	printf("# %lu steps in %.1f s (%.1f ms a step); settle: max %.0f ms (step %lu: %s), mean %.1f ms\n",
	       step, secs, step ? secs * 1e3 / step : 0.0, settle_worst, settle_worst_step,
	       settle_worst_desc, step ? settle_total / step : 0.0);
	if (nslow)
		printf("# steps that took over %d ms (each with the two before it):\n", SLOW_MS);
	for (unsigned int i = 0; i < nslow; i++)
		for (unsigned int j = 0; j < 3; j++)
			if (slow[i][j][0])
				printf("#   %s\n", slow[i][j]);
	for (int i = 0; i < NUPORTS; i++) {
		const struct uport *up = &uports[i];

		if (!up->on) {
			printf("# USB: no steps on %s\n", up->what);
			continue;
		}
		printf("# USB: %s: %lu plug/unplug cycles (%lu plugs), unplugged %lu times with "
		       "the GPS bound (%lu with its gnss fd held), %lu with the tty held, %lu with "
		       "a bind pending\n", up->what, up->ev[UEV_UNPLUG], up->ev[UEV_PLUG],
		       up->ev[UEV_UNPLUG_BOUND], up->ev[UEV_UNPLUG_GNSS_HELD],
		       up->ev[UEV_UNPLUG_TTY_HELD], up->ev[UEV_UNPLUG_PENDING]);
	}
	printf("# operations (count, mean ms):");
	for (int o = 0; o < OP_N; o++)
		printf(" %s=%lu/%.0f", ops[o].name, op_count[o],
		       op_count[o] ? op_ms[o] / op_count[o] : 0.0);
	printf("\n# events:");
	for (int e = 0; e < EV_N; e++)
		printf(" %s=%lu", ev_name[e], ev[e]);
	for (int i = 0; i < NUPORTS; i++)
		for (int e = 0; e < UEV_N; e++)
			printf(" %s_%s=%lu", uports[i].tag, uev_name[e], uports[i].ev[e]);
	printf("\n");
	write_summary(summary, result, secs);
	if (trace)
		fclose(trace);
	return result;
}
