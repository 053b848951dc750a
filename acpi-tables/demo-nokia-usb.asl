/*
 * The demo world's second USB-serial device (scripts/demo.sh): a Nokia H4+
 * Bluetooth chip behind a USB-serial adapter plugged into xHCI port 3 of the
 * USB 2 root hub (QMP device_add usb-serial,port=3: usb1-port3, raw xHCI
 * port 7, \_SB.PCI0.S18.RHUB.PRT7 in xhci-rhub.asl), its three sideband
 * lines on gpio-sim lines 8-10, "bt2-*" (gpio-sim.asl), so that it can sit
 * beside the Nokia chips of nokia-com2.asl and nokia-pci.asl.  Needs
 * xhci-rhub.asl and gpio-sim.asl in the same boot.  The model:
 * CHIPS="nokia:usb1:bt2".  nokia-usb.asl is the same chip on PRT6 with the
 * "bt1-*" lines, for the tests.
 *
 * The chip and its lines are described as on COM2 (nokia-com2.asl explains
 * each resource and property); only the UartSerialBusV2 ResourceSource
 * differs: it names the USB port the adapter sits in, not a UART
 * (gps-usb.asl explains why the port).  _STA hides the device when no table
 * describes the root hub's ports.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BTUSB2", 0x00000001)
{
	External (\_SB.PCI0.S18.RHUB.PRT7, DeviceObj)
	External (\_SB.GSIM.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (BTU2)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 7)

			Name (_CRS, ResourceTemplate () {
				/* 8N1 with RTS/CTS at the chip's reset speed */
				UartSerialBusV2 (120000, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlHardware, 64, 64,
					"\\_SB.PCI0.S18.RHUB.PRT7", 0x00,
					ResourceConsumer, , Exclusive, )
				/* 0: reset, pin 8 "bt2-reset" */
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 8 }
				/* 1: host-wakeup, both edges, pin 9 "bt2-host-wakeup" */
				GpioInt (Edge, ActiveBoth, Exclusive, PullNone, 0,
					"\\_SB.GSIM.BNK0", 0, ResourceConsumer, , ) { 9 }
				/* 2: bluetooth-wakeup, pin 10 "bt2-bt-wakeup" */
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 10 }
			})
			Method (_STA, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.S18.RHUB.PRT7)) {
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
						Package () { ^BTU2, 0, 0, 1 } },
					Package () { "host-wakeup-gpios",
						Package () { ^BTU2, 1, 0, 0 } },
					Package () { "bluetooth-wakeup-gpios",
						Package () { ^BTU2, 2, 0, 0 } },
					Package () { "clock-frequency", 38400000 },
				}
			})
		}
	}
}
