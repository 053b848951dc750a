/*
 * A second Nokia H4+ Bluetooth chip, on the PCI 16550 (QEMU's pci-serial at
 * slot 5, ttyS4), its sideband lines on gpio-sim lines 3-5, "bt1-*"
 * (gpio-sim.asl).  Needs gpio-sim.asl in the same boot.
 * The model: CHIPS="nokia:pci0:bt1".
 *
 * The UART is a PCI function, not a PNP device: QEMU's DSDT gives every PCI
 * slot present at boot a node \_SB.PCI0.S<slot*8 in hex>, the same on q35 and
 * pc, so slot 5 is \_SB.PCI0.S28, and Linux makes it the ACPI companion of
 * the PCI device that 8250_pci registers the port for.  That is the node the
 * UartSerialBusV2 resource names.  Everything else is as nokia-com2.asl.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BTPCI", 0x00000001)
{
	External (\_SB.PCI0.S28, DeviceObj)
	External (\_SB.GSIM.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (BTP0)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 5)

			/*
			 * GPIO resources 0-2: reset (output, pin 3,
			 * "bt1-reset"), host-wakeup (interrupt on both edges,
			 * pin 4, "bt1-host-wakeup"), bluetooth-wakeup (output,
			 * pin 5, "bt1-bt-wakeup").  8N1 with RTS/CTS at the
			 * chip's reset speed, 120000 baud (the driver sets the
			 * speeds itself).
			 */
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (120000, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlHardware, 64, 64,
					"\\_SB.PCI0.S28", 0x00,
					ResourceConsumer, , Exclusive, )
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 3 }
				GpioInt (Edge, ActiveBoth, Exclusive, PullNone, 0,
					"\\_SB.GSIM.BNK0", 0, ResourceConsumer, , ) { 4 }
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 5 }
			})
			/* Only where the PCI 16550 is plugged in at slot 5. */
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
					Package () { "compatible", Package () {
						"ti,wl1271-bluetooth-nokia",
						"nokia,h4p-bluetooth" } },
					/* { device, GPIO resource, pin, active_low } */
					Package () { "reset-gpios",
						Package () { ^BTP0, 0, 0, 1 } },
					Package () { "host-wakeup-gpios",
						Package () { ^BTP0, 1, 0, 0 } },
					Package () { "bluetooth-wakeup-gpios",
						Package () { ^BTP0, 2, 0, 0 } },
					/* 38.4 MHz reference clock (no clock binding in ACPI). */
					Package () { "clock-frequency", 38400000 },
				}
			})
		}
	}
}
