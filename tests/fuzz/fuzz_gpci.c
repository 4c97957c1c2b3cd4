/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_gpci.c - libFuzzer target for H_GetPerformanceCounterInfo (hcall
 * 0xF080, src/services/papr.c) and the CEC statistics device's feeding
 * interface (src/pmu/cec_stats.c), on the default CEC (hvpmu/cec.h).
 *
 * Input: a sequence of operations, each starting with one byte:
 *   op % 4 == 0: an hcall: caller partition (byte), its processor (byte),
 *     the block's real address as an offset from the segment's base
 *     (int16, big-endian: some before, some past the end), its size
 *     (u16, or a special value), then 48 bytes written at the block first
 *     (the parameter block: request, starting_index, the rest, the
 *     Set MMCRH value), the request often one of the implemented or
 *     known codes;
 *   op % 4 == 1: a feed of arbitrary numbers through the dispatcher's
 *     interface (advance, entitle, dispatch, lend, link): the device must
 *     refuse whatever breaks an invariant;
 *   op % 4 == 2: the bus fails (or works again) from now on;
 *   op % 4 == 3: an hcall with another function token.
 * Invariants (abort): every status is one of the spec's (H_Success,
 * H_Privilege, H_Parameter, H_Not_Available, H_Authority, H_Hardware;
 * H_Function for other tokens); no byte outside [ra, ra + size) changes;
 * on statuses other than H_Success and H_Parameter the block is
 * unchanged, on H_Parameter it is unchanged or holds detail_rc 0x1B;
 * on H_Success returned_values lists of cv_element_size bytes fit the
 * block, and counter_info_version_out is the version asked or 0 (the
 * seed's: issue 30); after every feed the device's counters satisfy I2-I4 and I8
 * (hvpmu/cec_stats.h); nothing reads or writes out of bounds (ASan).
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BASE UINT64_C(0x100000)
#define SEG 0x4000u
#define GUARD 0x400u /* checked on each side of the block */

static const uint32_t codes[] = { 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0xB1, 0x100, 0x80001000, 0x80002000, 0 };
static const uint64_t sizes[] = { 0, 31, 32, 40, 47, 48, 79, 80, 111, 127, 4096, SEG, SEG + 1, UINT64_MAX };
#define NSIZES (sizeof sizes / sizeof sizes[0])
static const uint8_t versions[] = { 0, 3, 5, 6, 8 }; /* Linux's hv-gpci.h */

struct ctx {
	struct hvpmu_cec_stats *st;
	int fail;
};

static int bus_read(void *c, unsigned reg, uint64_t *v)
{
	struct ctx *x = c;

	return x->fail ? HVPMU_ERANGE : hvpmu_cec_stats_read(x->st, reg, v);
}

static int bus_write(void *c, unsigned reg, uint64_t v)
{
	struct ctx *x = c;

	return x->fail ? HVPMU_ERANGE : hvpmu_cec_stats_write(x->st, reg, v);
}

static uint64_t rd(struct hvpmu_cec_stats *st, unsigned g, unsigned i, unsigned f)
{
	uint64_t v;

	if (hvpmu_cec_stats_read(st, HVPMU_CEC_REG(g, i, f), &v))
		abort();
	return v;
}

static void check_device(struct hvpmu_cec_stats *st, const struct hvpmu_cec *cec)
{
	uint64_t tb = rd(st, HVPMU_CEC_GRP_GLOBAL, 0, HVPMU_CEC_G_TIMEBASE);

	for (unsigned i = 0; i < cec->nprocs; i++)
		if (rd(st, HVPMU_CEC_GRP_PROC, i, HVPMU_CEC_P_PURR) > tb) /* I2 */
			abort();
	for (unsigned p = 0; p < cec->npartitions; p++) {
		uint64_t ent = rd(st, HVPMU_CEC_GRP_PARTITION, p, HVPMU_CEC_L_ENTITLED);

		if ((unsigned __int128)ent * HVPMU_CEC_PU > (unsigned __int128)tb * cec->partitions[p].entitlement ||
		    rd(st, HVPMU_CEC_GRP_PARTITION, p, HVPMU_CEC_L_CAPPED) > ent) /* I3, I4 */
			abort();
	}
	for (unsigned c = 0; c < cec->nchips; c++)
		for (unsigned l = 0; l < HVPMU_CEC_NLINKS; l++)
			if (rd(st, HVPMU_CEC_GRP_CHIP, c, HVPMU_CEC_C_LINK_IDLE(l)) >
				    rd(st, HVPMU_CEC_GRP_CHIP, c, HVPMU_CEC_C_LINK_TOTAL(l)) ||
			    rd(st, HVPMU_CEC_GRP_CHIP, c, HVPMU_CEC_C_LINK_TOTAL(l)) > tb) /* I8 */
				abort();
}

static uint64_t small(struct in *in)
{
	uint8_t t = u8(in);

	return t & 0x80 ? u64(in) : (uint64_t)(t & 0x7F) * (t & 0x40 ? 1000 : 1);
}

static void feed(struct in *in, struct hvpmu_cec_stats *st, uint64_t *tb)
{
	struct hvpmu_cec_dispatch d;

	switch (u8(in) % 5) {
	case 0:
		*tb += small(in);
		hvpmu_cec_stats_advance(st, *tb);
		break;
	case 1:
		hvpmu_cec_stats_entitle(st, u8(in) % 4, small(in));
		break;
	case 2:
		d.proc = u8(in) % 34;
		d.part = u8(in) % 4;
		d.capped = small(in);
		d.uncapped = small(in);
		d.idle = small(in);
		d.run_insns = small(in);
		d.run_cycles = small(in);
		hvpmu_cec_stats_dispatch(st, &d);
		break;
	case 3:
		hvpmu_cec_stats_lend(st, u8(in) % 34, u8(in) & 1);
		break;
	default: {
		unsigned chip = u8(in) % 5, link = u8(in) % 8;
		uint64_t idle = small(in);

		hvpmu_cec_stats_link(st, chip, link, idle, small(in));
	}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t before[SEG], after[SEG];
	const struct hvpmu_guest_mem_seg seg = { BASE, SEG };
	struct in in = { data, size };
	struct hvpmu_cec cec;
	struct ctx x = { NULL, 0 };
	struct hvpmu_papr_bus bus = { bus_read, bus_write, &x };
	struct hvpmu_papr *p = NULL;
	struct hvpmu_guest_mem *mem[3] = { NULL, NULL, NULL };
	uint64_t tb = 0;

	hvpmu_cec_default(&cec);
	if (hvpmu_cec_stats_create(&cec, &x.st) || hvpmu_papr_create(&cec, &bus, &p))
		abort();
	for (unsigned i = 0; i < 3; i++)
		if (hvpmu_guest_mem_create(&seg, 1, &mem[i]) || hvpmu_guest_mem_back(mem[i], BASE, SEG))
			abort();
	for (unsigned ops = 0; in.n && ops < 256; ops++) {
		uint8_t op = u8(&in);

		if (op % 4 == 1) {
			feed(&in, x.st, &tb);
			check_device(x.st, &cec);
		} else if (op % 4 == 2) {
			x.fail = u8(&in) & 1;
		} else {
			unsigned part = u8(&in) % 3, proc = u8(&in) % 32;
			struct hvpmu_papr_caller c = { part, proc, NULL };
			int16_t off = (int16_t)u16(&in);
			uint16_t sz = u16(&in);
			uint64_t ra = BASE + (uint64_t)(int64_t)off, bsize = sz & 0x8000 ? sizes[sz % NSIZES] : sz & 0x1FFF;
			uint8_t blk[48];
			uint64_t gpr[3];
			int64_t rc;

			c.mem = mem[c.partition];
			for (unsigned k = 0; k < sizeof blk; k++)
				blk[k] = u8(&in);
			if (blk[0] & 0x80) { /* an interesting request code */
				uint32_t code = codes[blk[1] % 12];

				blk[0] = (uint8_t)(code >> 24), blk[1] = (uint8_t)(code >> 16);
				blk[2] = (uint8_t)(code >> 8), blk[3] = (uint8_t)code;
			}
			if (blk[4] & 0x80) /* often -1 or a small index */
				memset(blk + 4, blk[4] & 0x40 ? 0xFF : 0, blk[4] & 0x40 ? 4 : 3);
			if (blk[0x12] & 0x80) /* often a counter_info_version Linux names */
				blk[0x12] = versions[blk[0x12] % 5];
			if (hvpmu_guest_mem_range_ok(c.mem, ra, sizeof blk))
				hvpmu_guest_mem_write(c.mem, ra, blk, sizeof blk);
			hvpmu_guest_mem_read(c.mem, BASE, before, SEG);
			gpr[0] = op % 4 == 3 ? 0xF000u + op : HVPMU_H_GET_PERF_COUNTER_INFO;
			gpr[1] = ra;
			gpr[2] = bsize;
			rc = hvpmu_papr_hcall(p, &c, gpr);
			hvpmu_guest_mem_read(c.mem, BASE, after, SEG);
			if (gpr[0] != HVPMU_H_GET_PERF_COUNTER_INFO) {
				if (rc != HVPMU_H_FUNCTION || memcmp(before, after, SEG))
					abort();
				continue;
			}
			switch (rc) {
			case HVPMU_H_SUCCESS: case HVPMU_H_PARAMETER: case HVPMU_H_NOT_AVAILABLE:
			case HVPMU_H_AUTHORITY: case HVPMU_H_HARDWARE: case HVPMU_H_PRIVILEGE:
				break;
			default:
				abort();
			}
			if (rc != HVPMU_H_SUCCESS && rc != HVPMU_H_PARAMETER && memcmp(before, after, SEG))
				abort();
			for (uint64_t k = 0; k < SEG; k++) { /* nothing outside the block */
				uint64_t a = BASE + k;

				if ((a < ra || a - ra >= bsize) && before[k] != after[k])
					abort();
			}
			if ((rc == HVPMU_H_SUCCESS || rc == HVPMU_H_PARAMETER) && memcmp(before, after, SEG)) {
				const uint8_t *h = after + (ra - BASE);
				uint64_t n = (uint64_t)h[8] << 24 | (uint64_t)h[9] << 16 | h[10] << 8 | h[11];
				uint64_t el = (uint64_t)h[0x10] << 8 | h[0x11];
				uint32_t detail = (uint32_t)h[12] << 24 | (uint32_t)h[13] << 16 | h[14] << 8 | h[15];

				if (32 + n * el > bsize || (rc == HVPMU_H_PARAMETER && detail != 0x1B) ||
				    (rc == HVPMU_H_SUCCESS && (detail || !n)) || (h[0x13] && h[0x13] != h[0x12]))
					abort();
			}
		}
	}
	for (unsigned i = 0; i < 3; i++)
		hvpmu_guest_mem_destroy(mem[i]);
	hvpmu_papr_destroy(p);
	hvpmu_cec_stats_destroy(x.st);
	return 0;
}
