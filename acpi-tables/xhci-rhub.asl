/*
 * The xHCI's root hub and its ports, which QEMU's DSDT does not describe:
 * with this table a USB device gets the ACPI node of the port it is plugged
 * into as its companion, and a serial device behind a USB-serial adapter can
 * be described by naming that port (gps-usb.asl, nokia-usb.asl).
 *
 * QEMU's qemu-xhci at PCI slot 3 (scripts/qemu-run.sh: addr=0x3) is
 * \_SB.PCI0.S18 in the DSDT of both q35 and pc (Sxx, xx = slot * 8;
 * FACTS.md).  usb-acpi looks for the root hub as the child of the host
 * controller's node with _ADR 0, and for each port as the child of the root
 * hub with _ADR = the raw xHCI port number.  QEMU's qemu-xhci has 4 USB 3
 * ports (numbered 1-4: usb2-port1..4 in Linux) and then 4 USB 2 ports
 * (5-8: usb1-port1..4), so:
 *
 *   QMP device_add usb-serial,port=N   Linux            ACPI companion
 *   port=1 .. port=4 (full speed)      usb1-port1..4    RHUB.PRT5 .. PRT8
 *   (a USB 3 device)                   usb2-port1..4    RHUB.PRT1 .. PRT4
 *
 * so an FTDI adapter plugged with port=2 is USB device 1-2 and its port is
 * \_SB.PCI0.S18.RHUB.PRT6.
 *
 * This table must be given at boot: usb-acpi binds the root hub and port
 * companions once, when the root hub registers, so RHUB and PRTn loaded
 * later through configfs reach nothing already registered.  The device
 * tables that name a port can come at boot or at runtime.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "XHCIRHUB", 0x00000001)
{
	External (\_SB.PCI0.S18, DeviceObj)

	Scope (\_SB.PCI0.S18)
	{
		Device (RHUB)
		{
			Name (_ADR, Zero)

			/* USB 3 ports: usb2-port1..4 */
			Device (PRT1)
			{
				Name (_ADR, One)
			}
			Device (PRT2)
			{
				Name (_ADR, 0x02)
			}
			Device (PRT3)
			{
				Name (_ADR, 0x03)
			}
			Device (PRT4)
			{
				Name (_ADR, 0x04)
			}
			/* USB 2 ports: usb1-port1..4, where full-speed FTDIs go */
			Device (PRT5)
			{
				Name (_ADR, 0x05)
			}
			Device (PRT6)
			{
				Name (_ADR, 0x06)
			}
			Device (PRT7)
			{
				Name (_ADR, 0x07)
			}
			Device (PRT8)
			{
				Name (_ADR, 0x08)
			}
		}
	}
}
