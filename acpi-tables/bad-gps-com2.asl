/*
 * A bad description, for tests: a W2SG0004 GPS on COM2 (ttyS1) whose
 * "sirf,onoff-gpios" names GPIO resource 1 while _CRS has only resource 0
 * (gpio-sim spare line 10, gpio-sim.asl).  Needs gpio-sim.asl.
 *
 * The on/off GPIO is optional to gnss-sirf, so a broken reference must not
 * pass for "no on/off line": what should happen is one line naming the
 * device and the broken property, no splat, other ports undisturbed.
 * Otherwise the description is as gps-com3.asl; COM2 is \_SB.PCI0.SF8.COM2
 * on q35 and \_SB.PCI0.S08.COM2 on pc.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BADGPS", 0x00000001)
{
	External (\_SB.PCI0.SF8.COM2, DeviceObj)
	External (\_SB.PCI0.S08.COM2, DeviceObj)
	External (\_SB.GSIM.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (BADG)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 92)
			/* Resource 0 (the only one): pin 10. */
			Name (GPIO, ResourceTemplate () {
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 10 }
			})
			Name (UQ35, ResourceTemplate () {
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlNone, 32, 32,
					"\\_SB.PCI0.SF8.COM2", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (UPC, ResourceTemplate () {
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlNone, 32, 32,
					"\\_SB.PCI0.S08.COM2", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Method (_CRS, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.SF8.COM2)) {
					Return (ConcatenateResTemplate (UQ35, GPIO))
				}
				Return (ConcatenateResTemplate (UPC, GPIO))
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
