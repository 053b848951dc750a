/*
 * A Broadcom Bluetooth controller (BCM2E1A) as Bay Trail and Cherry Trail
 * tablets describe it: 115200 baud with RTS/CTS, device-wakeup and shutdown
 * GpioIo lines and a host-wakeup GpioInt.  hci_bcm binds and registers an
 * HCI device; its setup's HCI Reset gets no answer.
 *
 * A template of make check-drivers (tests/drivers/tables.sh): @UART@ is
 * replaced by the ACPI path of the UART the boot plan puts it on
 * (tests/drivers/plan), without its leading backslash.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "DRVBCM", 0x00000001)
{
	External (\@UART@, DeviceObj)
	External (\_SB.XGPI.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (XBCM)
		{
			Name (_HID, "BCM2E1A")
			Name (_UID, One)
			Name (_STA, 0x0F)
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (115200, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlHardware,
					64, 64, "\\@UART@", 0x00,
					ResourceConsumer, , Exclusive, )
				GpioIo (Exclusive, PullNone, 0, 0, IoRestrictionOutputOnly,
					"\\_SB.XGPI.BNK0", 0, ResourceConsumer, , ) { 6 }
				GpioIo (Exclusive, PullNone, 0, 0, IoRestrictionOutputOnly,
					"\\_SB.XGPI.BNK0", 0, ResourceConsumer, , ) { 7 }
				GpioInt (Edge, ActiveHigh, Exclusive, PullNone, 0,
					"\\_SB.XGPI.BNK0", 0, ResourceConsumer, , ) { 5 }
			})
		}
	}
}
