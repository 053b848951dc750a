/*
 * A Nokia H4+ Bluetooth chip behind a USB-serial adapter plugged into xHCI
 * port 2 of the USB 2 root hub (QMP device_add usb-serial,port=2: usb1-port2,
 * raw xHCI port 6, \_SB.PCI0.S18.RHUB.PRT6 in xhci-rhub.asl), its three
 * sideband lines on gpio-sim lines 3-5, "bt1-*" (gpio-sim.asl).  Needs
 * xhci-rhub.asl and gpio-sim.asl in the same boot.  The model:
 * CHIPS="nokia:usb0:bt1" (usb-serial-tests/usb-nokia.sh).
 *
 * The chip and its lines are described as on COM2 (nokia-com2.asl explains
 * each resource and property); only the UartSerialBusV2 ResourceSource
 * differs: it names the USB port the adapter sits in, not a UART
 * (gps-usb.asl explains why the port).  _STA hides the device when no table
 * describes the root hub's ports.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BTUSB", 0x00000001)
{
	External (\_SB.PCI0.S18.RHUB.PRT6, DeviceObj)
	External (\_SB.GSIM.BNK0, DeviceObj)

	Scope (\_SB)
	{
		Device (BTHU)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 6)

			Name (_CRS, ResourceTemplate () {
				/* 8N1 with RTS/CTS at the chip's reset speed */
				UartSerialBusV2 (120000, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlHardware, 64, 64,
					"\\_SB.PCI0.S18.RHUB.PRT6", 0x00,
					ResourceConsumer, , Exclusive, )
				/* 0: reset, pin 3 "bt1-reset" */
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 3 }
				/* 1: host-wakeup, both edges, pin 4 "bt1-host-wakeup" */
				GpioInt (Edge, ActiveBoth, Exclusive, PullNone, 0,
					"\\_SB.GSIM.BNK0", 0, ResourceConsumer, , ) { 4 }
				/* 2: bluetooth-wakeup, pin 5 "bt1-bt-wakeup" */
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIM.BNK0",
					0, ResourceConsumer, , ) { 5 }
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
					Package () { "compatible", Package () {
						"ti,wl1271-bluetooth-nokia",
						"nokia,h4p-bluetooth" } },
					/* { device, GPIO resource, pin, active_low } */
					Package () { "reset-gpios",
						Package () { ^BTHU, 0, 0, 1 } },
					Package () { "host-wakeup-gpios",
						Package () { ^BTHU, 1, 0, 0 } },
					Package () { "bluetooth-wakeup-gpios",
						Package () { ^BTHU, 2, 0, 0 } },
					Package () { "clock-frequency", 38400000 },
				}
			})
		}
	}
}
