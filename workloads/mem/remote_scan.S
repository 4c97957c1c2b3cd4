/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * remote_scan: remote L3 and remote memory on a T4-2, run with
 * `hvpmu stat -p t4-2 --placement spread`: the child thread runs on chip 1
 * (strand 64), every line of the program is homed on chip 0
 * (node-contiguous homes, docs/coherence-model.md).  The main thread
 * clones the child and waits for its exit (futex on tid, as in
 * workloads/micro/threads.S).  The child loads one word per 32-byte line
 * of a 64 KB buffer twice, stores one word per line of an 8 KB buffer, and
 * exits.  Nothing else loads or stores.  Derivation:
 * docs/memory-validation.md "Remote accesses".  Whole-program counts:
 *
 *   DC_miss_remote_L3_hit_nospec = 2048   pass 1: every line, half from
 *                                         chip 0's memory, half from its L3
 *                                         (the other half of a 64 B L3 line)
 *   DC_miss_L2_L3_hit_nospec     = 2048   pass 2: the child's own L2
 *   DC_miss_local_hit_nospec     = 1      the main thread's read of tid
 *   St_remote                    = 128    8 KB / 64 B: first half of each
 *                                         L3 line, chip 0's memory
 *   St_hit_L3                    = 128    second half: chip 0's L3
 *   St_hit_L2 = St_local = 0
 */
#define BYTES 65536
#define SBYTES 8192
#define LINE 32
#define CLONE_FLAGS 0x350f00
#define STACK_BIAS 2047
#define MIN_FRAME 176
#define CSTACK_SIZE 8192

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(tid), %l1
	or	%l1, %lo(tid), %l1
	sethi	%hi(CLONE_FLAGS), %o0
	or	%o0, %lo(CLONE_FLAGS), %o0
	sethi	%hi(cstack + CSTACK_SIZE - MIN_FRAME - STACK_BIAS), %o1
	or	%o1, %lo(cstack + CSTACK_SIZE - MIN_FRAME - STACK_BIAS), %o1
	mov	%l1, %o2				! parent_tid
	clr	%o3
	mov	%l1, %o4				! child_tid
	mov	217, %g1				! clone
	ta	0x6d
	bcs,pn	%xcc, .Lfail
	 nop
	brnz,pn	%o1, .Lchild
	 nop
.Lwait:							! main: wait for the child's exit
	lduw	[%l1], %o2
	brz,pn	%o2, .Ldone
	 nop
	mov	%l1, %o0
	clr	%o1					! FUTEX_WAIT
	clr	%o3
	mov	142, %g1
	ta	0x6d
	ba,pt	%xcc, .Lwait
	 nop
.Ldone:
	mov	188, %g1				! exit_group(0)
	clr	%o0
	ta	0x6d

.Lchild:
	mov	2, %l2					! passes
.Lpass:
	sethi	%hi(buf), %l3
	or	%l3, %lo(buf), %l3
	sethi	%hi(BYTES / LINE), %l0
	or	%l0, %lo(BYTES / LINE), %l0
.Lload:
	ldx	[%l3], %o5
	subcc	%l0, 1, %l0
	bne,pt	%xcc, .Lload
	 add	%l3, LINE, %l3
	subcc	%l2, 1, %l2
	bne,pt	%xcc, .Lpass
	 nop
	sethi	%hi(sbuf), %l3
	or	%l3, %lo(sbuf), %l3
	mov	SBYTES / LINE, %l0
.Lstore:
	stx	%g0, [%l3]
	subcc	%l0, 1, %l0
	bne,pt	%xcc, .Lstore
	 add	%l3, LINE, %l3
	mov	1, %g1					! exit(0): this thread only
	clr	%o0
	ta	0x6d

.Lfail:
	mov	188, %g1
	mov	1, %o0
	ta	0x6d
	.size	_start, . - _start

	.data
	.align	64
tid:	.word	-1

	.bss
	.align	64
buf:	.skip	BYTES
sbuf:	.skip	SBYTES
	.align	16
cstack:	.skip	CSTACK_SIZE
