/*
 * A W2SG0004 GPS with no sideband lines behind a USB-serial adapter plugged
 * into xHCI port 3 of the USB 2 root hub (QMP device_add usb-serial,port=3:
 * usb1-port3, raw xHCI port 7, \_SB.PCI0.S18.RHUB.PRT7 in xhci-rhub.asl),
 * described by a table loaded at runtime through configfs
 * (/sys/kernel/config/acpi/table/<name>/aml), before or after the adapter
 * is plugged (usb-serial-tests/usb-runtime.sh); the model is an always-on
 * w2sg0004, as for runtime-gps-com2.asl.
 *
 * Only the device can come at runtime: the root hub's ports (xhci-rhub.asl)
 * must be in a table given at boot, because usb-acpi binds their nodes once,
 * when the root hub registers.  Without them _STA hides the device.  It
 * names another port than gps-usb.asl (PRT6), so both can be in one boot;
 * gps-usb.asl explains the description.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "GPSRTU", 0x00000001)
{
	External (\_SB.PCI0.S18.RHUB.PRT7, DeviceObj)

	Scope (\_SB)
	{
		Device (GPRU)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 7)
			Name (_CRS, ResourceTemplate () {
				UartSerialBusV2 (9600, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone,
					FlowControlNone, 32, 32,
					"\\_SB.PCI0.S18.RHUB.PRT7", 0x00,
					ResourceConsumer, , Exclusive, )
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
					Package () { "compatible", "wi2wi,w2sg0004" },
				}
			})
		}
	}
}
