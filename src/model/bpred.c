/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strand branch predictor for TABLE 10-2 sl=25 (sparc-t4-performance-
 * instrumentation.md): direction mispredicts (mask 0x01), target
 * mispredicts from the far table or return stack (0x02), the indirect
 * table (0x04), the return stack (0x08).  Geometry and policies are
 * documented in docs/branch-prediction.md.
 */
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "bpred.h"

#define INSN_SHIFT 2            /* SPARC instructions are 4 bytes */
#define FAR_PAGE_SHIFT 13       /* "far": target outside the CTI's 8 KB page */
#define CALL_RETURN_OFFSET 8    /* CALL / JMPL return to pc + 8 (after the delay slot) */
#define DIR_WEAK_NOT_TAKEN 1
#define DIR_TAKEN_MIN 2
#define DIR_MAX 3

void bpred_init(struct bpred *bp)
{
	memset(bp, 0, sizeof *bp);
	memset(bp->dir, DIR_WEAK_NOT_TAKEN, sizeof bp->dir);
}

static unsigned idx(uint64_t pc, unsigned entries)
{
	return (unsigned)((pc >> INSN_SHIFT) & (entries - 1));
}

static int predict_direction(struct bpred *bp, uint64_t pc, int taken)
{
	uint8_t *c = &bp->dir[idx(pc, BPRED_DIR_ENTRIES)];
	int predicted = *c >= DIR_TAKEN_MIN;

	if (taken && *c < DIR_MAX)
		(*c)++;
	else if (!taken && *c > 0)
		(*c)--;
	return predicted == taken;
}

static uint64_t ras_pop(struct bpred *bp)
{
	if (!bp->ras_depth)
		return 0;
	bp->ras_depth--;
	bp->ras_top = (bp->ras_top + BPRED_RAS_ENTRIES - 1) % BPRED_RAS_ENTRIES;
	return bp->ras[bp->ras_top];
}

static void ras_push(struct bpred *bp, uint64_t ret)
{
	bp->ras[bp->ras_top] = ret;
	bp->ras_top = (bp->ras_top + 1) % BPRED_RAS_ENTRIES;
	if (bp->ras_depth < BPRED_RAS_ENTRIES)
		bp->ras_depth++;
}

/* Table lookup-and-train: 1 if the stored target matched. */
static int table_hit(uint64_t *slot, uint64_t target)
{
	int hit = *slot == target;

	*slot = target;
	return hit;
}

int bpred_update(struct bpred *bp, uint64_t pc, uint32_t f, int taken, uint64_t target)
{
	int kind = -1;

	if ((f & HVPMU_SI_CTI_COND) && !predict_direction(bp, pc, taken))
		kind = HVPMU_MISPRED_DIR;
	if (taken && kind < 0) {
		if (f & HVPMU_SI_RET) {
			if (ras_pop(bp) != target)
				kind = HVPMU_MISPRED_RET;
		} else if (f & HVPMU_SI_INDIRECT) {
			if (!table_hit(&bp->indir[idx(pc, BPRED_INDIR_ENTRIES)], target))
				kind = HVPMU_MISPRED_INDIR;
		} else if ((pc ^ target) >> FAR_PAGE_SHIFT) {
			if (!table_hit(&bp->far[idx(pc, BPRED_FAR_ENTRIES)], target))
				kind = HVPMU_MISPRED_FAR;
		}
	} else if (taken && (f & HVPMU_SI_RET)) {
		ras_pop(bp); /* a mispredicted return still pops */
	}
	if (f & HVPMU_SI_CALL)
		ras_push(bp, pc + CALL_RETURN_OFFSET);
	return kind;
}
