/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/sun4v.h - the sun4v hypervisor services (layer 4).
 *
 * The sun4v trap ABI (../shared/reference/hw-and-hypervisor.md §2,
 * linux-clients.md §1.1): software trap FAST_TRAP 0x80 takes the function
 * number in %o5 and arguments in %o0-%o4, and returns the status in %o0 and
 * results in %o1-%o4; CORE_TRAP 0xff carries API_SET_VERSION 0x00 and
 * API_GET_VERSION 0x03.  Functions of an API group answer EBADTRAP until the
 * guest negotiates the group (OpenSPARC hypervisor behaviour, §1.1).
 *
 * Who reaches the hypervisor (SPARC V9 / UltraSPARC Architecture 2005 Tcc,
 * docs/sun4v-hypervisor.md): a Tcc's trap number is the low 7 bits of its
 * operand in user mode and the low 8 bits in privileged and
 * hyperprivileged mode; its trap type is 0x100 + number.  Trap types
 * 0x100-0x17f (trap_instruction) are the guest OS's; only 0x180-0x1ff
 * (htrap_instruction: numbers 0x80-0xff, which user code cannot form)
 * enter the hypervisor.  So a user program's `ta 0x80` is the guest OS's
 * trap 0x100, never a hypercall.
 *
 * Implemented groups on platform t4: SUN4V 0x000 (1.0), CORE 0x001 (1.6),
 * VT_CPU 0x20c (1.0) with HV_FAST_VT_GET_PERFREG 0x184 and
 * HV_FAST_VT_SET_PERFREG 0x185 (reference §4; Linux arch/sparc pcr.c) for
 * the strand's PCRs and the chip's MCU DRAM counters.
 * The hypercall table is data (src/services/sun4v.c).
 *
 * Not thread-safe: serialise calls on one hypervisor (hvpmu_hv_tcc_*() and
 * hvpmu_hv_serviced() are pure and thread-safe).
 */
#ifndef HVPMU_SUN4V_H
#define HVPMU_SUN4V_H

#include <stdint.h>
#include <hvpmu/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sun4v status codes (hw-and-hypervisor.md §2; Linux hypervisor.h). */
enum hvpmu_hv_status {
	HV_EOK = 0,
	HV_ENOCPU = 1,
	HV_ENORADDR = 2,
	HV_ENOINTR = 3,
	HV_EBADPGSZ = 4,
	HV_EBADTSB = 5,
	HV_EINVAL = 6,
	HV_EBADTRAP = 7,
	HV_EBADALIGN = 8,
	HV_EWOULDBLOCK = 9,
	HV_ENOACCESS = 10,
	HV_EIO = 11,
	HV_ECPUERROR = 12,
	HV_ENOTSUPPORTED = 13,
	HV_ENOMAP = 14,
	HV_ETOOMANY = 15,
	HV_ECHANNEL = 16,
};

/* Software trap numbers. */
#define HV_FAST_TRAP 0x80
#define HV_CORE_TRAP 0xff

/* Tcc (SPARC V9 / UA2005): trap number bits kept per mode, the first
 * number that enters the hypervisor, and the trap types of the two
 * ranges (trap_instruction: the guest OS's; htrap_instruction: the
 * hypervisor's). */
#define HV_TRAPNUM_USER_MASK 0x7fu
#define HV_TRAPNUM_PRIV_MASK 0xffu
#define HV_TRAPNUM_HV_FIRST 0x80u
#define HV_TT_TRAP_INSTRUCTION 0x100u
#define HV_TT_HTRAP_INSTRUCTION 0x180u

/* The trap number a Tcc with operand (r[rs1] + r[rs2] or imm) forms when
 * the strand is in `mode`; a mode outside enum hvpmu_mode counts as user. */
static inline unsigned hvpmu_hv_tcc_trapnum(enum hvpmu_mode mode, unsigned operand)
{
	return operand & (mode == HVPMU_MODE_PRIV || mode == HVPMU_MODE_HYPER ? HV_TRAPNUM_PRIV_MASK
									      : HV_TRAPNUM_USER_MASK);
}

/* Its trap type: 0x100-0x17f for the guest OS, 0x180-0x1ff for the
 * hypervisor. */
static inline unsigned hvpmu_hv_tcc_tt(enum hvpmu_mode mode, unsigned operand)
{
	return HV_TT_TRAP_INSTRUCTION + hvpmu_hv_tcc_trapnum(mode, operand);
}

/* CORE_TRAP functions (unversioned). */
#define HV_CORE_SET_VER 0x00
#define HV_CORE_GET_VER 0x03

/* API groups. */
#define HV_GRP_SUN4V 0x0000
#define HV_GRP_CORE 0x0001
#define HV_GRP_VT_CPU 0x020c
#define HV_GRP_NIAGARA 0x0200 /* Niagara perf regs + MMU statistics (UltraSPARC T1) */

