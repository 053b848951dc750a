/*
 * A MediaTek MT7663 Bluetooth controller through PRP0001.  btmtkuart reads
 * its match data with of_device_get_match_data(), which has nothing to read
 * on an ACPI node: its probe fails with -ENODEV, on any kernel.
 *
 * A template of make check-drivers (tests/drivers/tables.sh): @UART@ is
 * replaced by the ACPI path of the UART the boot plan puts it on
 * (tests/drivers/plan), without its leading backslash.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "DRVMTKBT", 0x00000001)
{
	External (\@UART@, DeviceObj)

	Scope (\_SB)
	{
		Device (XMTK)
		{
			Name (_HID, "PRP0001")
			Name (_UID, One)
			Name (_STA, 0x0F)
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (921600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlHardware,
					64, 64, "\\@UART@", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "mediatek,mt7663u-bluetooth" },
				}
			})
		}
	}
}
