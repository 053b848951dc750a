/*
 * A Qualcomm QCA7000 HomePlug Green PHY (Ethernet over UART) through
 * PRP0001.  qcauart binds and registers a net device with a random MAC.
 *
 * A template of make check-drivers (tests/drivers/tables.sh): @UART@ is
 * replaced by the ACPI path of the UART the boot plan puts it on
 * (tests/drivers/plan), without its leading backslash.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "DRVQCAU", 0x00000001)
{
	External (\@UART@, DeviceObj)

	Scope (\_SB)
	{
		Device (XQCU)
		{
			Name (_HID, "PRP0001")
			Name (_UID, One)
			Name (_STA, 0x0F)
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (115200, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlNone,
					64, 64, "\\@UART@", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "qca,qca7000" },
				}
			})
		}
	}
}
