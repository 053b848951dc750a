#!/bin/bash
# make build-matrix: the kernel with the series, built in the configurations
# serdev's users run, not only in the project's own (everything built in, OF
# and ACPI both on).  Each is kconfig/base.config with some options taken out
# and others added (the table below), configured as allnoconfig plus that
# fragment (scripts/kernel-build.sh, which refuses an option Kconfig drops),
# and built whole: vmlinux, and the modules with modpost where it has any.
#
#   scripts/build-matrix.sh [NAME...]     default: every configuration
#
#   LINUX_TREE  the tree to build (default build/linux; make check-series
#               passes its worktree)
#   MATRIX_OUT  where the builds go (default build/matrix/<name>)
#
# Prints "ok|not ok <name>: <what it is>" per configuration, the first
# errors of a failed build, and "N passed, N failed" last.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
tree=${LINUX_TREE:-$top/build/linux}
outbase=${MATRIX_OUT:-$top/build/matrix}

# name | what it stands for | options taken out of base.config | options added
configs=(
"of-static|a DT board kernel without overlays: OF=y, OF_DYNAMIC=n|OF_OVERLAY OF_CONFIGFS SERIAL_DEV_OF_PORT_NODES|"
"no-of|no device tree: OF=n (most x86 distribution kernels)|OF OF_OVERLAY OF_CONFIGFS SERIAL_DEV_OF_PORT_NODES|"
"no-acpi|a board without ACPI, with overlays: ACPI=n|ACPI ACPI_CONFIGFS PNP PNPACPI SERIAL_8250_PNP EFI EFI_STUB|"
"no-acpi-of-static|a DT board: ACPI=n, OF=y, OF_DYNAMIC=n|ACPI ACPI_CONFIGFS PNP PNPACPI SERIAL_8250_PNP EFI EFI_STUB OF_OVERLAY OF_CONFIGFS SERIAL_DEV_OF_PORT_NODES|"
"no-serdev|no serial device bus, USB serial built in: SERIAL_DEV_BUS=n|SERIAL_DEV_BUS SERIAL_DEV_CTRL_TTYPORT SERIAL_DEV_OF_PORT_NODES BT_HCIUART_SERDEV BT_HCIUART_NOKIA BT_HCIUART_MRVL GNSS_SIRF_SERIAL W1_MASTER_UART|"
"modules|a distribution kernel: usbserial, ftdi_sio, hci_uart, gnss, gnss-sirf as modules|USB_SERIAL USB_SERIAL_FTDI_SIO BT_HCIUART BT_HCIUART_SERDEV BT_HCIUART_H4 BT_HCIUART_NOKIA BT_HCIUART_MRVL GNSS GNSS_SIRF_SERIAL|MODULES=y MODULE_UNLOAD=y USB_SERIAL=m USB_SERIAL_FTDI_SIO=m BT_HCIUART=m BT_HCIUART_SERDEV=y BT_HCIUART_H4=y BT_HCIUART_NOKIA=m BT_HCIUART_MRVL=y GNSS=m GNSS_SIRF_SERIAL=m"
"serdev-module|the serial device bus as a module (no tty port controller): SERIAL_DEV_BUS=m|SERIAL_DEV_BUS SERIAL_DEV_CTRL_TTYPORT BT_HCIUART BT_HCIUART_SERDEV BT_HCIUART_H4 BT_HCIUART_NOKIA BT_HCIUART_MRVL GNSS GNSS_SIRF_SERIAL W1_MASTER_UART|MODULES=y MODULE_UNLOAD=y SERIAL_DEV_BUS=m BT_HCIUART=m BT_HCIUART_SERDEV=y BT_HCIUART_H4=y BT_HCIUART_NOKIA=m GNSS=m GNSS_SIRF_SERIAL=m W1_MASTER_UART=m"
)

# fragment NAME OUT: base.config without the options taken out, plus those added
fragment() {
	local row=$1 out=$2 drop add o re=
	IFS='|' read -r _ _ drop add <<<"$row"
	for o in $drop; do re="$re|$o"; done
	if [ -n "$re" ]; then
		grep -vE "^CONFIG_(${re#|})=" kconfig/base.config
	else
		cat kconfig/base.config
	fi >"$out"
	for o in $add; do echo "CONFIG_$o"; done >>"$out"
	for o in $drop; do
		case " $add " in *" $o="*) ;; *) echo "# CONFIG_$o is not set" >>"$out" ;; esac
	done
}

want=("$@")
passed=0 failed=0
for row in "${configs[@]}"; do
	IFS='|' read -r name what _ <<<"$row"
	if [ ${#want[@]} -gt 0 ] && [[ " ${want[*]} " != *" $name "* ]]; then
		continue
	fi
	out=$outbase/$name
	mkdir -p "$out"
	fragment "$row" "$out/matrix.config"
	t0=$SECONDS
	targets="bzImage"
	grep -q '^CONFIG_MODULES=y' "$out/matrix.config" && targets="bzImage modules"
	if LINUX_TREE=$tree ALLOW_UNKNOWN_OPTIONS=${ALLOW_UNKNOWN_OPTIONS:-} \
		KBUILD_TARGETS=$targets scripts/kernel-build.sh "$out" \
		"$out/matrix.config" >"$out/build.log" 2>&1; then
		passed=$((passed + 1))
		echo "ok      $name: $what ($targets, $((SECONDS - t0)) s)"
	else
		failed=$((failed + 1))
		echo "not ok  $name: $what ($targets, $((SECONDS - t0)) s; log: ${out#"$top"/}/build.log)"
		grep -E '(error|ERROR|undefined|kernel-build:)' "$out/build.log" | head -n 12 | sed 's/^/        # /'
	fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
