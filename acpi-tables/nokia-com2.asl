/*
 * A Nokia H4+ Bluetooth chip (TI WL1271 type, as in the Nokia N900/N950)
 * on COM2 (I/O 0x2f8, ttyS1), its three sideband lines on gpio-sim lines
 * 0-2, "bt0-*" (gpio-sim.asl).  Needs gpio-sim.asl in the same boot.
 * The model: CHIPS="nokia:com2:bt0".
 *
 * Enumeration: serdev finds the device through the UartSerialBusV2
 * resource, whose ResourceSource names the UART's ACPI node.  QEMU calls
 * COM2 \_SB.PCI0.SF8.COM2 on q35 and \_SB.PCI0.S08.COM2 on pc (FACTS.md), so
 * _CRS picks the one that exists at run time and _STA hides the device on a
 * machine with neither.
 *
 * Matching: _HID "PRP0001" plus the _DSD "compatible" list, matched against
 * hci_nokia's OF table ("nokia,h4p-bluetooth"); the vendor string comes
 * first, as the DT binding asks.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BTCOM2", 0x00000001)
{
	External (\_SB.PCI0.SF8.COM2, DeviceObj)
	External (\_SB.PCI0.S08.COM2, DeviceObj)
	External (\_SB.GSIM.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (BTH2)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 2)

			/*
			 * The sideband lines, as GPIO resources 0, 1, 2 (the
			 * indexes the _DSD below refers to).
			 *
			 * 0: reset (BT_RESET, active low on the chip), an output
			 *    only the host drives: pin 0, "bt0-reset".
			 * 1: host-wakeup (HOST_WU), the chip's request to the
			 *    host: an interrupt on both edges, since hci_nokia
			 *    asks for IRQF_TRIGGER_RISING | IRQF_TRIGGER_FALLING;
			 *    pin 1, "bt0-host-wakeup".  Its polarity comes from
			 *    here (ActiveBoth: not inverted), not from _DSD.
			 * 2: bluetooth-wakeup (BT_WU), the host's request to the
			 *    chip, an output: pin 2, "bt0-bt-wakeup".
			 * No pulls: each line is driven by one side at all times.
			 */
			Name (GPIO, ResourceTemplate () {
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 0 }
				GpioInt (Edge, ActiveBoth, Exclusive, PullNone, 0,
					"\\_SB.GSIM.BNK0", 0, ResourceConsumer, , ) { 1 }
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 2 }
			})
			/*
			 * The UART link: 8N1 with RTS/CTS, which H4+ needs
			 * (hci_nokia turns hardware flow control on after each
			 * speed change).  120000 baud is the chip's speed out of
			 * reset, where hci_nokia starts the negotiation; the
			 * driver sets every speed itself, so the value documents
			 * the hardware rather than configures anything.
			 */
			Name (UQ35, ResourceTemplate () {
				UartSerialBusV2 (120000, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlHardware, 64, 64,
					"\\_SB.PCI0.SF8.COM2", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (UPC, ResourceTemplate () {
				UartSerialBusV2 (120000, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlHardware, 64, 64,
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
					Package () { "compatible", Package () {
						"ti,wl1271-bluetooth-nokia",
						"nokia,h4p-bluetooth" } },
					/*
					 * GPIO references: { device, GPIO resource
					 * index in _CRS, pin index in that resource,
					 * active_low }.  reset is active low: the
					 * driver asserts it as logical 1, the chip
					 * sees 0.
					 */
					Package () { "reset-gpios",
						Package () { ^BTH2, 0, 0, 1 } },
					Package () { "host-wakeup-gpios",
						Package () { ^BTH2, 1, 0, 0 } },
					Package () { "bluetooth-wakeup-gpios",
						Package () { ^BTH2, 2, 0, 0 } },
					/*
					 * ACPI has no clock binding, so the rate of
					 * the chip's 38.4 MHz reference clock (the
					 * N900's) is given as a property; hci_nokia
					 * sends it to the chip during negotiation.
					 */
					Package () { "clock-frequency", 38400000 },
				}
			})
		}
	}
}
