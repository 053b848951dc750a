#!/bin/sh
# On a kernel booted with lockdown=integrity, the two interfaces that change
# the firmware description refuse to: an SSDT written to ACPI configfs
# (LOCKDOWN_ACPI_TABLES, in acpi_configfs.c) and an overlay written to the
# configfs overlay loader (LOCKDOWN_DEVICE_TREE, the series' loader).  Each
# refusal shows in the configfs item and in the kernel log (EPERM, with
# lockdown's reason), and nothing is added: COM2
# stays a tty that carries bytes.
#
# The controls.  In this boot, new_device, which changes no firmware
# description, still adds a GPS on the same port and takes it away again,
# so the port and the bus work here.  In the other boots the same table and
# the same overlay, written the same way, bind (core-runtime-ssdt and
# core-stress load runtime-gps-com2; dt-stress applies gps-com2-nolines).
#
# kmemleak cannot be scanned in this boot: lockdown closes debugfs.  The
# guest says so at the end of the boot instead of scanning, and the host
# lists the skip, which this header allows (any other boot fails on it).
#@ machines: q35
#@ append: lockdown=integrity
#@ timeout: 120
#@ skip-allowed: kmemleak scanned | lockdown=integrity closes debugfs, so kmemleak cannot be scanned
. /lib/ttyport/ktap.sh
. /lib/ttyport/serdev.sh
. /lib/ttyport/overlay.sh
ktap_start
ktap_plan 21

# (This kernel has no securityfs, so no /sys/kernel/security/lockdown.)
check "the kernel says it is locked down from the command line" \
	sh -c 'dmesg | grep -q "Kernel is locked down from command line"'

kmsg_mark ssdt
check "the kernel log shows the test's mark (control of the log checks)" \
	log_since ssdt "ttyport-test: mark ssdt"
check "a table item can be made in ACPI configfs" mkdir $tables/locked
# configfs hands the table over when the file is closed, so the refusal
# shows in the item and in the log, not in cat's exit status.
cat /lib/ttyport/tables/runtime-gps-com2.aml >$tables/locked/aml 2>/dev/null
check "the SSDT is refused: the item holds no table (its signature cannot be read)" \
	sh -c "! cat $tables/locked/signature"
check "the kernel log says why" \
	log_since ssdt "Lockdown: .*modifying ACPI tables is restricted"
check "no serdev device was added" no_serdev_dev
check "the table item goes again" rmdir $tables/locked

ovl=/sys/kernel/config/device-tree/overlays
kmsg_mark dt
check "an overlay item can be made" mkdir $ovl/locked
# configfs hands the blob over when the file is closed, so the refusal
# shows in "status" and in the log, not in cat's exit status.
cat /lib/ttyport/overlays/gps-com2-nolines.dtbo >$ovl/locked/dtbo 2>/dev/null
check_eq "the overlay is refused (EPERM)" "error -1" "$(ovl_status locked)"
check "the loader's log line names it" \
	log_since dt "OF: overlay: configfs: locked: refused, the kernel is locked down"
check "the lockdown log line says why" \
	log_since dt "Lockdown: .*modifying device tree contents is restricted"
check "no serdev device was added" no_serdev_dev
check "the overlay item goes again" rmdir $ovl/locked

check "/dev/$tty is still a tty" tty_back
check "$tty carries bytes both ways" tty_bytes

# The control: the port and the bus work under lockdown
ctrl=$(tty_ctrl $tty)
check "new_device adds a GPS on $tty under lockdown" \
	sh -c "echo 'wi2wi,w2sg0004' >$ctrl/new_device"
wait_for 20 "gnss-sirf binds it" sirf_bound
wait_for 5 "/dev/$tty gives way" tty_gone
dev=$(serdev_devs)
check "delete_device removes it" sh -c "echo $dev >$ctrl/delete_device"
wait_for 10 "/dev/$tty is back" tty_back
check "$tty carries bytes both ways at the end" tty_bytes

ktap_done
