/*
 * A W2SG0004 GPS on COM4 (ttyS3), no sideband lines, whose UartSerialBusV2
 * gives 4800 baud and no "current-speed": gnss-sirf is to run the port at
 * 4800, which is neither the tty default (9600) nor anything else in the
 * world, so the rate the driver set shows which value it took.  For loading
 * at runtime through ACPI configfs (tests/acpi-uart-baud.sh).
 * As gps-com2.asl: declared for q35 (SF8) and pc (S08), _STA keeps the one
 * whose UART exists.
 */
DefinitionBlock ("", "SSDT", 2, "TTYPRT", "GPSBD4", 0x00000001)
{
	External (\_SB.PCI0.SF8.COM4, DeviceObj)
	External (\_SB.PCI0.S08.COM4, DeviceObj)

	Scope (\_SB)
	{
		Device (GPSB)
		{
			Name (_HID, "PRP0001")
			Name (_UID, 41)
			Name (_DSD, Package () {
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package () {
					Package () { "compatible", "wi2wi,w2sg0004" },
				}
			})
			Name (RBQ3, ResourceTemplate () {
				UartSerialBusV2 (4800, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlNone,
					32, 32, "\\_SB.PCI0.SF8.COM4", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (RBPC, ResourceTemplate () {
				UartSerialBusV2 (4800, DataBitsEight, StopBitsOne,
					0x00, LittleEndian, ParityTypeNone, FlowControlNone,
					32, 32, "\\_SB.PCI0.S08.COM4", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Method (_CRS, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.SF8.COM4)) {
					Return (RBQ3)
				}
				Return (RBPC)
			}
			Method (_STA, 0, NotSerialized)
			{
				If (CondRefOf (\_SB.PCI0.SF8.COM4)) {
					Return (0x0F)
				}
				If (CondRefOf (\_SB.PCI0.S08.COM4)) {
					Return (0x0F)
				}
				Return (Zero)
			}
		}
	}
}
