/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/mmustat.h - the Niagara (UltraSPARC T1) MMU statistics service of
 * the sun4v hypervisor (layer 4): ../shared/specs/niagara-mmustat-api.txt.
 *
 * Each virtual CPU may give the hypervisor a 0x200-byte buffer in guest
 * real memory (NIAGARA_MMUSTAT_CONF 0x102, §2.1; queried with
 * NIAGARA_MMUSTAT_INFO 0x103, §2.2).  While one is configured, every TSB
 * hit of the vCPU's hardware tablewalk adds 1 to a "hits" word and the
 * %tick cycles the miss handling took to a "ticks" word of the buffer, at
 * the offsets of §2.3:
 *
 *   offset = (IMMU 0x000 | DMMU 0x100) + (ctx 0: 0x000 | ctx != 0: 0x080)
 *            + size_code * 0x10;   hits at +0, ticks at +8,
 *
 * each a 64-bit big-endian word as the guest reads it (Linux
 * struct hv_mmu_statistics, linux-clients.md §1.4).  Only the T1 page-size
 * codes 0 (8 KB), 1 (64 KB), 3 (4 MB) and 5 (256 MB) have slots; the
 * 16-byte slots of codes 2, 4, 6, 7 are reserved words and never written
 * (hw-and-hypervisor.md §1.5).
 *
 * This module is the service alone: the trap dispatcher decides whether
 * the call exists at all (EBADTRAP until group HV_GRP_NIAG_PERF 0x200 is
 * negotiated, and on every platform but t1; hw-and-hypervisor.md §1.1),
 * maps the calling strand to the vCPU index used here, and resets every
 * vCPU of the guest when the guest gives the group up (API_SET_VERSION
 * major 0), so that a buffer is written only while the group is
 * negotiated.  Every choice the
 * sources leave open, and where hvpmu follows the spec against the
 * OpenSPARC code, is in docs/mmustat.md.
 *
 * Not thread-safe: serialise the calls on one struct hvpmu_mmustat and on
 * the guest memory it writes to.
 */
#ifndef HVPMU_MMUSTAT_H
#define HVPMU_MMUSTAT_H

#include <stdint.h>
#include <hvpmu/sun4v.h>
#include <hvpmu/guest_mem.h>

