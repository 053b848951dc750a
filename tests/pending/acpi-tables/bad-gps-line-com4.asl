/*
 * A bad description, for tests: a W2SG0004 GPS on COM4 (ttyS3) whose
 * "sirf,onoff-gpios" points at a GpioIo resource naming line 99 of the
 * gpio-sim bank, which has 16 lines (gpio-sim.asl).  Needs gpio-sim.asl;
 * loaded at runtime by tests/acpi-runtime-bad.sh.
 *
 * What should happen (docs/acpi.md, "When the description is wrong"):
 * gpiolib says "...: GPIO resource 0 of \_SB.BADV names no usable GPIO:
 * -EINVAL" once; the on/off line is optional to gnss-sirf, so it binds
 * without it and the GPS works if it is powered anyway (the model's
 * --always-on).  COM4 is \_SB.PCI0.SF8.COM4 on q35 and \_SB.PCI0.S08.COM4
 * on pc.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BADGPIO", 0x00000001)
{
	External (\_SB.PCI0.SF8.COM4, DeviceObj)
	External (\_SB.PCI0.S08.COM4, DeviceObj)
	External (\_SB.GSIM.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (BADV)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 94)
			/* Resource 0 (the only one): pin 99 of a 16-line bank. */
			Name (GPIO, ResourceTemplate () {
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 99 }
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
					/* Pin 0 of resource 0: line 99, which BNK0 does not have. */
					Package () { "sirf,onoff-gpios",
						Package () { ^BADV, 0, 0, 0 } },
				}
			})
		}
	}
}
