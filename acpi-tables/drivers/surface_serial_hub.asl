/*
 * The Surface System Aggregator Module (MSHW0084), the embedded controller
 * behind every Surface laptop's keyboard, battery and lid: a 3 Mbaud UART
 * with RTS/CTS, a wake-up GpioInt and a GpioIo, as Surface firmware gives
 * them.  Nothing answers: the driver opens the port, sets it up from this
 * UartSerialBusV2 and its firmware-version request times out.
 *
 * A template of make check-drivers (tests/drivers/tables.sh): @UART@ is
 * replaced by the ACPI path of the UART the boot plan puts it on
 * (tests/drivers/plan), without its leading backslash.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "DRVSAM", 0x00000001)
{
	External (\@UART@, DeviceObj)
	External (\_SB.XGPI.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (XSAM)
		{
			Name (_HID, "MSHW0084")
			Name (_UID, One)
			Name (_STA, 0x0F)
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (3000000, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlHardware,
					64, 64, "\\@UART@", 0x00,
					ResourceConsumer, , Exclusive, )
				GpioInt (Edge, ActiveHigh, ExclusiveAndWake, PullNone, 0,
					"\\_SB.XGPI.BNK0", 0, ResourceConsumer, , ) { 0 }
				GpioIo (Exclusive, PullNone, 0, 0, IoRestrictionOutputOnly,
					"\\_SB.XGPI.BNK0", 0, ResourceConsumer, , ) { 1 }
			})
		}
	}
}
