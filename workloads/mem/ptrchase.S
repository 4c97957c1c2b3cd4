/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ptrchase: a dependent pointer chase through N = 8192 nodes, one per
 * 32-byte line (256 KB: twice the L2, 1/16 of the L3), K = 3 laps.
 *
 * Node i (in .data, written by the assembler, so the program has no setup
 * stores) holds the address of node (A*i + C) mod N with A = 1664525 mod N,
 * C = 1013904223 mod N (Numerical Recipes' LCG constants): A = 1 mod 4 and
 * C odd, so by the Hull-Dobell theorem the map is one cycle through all N
 * nodes.  Starting at node 0, each lap visits every node exactly once.
 *
 * Between two visits of a node all N-1 other nodes are visited.  Its L1D
 * set (64 nodes per set) and its L2 set (16 nodes per 8-way set: the 32
 * data pages get 32 consecutive physical frames, whatever order they are
 * first touched in) therefore evict it every time, while its L3 set holds
 * one node line (a contiguous 256 KB range covers each of the 4096 L3
 * sets once) and keeps it.  So every load misses L1D and L2; in lap 1 the
 * first-visited half of each 64-byte L3 line comes from memory and
 * everything else hits L3:
 *   Instr_ld = DC_miss_nospec = K*N = 24576
 *   DC_miss_local_hit_nospec = N/2 = 4096
 *   DC_miss_L2_L3_hit_nospec = K*N - N/2 = 20480
 *   DTLB_fill_8KB = DTLB_fill_trap = 32 pages
 * (docs/memory-validation.md).
 *
 * Code: P1-P3 once, the loop (ldx, subcc, bne,pt, nop) K*N times, E1-E3.
 */
#define N 8192
#define K 3
#define A (1664525 % N)
#define C (1013904223 % N)

	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(nodes), %o0		! P1 node 0
	or	%o0, %lo(nodes), %o0	! P2
	set	K * N, %o1		! P3 loads left
.Lloop:
	ldx	[%o0], %o0		! next node
	subcc	%o1, 1, %o1
	bne,pt	%xcc, .Lloop
	 nop
	mov	1, %g1			! E1 exit(0)
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.data
	.align	8192
nodes:
	.set	i, 0
	.rept	N
	.xword	nodes + ((A * i + C) % N) * 32
	.skip	24
	.set	i, i + 1
	.endr
