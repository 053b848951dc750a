/*
 * A bad description, for tests: a W2SG0004 GPS on COM4 (ttyS3) whose
 * "sirf,onoff-gpios" names pin 1 of GPIO resource 0, while that resource
 * lists one pin only (gpio-sim spare line 11, gpio-sim.asl).  Needs
 * gpio-sim.asl; loaded at runtime by tests/acpi-runtime-bad.sh.
 *
 * What should happen (docs/acpi.md, "When the description is wrong"):
 * gpiolib says "... refers to pin 1 of GPIO resource 0 of \_SB.BADP, which
 * has no such pin" once; the on/off line is optional to gnss-sirf, so it
 * binds without it (line 11 stays unused) and the GPS works if it is
 * powered anyway (the model's --always-on).  COM4 is \_SB.PCI0.SF8.COM4 on
 * q35 and \_SB.PCI0.S08.COM4 on pc.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BADPIN", 0x00000001)
{
	External (\_SB.PCI0.SF8.COM4, DeviceObj)
	External (\_SB.PCI0.S08.COM4, DeviceObj)
	External (\_SB.GSIM.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (BADP)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 93)
			/* Resource 0 (the only one): one pin, line 11. */
			Name (GPIO, ResourceTemplate () {
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 11 }
			})
			Name (UQ35, ResourceTemplate () {
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlNone, 32, 32,
					"\\_SB.PCI0.SF8.COM4", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (UPC, ResourceTemplate () {
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlNone, 32, 32,
					"\\_SB.PCI0.S08.COM4", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Method (_CRS, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.SF8.COM4)) {
					Return (ConcatenateResTemplate (UQ35, GPIO))
				}
				Return (ConcatenateResTemplate (UPC, GPIO))
			}
			Method (_STA, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.SF8.COM4)) {
					Return (0x0F)
				}
				If (CondRefOf (\_SB.PCI0.S08.COM4)) {
					Return (0x0F)
				}
				Return (Zero)
			}
			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "wi2wi,w2sg0004" },
					/* The mistake: resource 0 has no pin 1. */
					Package () { "sirf,onoff-gpios",
						Package () { ^BADP, 0, 1, 0 } },
				}
			})
		}
	}
}
