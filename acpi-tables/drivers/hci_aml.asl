/*
 * An Amlogic W155S2 Bluetooth controller through PRP0001, without the
 * "enable" GPIO hci_aml requires: its probe fails on that lookup.
 *
 * A template of make check-drivers (tests/drivers/tables.sh): @UART@ is
 * replaced by the ACPI path of the UART the boot plan puts it on
 * (tests/drivers/plan), without its leading backslash.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "DRVAML", 0x00000001)
{
	External (\@UART@, DeviceObj)

	Scope (\_SB)
	{
		Device (XAML)
		{
			Name (_HID, "PRP0001")
			Name (_UID, One)
			Name (_STA, 0x0F)
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (115200, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlHardware,
					64, 64, "\\@UART@", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "amlogic,w155s2-bt" },
				}
			})
		}
	}
}
