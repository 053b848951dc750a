/*
 * A W2SG0004 GPS with no sideband lines behind a USB-serial adapter plugged
 * into xHCI port 4 of the USB 2 root hub (QMP device_add usb-serial,port=4:
 * usb1-port4, raw xHCI port 8, \_SB.PCI0.S18.RHUB.PRT8 in xhci-rhub.asl).
 * Needs xhci-rhub.asl in the same boot; the model is an always-on w2sg0004
 * (no on/off line to pulse).
 *
 * For plug/unplug cycles (usb-serial-tests/usb-stress.sh): with no on/off
 * line gnss-sirf takes the receiver as always on, so its probe does not
 * listen 2 s for the chip's state, and a cycle costs what the bus costs.
 * It names another port than gps-usb.asl (PRT6), so both tables can be in
 * one boot.  gps-usb.asl explains the description.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "GPSUSBN", 0x00000001)
{
	External (\_SB.PCI0.S18.RHUB.PRT8, DeviceObj)

	Scope (\_SB)
	{
		Device (GPSN)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 8)
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlNone, 32, 32,
					"\\_SB.PCI0.S18.RHUB.PRT8", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Method (_STA, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.S18.RHUB.PRT8)) {
					Return (0x0F)
				}
				Return (Zero)
			}
			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "wi2wi,w2sg0004" },
				}
			})
		}
	}
}