/* FAST_TRAP functions. */
#define HV_FAST_NIAGARA_GET_PERFREG 0x100 /* niagara-perf-api.txt; group 0x200 */
#define HV_FAST_NIAGARA_SET_PERFREG 0x101
#define HV_FAST_NIAGARA_MMUSTAT_CONF 0x102 /* niagara-mmustat-api.txt; group 0x200 */
#define HV_FAST_NIAGARA_MMUSTAT_INFO 0x103
#define HV_FAST_VT_GET_PERFREG 0x184
#define HV_FAST_VT_SET_PERFREG 0x185

/* T4 perf-register numbers of 0x184/0x185: PCR0-3 of the calling strand
 * (linux-clients.md §1.3 "reg_num is the counter index 0..3"). */
#define HV_VT_PERFREG_PCR0 0
#define HV_VT_PERFREG_NPCR 4
/* Then three per memory controller, chip-wide (Solaris VT_IMPL,
 * hw-and-hypervisor.md §4): id = HV_VT_PERFREG_MCU0 + HV_VT_PERFREG_PER_MCU *
 * mcu + enum hvpmu_t4_mcu_reg (0 DRAM_PERF_CTL_REG, 1 DRAM_PERF_COUNT01_REG,
 * 2 DRAM_PERF_COUNT23_REG; TABLE 10-4 to 10-6) for mcu <
 * hvpmu_machine_nmcu(); larger ids give EINVAL.  Access to the counter
 * groups follows the guest's `dram_counter_group` (hvpmu/md.h). */
#define HV_VT_PERFREG_MCU0 4
#define HV_VT_PERFREG_PER_MCU 3

/* Guest registers %o0..%o5 across a trap. */
struct hvpmu_hv_regs {
	uint64_t o[6];
};

/* A trap delivered to the guest OS (layer 5): a PMU trap or the tick the
 * hypervisor reflects, or a software trap of the guest's own code that was
 * not a hypercall (hvpmu_hv_trap()).  A handler must ignore trap types it
 * does not handle. */
struct hvpmu_guest_trap {
	uint32_t tt;         /* 0x4f interrupt_level_15 (PMU), 0x4e interrupt_level_14 (tick),
			      * 0x100-0x17f trap_instruction (Tcc number 0x00-0x7f) */
	uint32_t strand;
	uint32_t pic_mask;   /* PICs whose overflow caused it (PMU traps); 0 otherwise */
	int precise;         /* 1 if it came from precise_performance_event */
	uint64_t tpc;        /* trap PC as the hardware reported it; 0 for a Tcc
			      * (hvpmu_hv_trap() is not given the PC) */
};
#define HV_TT_INTERRUPT_LEVEL_14 0x4e
#define HV_TT_INTERRUPT_LEVEL_15 0x4f

typedef void (*hvpmu_guest_trap_fn)(void *ctx, const struct hvpmu_guest_trap *trap);

struct hvpmu_hv;

/* Create the hypervisor for machine m (which must outlive it); installs
 * itself as the machine's trap handler.  The guests are those of m's
 * machine description.  Returns 0 and *out, else *out = NULL and
 * HVPMU_EINVAL (m or out NULL; a guest table the hypervisor cannot hold:
 * more than HVPMU_MD_MAX_GUESTS guests or HVPMU_MD_MAX_MEM memory segments
 * in a guest, a strand in two guests or past the machine's last, an
 * invalid memory segment) or HVPMU_ENOMEM. */
int hvpmu_hv_create(struct hvpmu_machine *m, struct hvpmu_hv **out);
void hvpmu_hv_destroy(struct hvpmu_hv *hv);

/* Install guest `guest`'s trap handler (its trap table), NULL to drop.
 * The handler runs with the strand in privileged mode and may make
 * hypercalls.  0 or HVPMU_ERANGE (no such guest). */
int hvpmu_hv_set_guest_trap_handler(struct hvpmu_hv *hv, unsigned guest,
				    hvpmu_guest_trap_fn fn, void *ctx);

