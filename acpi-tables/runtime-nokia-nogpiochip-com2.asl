/*
 * For tests, loaded at runtime: a Nokia H4+ chip on COM2 (ttyS1) whose
 * sideband lines are on a GPIO controller that is described but not
 * present (\_SB.GSIX, _STA zero), so hci_nokia's probe defers for as long
 * as the table is loaded: its GPIO lookups find the controller's node but
 * no GPIO chip for it (-EPROBE_DEFER).
 *
 * What should happen: the serdev device is added, each probe attempt
 * defers, and /dev/ttyS1 stays what it was: no tty device removed and added
 * again, no uevent, for any number of attempts.  No model is needed.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "BTNOGC", 0x00000001)
{
	External (\_SB.PCI0.SF8.COM2, DeviceObj)
	External (\_SB.PCI0.S08.COM2, DeviceObj)

	Scope (\_SB)
	{
		/* A GPIO controller that is not there (yet) */
		Device (GSIX)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 99)
			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "gpio-simulator" },
				}
			})
			Method (_STA, 0, NotSerialized)
			{
				Return (Zero)
			}
		}

		Device (BTNG)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 92)
			Name (GPIO, ResourceTemplate () {
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIX",
					0, ResourceConsumer, , ) { 0 }
				GpioInt (Edge, ActiveBoth, Exclusive, PullNone, 0,
					"\\_SB.GSIX", 0, ResourceConsumer, , ) { 1 }
				GpioIo (Exclusive, PullNone, 0, 0,
					IoRestrictionOutputOnly, "\\_SB.GSIX",
					0, ResourceConsumer, , ) { 2 }
			})
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
					Package () { "reset-gpios",
						Package () { ^BTNG, 0, 0, 1 } },
					Package () { "host-wakeup-gpios",
						Package () { ^BTNG, 1, 0, 0 } },
					Package () { "bluetooth-wakeup-gpios",
						Package () { ^BTNG, 2, 0, 0 } },
					Package () { "clock-frequency", 38400000 },
				}
			})
		}
	}
}
