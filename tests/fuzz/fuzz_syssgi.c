/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_syssgi.c - libFuzzer target for the IRIX syssgi(SGI_EVENTCTR,
 * MDPERF_*) entry of the SGI Origin platform (hvpmu/irix.h,
 * src/services/irix.c).
 *
 * Input: a sequence of 16-byte records, each one action on one machine:
 *   byte 0: action (even: a syssgi call; odd: run a CPU up to N ticks)
 *   byte 1: command offset (259 + b % 12: the obsolete ones, the four
 *           MDPERF_NODE_* and a few past them)
 *   bytes 2-3: node (int16, big-endian; -1 = CNODEID_NONE)
 *   bytes 4-7: caller pointer offset into a 4 KB mapped range (any value:
 *           most fall outside and must give EFAULT, never a crash)
 *   bytes 8-11: ctrl word written at that pointer first (when mapped)
 *   byte 12: caller (bit 0: CAP_DEVICE_MGT), byte 13: CPU, 14-15 unused.
 * Invariants (abort): the call returns HVPMU_OK; ret is 0 or -1; an error
 * is one of EPERM, EFAULT, EBUSY, EINVAL or the raw -1; a successful
 * GET_COUNT writes a layout whose overflow flags then read clear; no
 * access outside the mapped range (ASan).
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define UBASE UINT64_C(0x10000000)
#define ULEN 4096
#define REC 16

static uint8_t umem[ULEN];

static struct hvpmu_irix_range uspace = { UBASE, umem, ULEN };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	struct hvpmu_hv *hv = NULL;
	uint64_t period;

	if (hvpmu_md_by_name("origin", &md) || hvpmu_machine_create(&md, &m) || hvpmu_hv_create(m, &hv))
		abort();
	period = hvpmu_irix_tick_cycles(hv);
	memset(umem, 0, sizeof umem);
	for (size_t off = 0; off + REC <= size; off += REC) {
		const uint8_t *r = data + off;
		uint32_t cpu = r[13] % hvpmu_machine_nstrands(m);

		if (r[0] & 1) { /* time passes on one CPU: up to 7 ticks */
			if (hvpmu_machine_add_cycles(m, cpu, HVPMU_MODE_USER, period * (r[1] % 8) + r[2]))
				abort();
			continue;
		}
		{
			struct hvpmu_irix_caller c = { .uid = r[12], .caps = (r[12] & 1) ? HVPMU_IRIX_CAP_DEVICE_MGT : 0,
						       .copyin = hvpmu_irix_range_copyin,
						       .copyout = hvpmu_irix_range_copyout, .ctx = &uspace };
			int64_t cmd = 259 + r[1] % 12;
			int64_t node = (int16_t)(uint16_t)((unsigned)r[2] << 8 | r[3]);
			uint32_t po = (uint32_t)r[4] << 24 | (uint32_t)r[5] << 16 | (uint32_t)r[6] << 8 | r[7];
			uint64_t ptr = UBASE + (po % (2 * ULEN)) - (po & 0x80000000u ? UBASE : 0);
			struct hvpmu_irix_ret ret;

			if (ptr >= UBASE && ptr + 4 <= UBASE + ULEN)
				memcpy(umem + (ptr - UBASE), r + 8, 4);
			if (hvpmu_irix_eventctr(hv, cpu, &c, cmd, node, ptr, &ret) != HVPMU_OK)
				abort();
			if (ret.ret != 0 && ret.ret != -1)
				abort();
			if (ret.ret == -1 && ret.err != HVPMU_IRIX_EPERM && ret.err != HVPMU_IRIX_EFAULT &&
			    ret.err != HVPMU_IRIX_EBUSY && ret.err != HVPMU_IRIX_EINVAL && ret.err != -1)
				abort();
			if (ret.ret == 0 && cmd == HVPMU_MDPERF_NODE_GET_COUNT) {
				struct hvpmu_md_perf_values v;
				struct hvpmu_irix_ret again;

				if (ptr < UBASE || ptr + HVPMU_MD_PERF_VALUES_BYTES > UBASE + ULEN)
					abort(); /* succeeded on an unmapped buffer */
				if (hvpmu_irix_eventctr(hv, cpu, &c, cmd, node, ptr, &again) != HVPMU_OK || again.ret)
					abort();
				hvpmu_md_perf_values_decode(umem + (ptr - UBASE), &v);
				for (unsigned s = 0; s < 6; s++)
					for (unsigned i = 0; i < 6; i++)
						if (v.overflow[s][i]) /* read to clear, no tick between */
							abort();
			}
		}
	}
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
	return 0;
}
