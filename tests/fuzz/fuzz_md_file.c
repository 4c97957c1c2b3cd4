/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_md_file.c - libFuzzer target for machine-description files
 * (src/model/md_file.c, hvpmu_md_parse; docs/machine-description.md).
 *
 * Input: byte 0 bits 1:0 = the base description (t4, t1, t4-2, t4-4), the
 * rest the file.
 * Invariants (abort on violation): the result is 0 or HVPMU_EINVAL (or
 * HVPMU_ENOMEM); an error comes with one non-empty line and leaves the
 * description untouched; a success gives 1..4096 strands, guests whose
 * strand ranges lie inside the machine and do not overlap, 1..4 memory
 * segments each, and cache levels hvpmu_machine_create accepts
 * (power-of-two lines and sets).
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
		static const char *const names[] = { "t4", "t1", "t4-2", "t4-4", "origin", "t4", "t1", "origin" };
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
		check_cache(&md.mem.l1i, 0);
		check_cache(&md.mem.l1d, 0);
		check_cache(&md.mem.l2, 1);
		check_cache(&md.mem.l3, md.mem.l2.size != 0); /* no shared last level behind an L2 (origin) */
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
	return 0;
}
