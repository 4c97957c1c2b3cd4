/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loop: a MIPS IV (R10000) n64 micro-benchmark whose instruction counts
 * are known by construction, in the generic classes of hvpmu/insn.h as
 * hvpmu_isa_mips64 decodes them (docs/mips64-isa.md).  Static, no libc,
 * entry __start; every source line is one instruction (`.set nomacro`,
 * assembled with --fatal-warnings), `.set noreorder` keeps the delay
 * slots as written.
 *
 * MIPS IV rules it relies on (MIPS IV Instruction Set Rev. 3.2: BEQL,
 * BLTZL, BC1TL "Branch Likely"; LL/SC): the instruction after a branch
 * (its delay slot) runs before the branch takes effect; a branch-likely
 * runs its delay slot only when taken; SC succeeds when nothing else
 * wrote the word since LL (single thread: always).
 *
 * The loop runs for i = 0 .. N-1 (N = 1000, a multiple of 4).  Every
 * branch-likely jumps over one instruction (target pc+12, the form GCC
 * gives them: the delay slot holds a copy of the target's first
 * instruction), so the address after its delay slot tells taken from not
 * taken.  Per iteration:
 *
 *   insn  instruction              class            runs    taken
 *   A1    ld   $8, 0($4)           LOAD             always
 *   A2    lw   $9, 8($4)           LOAD             always
 *   A3    daddu                    OTHER            always
 *   A4    sd   $8, 16($4)          STORE            always
 *   A5    pref 0, 64($4)           OTHER|PREFETCH   always
 *   A6    andi $10, i, 3           OTHER            always
 *   A7    beql $10, $0, 1f         BRANCH likely    always  i%4 == 0 (N/4)
 *   A8     delay of A7             OTHER            N/4
 *   A9    daddiu (not taken)       OTHER            3N/4
 *   A10   bltzl i, 2f              BRANCH likely    always  never (i >= 0)
 *   A11    delay of A10            OTHER            never
 *   A12   daddiu (fall-through)    OTHER            always
 *   A13   andi $10, i, 1           OTHER            always
 *   A14   bne  $10, $0             BRANCH           always  i odd (N/2)
 *   A15    nop (delay)             OTHER            always
 *   A16   daddiu (i even)          OTHER            N/2
 *   A17   ll   $11, 24($4)         LOAD|LOAD_LINKED always
 *   A18   addiu                    OTHER            always
 *   A19   sc   $11, 24($4)         STORE|STORE_COND always
 *   A20   beq  $11, $0 (retry)     BRANCH           always  never (SC succeeds)
 *   A21    nop (delay)             OTHER            always
 *   A22   sync                     OTHER|NTC        always
 *   A23   add.d                    FP               always
 *   A24   mul.d                    FP               always
 *   A25   c.eq.d (true)            FP               always
 *   A26   bc1tl 4f                 BRANCH likely    always  always (N)
 *   A27    mov.d (delay)           FP               N
 *   A28   daddiu (jumped over)     OTHER            never
 *   A29   jal leaf                 BRANCH|CALL      always  always (N)
 *   A30    nop (delay)             OTHER            always
 *   L1    jr $ra (leaf)            BRANCH|RET       always  always (N)
 *   L2     nop (delay)             OTHER            always
 *   A31   daddiu i                 OTHER            always
 *   A32   bne i, N, .Lloop         BRANCH           always  i+1 < N (N-1)
 *   A33    nop (delay)             OTHER            always
 *
 *   Prologue P1-P14: 12 OTHER, 1 LOAD (ldc1 1.0), 1 FP (dmtc1 $0).
 *   Check C1-C19 (all fall through when the loop behaved): 10 OTHER,
 *   6 BRANCH (none taken), 1 LOAD, 2 FP.  Exit E1-E3: 3 OTHER, the last
 *   SYSCALL exit(0) (n64: 5058).  A failed check exits with status 1-6.
 *
 *   Per iteration: 3 LOAD, 2 STORE, 4 FP, 8 BRANCH, 13 OTHER always, and
 *   one of A8 / A9: 31, plus A16 every other iteration.
 *
 *   instructions      = 14 + 31N + N/2 + 19 + 3           = 31536
 *   LOAD              = 1 + 3N + 1                        = 3002
 *   STORE             = 2N                                = 2000
 *   FP                = 1 + 4N + 2                        = 4003
 *   BRANCH            = 8N + 6                            = 8006
 *   SPR               = 0
 *   OTHER             = 12 + 14N + N/2 + 10 + 3           = 14525
 *   taken branches    = N/4 + N/2 + N + N + N + (N-1)     = 4749
 *     conditional taken (A7 A14 A26 A32)                  = 2749
 *     always taken (A29 jal, L1 jr)                       = 2000
 *   branch-likely     = 3N executed, N/4 + N taken        = 3000, 1250
 *     delay slots annulled (A8 3N/4 times, A11 N times)   = 1750
 *   calls = returns   = N                                 = 1000
 *   LOAD_LINKED = STORE_COND = PREFETCH = NTC (sync)      = 1000 each
 *   SYSCALL           = 1 (exit; it does not return)
 *
 * QEMU 7.2's instruction callbacks fire for an annulled delay slot too
 * (translate.c emits the branch-likely's not-taken exit after the slot's
 * plugin instrumentation): a plugin counting callbacks sees 31536 + 1750
 * = 33286 instructions and 14525 + 1750 = 16275 OTHER unless it takes the
 * annulled slots off (docs/mips64-isa.md "Branch-likely under QEMU").
 *
 * Exit status 0 says the loop ran as counted: the delay-slot counter
 * ($17) is N/4 (A11 and A28, which add 100, never ran), the not-taken
 * counter ($20) 3N/4, the fall-through counter ($21) N, the even counter
 * ($18) N/2, the LL/SC counter N, and the FP sum N.
 *
 * The PREF (A5) has an earlier donor in its block, `sd $8, 16($4)` (A4):
 * address = A4's + 48 (docs/mips64-isa.md "Prefetch").
 */
