/*
 * A Wi2Wi W2SG0004 GPS receiver behind a USB-serial adapter plugged into
 * xHCI port 2 of the USB 2 root hub (QMP device_add usb-serial,port=2:
 * usb1-port2, USB device 1-2), its ON_OFF input wired to gpio-sim line 6,
 * "gps0-onoff" (gpio-sim.asl).  Needs xhci-rhub.asl (the port's ACPI node)
 * and gpio-sim.asl in the same boot.  The model: a w2sg0004 with lines gps0
 * on the adapter's wire (usb-serial-tests/usb-gps-acpi.sh).
 *
 * Enumeration: the UartSerialBusV2 resource names the USB port the adapter
 * sits in, \_SB.PCI0.S18.RHUB.PRT6 (xhci-rhub.asl: port=2 of the USB 2 root
 * hub is raw xHCI port 6), not the adapter, its interface or its ttyUSBn:
 * the port is where the wire to the chip is, and it does not change with
 * the adapter's model or the plug order.  A usb-serial port takes the ACPI
 * node of the USB port its (single-port) adapter is plugged into, so the
 * device is found when an adapter is plugged there and on no other port.
 * The same adapter in another port is a plain ttyUSBn.  The device sits in
 * \_SB like the other tables' (where it sits does not matter); _STA hides it
 * when no table describes the root hub's ports.
 *
 * Matching: _HID "PRP0001" plus the _DSD "compatible", gnss-sirf's OF
 * table entry "wi2wi,w2sg0004", as for the GPS on COM3 (gps-com3.asl).
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "GPSUSB", 0x00000001)
{
	External (\_SB.PCI0.S18.RHUB.PRT6, DeviceObj)
	External (\_SB.GSIM.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (GPSU)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 6)

			/*
			 * GPIO resource 0: ON_OFF, the output the host pulses to
			 * toggle the receiver between hibernate and full power;
			 * pin 6 of the bank is "gps0-onoff".
			 */
			Name (_CRS, ResourceTemplate () {
				/*
				 * 9600 8N1, no flow control, what a W2SG0004
				 * speaks out of reset; gnss-sirf takes the speed
				 * from here.
				 */
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlNone, 32, 32,
					"\\_SB.PCI0.S18.RHUB.PRT6", 0x00,
					ResourceConsumer, , Exclusive, )
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 6 }
			})
			Method (_STA, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.S18.RHUB.PRT6)) {
					Return (0x0F)
				}
				Return (Zero)
			}

			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "wi2wi,w2sg0004" },
					/* GPIO resource 0, pin 0 of it, active high */
					Package () { "sirf,onoff-gpios",
						Package () { ^GPSU, 0, 0, 0 } },
				}
			})
		}
	}
}