#ifdef __cplusplus
extern "C" {
#endif

/* API group and FAST_TRAP function numbers, Linux's names
 * (linux-clients.md §1.1, §1.3; spec §2.1, §2.2). */
#ifndef HV_GRP_NIAG_PERF
#define HV_GRP_NIAG_PERF 0x0200
#endif
#ifndef HV_FAST_MMUSTAT_CONF
#define HV_FAST_MMUSTAT_CONF 0x102
#endif
#ifndef HV_FAST_MMUSTAT_INFO
#define HV_FAST_MMUSTAT_INFO 0x103
#endif

/* Buffer layout, spec §2.3 (names as the OpenSPARC hypervisor's mmustat.h,
 * hw-and-hypervisor.md §1.5 / linux-clients.md §1.4). */
#define HVPMU_MMUSTAT_AREA_SIZE 0x200u  /* bytes */
#define HVPMU_MMUSTAT_AREA_ALIGN 64u    /* spec §2.1 "64-byte boundary"; OpenSPARC checks 8 */
#define HVPMU_MMUSTAT_I 0x000u          /* IMMU half */
#define HVPMU_MMUSTAT_D 0x100u          /* DMMU half */
#define HVPMU_MMUSTAT_CTX0 0x000u       /* context 0 block of a half */
#define HVPMU_MMUSTAT_CTXNON0 0x080u    /* context != 0 block */
#define HVPMU_MMUSTAT_ENTRY_SZ_SHIFT 4  /* 16-byte slot per size code */
#define HVPMU_MMUSTAT_HIT 0x0u          /* hits word of a slot */
#define HVPMU_MMUSTAT_TICK 0x8u         /* ticks word of a slot */
#define HVPMU_MMUSTAT_NCODES 8u         /* slots per block (size codes 0..7) */
#define HVPMU_MMUSTAT_WORDS (HVPMU_MMUSTAT_AREA_SIZE / 8u)

/* Size codes with a slot on T1: 0 8K, 1 64K, 3 4M, 5 256M (OpenSPARC
 * TTE_VALIDSIZEARRAY, hw-and-hypervisor.md §1.5); bit n = code n. */
#define HVPMU_MMUSTAT_CODES_T1 0x2Bu

/* 1 if TTE size code `code` has a slot (is counted), else 0. */
static inline int hvpmu_mmustat_code_valid(unsigned code)
{
	return code < HVPMU_MMUSTAT_NCODES && ((HVPMU_MMUSTAT_CODES_T1 >> code) & 1u);
}

/* Byte offset in the buffer of the hits word of the slot (dmmu, ctx != 0,
 * code); the ticks word follows at + HVPMU_MMUSTAT_TICK.  Meaningful only
 * for codes that hvpmu_mmustat_code_valid() accepts. */
static inline uint32_t hvpmu_mmustat_slot(int dmmu, int ctx_nonzero, unsigned code)
{
	return (dmmu ? HVPMU_MMUSTAT_D : HVPMU_MMUSTAT_I) +
	       (ctx_nonzero ? HVPMU_MMUSTAT_CTXNON0 : HVPMU_MMUSTAT_CTX0) +
	       (code << HVPMU_MMUSTAT_ENTRY_SZ_SHIFT) + HVPMU_MMUSTAT_HIT;
}

struct hvpmu_mmustat;

/*
 * Create the service for one guest: `nvcpus` vCPUs (indices 0..nvcpus-1),
 * all with collection disabled, writing into the guest's real memory `mem`
 * (which must outlive the service).  0 and *out, HVPMU_EINVAL (mem or out
 * NULL, nvcpus 0) or HVPMU_ENOMEM.
 */
int hvpmu_mmustat_create(struct hvpmu_guest_mem *mem, unsigned nvcpus, struct hvpmu_mmustat **out);
/* NULL is a no-op.  Guest memory is left as it is. */
void hvpmu_mmustat_destroy(struct hvpmu_mmustat *ms);
unsigned hvpmu_mmustat_nvcpus(const struct hvpmu_mmustat *ms);

/*
 * NIAGARA_MMUSTAT_CONF for vCPU `vcpu` (spec §2.1): `ra` is the buffer's
 * real address, 0 to disable collection.  Checks, in this order:
 *   vcpu >= nvcpus                          -> HV_ENOCPU (a caller bug; the
 *                                              dispatcher never passes one)
 *   ra not a multiple of 64                 -> HV_EBADALIGN
 *   ra == 0                                 -> disable, no range check
 *   [ra, ra + 0x200) not inside one segment -> HV_ENORADDR
 *   host memory for the buffer exhausted    -> HV_EIO (host condition only)
 * On HV_EOK, *old_ra (if old_ra is not NULL) receives the previous buffer's
 * RA, 0 if there was none, and the new buffer is used from the next TSB
 * hit.  The buffer's contents are not touched (the guest zeroes it).
 * On HV_EBADALIGN, HV_ENORADDR and HV_EIO collection stops for the vCPU,
 * as after a CONF of ra 0 (spec §2.1: "If an error is returned no
 * statistics are collected (equivalent to passing an raddr of zero)"):
 * the previous buffer is no longer written, INFO gives 0 and the next
 * successful CONF returns 0 as the previous RA; nothing is ever written
 * at the refused ra; *old_ra is not written (the dispatcher leaves the
 * guest's %o1 as it was).  HV_ENOCPU names no vCPU and changes nothing.
 * (OpenSPARC keeps the previous buffer on an error; hvpmu follows the
 * spec, docs/mmustat.md.)
 */
uint64_t hvpmu_mmustat_conf(struct hvpmu_mmustat *ms, unsigned vcpu, uint64_t ra, uint64_t *old_ra);

/*
 * NIAGARA_MMUSTAT_INFO (spec §2.2): HV_EOK and *ra = the current buffer's
 * RA, 0 if collection is disabled.  Idempotent.  vcpu >= nvcpus: HV_ENOCPU,
 * *ra = 0.  ra must not be NULL.
 */
uint64_t hvpmu_mmustat_info(const struct hvpmu_mmustat *ms, unsigned vcpu, uint64_t *ra);

/*
 * One TSB hit of vCPU `vcpu`'s hardware tablewalk, loaded into the ITLB
 * (dmmu 0) or DTLB (dmmu != 0), of a context other than 0 (ctx_nonzero
 * != 0) or context 0, for a TTE of size code `size_code` (TTE bits 3:0),
 * that took `ticks` %tick cycles from the miss to the TLB load.  If
 * collection is enabled for the vCPU and the code has a slot, adds 1 to
 * the slot's hits word and `ticks` to its ticks word (each modulo 2^64, a
 * read-modify-write of big-endian words, spec §2.3).  Otherwise, and for
 * vcpu >= nvcpus, does nothing: invalid codes are not recorded.
 * Never writes any other word of guest memory.
 */
void hvpmu_mmustat_tsb_hit(struct hvpmu_mmustat *ms, unsigned vcpu, int dmmu, int ctx_nonzero,
			   unsigned size_code, uint64_t ticks);

/* vCPU reset (OpenSPARC reset_vcpu_state): collection disabled, RA 0; the
 * buffer is left as it is.  vcpu >= nvcpus: no-op. */
void hvpmu_mmustat_reset(struct hvpmu_mmustat *ms, unsigned vcpu);

/*
 * Linux's name for the buffer word at byte `offset` (the member of struct
 * hv_mmu_statistics and file of /sys/devices/system/cpu/cpuN/mmu_stats/,
 * linux-clients.md §1.4), e.g. "dmmu_tsb_ticks_ctxnon0_4mb_tte"; NULL for
 * reserved words, offsets not a multiple of 8, and offsets >= 0x200.
 * Thread-safe.
 */
const char *hvpmu_mmustat_field_name(uint32_t offset);

#ifdef __cplusplus
}
#endif
#endif
