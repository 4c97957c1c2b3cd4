/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/ppc64_decode.h - 64-bit PowerPC instruction decoder for the event
 * source (layer 1 of ../shared/DESIGN.md), behind the ISA descriptor
 * hvpmu_isa_ppc64 (hvpmu/isa.h).
 *
 * Decodes one 32-bit Power instruction word (big-endian in memory, host
 * order here) into the generic instruction classes of hvpmu/insn.h.  The
 * instruction set is the user-mode (Book I, with the Book II storage
 * instructions) Power ISA Version 2.06 Revision B as POWER7 implements it
 * (Power ISA 2.06B, Book I: Chapter 2 "Branch Facility", Chapter 3
 * "Fixed-Point Facility", Chapter 4 "Floating-Point Facility", Chapter 5
 * "Vector Facility", Chapter 7 "Vector-Scalar Floating-Point Operations";
 * Book II Chapter 3-4 "Storage Control Instructions" and "Synchronization";
 * Appendix "Opcode Maps"), plus the Power ISA 2.07 (POWER8) register moves
 * and scalar VSX loads and stores that glibc's POWER8 string functions may
 * use when QEMU's default CPU is newer.  Decimal floating point and
 * transactional memory are not decoded (OTHER | ILLEGAL).  The class of
 * every family and the choices the ISA leaves open are in docs/ppc64-isa.md.
 *
 * Groups (exactly one per instruction):
 *   HVPMU_IC_LOAD    lbz..ld (D, DS, X forms, with update), lha/lwa, byte-reversed
 *                    loads, lmw, lswi/lswx, lwarx/ldarx/lbarx/lharx, lfs..lfdux,
 *                    lfiwax/lfiwzx, lvx/lvxl/lve*x, the VSX loads
 *   HVPMU_IC_STORE   stb..std (with update, indexed), byte-reversed stores, stmw,
 *                    stswi/stswx, stwcx./stdcx./stbcx./sthcx., stfs..stfdux, stfiwx,
 *                    stvx/stvxl/stve*x, the VSX stores, dcbz
 *   HVPMU_IC_FP      opcode 59 and 63 floating-point arithmetic, compare, convert,
 *                    moves and FPSCR ops; every opcode 4 (Vector/VMX) and opcode 60
 *                    (VSX) word; lvsl/lvsr; the 2.07 GPR <-> VSR moves
 *   HVPMU_IC_BRANCH  b, bc, bclr, bcctr (and their link / absolute forms)
 *   HVPMU_IC_SPR     mfspr, mtspr, mftb, the MSR, segment, SLB and TLB
 *                    instructions, rfid/hrfid, dcbi, the cache-inhibited loads and
 *                    stores, `sc 1` (a hypervisor call)
 *   HVPMU_IC_OTHER   the rest: integer arithmetic, logical, rotate, compare, CR
 *                    logical, mfcr/mtcrf, isel, traps, `sc`, sync/lwsync/eieio/
 *                    isync, dcbt/dcbtst (prefetch), dcbf/dcbst/icbi, scv (Power ISA
 *                    3.0, which glibc uses when the kernel offers it), and undefined
 *                    encodings
 * Properties: HVPMU_IC_LOAD_LINKED (l[bhwd]arx), HVPMU_IC_STORE_COND
 * (st[bhwd]cx.), HVPMU_IC_PREFETCH (dcbt, dcbtst), HVPMU_IC_BLOCK (lmw,
 * stmw, the string instructions, dcbz), HVPMU_IC_SYSCALL (sc, scv), HVPMU_IC_NTC
 * (sync, eieio, isync), HVPMU_IC_ILLEGAL (undefined: OTHER),
 * HVPMU_IC_CTI_COND / _CTI_ALWAYS, HVPMU_IC_CALL (LK = 1, except `bcl
 * 20,31,$+4`, Book I §2.4 Programming Note), HVPMU_IC_RET (bclr with LK = 0
 * and BH = 0b00), HVPMU_IC_INDIRECT (bclr, bcctr).
 *
 * A bc/bclr/bcctr whose BO field has both "ignore the condition" (BO_0)
 * and "do not decrement CTR" (BO_2) set is "branch always" (Book I §2.4,
 * the "BO field encodings") and is HVPMU_IC_CTI_ALWAYS; any other
 * BO is HVPMU_IC_CTI_COND.  There is no delay slot: a taken branch goes on
 * at its target, a not-taken one at pc + 4.
 *
 * Decoding happens once per instruction at translation time.  Every
 * function here is pure: thread-safe, no allocation, no global state.
 */