/*
 * Code running on `strand`, in the strand's current mode, executes a Tcc
 * whose trap number operand is `trapnum` (HV_FAST_TRAP, HV_CORE_TRAP, ...),
 * with the guest's %o registers in *r.  Returns:
 *   HVPMU_OK     the hypervisor serviced the trap: the strand was
 *                privileged or hyperprivileged and the number (8 bits) is
 *                0x80-0xff.  r->o[0] holds the status and r->o[1..] the
 *                results, other registers are preserved.  The strand is
 *                hyperprivileged for the duration (modeled cost
 *                md.timing.hcall_cycles) and returns to its mode.  An
 *                unknown trap number or function, a function whose group is
 *                not negotiated, or a strand owned by no guest gives
 *                HV_EBADTRAP.
 *   HVPMU_ETRAP  not a hypervisor trap: the number is below 0x80 (always
 *                so in user mode, where it keeps 7 bits).  From user or
 *                privileged mode the trap is the guest OS's, trap type
 *                hvpmu_hv_tcc_tt(mode, trapnum) = 0x100 + number: the
 *                guest's trap handler, if one is installed, is called with
 *                that tt (the OS's trap table; a Linux guest's system call
 *                is `ta 0x6d`, tt 0x16d).  From hyperprivileged mode
 *                nothing is delivered (the hypervisor has no service
 *                there).  *r is untouched and no cycles are charged.
 *   HVPMU_ERANGE strand is past the machine's last; *r untouched.
 */
int hvpmu_hv_trap(struct hvpmu_hv *hv, uint32_t strand, unsigned trapnum,
		  struct hvpmu_hv_regs *r);

/*
 * Convenience wrappers with the Linux stub shapes (linux-clients.md §1.3),
 * issuing the trap in the strand's current mode: the guest OS calls them
 * from privileged mode.  Each returns the hypervisor's sun4v status when
 * hvpmu_hv_trap() returned HVPMU_OK, else that library error as uint64_t
 * (a value no hypervisor returns, >= 2^63): HVPMU_HV_ETRAP when the strand
 * is in user mode (the trap went to the guest OS, not the hypervisor),
 * HVPMU_HV_ERANGE for a strand past the last.  Outputs are written only as
 * the hypervisor returns them (set_version: *actual_minor := %o1 whenever
 * the hypervisor serviced the call, as Linux's stub stores it; the others
 * only on HV_EOK), never when the trap was not serviced.
 */
#define HVPMU_HV_ETRAP UINT64_C(0xFFFFFFFFFFFFFFF9)  /* (uint64_t)HVPMU_ETRAP */
#define HVPMU_HV_ERANGE UINT64_C(0xFFFFFFFFFFFFFFFD) /* (uint64_t)HVPMU_ERANGE */
/* 1 if a wrapper's result is a status of the hypervisor, 0 if the trap
 * did not reach it. */
static inline int hvpmu_hv_serviced(uint64_t status)
{
	return (int64_t)status >= 0;
}
uint64_t hvpmu_hv_set_version(struct hvpmu_hv *hv, uint32_t strand, uint64_t group,
			      uint64_t major, uint64_t minor, uint64_t *actual_minor);
uint64_t hvpmu_hv_get_version(struct hvpmu_hv *hv, uint32_t strand, uint64_t group,
			      uint64_t *major, uint64_t *minor);
uint64_t hvpmu_hv_niagara_get_perfreg(struct hvpmu_hv *hv, uint32_t strand, uint64_t reg, uint64_t *val);
uint64_t hvpmu_hv_niagara_set_perfreg(struct hvpmu_hv *hv, uint32_t strand, uint64_t reg, uint64_t val);
uint64_t hvpmu_hv_mmustat_conf(struct hvpmu_hv *hv, uint32_t strand, uint64_t ra, uint64_t *old_ra);
uint64_t hvpmu_hv_mmustat_info(struct hvpmu_hv *hv, uint32_t strand, uint64_t *ra);
/* The guest's real memory (as the guest itself reads and writes it), or
 * NULL; hvpmu/guest_mem.h. */
struct hvpmu_guest_mem;
struct hvpmu_guest_mem *hvpmu_hv_guest_mem(struct hvpmu_hv *hv, unsigned guest);
uint64_t hvpmu_hv_vt_get_perfreg(struct hvpmu_hv *hv, uint32_t strand, uint64_t reg, uint64_t *val);
uint64_t hvpmu_hv_vt_set_perfreg(struct hvpmu_hv *hv, uint32_t strand, uint64_t reg, uint64_t val);

/* Short name of a status code ("EOK", "EBADTRAP", ...), "ETRAP" /
 * "ERANGE" for HVPMU_HV_ETRAP / HVPMU_HV_ERANGE, "E?" if unknown. */
const char *hvpmu_hv_status_name(uint64_t status);

/* The machine this hypervisor runs on. */
struct hvpmu_machine *hvpmu_hv_machine(struct hvpmu_hv *hv);
/* The personality of the platform's services ("sun4v", "irix", "papr"):
 * which calling convention the guest OS uses (src/services/services_internal.h;
 * "papr": hvpmu/papr.h hvpmu_papr_hv_hcall); "none" on a platform whose
 * services are not modeled. */
const char *hvpmu_hv_personality(const struct hvpmu_hv *hv);

#ifdef __cplusplus
}
#endif
#endif
