/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/mips64_decode.h - MIPS64 instruction decoder for the event source
 * (layer 1 of ../shared/DESIGN.md), behind the ISA descriptor
 * hvpmu_isa_mips64 (hvpmu/isa.h).
 *
 * Decodes one 32-bit MIPS instruction word (big-endian in memory, host
 * order here) into the generic instruction classes of hvpmu/insn.h.  The
 * instruction set is MIPS IV as the R10000 implements it (MIPS IV
 * Instruction Set, Revision 3.2, Charles Price, MIPS Technologies 1995:
 * the CPU and FPU instruction descriptions and their "CPU Instruction
 * Encoding" and "FPU Instruction Encoding" tables) plus the MIPS64
 * Release 2 additions that Debian's gcc-12 emits for the n64 ABI (its
 * default is `-march=mips64r2`; MIPS64 Architecture for Programmers
 * Volume II, MD00087 Revision 3.02, Appendix A "Instruction Bit
 * Encodings": SPECIAL2, SPECIAL3, RDHWR, rotates, MFHC1/MTHC1, paired
 * single).  Release 6
 * re-uses encodings incompatibly and is not decoded.  The class of every
 * family and the choices the manuals leave open are in docs/mips64-isa.md.
 *
 * Groups (exactly one per instruction):
 *   HVPMU_IC_LOAD    LB..LD, LWL/LWR/LDL/LDR, LL/LLD, LWC1/LDC1, LWXC1/LDXC1/LUXC1
 *   HVPMU_IC_STORE   SB..SD, SWL/SWR/SDL/SDR, SC/SCD, SWC1/SDC1, SWXC1/SDXC1/SUXC1
 *   HVPMU_IC_FP      CP1 arithmetic, compare, convert and moves (MFC1, MTC1,
 *                    DMFC1, DMTC1, CFC1, CTC1, MFHC1, MTHC1), COP1X multiply-add
 *   HVPMU_IC_BRANCH  every branch and jump (J, JAL, JR, JALR, Bcond, REGIMM
 *                    branches, BC1F/BC1T and their likely forms)
 *   HVPMU_IC_SPR     CP0 (MFC0, MTC0, DMFC0, DMTC0, TLB ops, ERET, WAIT, DI/EI,
 *                    RDPGPR/WRPGPR), CACHE, RDHWR
 *   HVPMU_IC_OTHER   the rest: integer arithmetic, SYSCALL, BREAK, traps, SYNC,
 *                    PREF/PREFX, nop, and undefined encodings
 * Properties: HVPMU_IC_LOAD_LINKED (LL, LLD), HVPMU_IC_STORE_COND (SC, SCD),
 * HVPMU_IC_PREFETCH (PREF, PREFX), HVPMU_IC_SYSCALL (SYSCALL), HVPMU_IC_NTC
 * (SYNC), HVPMU_IC_ILLEGAL (undefined: OTHER), HVPMU_IC_CTI_COND /
 * _CTI_ALWAYS, HVPMU_IC_CALL (JAL, JALR rd = $31, BLTZAL, BGEZAL, BLTZALL,
 * BGEZALL), HVPMU_IC_RET (JR $31), HVPMU_IC_INDIRECT (JR, JALR).
 *
 * A branch whose outcome the encoding fixes is classified by it (QEMU 7.2
 * target/mips/tcg/translate.c gen_compute_branch() does the same):
 * BEQ r,r (`b`), BLEZ $0, BGEZ $0 and BGEZAL $0 (`bal`) and their likely
 * forms are HVPMU_IC_CTI_ALWAYS; BNE r,r, BGTZ $0, BLTZ $0, BLTZAL $0 and
 * their likely forms are never taken: HVPMU_IC_BRANCH without a CTI flag
 * (as SPARC's BN).  `annul` is 1 for every branch-likely form (BEQL,
 * BNEL, BLEZL, BGTZL, BLTZL, BGEZL, BLTZALL, BGEZALL, BC1FL, BC1TL): MIPS
 * IV 3.x "Branch Likely": the delay slot executes only when the branch is
 * taken, the rule of SPARC's annulled branches.
 *
 * Decoding happens once per instruction at translation time.  Every
 * function here is pure: thread-safe, no allocation, no global state.
 */
#ifndef HVPMU_MIPS64_DECODE_H
#define HVPMU_MIPS64_DECODE_H

#include <stdint.h>
#include <hvpmu/isa.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ISA descriptor (src/source/isa_mips64.c), also found by
 * hvpmu_isa_by_name("mips64"). */
extern const struct hvpmu_isa hvpmu_isa_mips64;

/*
 * Decode `insn` (host order) located at virtual address `pc` into *out:
 * flags, uops (always 1: the R10000 issues every MIPS IV instruction as
 * one), annul (branch-likely), has_target / target for PC-relative
 * branches (pc + 4 + (simm16 << 2)) and J / JAL (((pc + 4) & ~0x0fffffff)
 * | instr_index << 2).  Returns out->flags.  Never fails: undefined
 * encodings are HVPMU_IC_OTHER | HVPMU_IC_ILLEGAL.  Same signature as
 * struct hvpmu_isa.decode.
 */
uint32_t hvpmu_mips64_decode(uint32_t insn, uint64_t pc, struct hvpmu_insn *out);

/*
 * Operands of one instruction for the software-prefetch address recovery
 * (docs/mips64-isa.md "Prefetch"): the address form of a data access and
 * the integer registers the instruction may write.
 */
enum hvpmu_mips64_addr_form {
	HVPMU_MA_NONE = 0, /* no data address */
	HVPMU_MA_IMM = 1,  /* GPR[base] + simm16 (loads, stores, LL/SC, PREF, CACHE) */
	HVPMU_MA_REG = 2,  /* GPR[base] + GPR[index] (COP1X LWXC1 .. PREFX) */
};

struct hvpmu_mips64_operands {
	uint8_t form;     /* enum hvpmu_mips64_addr_form */
	uint8_t base;     /* base register 0..31 ($0 reads 0) */
	uint8_t index;    /* index register (form REG) */
	uint8_t prefetch; /* PREF / PREFX */
	uint8_t hint;     /* prefetch hint (PREF: the rt field; PREFX: the fd field) */
	uint8_t donor;    /* a data access QEMU 7.2 reports once, at exactly its
	                     effective address: LB..LD, LWU, SB..SD, LL/LLD, LWC1,
	                     LDC1, SWC1, SDC1, LWXC1, LDXC1, SWXC1, SDXC1 */
	uint8_t cti;      /* a control transfer (HVPMU_IC_CTI_COND or _CTI_ALWAYS) */
	uint8_t likely;   /* a branch-likely: its delay slot may not execute */
	int32_t offset;   /* sign-extended simm16 (form IMM) */
	uint32_t writes;  /* bit r set: GPR r (1..31) may change; SYSCALL, BREAK,
	                     traps and undefined encodings set all */
};

/* Fill *out for `insn` (host order).  Pure function; thread-safe. */
void hvpmu_mips64_operands(uint32_t insn, struct hvpmu_mips64_operands *out);

#ifdef __cplusplus
}
#endif
#endif
