/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_md_file.c - libFuzzer target for machine-description files
 * (src/model/md_file.c, hvpmu_md_parse; docs/machine-description.md).
 *
 * Input: byte 0 bits 2:0 = the base description (t4, t1, t4-2, t4-4,
 * origin, power, t1, origin), the rest the file.
 * Invariants (abort on violation): the result is 0 or HVPMU_EINVAL (or
 * HVPMU_ENOMEM); an error comes with one non-empty line and leaves the
 * description untouched; a success gives 1..4096 strands, guests whose
 * strand ranges lie inside the machine and do not overlap, 1..4 memory
 * segments each, cache levels hvpmu_machine_create accepts
 * (power-of-two lines and sets), and a PAPR CEC (key "cec", hvpmu/cec.h)
 * that passes hvpmu_cec_check with one processor per core.  Then, for a description of modest size
 * (up to 256 strands and 16 MB per cache level, so that the fuzzer's
 * memory limit is not the finding), the machine is built from it and
 * each strand makes a fetch, a load and a store, a prefetch, a read()'s
 * and a write()'s I/O, a load and a store at the fetch-and-op region's
 * ends and a sync with the memory model on: a description the parser accepts must give a
 * machine that runs (a T4 description with `l3.size 0` crashed the L2
 * prefetch admission once, docs/machine-description.md).
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int pow2(uint64_t v) { return v && !(v & (v - 1)); }

static void check_cache(const struct hvpmu_md_cache *c, int may_be_absent)
{
	if (may_be_absent && c->size == 0)
		return;
	if (!pow2(c->line) || !c->ways || c->size % ((uint64_t)c->ways * c->line) ||
	    !pow2(c->size / ((uint64_t)c->ways * c->line)))
		abort();
}

static int modest(const struct hvpmu_md_cache *c)
{
	return c->size <= (UINT64_C(16) << 20);
}

/* Build the machine and touch memory from every strand. */
static void run_machine(const struct hvpmu_md *md)
{
	struct hvpmu_machine *m;
	uint32_t n = hvpmu_md_nstrands(md);
	int rc;

	if (n > 256 || !modest(&md->mem.l1i) || !modest(&md->mem.l1d) || !modest(&md->mem.l2) || !modest(&md->mem.l3))
		return;
	rc = hvpmu_machine_create(md, &m);
	if (rc == HVPMU_ENOMEM)
		return;
	if (rc != HVPMU_OK)
		abort(); /* the parser accepted it: the machine must build */
	hvpmu_machine_set_features(m, HVPMU_FEAT_MEMORY | HVPMU_FEAT_TAKEN);
	for (uint32_t s = 0; s < n; s++) {
		uint64_t va = UINT64_C(0x100000) + (uint64_t)s * 4096u;

		hvpmu_machine_ifetch(m, s, UINT64_C(0x10000), 64);
		hvpmu_machine_dref(m, s, UINT64_C(0x10000), va, 8, HVPMU_IC_LOAD, 0);
		hvpmu_machine_dref(m, s, UINT64_C(0x10004), va + 8, 8, HVPMU_IC_STORE, 1);
		hvpmu_machine_prefetch(m, s, UINT64_C(0x10008), va + 4096, HVPMU_PF_L1);
		/* a read() and a write() of a buffer across lines: the Origin's
		 * DMA with io_dma (docs/origin-directory.md "I/O"), T1's JBUS */
		hvpmu_machine_io_at(m, s, 1, va + 40, 300);
		hvpmu_machine_io_at(m, s, 0, va, 4096);
		/* the Origin's fetch-and-op region, if any: a load and a store */
		hvpmu_machine_dref(m, s, UINT64_C(0x1000c), md->fetchop_va + 8, 8, HVPMU_IC_LOAD, 0);
		hvpmu_machine_dref(m, s, UINT64_C(0x10010), md->fetchop_va + md->fetchop_bytes - 8, 8, HVPMU_IC_STORE, 1);
		hvpmu_machine_sync(m, s, NULL, NULL);
	}
	hvpmu_machine_destroy(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hvpmu_md md, before;
	char err[256];
	int rc;

	if (size == 0)
		return 0;
	memset(&md, 0x5a, sizeof md);
	before = md;
	memset(err, 0, sizeof err);
	{
		static const char *const names[] = { "t4", "t1", "t4-2", "t4-4", "origin", "power", "t1", "origin" };
		struct hvpmu_md base;

		hvpmu_md_by_name(names[data[0] & 7], &base);
		rc = hvpmu_md_parse((const char *)data + 1, size - 1, &base, &md, err, sizeof err);
	}
	if (rc == HVPMU_ENOMEM)
		return 0;
	if (rc == HVPMU_EINVAL) {
		if (!err[0] || !memchr(err, 0, sizeof err) || strchr(err, '\n') || memcmp(&md, &before, sizeof md))
			abort();
		return 0;
	}
	if (rc != HVPMU_OK)
		abort();
	{
		uint32_t n = hvpmu_md_nstrands(&md);

		if (n == 0 || n > 4096 || md.nguests == 0 || md.nguests > HVPMU_MD_MAX_GUESTS)
			abort();
		if (md.cec.nchips && (hvpmu_cec_check(&md.cec, "", NULL, 0) || md.cec.nchips != md.chips ||
				      md.cec.nprocs != md.chips * md.cores_per_chip))
			abort();
		check_cache(&md.mem.l1i, 0);
		check_cache(&md.mem.l1d, 0);
		check_cache(&md.mem.l2, 1);
		check_cache(&md.mem.l3, md.mem.l2.size != 0); /* no shared last level behind an L2 (origin) */
		/* the Origin's I/O and fetch-and-op region (docs/origin-directory.md) */
		if (md.io_dma > 1 || (md.fetchop_va | md.fetchop_bytes) % 16384 ||
		    md.fetchop_va + md.fetchop_bytes < md.fetchop_va)
			abort();
		for (uint32_t i = 0; i < md.nguests; i++) {
			const struct hvpmu_md_guest *g = &md.guests[i];

			if (!g->nstrands || (uint64_t)g->first_strand + g->nstrands > n || !g->nmem ||
			    g->nmem > HVPMU_MD_MAX_MEM || !memchr(g->name, 0, sizeof g->name))
				abort();
			for (uint32_t j = 0; j < i; j++)
				if (g->first_strand < md.guests[j].first_strand + md.guests[j].nstrands &&
				    md.guests[j].first_strand < g->first_strand + g->nstrands)
					abort();
		}
	}
	run_machine(&md);
	return 0;
}
