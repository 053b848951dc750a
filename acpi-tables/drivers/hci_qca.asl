/*
 * A Qualcomm QCA6390 Bluetooth controller (QCOM6390), the ACPI ID of
 * hci_qca's ACPI match table.
 *
 * A template of make check-drivers (tests/drivers/tables.sh): @UART@ is
 * replaced by the ACPI path of the UART the boot plan puts it on
 * (tests/drivers/plan), without its leading backslash.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "DRVQCA", 0x00000001)
{
	External (\@UART@, DeviceObj)

	Scope (\_SB)
	{
		Device (XQCA)
		{
			Name (_HID, "QCOM6390")
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
