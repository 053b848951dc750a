/*
 * The BeaglePlay's CC1352P7 co-processor (Greybus SVC) through PRP0001, with
 * the bootloader-backdoor and reset lines gb-beagleplay requires.  It binds
 * and registers a Greybus host device.
 *
 * A template of make check-drivers (tests/drivers/tables.sh): @UART@ is
 * replaced by the ACPI path of the UART the boot plan puts it on
 * (tests/drivers/plan), without its leading backslash.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "DRVGBP", 0x00000001)
{
	External (\@UART@, DeviceObj)
	External (\_SB.XGPI.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (XGBP)
		{
			Name (_HID, "PRP0001")
			Name (_UID, One)
			Name (_STA, 0x0F)
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (115200, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlNone,
					64, 64, "\\@UART@", 0x00,
					ResourceConsumer, , Exclusive, )
				GpioIo (Exclusive, PullNone, 0, 0, IoRestrictionNone,
					"\\_SB.XGPI.BNK0", 0, ResourceConsumer, , ) { 3 }
				GpioIo (Exclusive, PullNone, 0, 0, IoRestrictionNone,
					"\\_SB.XGPI.BNK0", 0, ResourceConsumer, , ) { 4 }
			})
			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "ti,cc1352p7" },
					Package () { "bootloader-backdoor-gpios",
						Package () { ^XGBP, 0, 0, 0 } },
					Package () { "reset-gpios",
						Package () { ^XGBP, 1, 0, 0 } },
				}
			})
		}
	}
}