#define N 1000
#define SYS_EXIT 5058	/* syscall_n64.tbl: 58 n64 exit */

	.set	noreorder
	.set	nomacro

	.text
	.globl	__start
	.type	__start, @function
__start:
	lui	$4, %highest(buf)	# P1 OTHER
	daddiu	$4, $4, %higher(buf)	# P2 OTHER
	dsll	$4, $4, 16		# P3 OTHER
	daddiu	$4, $4, %hi(buf)	# P4 OTHER
	dsll	$4, $4, 16		# P5 OTHER
	daddiu	$4, $4, %lo(buf)	# P6 OTHER
	ldc1	$f0, 32($4)		# P7 LOAD  1.0
	dmtc1	$0, $f2			# P8 FP    0.0
	move	$16, $0			# P9 OTHER i
	move	$17, $0			# P10 OTHER likely-delay counter
	move	$18, $0			# P11 OTHER even counter
	li	$19, N			# P12 OTHER
	move	$20, $0			# P13 OTHER not-taken counter
	move	$21, $0			# P14 OTHER fall-through counter
.Lloop:
	ld	$8, 0($4)		# A1
	lw	$9, 8($4)		# A2
	daddu	$8, $8, $9		# A3
	sd	$8, 16($4)		# A4
	pref	0, 64($4)		# A5
	andi	$10, $16, 3		# A6
	beql	$10, $0, 1f		# A7  taken i%4 == 0
	 daddiu	$17, $17, 1		# A8  only when taken
	daddiu	$20, $20, 1		# A9  only when not taken
1:	bltzl	$16, 2f			# A10 never taken
	 daddiu	$17, $17, 100		# A11 never runs
	daddiu	$21, $21, 1		# A12 always (A10 falls through)
2:	andi	$10, $16, 1		# A13
	bne	$10, $0, 3f		# A14 taken i odd
	 nop				# A15
	daddiu	$18, $18, 1		# A16 i even
3:	ll	$11, 24($4)		# A17
	addiu	$11, $11, 1		# A18
	sc	$11, 24($4)		# A19
	beq	$11, $0, 3b		# A20 never taken
	 nop				# A21
	sync				# A22
	add.d	$f2, $f2, $f0		# A23 f2 = i + 1
	mul.d	$f4, $f2, $f0		# A24 f4 = f2
	c.eq.d	$f4, $f2		# A25 true
	bc1tl	4f			# A26 always taken
	 mov.d	$f6, $f4		# A27
	daddiu	$17, $17, 100		# A28 never runs (A26 jumps over it)
4:	jal	leaf			# A29
	 nop				# A30
	daddiu	$16, $16, 1		# A31
	bne	$16, $19, .Lloop	# A32 taken i+1 < N
	 nop				# A33

	li	$2, N / 4		# C1
	bne	$17, $2, fail		# C2
	 li	$5, 1			# C3
	li	$2, N / 2		# C4
	bne	$18, $2, fail		# C5
	 li	$5, 2			# C6
	lw	$2, 24($4)		# C7 LOAD
	bne	$2, $19, fail		# C8
	 li	$5, 3			# C9
	cvt.l.d	$f8, $f2		# C10 FP
	dmfc1	$2, $f8			# C11 FP
	bne	$2, $19, fail		# C12
	 li	$5, 4			# C13
	li	$2, 3 * N / 4		# C14
	bne	$20, $2, fail		# C15
	 li	$5, 5			# C16
	bne	$21, $19, fail		# C17
	 li	$5, 6			# C18
	move	$5, $0			# C19 status 0
fail:	move	$4, $5			# E1
	li	$2, SYS_EXIT		# E2
	syscall				# E3 exit(status)
	.size	__start, . - __start

	.type	leaf, @function
leaf:	jr	$31			# L1
	 nop				# L2
	.size	leaf, . - leaf

	.data
	.align	3
buf:	.dword	5			# 0: ld
	.word	7, 0			# 8: lw
	.dword	0			# 16: sd
	.word	0, 0			# 24: ll/sc counter
	.double	1.0			# 32: ldc1
	.space	64			# 40: room for pref 64($4)
