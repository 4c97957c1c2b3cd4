/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * remote_shm: the shared-memory area between a guest process (the QEMU
 * plugin attached to a service, src/source/attach.c) and the service that
 * runs the machine (src/source/remote.c), docs/service.md "Transport".
 *
 * One area per guest process image: an anonymous file (memfd) the service
 * creates and sends over the control socket (SCM_RIGHTS).  It holds
 *   - one ring of 16-byte records per guest vCPU (QEMU's cpu_index, below
 *     REMOTE_RINGS): single producer (the vCPU's thread), single consumer
 *     (the service); the producer publishes `head` (release) every
 *     REMOTE_PUBLISH records and at every system call, the consumer
 *     publishes `tail`; a full ring makes the producer wait (futex on
 *     `tail`): back-pressure, never a dropped record;
 *   - the block table: each translated block's address and instruction
 *     words, appended by the guest while QEMU translates (translation is
 *     serialised in QEMU user mode) and published (`nblocks`, release)
 *     before the block can run, so a record never names a block the
 *     service cannot read.  The service decodes the words itself: it
 *     trusts nothing in the area, and checks every index against the
 *     area's bounds (a bad record detaches the process, never crashes it).
 *
 * Every field is little-endian host order (both ends run on the same
 * host).  The area's size is fixed at creation; its pages are touched as
 * they fill.
 */
#ifndef HVPMU_SOURCE_REMOTE_SHM_H
#define HVPMU_SOURCE_REMOTE_SHM_H

#include <stdatomic.h>
#include <stdint.h>

#define REMOTE_MAGIC UINT64_C(0x31544f4d45525648) /* "HVREMOT1" */
#define REMOTE_VERSION 3u
#define REMOTE_RINGS 64u                /* vCPUs (threads alive at once) per process */
#define REMOTE_RING_LOG2 14u            /* 16384 slots of 16 bytes: 256 KB per ring */
#define REMOTE_RING_SLOTS (1u << REMOTE_RING_LOG2)
#define REMOTE_PUBLISH 256u             /* records between the producer's publications */
#define REMOTE_MAX_BLOCKS (1u << 20)    /* translated blocks per process image */
#define REMOTE_MAX_WORDS (1u << 24)     /* their instruction words (64 MB) */
#define REMOTE_TIME_SLOTS 256u          /* publications whose machine time is kept (guest time) */
#define REMOTE_BLOCK_MAX_INSNS 512u     /* QEMU 7.2's TCG_MAX_INSNS */

/*
 * Records.  w0's low 3 bits are the kind:
 *   R_TB   block entry: w0 = id << 8 | reg << 5 | sync << 4 | reached << 3;
 *          `reg`: R_TB_REG below; `reached`:
 *          the block entered before on this vCPU reached its last
 *          instruction; with REMOTE_F_COUNTS, w1 = the thread's cycle
 *          count (struct remote_ring) after this entry, and `sync`: the
 *          entry is past the grant it held, its counts are all sent: the
 *          strand syncs here
 *   R_MEM  data access: w0 = id << 24 | insn << 12 | store << 6 |
 *          size_shift << 3 | 1, w1 = the virtual address; insn: the
 *          instruction's index in block id
 *   R_PF   software prefetch: w0 = id << 24 | insn << 12 | 2
 *   R_CNT  block counts (REMOTE_F_COUNTS only): w0 = id << 8 | 4, w1 = whole
 *          executions of block id run on the fast path and not sent yet
 *          (each followed by a fast entry: see C_FAST)
 *   R_CTL  w0 = reached << 8 | op << 3 | 3, w1 = the argument; reached as
 *          for R_TB at that moment:
 *          C_NOP       padding (skipped)
 *          C_START     a thread starts on this vCPU (w1 = its host tid)
 *          C_EXIT      the thread on this vCPU ends
 *          C_SYSCALL   system call w1; then 3 slots: a1 a2, a3 a4, a5 a6
 *          C_SYSRET    system call w1 returns; then 1 slot: w0 = result
 *          C_SEQ       the end of a publication: w1 = its ticket, from the
 *                      area's `seq` (taken when published: the order in
 *                      which the process's threads published, which the
 *                      service follows for a process with several threads)
 *          C_FAST      (REMOTE_F_COUNTS only) the blocks entered since the
 *                      last R_TB were entered on the fast path: w0 =
 *                      id << 16 | C_FAST << 3 | 3, id the
 *                      block entered last (not yet accounted: the next
 *                      record accounts it), w1 = the sum of their
 *                      instruction counts (what they add to the strand's
 *                      bound); then 1 slot: w0 = the thread's cycle count
 *                      then, w1 = (REMOTE_F_TAKEN) the conditional CTIs
 *                      taken among those entries; the CTI of block id, if
 *                      its outcome counts, is pending (set_pending()); every
 *                      block entered before it, whole, is in
 *                      R_CNT records (sent before any record that can read
 *                      or sync the strand's counts: a C_SYSCALL, C_EXIT,
 *                      C_END, or an R_TB at or past the grant)
 *          C_END       the process image ends: w1 = 0 (exit), C_END_EXEC
 *                      (an execve: the new program attaches as
 *                      REMOTE_EXEC) or the signal that kills it; the last
 *                      record of the area (every ring is closed)
 */
enum { R_TB = 0, R_MEM = 1, R_PF = 2, R_CTL = 3, R_CNT = 4 };
enum { C_NOP = 0, C_START = 1, C_EXIT = 2, C_SYSCALL = 3, C_SYSRET = 4, C_END = 5, C_SEQ = 6, C_FAST = 7 };
#define C_END_EXEC 0x100u
#define R_KIND(w0) ((unsigned)((w0) & 7u))
#define R_CTL_W0(op, reached) ((uint64_t)(reached) << 8 | (uint64_t)(op) << 3 | R_CTL)
#define R_CTL_OP(w0) ((unsigned)(((w0) >> 3) & 31u))
#define R_REACHED(w0) ((unsigned)(((w0) >> 8) & 1u))
#define R_TB_W0(id, reached) ((uint64_t)(id) << 8 | (uint64_t)(reached) << 3 | R_TB)
#define R_TB_SYNC (UINT64_C(1) << 4)
#define R_TB_ID(w0) ((w0) >> 8)
#define R_TB_REACHED(w0) ((unsigned)(((w0) >> 3) & 1u))
/* bits 5-6 of an R_TB: the pending conditional CTI's outcome as the guest
 * read it from its registers, 2 | taken, or 0 (none: the addresses decide) */
#define R_TB_REG(w0) ((unsigned)(((w0) >> 5) & 3u))
#define R_TB_REG_BITS(reg) ((uint64_t)((reg) & 3u) << 5)
#define R_CNT_W0(id) ((uint64_t)(id) << 8 | R_CNT)
#define R_CNT_ID(w0) ((w0) >> 8)
#define R_FAST_W0(id) ((uint64_t)(id) << 16 | R_CTL_W0(C_FAST, 0))
#define R_FAST_ID(w0) ((w0) >> 16)
#define R_INSN_W0(kind, id, insn) ((uint64_t)(id) << 24 | (uint64_t)(insn) << 12 | (kind))
#define R_INSN_ID(w0) ((w0) >> 24)
#define R_INSN_IDX(w0) ((unsigned)(((w0) >> 12) & 0xfffu))
#define R_MEM_SHIFT(w0) ((unsigned)(((w0) >> 3) & 7u))
#define R_MEM_STORE(w0) ((unsigned)(((w0) >> 6) & 1u))
/* Slots of the record whose first slot has w0 (a system call's arguments
 * and a return value follow their R_CTL slot). */
#define R_SLOTS(w0) \
	(R_KIND(w0) != R_CTL ? 1u : R_CTL_OP(w0) == C_SYSCALL ? 4u : \
	 R_CTL_OP(w0) == C_SYSRET || R_CTL_OP(w0) == C_FAST ? 2u : 1u)

struct remote_rec {
	uint64_t w0, w1;
};

/*
 * The grant (REMOTE_F_COUNTS, docs/service.md "Block counts"): the
 * consumer, having run the ring up to position `grant_at` (a tail), says
 * that the thread may enter blocks on the fast path -- counting them in
 * R_CNT and C_FAST instead of an R_TB each -- while nothing can come due
 * on its strand: while its instruction count (the sum of the lengths of
 * the blocks it entered since C_START, this one included) stays below
 * `grant`, and its cycle count (the cycles of the blocks it entered
 * before this one, by the area's cycle rule, hvpmu_insn_cycles) below
 * `grant_cyc`.  The producer takes a grant only if grant_at is at or
 * after its last record that can move the strand's deadlines (C_START,
 * C_SYSCALL, C_SYSRET, C_EXIT, an R_TB with `sync`) and both counts are
 * below it; it drops it at such a record and at an entry that reaches
 * either (an R_TB with `sync`, after its counts).  The consumer writes
 * `grant` and `grant_cyc` before `grant_at` (release).
 */
struct remote_ring {
	_Alignas(64) _Atomic uint64_t head; /* producer: records published */
	_Atomic uint32_t prod_wait;         /* producer sleeps on `tail` (futex word: tail's low half) */
	_Alignas(64) _Atomic uint64_t grant;    /* consumer: the grant's instruction count */
	_Atomic uint64_t grant_cyc;             /* consumer: its cycle count */
	_Atomic uint64_t grant_at;              /* consumer: the ring position it holds from */
	_Alignas(64) _Atomic uint64_t tail; /* consumer: records consumed */
	_Alignas(64) struct remote_rec slot[REMOTE_RING_SLOTS];
};

struct remote_block {
	uint64_t vaddr;
	uint32_t word;  /* index of its first word in words[] */
	uint32_t n;     /* instructions: 1..REMOTE_BLOCK_MAX_INSNS */
};

struct remote_area {
	uint64_t magic;
	uint32_t version;
	uint32_t base;                /* first block id of this image (a fork child: the ids
					 below are its parent's, translated before the fork) */
	uint32_t features;            /* set by the service: REMOTE_F_* */
	uint32_t insn_cycles;         /* set by the service: its machine's hvpmu_cycle_rule */
	uint32_t block_uops;
	uint32_t taken_cti_cycles;
	_Atomic uint32_t cons_sleep;  /* the service sleeps: a producer that publishes
					 writes the service's eventfd */
	_Atomic uint32_t nblocks;     /* blocks published (ids base .. base + nblocks - 1) */
	_Atomic uint64_t seq;         /* the next publication's ticket (C_SEQ) */
	_Atomic uint32_t abandoned;   /* set by the service: it detached this image (a bad record) */
	uint32_t nwords;              /* producer: words used */
	/* guest time of an image in turns (docs/service.md "Guest time"),
	 * set by the service: the machine's clock (hvpmu_md.clock_hz,
	 * cycles per second); once the image's publications run in ticket
	 * order, the machine's time (hvpmu_machine_now, cycles) after
	 * publication t in time[t % REMOTE_TIME_SLOTS] (its `ticket`, t + 1,
	 * written last), and time_done, the ticket after the highest run */
	uint64_t clock_hz;
	_Alignas(64) _Atomic uint64_t time_done;
	struct remote_time {
		_Atomic uint64_t ticket;
		_Atomic uint64_t cycles;
	} time[REMOTE_TIME_SLOTS];
	struct remote_block block[REMOTE_MAX_BLOCKS];
	uint32_t words[REMOTE_MAX_WORDS];
	struct remote_ring ring[REMOTE_RINGS];
};

/* What the guest records (the service's features, hvpmu_machine_features). */
#define REMOTE_F_MEMORY 1u /* data accesses and software prefetches (R_MEM, R_PF) */
#define REMOTE_F_COUNTS 2u /* block counts under a grant (R_CNT, C_FAST): nothing but
			      instruction classes is modeled and no barrier holds the
			      strands in step */
#define REMOTE_F_TAKEN 4u  /* with block counts: taken conditional CTIs counted too (C_FAST) */

#endif
