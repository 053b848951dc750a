/*
 * make check-drivers: a gpio-sim bank for the sideband lines of the in-tree
 * serdev drivers' devices (tests/drivers/, docs/serdev-drivers.md), as
 * acpi-tables/gpio-sim.asl does for the test world (PRP0001 "gpio-simulator",
 * one Device() bank).  Nothing drives the lines: the devices only need them
 * to exist, so that their drivers get past the GPIO lookups they make
 * before they talk to the chip.
 *
 *   pin  name                    used by
 *   0    sam-wakeup-int          surface_serial_hub.asl (GpioInt)
 *   1    sam-wakeup              surface_serial_hub.asl
 *   2    cros-ec-int             cros-ec-uart.asl (GpioInt)
 *   3    beagleplay-backdoor     gb-beagleplay.asl
 *   4    beagleplay-reset        gb-beagleplay.asl
 *   5    bcm-host-wakeup         hci_bcm.asl (GpioInt)
 *   6    bcm-device-wakeup       hci_bcm.asl
 *   7    bcm-shutdown            hci_bcm.asl
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "DRVGPIO", 0x00000001)
{
	Scope (\_SB)
	{
		Device (XGPI)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 0x58)
			Name (_STA, 0x0F)
			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "gpio-simulator" },
				}
			})
			Device (BNK0)
			{
				Name (_ADR, Zero)
				Name (_DSD, Package () {
					ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
					Package () {
						Package () { "ngpios", 8 },
						Package () { "gpio-sim,label", "drivers-gpio" },
						Package () { "gpio-line-names", Package () {
							"sam-wakeup-int", "sam-wakeup",
							"cros-ec-int", "beagleplay-backdoor",
							"beagleplay-reset", "bcm-host-wakeup",
							"bcm-device-wakeup", "bcm-shutdown" } },
					}
				})
			}
		}
	}
}
