/*
 * A Realtek RTL8723BS Bluetooth controller (OBDA8723) speaking Three-wire
 * (H5), 115200 baud, even parity, as on Realtek-based x86 tablets.  hci_h5
 * binds; the H5 link never syncs.
 *
 * A template of make check-drivers (tests/drivers/tables.sh): @UART@ is
 * replaced by the ACPI path of the UART the boot plan puts it on
 * (tests/drivers/plan), without its leading backslash.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "DRVH5", 0x00000001)
{
	External (\@UART@, DeviceObj)

	Scope (\_SB)
	{
		Device (XH5A)
		{
			Name (_HID, "OBDA8723")
			Name (_UID, One)
			Name (_STA, 0x0F)
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (115200, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeEven, FlowControlNone,
					64, 64, "\\@UART@", 0x00,
					ResourceConsumer, , Exclusive, )
			})
		}
	}
}
