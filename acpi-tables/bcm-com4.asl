/*
 * A Broadcom Bluetooth controller (BCM2E1A, hci_bcm's ACPI id) on COM4
 * (ttyS3), described by its UART link only: make bench's bt-bcm-com4
 * boot, which compares hci_bcm through serdev on this port with the same
 * driver's protocol attached by `btattach -P bcm` through the line
 * discipline on COM2 (ttyS1), each in front of the same chip model
 * (CHIPS="bcm:com4" here, the same model started by the boot on COM2).
 * bcm-com2.asl is the same device on the other port, for the boot that
 * swaps the two paths' ports.
 *
 * No GPIO and no interrupt: the model has no power or wake lines, and
 * without them hci_bcm keeps the chip at the link's speed and never
 * runtime-suspends it, as the line discipline path does.  hci_bcm says so
 * at probe ("Unexpected ACPI gpio_int_idx: -1", "Unexpected number of ACPI
 * GPIOs: 0", "No reset resource, using default baud rate"), and binds.
 * Its operating speed is then the link's, 115200, which hci_serdev's setup
 * still sets with an Update UART Baud Rate (0xFC18) command before btbcm's
 * setup; btattach -P bcm sends none.  That is setup only: the flood does
 * not see it.
 *
 * COM4 is \_SB.PCI0.SF8.COM4 on q35 and \_SB.PCI0.S08.COM4 on pc
 * (FACTS.md): _CRS picks the one that exists, _STA hides the device on a
 * machine with neither.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BCMCOM4", 0x00000001)
{
	External (\_SB.PCI0.SF8.COM4, DeviceObj)
	External (\_SB.PCI0.S08.COM4, DeviceObj)

	Scope (\_SB)
	{
		Device (BCM4)
		{
			Name (_HID, "BCM2E1A")
			Name (_UID, 4)
			/* 115200 baud, 8N1, RTS/CTS: what btattach sets too. */
			Name (RQ35, ResourceTemplate () {
				UartSerialBusV2 (115200, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlHardware,
					64, 64, "\\_SB.PCI0.SF8.COM4", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (RPC, ResourceTemplate () {
				UartSerialBusV2 (115200, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlHardware,
					64, 64, "\\_SB.PCI0.S08.COM4", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Method (_STA, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.SF8.COM4) || CondRefOf (\_SB.PCI0.S08.COM4)) {
					Return (0x0F)
				}
				Return (Zero)
			}
			Method (_CRS, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.SF8.COM4)) {
					Return (RQ35)
				}
				Return (RPC)
			}
		}
	}
}
