/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The platform-services dispatcher of layer 4 (services_internal.h): the
 * guests of the machine description (hw-and-hypervisor.md §1.3, the sun4v
 * machine description's guest nodes), their real memory and trap
 * handlers, the machine's traps routed to the guest that owns the strand,
 * and the personality of the platform (the table below: data, not
 * branches).
 */
#include <stdlib.h>
#include <string.h>
#include "services_internal.h"

static const struct svc_personality *const personalities[] = { &svc_sun4v, &svc_irix, &svc_papr };

/* A platform whose firmware services are not modeled (POWER was one
 * before its PAPR hcalls, papr_hv.c): the guests exist, with their
 * memory and the guest OS's trap handler, and no call is served; a
 * machine trap reaches nobody. */
static char none_guest;
static void *none_guest_create(struct hvpmu_hv *hv, unsigned guest)
{
	(void)hv; (void)guest;
	return &none_guest;
}
static void none_guest_destroy(void *p) { (void)p; }
static void none_machine_trap(struct hvpmu_hv *hv, unsigned guest, const struct hvpmu_trap *t)
{
	(void)hv; (void)guest; (void)t;
}
static const struct svc_personality svc_none = {
	.name = "none", .guest_create = none_guest_create,
	.guest_destroy = none_guest_destroy, .machine_trap = none_machine_trap,
};

/* The personality the platform's record names (hvpmu/platform.h), by
 * name; none where the record names none. */
static const struct svc_personality *personality_of(enum hvpmu_platform p)
{
	const struct hvpmu_platform_info *pi = hvpmu_platform_info(p);

	for (size_t i = 0; pi && pi->personality && i < sizeof personalities / sizeof personalities[0]; i++)
		if (strcmp(personalities[i]->name, pi->personality) == 0)
			return personalities[i];
	return pi ? &svc_none : NULL;
}

int svc_guest_of(const struct hvpmu_hv *hv, uint32_t strand)
{
	for (unsigned i = 0; i < hv->md->nguests; i++) {
		const struct hvpmu_md_guest *g = &hv->md->guests[i];

		if (strand >= g->first_strand && strand - g->first_strand < g->nstrands)
			return (int)i;
	}
	return -1;
}

void svc_to_guest_os(struct hvpmu_hv *hv, unsigned guest, const struct hvpmu_guest_trap *gt)
{
	const struct svc_guest *g = &hv->g[guest];
	enum hvpmu_mode prev;

	if (!g->trap_fn)
		return;
	prev = hvpmu_machine_mode(hv->m, gt->strand);
	hvpmu_machine_set_mode(hv->m, gt->strand, HVPMU_MODE_PRIV);
	g->trap_fn(g->trap_ctx, gt);
	hvpmu_machine_set_mode(hv->m, gt->strand, prev);
}

static void machine_trap(void *ctx, const struct hvpmu_trap *t)
{
	struct hvpmu_hv *hv = ctx;
	int guest = svc_guest_of(hv, t->strand);

	if (guest >= 0)
		hv->ps->machine_trap(hv, (unsigned)guest, t);
}

static void tsb_hit(void *ctx, uint32_t strand, int dmmu, int ctx_nonzero, unsigned code, uint64_t ticks)
{
	struct hvpmu_hv *hv = ctx;
	int guest = svc_guest_of(hv, strand);

	if (guest >= 0 && hv->ps->tsb_hit)
		hv->ps->tsb_hit(hv, (unsigned)guest, strand - hv->md->guests[guest].first_strand, dmmu, ctx_nonzero,
				code, ticks);
}

/* The guest table of the machine description, as the services hold it:
 * at most HVPMU_MD_MAX_GUESTS guests of at most HVPMU_MD_MAX_MEM memory
 * segments, each strand of the machine owned by at most one guest (a
 * strand's calls are its guest's: svc_guest_of()), no guest owning a
 * strand the machine lacks (docs/machine-description.md "guests";
 * md_file.c refuses such files the same way).  0 or HVPMU_EINVAL. */
static int guests_ok(const struct hvpmu_md *md, uint32_t nstrands)
{
	if (md->nguests > HVPMU_MD_MAX_GUESTS)
		return HVPMU_EINVAL;
	for (unsigned i = 0; i < md->nguests; i++) {
		const struct hvpmu_md_guest *g = &md->guests[i];

		if (g->nmem > HVPMU_MD_MAX_MEM || (uint64_t)g->first_strand + g->nstrands > nstrands)
			return HVPMU_EINVAL;
		for (unsigned j = 0; j < i; j++) {
			const struct hvpmu_md_guest *h = &md->guests[j];

			if (g->first_strand < (uint64_t)h->first_strand + h->nstrands &&
			    h->first_strand < (uint64_t)g->first_strand + g->nstrands)
				return HVPMU_EINVAL;
		}
	}
	return HVPMU_OK;
}

int hvpmu_hv_create(struct hvpmu_machine *m, struct hvpmu_hv **out)
{
	struct hvpmu_hv *hv;

	if (!out)
		return HVPMU_EINVAL;
	*out = NULL;
	if (!m || guests_ok(hvpmu_machine_md(m), hvpmu_machine_nstrands(m)) ||
	    !personality_of(hvpmu_machine_md(m)->platform))
		return HVPMU_EINVAL;
	hv = calloc(1, sizeof *hv);
	if (!hv)
		return HVPMU_ENOMEM;
	hv->m = m;
	hv->md = hvpmu_machine_md(m);
	hv->ps = personality_of(hv->md->platform);
	hv->firmware = hvpmu_platform_info(hv->md->platform)->firmware;
	for (unsigned i = 0; i < hv->md->nguests; i++) {
		const struct hvpmu_md_guest *g = &hv->md->guests[i];
		struct hvpmu_guest_mem_seg segs[HVPMU_MD_MAX_MEM];

		for (unsigned k = 0; k < g->nmem; k++) { /* nmem <= HVPMU_MD_MAX_MEM: guests_ok() */
			segs[k].base = g->mem[k].base;
			segs[k].size = g->mem[k].size;
		}
		if (g->nmem && hvpmu_guest_mem_create(segs, g->nmem, &hv->g[i].mem)) {
			hvpmu_hv_destroy(hv);
			return HVPMU_EINVAL;
		}
		if (!(hv->g[i].p = hv->ps->guest_create(hv, i))) {
			hvpmu_hv_destroy(hv);
			return HVPMU_ENOMEM;
		}
	}
	hvpmu_machine_set_trap_handler(m, machine_trap, hv);
	hvpmu_machine_set_tsb_hit_handler(m, tsb_hit, hv);
	*out = hv;
	return HVPMU_OK;
}

void hvpmu_hv_destroy(struct hvpmu_hv *hv)
{
	if (!hv)
		return;
	hvpmu_machine_set_trap_handler(hv->m, NULL, NULL);
	hvpmu_machine_set_tsb_hit_handler(hv->m, NULL, NULL);
	for (unsigned i = 0; i < HVPMU_MD_MAX_GUESTS; i++) {
		if (hv->g[i].p)
			hv->ps->guest_destroy(hv->g[i].p);
		hvpmu_guest_mem_destroy(hv->g[i].mem);
	}
	free(hv);
}

struct hvpmu_guest_mem *hvpmu_hv_guest_mem(struct hvpmu_hv *hv, unsigned guest)
{
	return guest < hv->md->nguests ? hv->g[guest].mem : NULL;
}

struct hvpmu_machine *hvpmu_hv_machine(struct hvpmu_hv *hv) { return hv->m; }

const char *hvpmu_hv_personality(const struct hvpmu_hv *hv) { return hv->ps->name; }

int hvpmu_hv_set_guest_trap_handler(struct hvpmu_hv *hv, unsigned guest, hvpmu_guest_trap_fn fn, void *ctx)
{
	if (guest >= hv->md->nguests)
		return HVPMU_ERANGE;
	hv->g[guest].trap_fn = fn;
	hv->g[guest].trap_ctx = ctx;
	return HVPMU_OK;
}
