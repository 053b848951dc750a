/*
 * A ChromeOS embedded controller on a UART (GOOG0019), with its interrupt
 * line (cros_ec_uart asks for GpioInt 0).  Nothing answers: the protocol
 * query of cros_ec_register() times out.
 *
 * A template of make check-drivers (tests/drivers/tables.sh): @UART@ is
 * replaced by the ACPI path of the UART the boot plan puts it on
 * (tests/drivers/plan), without its leading backslash.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "DRVCROS", 0x00000001)
{
	External (\@UART@, DeviceObj)
	External (\_SB.XGPI.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (XCRO)
		{
			Name (_HID, "GOOG0019")
			Name (_UID, One)
			Name (_STA, 0x0F)
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (3000000, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlHardware,
					64, 64, "\\@UART@", 0x00,
					ResourceConsumer, , Exclusive, )
				GpioInt (Level, ActiveLow, Exclusive, PullNone, 0,
					"\\_SB.XGPI.BNK0", 0, ResourceConsumer, , ) { 2 }
			})
		}
	}
}
