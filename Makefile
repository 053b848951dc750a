# ttyport-bus: build the patched kernel and the guest, boot them in QEMU, test.
#
#   make demo     build what is missing, boot the demo world, show what the bus found
#   make check    host-side unit tests and every QEMU test, on the debug kernel
#
# Pieces: deps kernel export-patches tables overlays models initramfs run.
# make check-drivers: in-tree serdev drivers on stock 6.12 and on the series
# (docs/serdev-drivers.md).
# See README.md for the variables of 'make run'.

SHELL := /bin/bash
TOP := $(CURDIR)
B := $(TOP)/build

KERNEL_OUT := $(B)/obj-debug
KERNEL_FRAGMENTS := kconfig/base.config kconfig/debug.config kconfig/kunit.config kconfig/sleep.config kconfig/gadget.config
BZIMAGE := $(KERNEL_OUT)/arch/x86/boot/bzImage
# The modules kernel (tests with '#@ kernel: modules'): the debug kernel with
# usbserial, ftdi_sio, hci_uart, gnss and gnss-sirf as modules, installed
# into build/modules for the initramfs (never into the host's /lib/modules).
MODULES_OUT := $(B)/obj-modules
MODULES_FRAGMENTS := $(KERNEL_FRAGMENTS) kconfig/modules.config
MODULES_ROOT := $(B)/modules
INITRD := $(B)/initramfs.cpio.gz
HOSTCTL := $(B)/host/hostctl
BENCH_TOOL := $(B)/extra/usr/local/bin/ttyport-bench
RANDOM_TOOL := $(B)/extra/usr/local/bin/ttyport-random

