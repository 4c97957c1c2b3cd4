/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Branch predictor of one strand (layer 2), behind TABLE 10-2 sl=25:
 * direction table, far table, indirect table and return stack.  The
 * geometry is hvpmu's choice (SPARC T4's is not public); see
 * docs/branch-prediction.md.  Plain data, no allocation.
 */
#ifndef HVPMU_MODEL_BPRED_H
#define HVPMU_MODEL_BPRED_H

#include <stdint.h>
#include <hvpmu/machine.h>
#include <hvpmu/sparc_decode.h>

#define BPRED_DIR_ENTRIES 2048   /* 2-bit saturating counters */
#define BPRED_FAR_ENTRIES 128    /* targets of direct CTIs leaving their 8 KB page */
#define BPRED_INDIR_ENTRIES 256  /* last target of indirect CTIs */
#define BPRED_RAS_ENTRIES 8      /* return address stack */

struct bpred {
	uint8_t dir[BPRED_DIR_ENTRIES];
	uint64_t far[BPRED_FAR_ENTRIES];
	uint64_t indir[BPRED_INDIR_ENTRIES];
	uint64_t ras[BPRED_RAS_ENTRIES];
	uint32_t ras_top;   /* entries pushed, modulo wrap (circular) */
	uint32_t ras_depth; /* valid entries, <= BPRED_RAS_ENTRIES */
	uint32_t ret_offset; /* a call returns to pc + ret_offset (bpred_init) */
};

#define BPRED_INSN_SHIFT 2            /* SPARC instructions are 4 bytes */
#define BPRED_FAR_PAGE_SHIFT 13       /* "far": target outside the CTI's 8 KB page */
/* Where a call returns, past the call: SPARC V9 CALL and JMPL write their
 * own address to the link register and the callee returns with
 * `jmpl %i7+8` (after the delay slot, SPARC V9 A.8, A.24); MIPS JAL/JALR
 * link PC + 8 (MIPS64 Vol. II JAL); the Power ISA has no delay slot: bl
 * sets LR = CIA + 4 (Power ISA v2.06 Book I 2.4). */
#define BPRED_CALL_RETURN_OFFSET 8    /* ISAs with a delay slot */
#define BPRED_CALL_RETURN_OFFSET_NO_DS 4
#define BPRED_DIR_WEAK_NOT_TAKEN 1
#define BPRED_DIR_TAKEN_MIN 2
#define BPRED_DIR_MAX 3

/* A predictor at reset, for an ISA whose calls return to pc + ret_offset. */
void bpred_init(struct bpred *bp, uint32_t ret_offset);

/* ---- bpred_update() and its parts: inline (it runs for every CTI) ---- */

static inline unsigned bpred_idx(uint64_t pc, unsigned entries)
{
	return (unsigned)((pc >> BPRED_INSN_SHIFT) & (entries - 1));
}

static inline int bpred_predict_direction(struct bpred *bp, uint64_t pc, int taken)
{
	uint8_t *c = &bp->dir[bpred_idx(pc, BPRED_DIR_ENTRIES)];
	int predicted = *c >= BPRED_DIR_TAKEN_MIN;

	if (taken && *c < BPRED_DIR_MAX)
		(*c)++;
	else if (!taken && *c > 0)
		(*c)--;
	return predicted == taken;
}

static inline uint64_t bpred_ras_pop(struct bpred *bp)
{
	if (!bp->ras_depth)
		return 0;
	bp->ras_depth--;
	bp->ras_top = (bp->ras_top + BPRED_RAS_ENTRIES - 1) % BPRED_RAS_ENTRIES;
	return bp->ras[bp->ras_top];
}

static inline void bpred_ras_push(struct bpred *bp, uint64_t ret)
{
	bp->ras[bp->ras_top] = ret;
	bp->ras_top = (bp->ras_top + 1) % BPRED_RAS_ENTRIES;
	if (bp->ras_depth < BPRED_RAS_ENTRIES)
		bp->ras_depth++;
}

/* Table lookup-and-train: 1 if the stored target matched. */
static inline int bpred_table_hit(uint64_t *slot, uint64_t target)
{
	int hit = *slot == target;

	*slot = target;
	return hit;
}

/* Predict and train on one CTI; returns enum hvpmu_mispred or -1. */
static inline int bpred_update(struct bpred *bp, uint64_t pc, uint32_t f, int taken, uint64_t target)
{
	int kind = -1;

	if ((f & HVPMU_IC_CTI_COND) && !bpred_predict_direction(bp, pc, taken))
		kind = HVPMU_MISPRED_DIR;
	if (taken && kind < 0) {
		if (f & HVPMU_IC_RET) {
			if (bpred_ras_pop(bp) != target)
				kind = HVPMU_MISPRED_RET;
		} else if (f & HVPMU_IC_INDIRECT) {
			if (!bpred_table_hit(&bp->indir[bpred_idx(pc, BPRED_INDIR_ENTRIES)], target))
				kind = HVPMU_MISPRED_INDIR;
		} else if ((pc ^ target) >> BPRED_FAR_PAGE_SHIFT) {
			if (!bpred_table_hit(&bp->far[bpred_idx(pc, BPRED_FAR_ENTRIES)], target))
				kind = HVPMU_MISPRED_FAR;
		}
	} else if (taken && (f & HVPMU_IC_RET)) {
		bpred_ras_pop(bp); /* a mispredicted return still pops */
	}
	if (f & HVPMU_IC_CALL)
		bpred_ras_push(bp, pc + bp->ret_offset);
	return kind;
}

#endif
