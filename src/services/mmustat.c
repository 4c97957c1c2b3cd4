/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Niagara MMU statistics (../shared/specs/niagara-mmustat-api.txt):
 *  - NIAGARA_MMUSTAT_CONF (§2.1), check order as the OpenSPARC hypervisor's
 *    hcall_niagara_mmustat_conf: alignment first, ra 0 disables without a
 *    range check, then [ra, ra + 0x200) inside one guest memory segment
 *    (../shared/reference/hw-and-hypervisor.md §1.4).  Where hvpmu follows
 *    the spec against that code (docs/mmustat.md): the alignment is the
 *    spec's 64 bytes, not OpenSPARC's 8, and an error stops collection for
 *    the vCPU (§2.1 "If an error is returned no statistics are
 *    collected"), where OpenSPARC keeps the previous buffer.
 *  - NIAGARA_MMUSTAT_INFO (§2.2): the current RA.
 *  - Accumulation (§2.3; OpenSPARC mmu.s .itsbhit/.dtsbhit,
 *    hw-and-hypervisor.md §1.5): slot = I/D half + ctx block + code * 16,
 *    hits += 1, ticks += delta, read-modify-write of big-endian guest words,
 *    T1 size codes 0, 1, 3, 5 only.
 * Per-vCPU state is the configured RA; the buffer's host backing is
 * allocated at configuration, so a TSB hit never allocates.
 */
#include <stddef.h>
#include <stdlib.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/mmustat.h>
struct hvpmu_mmustat {
	struct hvpmu_guest_mem *mem;
	unsigned nvcpus;
	uint64_t *ra; /* [nvcpus] configured buffer, 0 = collection disabled */
};

int hvpmu_mmustat_create(struct hvpmu_guest_mem *mem, unsigned nvcpus, struct hvpmu_mmustat **out)
{
	struct hvpmu_mmustat *ms;

	if (!out)
		return HVPMU_EINVAL;
	*out = NULL;
	if (!mem || nvcpus == 0)
		return HVPMU_EINVAL;
	ms = calloc(1, sizeof *ms);
	if (!ms)
		return HVPMU_ENOMEM;
	ms->ra = calloc(nvcpus, sizeof *ms->ra);
	if (!ms->ra) {
		free(ms);
		return HVPMU_ENOMEM;
	}
	ms->mem = mem;
	ms->nvcpus = nvcpus;
	*out = ms;
	return 0;
}

void hvpmu_mmustat_destroy(struct hvpmu_mmustat *ms)
{
	if (!ms)
		return;
	free(ms->ra);
	free(ms);
}

unsigned hvpmu_mmustat_nvcpus(const struct hvpmu_mmustat *ms)
{
	return ms->nvcpus;
}

/* The checks of CONF on a new buffer, in OpenSPARC's order (§1.4):
 * alignment first, ra 0 needs no range check, then one memory segment;
 * then the host backing (a host condition, docs/mmustat.md). */
static uint64_t conf_check(struct hvpmu_mmustat *ms, uint64_t ra)
{
	if (ra & (HVPMU_MMUSTAT_AREA_ALIGN - 1))
		return HV_EBADALIGN;
	if (ra == 0)
		return HV_EOK;
	if (!hvpmu_guest_mem_range_ok(ms->mem, ra, HVPMU_MMUSTAT_AREA_SIZE))
		return HV_ENORADDR;
	if (hvpmu_guest_mem_back(ms->mem, ra, HVPMU_MMUSTAT_AREA_SIZE))
		return HV_EIO;
	return HV_EOK;
}

uint64_t hvpmu_mmustat_conf(struct hvpmu_mmustat *ms, unsigned vcpu, uint64_t ra, uint64_t *old_ra)
{
	uint64_t prev, st;

	if (vcpu >= ms->nvcpus) /* no vCPU: nothing to configure or disable */
		return HV_ENOCPU;
	st = conf_check(ms, ra);
	if (st != HV_EOK) {
		/* niagara-mmustat-api.txt §2.1: "If an error is returned no
		 * statistics are collected (equivalent to passing an raddr of
		 * zero)": the previous buffer is no longer accessed.  *old_ra is
		 * not written (the guest's %o1 stays as it passed it). */
		ms->ra[vcpu] = 0;
		return st;
	}
	prev = ms->ra[vcpu];
	ms->ra[vcpu] = ra;
	if (old_ra)
		*old_ra = prev;
	return HV_EOK;
}

uint64_t hvpmu_mmustat_info(const struct hvpmu_mmustat *ms, unsigned vcpu, uint64_t *ra)
{
	if (vcpu >= ms->nvcpus) {
		*ra = 0;
		return HV_ENOCPU;
	}
	*ra = ms->ra[vcpu];
	return HV_EOK;
}

/* word += delta in guest memory; the word is backed (conf), so this cannot
 * fail, and would leave the word unchanged if it did. */
static void add_word(struct hvpmu_guest_mem *mem, uint64_t ra, uint64_t delta)
{
	uint64_t v;

	if (hvpmu_guest_mem_read64(mem, ra, &v) == 0)
		(void)hvpmu_guest_mem_write64(mem, ra, v + delta);
}

void hvpmu_mmustat_tsb_hit(struct hvpmu_mmustat *ms, unsigned vcpu, int dmmu, int ctx_nonzero,
			   unsigned size_code, uint64_t ticks)
{
	uint64_t slot;

	if (vcpu >= ms->nvcpus || ms->ra[vcpu] == 0 || !hvpmu_mmustat_code_valid(size_code))
		return;
	slot = ms->ra[vcpu] + hvpmu_mmustat_slot(dmmu, ctx_nonzero, size_code);
	add_word(ms->mem, slot + HVPMU_MMUSTAT_HIT, 1);
	add_word(ms->mem, slot + HVPMU_MMUSTAT_TICK, ticks);
}

void hvpmu_mmustat_reset(struct hvpmu_mmustat *ms, unsigned vcpu)
{
	if (vcpu < ms->nvcpus)
		ms->ra[vcpu] = 0;
}

/* Linux struct hv_mmu_statistics member names (linux-clients.md §1.4),
 * indexed by word: [half][block][code][hits/ticks]. */
#define SLOT(mmu, ctx, sz) "" mmu "_tsb_hits_" ctx "_" sz "_tte", mmu "_tsb_ticks_" ctx "_" sz "_tte"
#define RSVD NULL, NULL
#define BLOCK(mmu, ctx) \
	SLOT(mmu, ctx, "8k"), SLOT(mmu, ctx, "64k"), RSVD, SLOT(mmu, ctx, "4mb"), RSVD, \
	SLOT(mmu, ctx, "256mb"), RSVD, RSVD
static const char *const field_names[HVPMU_MMUSTAT_WORDS] = {
	BLOCK("immu", "ctx0"), BLOCK("immu", "ctxnon0"), BLOCK("dmmu", "ctx0"), BLOCK("dmmu", "ctxnon0"),
};

const char *hvpmu_mmustat_field_name(uint32_t offset)
{
	if (offset >= HVPMU_MMUSTAT_AREA_SIZE || (offset & 7u))
		return NULL;
	return field_names[offset / 8u];
}