ASL := $(wildcard acpi-tables/*.asl)
AML := $(patsubst acpi-tables/%.asl,$(B)/tables/%.aml,$(ASL))
# The bad-input corpus's SSDTs: one per "ssdt" line of its table.
CORPUS := tests/bad-input/cases
CORPUS_TABLES := $(B)/tables/bad-input/.built
DTSO := $(wildcard dt-overlays/*.dtso)
DTBO := $(patsubst dt-overlays/%.dtso,$(B)/overlays/%.dtbo,$(DTSO))

# Settings of 'make run' (README.md); exported for scripts/qemu-run.sh.
MACHINE ?= q35
FIRMWARE ?= bios
RUN_VARS := MACHINE FIRMWARE SSDT OVERLAY CHIPS CMD QEMU_ARGS TIMEOUT KERNEL INITRD

# Make expands an exported variable before handing it to a recipe, so
# CMD='x=5; echo $$x' would reach the guest as "x=5; echo ".  Take what the
# user gave (command line or environment) as it was written: a simply
# expanded variable holding the unexpanded text is exported untouched.
define keep_raw
ifneq ($$(filter command environment,$$(firstword $$(origin $(1)))),)
override $(1) := $$(value $(1))
endif
endef
$(foreach v,$(RUN_VARS),$(eval $(call keep_raw,$(v))))
export $(RUN_VARS)

.PHONY: all deps kernel kernel-modules kernel-tree export-patches check-series build-matrix \
	tables overlays models \
	initramfs initramfs-locked run demo check check-chip-faults check-stress stress bench bench-smoke check-drivers check-host check-qemu \
	clean distclean

# Everything a boot needs.  The Debian packages come first, so that 'make demo'
# and 'make check' are the whole set-up on a fresh machine.
all:
	@scripts/deps.sh
	@$(MAKE) --no-print-directory kernel kernel-modules tables overlays initramfs

deps:
	@scripts/deps.sh

# The kernel: the tree is re-prepared when patches/ changes (kernel-tree.sh).
kernel-tree:
	@scripts/kernel-tree.sh prepare

kernel: kernel-tree
	@scripts/kernel-build.sh $(KERNEL_OUT) $(KERNEL_FRAGMENTS)

kernel-modules: kernel-tree
	@KBUILD_TARGETS="bzImage modules" scripts/kernel-build.sh $(MODULES_OUT) $(MODULES_FRAGMENTS)
	@rm -rf $(MODULES_ROOT) && $(MAKE) -s -C $(B)/linux O=$(MODULES_OUT) \
		INSTALL_MOD_PATH=$(MODULES_ROOT) INSTALL_MOD_STRIP=1 modules_install

# The series built in the configurations serdev's users run (scripts/build-matrix.sh)
build-matrix: kernel-tree
	@scripts/build-matrix.sh

export-patches:
	@scripts/kernel-tree.sh export

# Each patch applies, is checkpatch --strict clean and builds on its own.
check-series:
	@scripts/check-series.sh

# 'make run' builds the kernel only when there is none (after a change to
# patches/ or kconfig/, run 'make kernel' or 'make check').
$(BZIMAGE):
	@scripts/deps.sh
	@$(MAKE) --no-print-directory kernel

tables: $(AML) $(CORPUS_TABLES)
$(CORPUS_TABLES): $(CORPUS) tests/bad-input/ssdt.asl.in scripts/corpus-tables.sh
	@scripts/corpus-tables.sh $(CORPUS) tests/bad-input/ssdt.asl.in $(@D)
	@touch $@
$(B)/tables/%.aml: acpi-tables/%.asl scripts/iasl.sh
	@mkdir -p $(@D)
	@scripts/iasl.sh $< $@ && echo "  IASL    $<"

overlays: $(DTBO)
# No -@: the x86 live tree has no __symbols__ to resolve against (FACTS.md).
$(B)/overlays/%.dtbo: dt-overlays/%.dtso
	@mkdir -p $(@D)
	@dtc -q -I dts -O dtb -o $@ $< && echo "  DTC     $<"

# Chip models and their firmware files, staged into the guest's /usr/local.
models:
	@if [ -f models/Makefile ]; then \
		$(MAKE) --no-print-directory -s -C models O=$(B)/models DESTDIR=$(B)/extra install; \
	fi

$(HOSTCTL): scripts/hostctl.c
	@mkdir -p $(@D)
	@gcc -O2 -Wall -Wextra -Werror -o $@ $< && echo "  CC      $@"

# The compiled tables and overlays go into the guest too, for tests that load
# them at runtime: /lib/ttyport/tables/*.aml, /lib/ttyport/overlays/*.dtbo.
# The guest side of make bench (bench/ttyport-bench.c): in every initramfs,
# so that a benchmark boot and a test boot run the same guest.
$(BENCH_TOOL): bench/ttyport-bench.c
	@mkdir -p $(@D)
	@gcc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -o $@ $< && echo "  CC      $@"

# The random stress's guest program (tests/random-stress.sh, docs/random-stress.md).
$(RANDOM_TOOL): tests/random/ttyport-random.c
	@mkdir -p $(@D)
	@gcc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -o $@ $< && echo "  CC      $@"

initramfs: models tables overlays $(HOSTCTL) $(BENCH_TOOL) $(RANDOM_TOOL)
	@mkdir -p $(B) && flock $(B)/.initramfs.lock \
		$(MAKE) --no-print-directory initramfs-locked

# One at a time: a test and a 'make run' may both rebuild it.
initramfs-locked:
	@rm -rf $(B)/extra/lib/ttyport && mkdir -p $(B)/extra/lib/ttyport/tables \
		$(B)/extra/lib/ttyport/overlays
	@cp $(AML) $(B)/extra/lib/ttyport/tables/ 2>/dev/null || true
	@cp $(DTBO) $(B)/extra/lib/ttyport/overlays/ 2>/dev/null || true
	@cp bench/guest/lib.sh $(B)/extra/lib/ttyport/bench.sh
	@mkdir -p $(B)/extra/lib/ttyport/bad-input
	@cp $(CORPUS) $(B)/tables/bad-input/*.aml $(B)/extra/lib/ttyport/bad-input/
	@scripts/stage.sh "build the initramfs" \
		scripts/mkinitramfs.sh $(INITRD) $(B)/initramfs $(B)/extra $(MODULES_ROOT)

$(INITRD):
	@$(MAKE) --no-print-directory initramfs

# Boot once: SSDT=, OVERLAY=, CHIPS=, CMD=, MACHINE=, FIRMWARE=, QEMU_ARGS=.
# QEMU_RUN: the boot runner (tests/host/make-run.sh gives a fake one to see
# what make hands it).
QEMU_RUN ?= scripts/qemu-run.sh
run: $(BZIMAGE) initramfs $(HOSTCTL)
	@$(QEMU_RUN)

demo: all $(HOSTCTL)
	@scripts/demo.sh

# make check leaves out, to keep within its 15 minutes (.ci/run runs all three):
#  - the corpus's chip-fault cases (about 140 s of driver timeouts), which
#    make check-chip-faults runs (TEST_CORPUS_SKIP_KINDS= make check runs
#    them too);
#  - the stresses (tests named *-stress, about 300 s at make check's sizes),
#    which make check-stress runs at those sizes (make stress at the long
#    ones).  ONLY= make check runs what ONLY names, stresses too.
check: all $(HOSTCTL)
	@[ -n "$${ONLY:-}" ] || export EXCEPT="$${EXCEPT-*-stress}"; \
		TEST_CORPUS_SKIP_KINDS=$${TEST_CORPUS_SKIP_KINDS-chip} scripts/check.sh

# Their logs go to build/check-chip-faults and build/check-stress, so that
# build/check keeps make check's (make bench reads its times.tsv).
check-chip-faults: all $(HOSTCTL)
	@CHECK_OUT=$${CHECK_OUT:-$(B)/check-chip-faults} \
		ONLY=bad-input TEST_CORPUS_KINDS=chip TEST_CORPUS_SKIP_KINDS= scripts/check.sh

check-stress: all $(HOSTCTL)
	@CHECK_OUT=$${CHECK_OUT:-$(B)/check-stress} ONLY="$${ONLY:-*-stress}" scripts/check.sh

# The long stress runs, kept out of make check's 15 minutes: 200 USB-serial
# plug/unplug cycles with the GPS bound and gpsd reading (about 3 s a cycle),
# 1000 of a CDC-ACM gadget with the GPS bound and busy (about 2 s a cycle),
# and 20000 steps of the random stress (TEST_RANDOM_SEED=S replays a seed).
stress: all $(HOSTCTL)
	@TEST_USB_CYCLES=200 TEST_GADGET_CYCLES=1000 TEST_CORE_CYCLES=200 TEST_DT_CYCLES=200 \
		TEST_RANDOM_STEPS=20000 \
		TIMEOUT_FACTOR=4 ODEBUG=1 \
		ONLY='*-stress' scripts/check.sh

# Benchmarks (docs/bench.md): stock 6.12 against the series, release kernels
# of one configuration, every figure in one run.  bench-smoke: one short
# repetition (CI runs it to show that every benchmark still runs).
bench: deps
	@bench/kernels.sh
	@$(MAKE) --no-print-directory tables overlays initramfs
	@bench/run.sh

bench-smoke: deps
	@bench/kernels.sh
	@$(MAKE) --no-print-directory tables overlays initramfs
	@BENCH_SMOKE=1 bench/run.sh

# In-tree serdev drivers on stock 6.12 and on the series (docs/serdev-drivers.md):
# two release kernels of one configuration (kconfig/drivers.config), the
# patched one from a worktree of build/linux at its HEAD; each boot of
# tests/drivers/plan on both; the table written to docs/serdev-drivers.md.
# The far ends some of its devices get (tests/drivers/plan, far=).
DRV_FAR := $(B)/drivers/dell-far $(B)/drivers/pn532-far
$(DRV_FAR): $(B)/drivers/%: tests/drivers/%.c
	@mkdir -p $(@D)
	@gcc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -o $@ $< && echo "  CC      $@"

check-drivers: deps $(DRV_FAR) $(HOSTCTL)
	@tests/drivers/kernels.sh
	@$(MAKE) --no-print-directory initramfs
	@tests/drivers/check.sh

clean:
	rm -rf $(B)/runs $(B)/tables $(B)/overlays $(B)/initramfs $(INITRD) $(B)/models \
		$(B)/extra $(B)/host

distclean:
	rm -rf $(B)
