/*
 * mkfw-ti1273: write the TEST firmware file nokia/ti1273.bin that hci_nokia
 * loads for man_id 0x31 (nokia_setup_fw in drivers/bluetooth/hci_nokia.c).
 *
 * File format, as nokia_setup_fw parses it: a sequence of records
 *     [LE16 len][type][len - 1 bytes]
 * where len counts the type byte and what follows. Type 0x01 records are HCI
 * commands ([LE16 opcode][plen][params]); the driver sends each with
 * __hci_cmd_sync and needs a Command Complete within HCI_INIT_TIMEOUT.
 * Types 0x06/0x07/0x08 are skipped; parsing stops when fewer than 4 bytes
 * remain.
 *
 * The commands below are NOT TI's patch commands; they are made-up vendor
 * commands (OGF 0x3F), which the nokia-h4p model acknowledges itself. Their
 * parameter lengths are chosen so the H4+ padding is exercised both ways:
 * an odd-length frame (host adds a pad byte) and even-length ones.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct fw_cmd {
	uint16_t opcode;
	uint8_t plen;
	uint8_t param[8];
	const char *what;
};

static const struct fw_cmd cmds[] = {
	/* H4 frame 01 01 fc 03 54 49 31 = 7 bytes: odd, host pads. */
	{ 0xfc01, 3, { 'T', 'I', '1' }, "test: odd-length frame (7 bytes + pad)" },
	/* 01 02 fc 04 27 31 00 00 = 8 bytes: even, no pad. */
	{ 0xfc02, 4, { 0x27, 0x31, 0x00, 0x00 }, "test: even-length frame (8 bytes)" },
	/* 01 03 fc 00 = 4 bytes: no parameters. */
	{ 0xfc03, 0, { 0 }, "test: no parameters (4 bytes)" },
};

int main(int argc, char **argv)
{
	FILE *f;
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < sizeof(cmds) / sizeof(*cmds); i++)
			printf("0x%04x plen %u  %s\n", cmds[i].opcode,
			       cmds[i].plen, cmds[i].what);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: mkfw-ti1273 OUTFILE | --list\n");
		return 2;
	}
	f = fopen(argv[1], "wb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(*cmds); i++) {
		const struct fw_cmd *c = &cmds[i];
		unsigned int len = 1 + 3 + c->plen;	/* type + cmd header + params */
		uint8_t rec[2 + 1 + 3 + sizeof(c->param)] = {
			len & 0xff, len >> 8, 0x01,
			c->opcode & 0xff, c->opcode >> 8, c->plen,
		};

		memcpy(rec + 6, c->param, c->plen);
		fwrite(rec, 1, 2 + len, f);
	}
	if (fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
