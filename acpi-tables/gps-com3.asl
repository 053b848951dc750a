/*
 * A Wi2Wi W2SG0004 GPS receiver (SiRFstar III) on COM3 (I/O 0x3e8, ttyS2),
 * its ON_OFF input wired to gpio-sim line 6, "gps0-onoff" (gpio-sim.asl).
 * Needs gpio-sim.asl in the same boot.  The model: CHIPS="gps:com3:gps0".
 *
 * Enumeration: serdev finds the device through the UartSerialBusV2
 * resource, whose ResourceSource names the UART's ACPI node; where the
 * Device() itself sits in the namespace does not matter.  QEMU calls COM3
 * \_SB.PCI0.SF8.COM3 on q35 and \_SB.PCI0.S08.COM3 on pc (FACTS.md), so _CRS
 * picks the one that exists at run time and _STA hides the device on a
 * machine with neither.
 *
 * Matching: _HID "PRP0001" plus the _DSD "compatible" makes the ACPI core
 * match gnss-sirf's OF table entry "wi2wi,w2sg0004", as on a DT board.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "GPSCOM3", 0x00000001)
{
	External (\_SB.PCI0.SF8.COM3, DeviceObj)
	External (\_SB.PCI0.S08.COM3, DeviceObj)
	External (\_SB.GSIM.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (GPS3)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 3)

			/*
			 * GPIO resource 0: ON_OFF, an output the host pulses to
			 * toggle the receiver between hibernate and full power.
			 * Exclusive (only this device drives it), no pull (the
			 * driver always drives it), output only; pin 6 of the
			 * bank is "gps0-onoff".
			 */
			Name (GPIO, ResourceTemplate () {
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 6 }
			})
			/*
			 * The UART link: 9600 8N1 with no flow control, what a
			 * W2SG0004 speaks out of reset (NMEA at 9600 baud; it
			 * has no RTS/CTS).  gnss-sirf takes the port speed from
			 * here (no "current-speed" property is given).  The
			 * 32-byte FIFO sizes are informational.
			 */
			Name (UQ35, ResourceTemplate () {
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlNone, 32, 32,
					"\\_SB.PCI0.SF8.COM3", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (UPC, ResourceTemplate () {
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlNone, 32, 32,
					"\\_SB.PCI0.S08.COM3", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Method (_CRS, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.SF8.COM3)) {
					Return (ConcatenateResTemplate (UQ35, GPIO))
				}
				Return (ConcatenateResTemplate (UPC, GPIO))
			}
			Method (_STA, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.SF8.COM3)) {
					Return (0x0F)
				}
				If (CondRefOf (\_SB.PCI0.S08.COM3)) {
					Return (0x0F)
				}
				Return (Zero)
			}

			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "wi2wi,w2sg0004" },
					/*
					 * "sirf,onoff" GPIO: this device's GPIO
					 * resource 0 (counting only GpioIo/GpioInt
					 * in _CRS), pin 0 of that resource, active
					 * high (the driver pulses logical 1).
					 */
					Package () { "sirf,onoff-gpios",
						Package () { ^GPS3, 0, 0, 0 } },
				}
			})
		}
	}
}
