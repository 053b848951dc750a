/*
 * A Dell all-in-one's backlight controller (DELL0501).  On those machines
 * the UART itself carries _HID DELL0501 and there is no device with a
 * UartSerialBusV2 resource: acpi_quirk_skip_serdev_enumeration() keeps a
 * serdev controller on that UART with no device and no tty, and registers
 * the "dell-uart-backlight" platform device, whose driver adds the serdev
 * device itself on the controller it finds as "serial0" under that UART.
 *
 * QEMU's UARTs have fixed _HIDs (PNP0501 in its DSDT; a PCI 16550 in slot n
 * has only _ADR, \_SB.PCI0.S<8n>), so this table adds _HID DELL0501 to the
 * PCI 16550's node, the PCI function's ACPI companion: the UART the quirk
 * looks at is then a DELL0501.  (A second node with _ADR 0x00050000 and a _HID would
 * lose to S28: acpi_find_child_device() ranks a node with a _HID lowest.)
 * A real DELL0501 is an LPC UART with _CID PNP0501; no _CID here, so PNP
 * does not claim the node as well.
 *
 * With nothing on the wire, the driver's first command times out, its probe
 * fails and the device it added is removed again; with tests/drivers/dell-far
 * on the wire it binds and registers its backlight device.  Only in a boot
 * where no other described port comes first (tests/drivers/plan): the driver
 * insists on "serial0", which the first controller with a device takes.
 *
 * A template of make check-drivers (tests/drivers/tables.sh): @UART@ is
 * replaced by the ACPI path of the PCI 16550 the boot plan puts it on
 * (tests/drivers/plan), without its leading backslash.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "DRVDELL", 0x00000001)
{
	External (\@UART@, DeviceObj)

	Scope (\@UART@)
	{
		Name (_HID, "DELL0501")
	}
}
