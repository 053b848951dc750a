/*
 * A bad description, for tests: a W2SG0004 GPS on the PCI 16550 (slot 5,
 * \_SB.PCI0.S28 on q35 and pc, see nokia-pci.asl) whose "sirf,onoff-gpios"
 * names GPIO resource 1 while _CRS has only resource 0 (gpio-sim spare
 * line 10, gpio-sim.asl).  Needs gpio-sim.asl.
 *
 * The on/off GPIO is optional to gnss-sirf, so a broken reference must not
 * pass for "no on/off line": what should happen is one line naming the
 * device and the broken property, no splat, other ports undisturbed.
 * Otherwise the description is as gps-com3.asl.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BADGPS", 0x00000001)
{
	External (\_SB.PCI0.S28, DeviceObj)
	External (\_SB.GSIM.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (BADG)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 92)
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlNone, 32, 32,
					"\\_SB.PCI0.S28", 0x00,
					ResourceConsumer, , Exclusive, )
				/* Resource 0 (the only GPIO one): pin 10. */
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 10 }
			})
			Method (_STA, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.S28)) {
					Return (0x0F)
				}
				Return (Zero)
			}
			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "wi2wi,w2sg0004" },
					/* The mistake: resource 1 does not exist. */
					Package () { "sirf,onoff-gpios",
						Package () { ^BADG, 1, 0, 0 } },
				}
			})
		}
	}
}
