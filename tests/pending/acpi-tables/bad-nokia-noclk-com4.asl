/*
 * A bad description, for tests: a Nokia H4+ chip on COM4 (ttyS3) with all
 * three sideband GPIOs (spare gpio-sim lines 11, 12, 13, gpio-sim.asl) but
 * no "clock-frequency" property; ACPI has no clock binding, so hci_nokia
 * has no rate for the chip's system clock.  Needs gpio-sim.asl; loaded at
 * runtime by tests/acpi-runtime-bad.sh.
 *
 * What should happen (docs/acpi.md, "When the description is wrong"):
 * hci_nokia refuses the chip with "no sysclk rate: neither a sysclk clock
 * nor a clock-frequency property", releases the three lines it took (they
 * show "unused" again), and COM4 stays a plain tty.  Otherwise the
 * description is as nokia-com2.asl; COM4 is \_SB.PCI0.SF8.COM4 on q35 and
 * \_SB.PCI0.S08.COM4 on pc.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BADCLK", 0x00000001)
{
	External (\_SB.PCI0.SF8.COM4, DeviceObj)
	External (\_SB.PCI0.S08.COM4, DeviceObj)
	External (\_SB.GSIM.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (BADC)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 96)
			/*
			 * Resource 0: reset, line 11; resource 1: host-wakeup,
			 * line 12; resource 2: bluetooth-wakeup, line 13.
			 */
			Name (GPIO, ResourceTemplate () {
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 11 }
				GpioInt (Edge, ActiveBoth, Exclusive, PullNone, 0,
					"\\_SB.GSIM.BNK0", 0, ResourceConsumer, , ) { 12 }
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 13 }
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
						Package () { ^BADC, 0, 0, 1 } },
					Package () { "host-wakeup-gpios",
						Package () { ^BADC, 1, 0, 0 } },
					Package () { "bluetooth-wakeup-gpios",
						Package () { ^BADC, 2, 0, 0 } },
					/* The mistake: no "clock-frequency". */
				}
			})
		}
	}
}
