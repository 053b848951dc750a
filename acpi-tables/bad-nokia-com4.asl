/*
 * A bad description, for tests: a Nokia H4+ chip on COM4 (I/O 0x2e8,
 * ttyS3) that lacks its bluetooth-wakeup GPIO; reset and host-wakeup are
 * on the spare gpio-sim lines 8 and 9 (gpio-sim.asl).  Needs gpio-sim.asl.
 *
 * What should happen: hci_nokia refuses the chip with one line naming the
 * missing GPIO, releases what it took (lines 8 and 9 show "unused" again),
 * nothing splats, and the other ports are undisturbed.  Otherwise the
 * description is as nokia-com2.asl; COM4 is \_SB.PCI0.SF8.COM4 on q35 and
 * \_SB.PCI0.S08.COM4 on pc.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BADBT", 0x00000001)
{
	External (\_SB.PCI0.SF8.COM4, DeviceObj)
	External (\_SB.PCI0.S08.COM4, DeviceObj)
	External (\_SB.GSIM.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (BADN)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 91)
			/* Resource 0: reset, pin 8; resource 1: host-wakeup, pin 9. */
			Name (GPIO, ResourceTemplate () {
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 8 }
				GpioInt (Edge, ActiveBoth, Exclusive, PullNone, 0,
					"\\_SB.GSIM.BNK0", 0, ResourceConsumer, , ) { 9 }
			})
			Name (UQ35, ResourceTemplate () {
				UartSerialBusV2 (120000, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlHardware, 64, 64,
					"\\_SB.PCI0.SF8.COM4", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (UPC, ResourceTemplate () {
				UartSerialBusV2 (120000, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlHardware, 64, 64,
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
					Package () { "compatible", "nokia,h4p-bluetooth" },
					Package () { "reset-gpios",
						Package () { ^BADN, 0, 0, 1 } },
					Package () { "host-wakeup-gpios",
						Package () { ^BADN, 1, 0, 0 } },
					/* The mistake: no "bluetooth-wakeup-gpios". */
					Package () { "clock-frequency", 38400000 },
				}
			})
		}
	}
}
