/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strand branch predictor for TABLE 10-2 sl=25 (sparc-t4-performance-
 * instrumentation.md): direction mispredicts (mask 0x01), target
 * mispredicts from the far table or return stack (0x02), the indirect
 * table (0x04), the return stack (0x08).  Geometry and policies are
 * documented in docs/branch-prediction.md.  bpred_update() is inline in
 * bpred.h (hvpmu_machine_branch runs for every CTI).
 */
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "bpred.h"

void bpred_init(struct bpred *bp, uint32_t ret_offset)
{
	memset(bp, 0, sizeof *bp);
	memset(bp->dir, BPRED_DIR_WEAK_NOT_TAKEN, sizeof bp->dir);
	bp->ret_offset = ret_offset;
}
