/*
 * A device on COM2 (ttyS1) that no driver handles (compatible
 * "ttyport,no-such-device"), loaded at runtime through configfs: the serdev
 * device appears, nothing binds, and /dev/ttyS1 must stay a working tty.
 *
 * The serdev device is a child of nothing in particular: what ties it to the
 * port is the UartSerialBusV2 resource, whose ResourceSource names the UART's
 * ACPI node.  QEMU names COM2 \_SB.PCI0.SF8.COM2 on q35; on pc it is
 * \_SB.PCI0.S08.COM2 (FACTS.md), so the device is declared for both and _STA
 * keeps only the one whose UART exists.
 *
 * _HID PRP0001 plus a _DSD "compatible" that no OF match table in the
 * kernel names: the serdev bus finds no driver for it.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "NODRV2", 0x00000001)
{
	External (\_SB.PCI0.SF8.COM2, DeviceObj)
	External (\_SB.PCI0.S08.COM2, DeviceObj)

	Scope (\_SB)
	{
		Device (NODV)
		{
			Name (_HID, "PRP0001")
			Name (_UID, One)
			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "ttyport,no-such-device" },
				}
			})
			/* 9600 8N1, no flow control: what the W2SG0004 speaks. */
			Name (RBQ3, ResourceTemplate () {
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlNone,
					32, 32, "\\_SB.PCI0.SF8.COM2", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (RBPC, ResourceTemplate () {
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlNone,
					32, 32, "\\_SB.PCI0.S08.COM2", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Method (_CRS, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.SF8.COM2)) {
					Return (RBQ3)
				}
				Return (RBPC)
			}
			Method (_STA, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.SF8.COM2)) {
					Return (0x0F)
				}
				If (CondRefOf (\_SB.PCI0.S08.COM2)) {
					Return (0x0F)
				}
				Return (Zero)
			}
		}
	}
}
