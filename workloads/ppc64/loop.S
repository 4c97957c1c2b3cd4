/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loop: a 64-bit PowerPC (big-endian, ELFv1) micro-benchmark whose
 * instruction counts are known by construction, in the generic classes of
 * hvpmu/insn.h as hvpmu_isa_ppc64 decodes them (docs/ppc64-isa.md).
 * Static, no libc; the entry _start is an ELFv1 function descriptor in
 * .opd.  Every source line is one instruction.
 *
 * Power ISA 2.06B rules it relies on (Book I §2.4 "Branch Instructions",
 * Book II §3.3.2 lwarx/stwcx.): no delay slots; bdnz decrements CTR and
 * branches while it is not 0; bnelr/beqlr branch to LR when CR0's EQ bit
 * is clear/set; stwcx. succeeds when nothing else wrote the reservation
 * granule since lwarx (single thread: always).
 *
 * The loop runs for i = 0 .. N-1 (N = 1000, a multiple of 4), counted by
 * CTR.  Per iteration:
 *
 *   insn  instruction              class             runs    taken
 *   A1    ld    r8, 0(r4)          LOAD              always
 *   A2    lwz   r9, 8(r4)          LOAD              always
 *   A3    add   r10, r8, r9        OTHER             always
 *   A4    std   r10, 16(r4)        STORE             always
 *   A5    dcbt  0, r4              OTHER|PREFETCH    always
 *   A6    andi. r11, r5, 3         OTHER             always
 *   A7    bne   1f                 BRANCH cond       always  i%4 != 0 (3N/4)
 *   A8    addi  r14, r14, 1        OTHER             N/4
 *   A9    lwarx r12, 0, r15        LOAD|LOAD_LINKED  always
 *   A10   addi  r12, r12, 1        OTHER             always
 *   A11   stwcx. r12, 0, r15       STORE|STORE_COND  always
 *   A12   bne-  A9 (retry)         BRANCH cond       always  never
 *   A13   lfd   f1, 32(r4)         LOAD              always
 *   A14   fadd  f2, f1, f1         FP                always
 *   A15   stfd  f2, 40(r4)         STORE             always
 *   A16   stmw  r28, 48(r4)        STORE|BLOCK       always
 *   A17   lmw   r28, 48(r4)        LOAD|BLOCK        always
 *   A18   bl    leaf               BRANCH|CALL       always  always
 *   L1    cmpd  r5, r5             OTHER             always
 *   L2    bnelr                    BRANCH cond|RET   always  never
 *   L3    beqlr                    BRANCH cond|RET   always  always (N)
 *   L4    trap                     OTHER             never
 *   A19   addi  r5, r5, 1          OTHER             always
 *   A20   bdnz  .Lloop             BRANCH cond       always  N-1
 *
 *   Per iteration: 5 LOAD, 4 STORE, 1 FP, 6 BRANCH, 6 OTHER (22), plus A8
 *   every fourth iteration.
 *
 *   Prologue P1-P7: 6 OTHER, 1 SPR (mtctr).
 *   One-instruction loop S1-S3: li, mtctr (SPR), `2: bdnz 2b` run 100
 *   times, taken 99 times (a block that branches to itself).
 *   Call through CTR S4-S7, K1: lis, addi, mtctr (SPR), bctrl
 *   (BRANCH|CALL|INDIRECT), blr (BRANCH|RET|INDIRECT).
 *   Check C1-C7 (all fall through when the loop behaved): 1 LOAD, 3 OTHER,
 *   3 BRANCH (none taken).  Exit E1-E3: 3 OTHER, the last `sc` exit(0)
 *   (Linux ppc64: 1).  A failed check exits with status 1.
 *
 *   instructions      = 7 + 22N + N/4 + 102 + 5 + 7 + 3  = 22374
 *   LOAD              = 5N + 1                           = 5001
 *   STORE             = 4N                               = 4000
 *   FP                = N                                = 1000
 *   BRANCH            = 6N + 100 + 2 + 3                 = 6105
 *   SPR               = 3                                = 3
 *   OTHER             = 6 + 6N + N/4 + 1 + 2 + 3 + 3     = 6265
 *   syscalls          = 1
 *   taken conditional = 3N/4 + (N-1) + N + 99            = 2848
 */
#define N 1000

	.section ".opd", "aw"
	.align 3
	.globl _start
_start:
	.quad .L_start, .TOC.@tocbase, 0

	.section ".text"
	.align 2
.L_start:
	lis	4, buf@ha		/* P1 */
	addi	4, 4, buf@l		/* P2 */
	addi	15, 4, 24		/* P3 */
	li	5, 0			/* P4 */
	li	14, 0			/* P5 */
	li	6, N			/* P6 */
	mtctr	6			/* P7 */
.Lloop:
	ld	8, 0(4)			/* A1 */
	lwz	9, 8(4)			/* A2 */
	add	10, 8, 9		/* A3 */
	std	10, 16(4)		/* A4 */
	dcbt	0, 4			/* A5 */
	andi.	11, 5, 3		/* A6 */
	bne	0, 1f			/* A7 */
	addi	14, 14, 1		/* A8 */
1:	lwarx	12, 0, 15		/* A9 */
	addi	12, 12, 1		/* A10 */
	stwcx.	12, 0, 15		/* A11 */
	bne-	0, 1b			/* A12 */
	lfd	1, 32(4)		/* A13 */
	fadd	2, 1, 1			/* A14 */
	stfd	2, 40(4)		/* A15 */
	stmw	28, 48(4)		/* A16 */
	lmw	28, 48(4)		/* A17 */
	bl	.Lleaf			/* A18 */
	addi	5, 5, 1			/* A19 */
	bdnz	.Lloop			/* A20 */

	li	16, 100			/* S1 */
	mtctr	16			/* S2 */
2:	bdnz	2b			/* S3 */
	lis	3, .Lleaf2@ha		/* S4 */
	addi	3, 3, .Lleaf2@l		/* S5 */
	mtctr	3			/* S6 */
	bctrl				/* S7 */

	lwz	12, 24(4)		/* C1 */
	cmpwi	0, 12, N		/* C2 */
	bne	0, .Lfail		/* C3 */
	cmpwi	0, 14, N / 4		/* C4 */
	bne	0, .Lfail		/* C5 */
	cmpwi	0, 5, N			/* C6 */
	bne	0, .Lfail		/* C7 */
	li	3, 0			/* E1 */
	li	0, 1			/* E2: exit */
	sc				/* E3 */
.Lfail:
	li	3, 1
	li	0, 1
	sc

.Lleaf:
	cmpd	0, 5, 5			/* L1 */
	bnelr	0			/* L2 */
	beqlr	0			/* L3 */
	trap				/* L4 */
.Lleaf2:
	blr				/* K1 */

	.section ".bss"
	.align 7
buf:
	.space 128
