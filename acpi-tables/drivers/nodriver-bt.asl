/*
 * A Bluetooth node no driver of 6.12 serves: BCM2EAD, one past the last
 * Broadcom ID hci_bcm knows (BCM2EAC), as firmware of a newer machine than
 * the kernel names it.  This is the BlueZ report the series changes on
 * purpose: stock 6.12 makes a serdev device for it and the port loses its
 * tty (/dev/ttyS4) for good; the series keeps the tty while no driver is
 * bound.
 *
 * A template of make check-drivers (tests/drivers/tables.sh): @UART@ is
 * replaced by the ACPI path of the UART the boot plan puts it on
 * (tests/drivers/plan), without its leading backslash.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "DRVNONE", 0x00000001)
{
	External (\@UART@, DeviceObj)

	Scope (\_SB)
	{
		Device (XNDR)
		{
			Name (_HID, "BCM2EAD")
			Name (_UID, One)
			Name (_STA, 0x0F)
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (115200, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlHardware,
					64, 64, "\\@UART@", 0x00,
					ResourceConsumer, , Exclusive, )
			})
		}
	}
}
