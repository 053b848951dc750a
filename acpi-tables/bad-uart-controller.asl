/*
 * A bad description, for tests: a GPS whose UartSerialBusV2 names a UART
 * that does not exist (\_SB.PCI0.COM9, on neither q35 nor pc).
 *
 * What should happen: the device is never enumerated (no UART can claim
 * it), the kernel says so in one line naming the device and the missing
 * controller, nothing splats, and every real port is undisturbed.
 * Otherwise the description is a correct W2SG0004 (see gps-com3.asl).
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BADUART", 0x00000001)
{
	Scope (\_SB)
	{
		Device (BADU)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 90)
			/* Present, so that the kernel looks at it at all. */
			Name (_STA, 0x0F)
			Name (_CRS, ResourceTemplate () {
				/* The mistake: there is no COM9. */
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlNone, 32, 32,
					"\\_SB.PCI0.COM9", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "wi2wi,w2sg0004" },
				}
			})
		}
	}
}