#ifndef HVPMU_PPC64_DECODE_H
#define HVPMU_PPC64_DECODE_H

#include <stdint.h>
#include <hvpmu/isa.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ISA descriptor (src/source/isa_ppc64.c), also found by
 * hvpmu_isa_by_name("ppc64"). */
extern const struct hvpmu_isa hvpmu_isa_ppc64;

/*
 * Decode `insn` (host order) located at virtual address `pc` into *out:
 * flags, uops (the registers a load/store multiple or an immediate-length
 * string instruction moves, 32 - RT for lmw/stmw, ceil(NB / 4) for
 * lswi/stswi with NB = 0 meaning 32 bytes; 1 for everything else), annul
 * (always 0: no delay slots), has_target / target for b and bc (pc +
 * EXTS(LI || 0b00) or EXTS(BD || 0b00), absolute when AA = 1).  Returns
 * out->flags.  Never fails: undefined encodings are HVPMU_IC_OTHER |
 * HVPMU_IC_ILLEGAL.  Same signature as struct hvpmu_isa.decode.
 */
uint32_t hvpmu_ppc64_decode(uint32_t insn, uint64_t pc, struct hvpmu_insn *out);

/* Address forms of a data access (Book I §1.10.3 "Effective Address
 * Calculation"). */
enum hvpmu_ppc64_addr_form {
	HVPMU_PA_NONE = 0, /* no data address */
	HVPMU_PA_D = 1,    /* (RA|0) + EXTS(D) or EXTS(DS || 0b00) */
	HVPMU_PA_X = 2,    /* (RA|0) + (RB) */
	HVPMU_PA_RA = 3,   /* (RA|0): lswi/stswi */
};

/*
 * Operands of one instruction: the size and form of its data access, and
 * the general-purpose registers it may write (for the software-prefetch
 * address recovery, docs/ppc64-isa.md "Prefetch").
 */
struct hvpmu_ppc64_operands {
	uint8_t form;     /* enum hvpmu_ppc64_addr_form */
	uint8_t ra;       /* RA (0 reads as 0 in every address form) */
	uint8_t rb;       /* RB (form X) */
	uint8_t size;     /* bytes per access: 1, 2, 4, 8, 16; 0 when not a load or store,
	                     or when only known at run time (lswx, stswx) */
	uint8_t update;   /* an update form (lbzu, stdux, ...): RA receives the address */
	uint8_t prefetch; /* dcbt / dcbtst */
	uint8_t th;       /* their TH field (bits 6:10) */
	uint8_t donor;    /* a data access QEMU 7.2 reports once, at exactly its effective
	                     address: the integer and floating-point loads and stores of
	                     1-8 bytes (D, DS, X, update and byte-reversed forms), lwarx,
	                     ldarx, lbarx, lharx */
	uint8_t cti;      /* a control transfer (HVPMU_IC_CTI_COND or _CTI_ALWAYS) */
	int32_t offset;   /* sign-extended displacement (form D) */
	uint32_t writes;  /* bit r set: GPR r (0..31) may change; sc, traps and undefined
	                     encodings set all */
};

/* Fill *out for `insn` (host order).  Pure function; thread-safe. */
void hvpmu_ppc64_operands(uint32_t insn, struct hvpmu_ppc64_operands *out);

#ifdef __cplusplus
}
#endif
#endif
