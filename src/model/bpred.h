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
};

void bpred_init(struct bpred *bp);
/* Predict and train on one CTI; returns enum hvpmu_mispred or -1. */
int bpred_update(struct bpred *bp, uint64_t pc, uint32_t si_flags, int taken, uint64_t target);

#endif
