/*
 * The test world's GPIO controller: gpio-sim playing the SoC's GPIO block
 * that the slave chips' sideband lines (reset, wake-up, on/off) hang off.
 *
 * A real board's DSDT describes its GPIO controller with a vendor _HID and
 * MMIO resources.  gpio-sim has no hardware: it instantiates from any
 * firmware node whose "compatible" is "gpio-simulator", and on ACPI that is
 * _HID "PRP0001" plus a _DSD "compatible" property, matched against
 * gpio-sim's OF match table.  Each child Device() with an "ngpios" property
 * becomes one gpiochip (a "bank"); slaves point their GpioIo/GpioInt
 * resources at the bank's path, \_SB.GSIM.BNK0, and the pin numbers in those
 * resources are line offsets in the bank.
 *
 * Line names follow docs/models.md, "<instance>-<function>": the chip models
 * find the lines they play by these names (gpioinfo shows them too), so the
 * names are the contract between this table, the chip SSDTs (which use the
 * pin numbers) and CHIPS="nokia:com2:bt0 ..." (which gives the instance).
 *
 *   pin  name              used by
 *   0    bt0-reset         nokia-com2.asl     (Nokia chip on COM2)
 *   1    bt0-host-wakeup   nokia-com2.asl
 *   2    bt0-bt-wakeup     nokia-com2.asl
 *   3    bt1-reset         nokia-pci.asl      (Nokia chip on the PCI 16550),
 *                          nokia-usb.asl      (or behind a USB-serial adapter)
 *   4    bt1-host-wakeup   nokia-pci.asl, nokia-usb.asl
 *   5    bt1-bt-wakeup     nokia-pci.asl, nokia-usb.asl
 *   6    gps0-onoff        gps-com3.asl       (GPS on COM3),
 *                          gps-usb.asl        (or behind a USB-serial adapter)
 *   7    gps0-wakeup       (not wired by gps-com3.asl: the driver then
 *                           infers the GPS's power state from its data)
 *   8    bt2-reset         demo-nokia-usb.asl (the demo's Nokia chip behind
 *                                              a second USB-serial adapter)
 *   9    bt2-host-wakeup   demo-nokia-usb.asl
 *   10   bt2-bt-wakeup     demo-nokia-usb.asl
 *   11-15 spare, unnamed: for your own experiments and the bad-* tables
 *
 * One bank holds every line.  gpio-sim accepts several Device() banks, but
 * gpiolib's ACPI glue attaches its per-controller data to the parent
 * (\_SB.GSIM) and logs "Failed to attach ACPI GPIO chip" for every bank after
 * the first; GpioIo/GpioInt lookups still work, the error line is just noise.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "GPIOSIM", 0x00000001)
{
	Scope (\_SB)
	{
		Device (GSIM)
		{
			Name (_HID, "PRP0001")
			Name (_UID, Zero)
			/* Always there: it is the "SoC" GPIO block, on both q35 and pc. */
			Name (_STA, 0x0F)
			Name (_DSD, Package () {
				/* Device Properties UUID: plain name/value pairs. */
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "gpio-simulator" },
				}
			})

			Device (BNK0)
			{
				/* _ADR only makes it a proper child device node. */
				Name (_ADR, Zero)
				Name (_DSD, Package () {
					ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
					Package () {
						/* 16 lines: 8 in use, 8 spare. */
						Package () { "ngpios", 16 },
						/* The gpiochip's label (gpiodetect). */
						Package () { "gpio-sim,label", "ttyport-gpio" },
						Package () {
							"gpio-line-names",
							Package () {
								"bt0-reset",
								"bt0-host-wakeup",
								"bt0-bt-wakeup",
								"bt1-reset",
								"bt1-host-wakeup",
								"bt1-bt-wakeup",
								"gps0-onoff",
								"gps0-wakeup",
								"bt2-reset",
								"bt2-host-wakeup",
								"bt2-bt-wakeup",
								"", "", "", "", "",
							}
						},
					}
				})
			}
		}
	}
}
