/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sun4v hypervisor: trap dispatch, API-group negotiation and the T4
 * perf-register hypercalls.
 *  - Only privileged code reaches the hypervisor, with trap numbers
 *    0x80-0xff (SPARC V9 / UA2005 Tcc; hvpmu_hv_trap() below).
 *  - ABI, status codes, CORE_TRAP API_SET_VERSION/API_GET_VERSION semantics:
 *    ../shared/reference/hw-and-hypervisor.md §2, linux-clients.md §1.1-1.2.
 *  - Functions answer EBADTRAP until their group is negotiated (OpenSPARC
 *    hypervisor, hw-and-hypervisor.md §1.1).
 *  - HV_FAST_VT_GET/SET_PERFREG 0x184/0x185, group 0x20c, reg 0..3 = PCR0-3
 *    of the calling strand (hw-and-hypervisor.md §4, linux-clients.md §1.3);
 *    check order perfctraccess -> register number -> perfctrhtaccess for ht,
 *    as the Niagara-2 hypervisor does (hw-and-hypervisor.md §4).
 *  - reg 4 + 3*mcu + {0 CTL, 1 COUNT01, 2 COUNT23}: the chip's MCU DRAM
 *    counters (Solaris VT_IMPL ids, hw-and-hypervisor.md §4; spec §10.5
 *    TABLE 10-4 to 10-6), after the register-number check gated by the
 *    guest's dram_counter_group: COUNT01 needs the OS group, COUNT23 the
 *    power-management group, CTL either, and a CTL write changes only the
 *    sel fields of the groups the guest owns (docs/sun4v-hypervisor.md).
 * The group table and the hypercall table below are data; handlers do one
 * thing each.  This is the sun4v personality of the platform services
 * (services_internal.h); the dispatcher holds the guests.
 */
#include <stdlib.h>
#include <string.h>
#include "services_internal.h"

typedef uint64_t (*hcall_fn)(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r);

struct api_group {
	uint64_t group;
	uint64_t major;      /* the one major version offered */
	uint64_t max_minor;  /* highest minor of that major */
	unsigned firmware;   /* enum hvpmu_firmware: the platform record's bit that offers the group */
	/* Called when the guest gives the group up (API_SET_VERSION major 0):
	 * stop every service of the group that runs without being called,
	 * since the guest can no longer reach the functions that stop it.
	 * NULL: the group has none. */
	void (*release)(struct hvpmu_hv *hv, unsigned guest);
};


static void niagara_release(struct hvpmu_hv *hv, unsigned guest);

/* The groups, each offered where the platform record's firmware has its
 * bit (hvpmu/platform.h).  SUN4V 1.0 and CORE 1.6 as Linux registers
 * them at boot (linux-clients.md §1.2); VT_CPU 1.0 on T4; the Niagara perf
 * group 0x200 1.0 on T1 only (hw-and-hypervisor.md §1.1). */
static const struct api_group api_groups[] = {
	{ HV_GRP_SUN4V, 1, 0, HVPMU_FW_SUN4V_CORE, NULL },
	{ HV_GRP_CORE, 1, 6, HVPMU_FW_SUN4V_CORE, NULL },
	{ HV_GRP_VT_CPU, 1, 0, HVPMU_FW_SUN4V_VT_CPU, NULL },
	{ HV_GRP_NIAGARA, 1, 0, HVPMU_FW_SUN4V_NIAGARA, niagara_release },
};
#define NGROUPS (sizeof api_groups / sizeof api_groups[0])

static uint64_t vt_get_perfreg(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r);
static uint64_t niagara_get_perfreg(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r);
static uint64_t mmustat_conf(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r);
static uint64_t mmustat_info(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r);
static uint64_t niagara_set_perfreg(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r);
static uint64_t vt_set_perfreg(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r);

struct hcall {
	uint64_t fn;         /* %o5 function number */
	uint64_t group;      /* API group that must be negotiated */
	hcall_fn handler;
	const char *name;
};

static const struct hcall fast_calls[] = {
	{ HV_FAST_VT_GET_PERFREG, HV_GRP_VT_CPU, vt_get_perfreg, "vt_get_perfreg" },
	{ HV_FAST_VT_SET_PERFREG, HV_GRP_VT_CPU, vt_set_perfreg, "vt_set_perfreg" },
	{ HV_FAST_NIAGARA_GET_PERFREG, HV_GRP_NIAGARA, niagara_get_perfreg, "niagara_get_perfreg" },
	{ HV_FAST_NIAGARA_SET_PERFREG, HV_GRP_NIAGARA, niagara_set_perfreg, "niagara_set_perfreg" },
	{ HV_FAST_NIAGARA_MMUSTAT_CONF, HV_GRP_NIAGARA, mmustat_conf, "mmustat_conf" },
	{ HV_FAST_NIAGARA_MMUSTAT_INFO, HV_GRP_NIAGARA, mmustat_info, "mmustat_info" },
};

/* The sun4v state of a guest (svc_guest.p). */
struct guest_state {
	uint64_t major[NGROUPS]; /* 0 = not negotiated */
	uint64_t minor[NGROUPS];
	struct hvpmu_mmustat *mmustat; /* MMU statistics service (T1) */
};

static struct guest_state *gst(const struct hvpmu_hv *hv, unsigned guest)
{
	return hv->g[guest].p;
}

/* Index of `group` among the groups the hypervisor's platform offers. */
static int group_index(const struct hvpmu_hv *hv, uint64_t group)
{
	for (unsigned i = 0; i < NGROUPS; i++)
		if (api_groups[i].group == group && (api_groups[i].firmware & hv->firmware))
			return (int)i;
	return -1;
}


/* A machine trap on a strand of `guest`: the hypervisor takes it
 * (trap_cycles) and reflects PMU traps to the guest as
 * interrupt_level_15 (Linux perfctr_irq, linux-clients.md §1.6), the tick
 * as level 14. */
static void machine_trap(struct hvpmu_hv *hv, unsigned guest, const struct hvpmu_trap *t)
{
	struct hvpmu_guest_trap gt = { 0 };

	hvpmu_machine_add_cycles(hv->m, t->strand, HVPMU_MODE_HYPER, hv->md->timing.trap_cycles);
	gt.strand = t->strand;
	gt.tpc = t->tpc;
	gt.pic_mask = t->pic_mask;
	gt.precise = t->tt == HVPMU_TT_PRECISE_PERF;
	gt.tt = t->tt == HVPMU_TT_TIMER ? HV_TT_INTERRUPT_LEVEL_14 : HV_TT_INTERRUPT_LEVEL_15;
	svc_to_guest_os(hv, guest, &gt);
}

/* A TSB hit the hypervisor's TLB-miss handler serviced: MMU statistics. */
static void tsb_hit(struct hvpmu_hv *hv, unsigned guest, unsigned vcpu, int dmmu, int ctx_nonzero, unsigned code,
		    uint64_t ticks)
{
	if (gst(hv, guest)->mmustat)
		hvpmu_mmustat_tsb_hit(gst(hv, guest)->mmustat, vcpu, dmmu, ctx_nonzero, code, ticks);
}

static void guest_destroy(void *p)
{
	struct guest_state *gs = p;

	hvpmu_mmustat_destroy(gs->mmustat);
	free(gs);
}

/* A guest's sun4v state: no group negotiated; where the firmware has it
 * (T1), an MMU-statistics service over its real memory
 * (niagara-mmustat-api.txt). */
static void *guest_create(struct hvpmu_hv *hv, unsigned guest)
{
	struct guest_state *gs = calloc(1, sizeof *gs);

	if (gs && (hv->firmware & HVPMU_FW_SUN4V_MMUSTAT) && hv->g[guest].mem &&
	    hvpmu_mmustat_create(hv->g[guest].mem, hv->md->guests[guest].nstrands, &gs->mmustat)) {
		guest_destroy(gs);
		return NULL;
	}
	return gs;
}

/* NIAGARA_MMUSTAT_CONF %o0 ra -> %o1 previous ra; INFO -> %o1 ra
 * (niagara-mmustat-api.txt; checks in src/services/mmustat.c). */
static uint64_t mmustat_conf(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r)
{
	uint64_t old = 0, st;

	if (!gst(hv, guest)->mmustat)
		return HV_EBADTRAP;
	st = hvpmu_mmustat_conf(gst(hv, guest)->mmustat, strand - hv->md->guests[guest].first_strand, r->o[0], &old);
	if (st == HV_EOK)
		r->o[1] = old;
	return st;
}

static uint64_t mmustat_info(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r)
{
	uint64_t ra = 0, st;

	if (!gst(hv, guest)->mmustat)
		return HV_EBADTRAP;
	st = hvpmu_mmustat_info(gst(hv, guest)->mmustat, strand - hv->md->guests[guest].first_strand, &ra);
	if (st == HV_EOK)
		r->o[1] = ra;
	return st;
}

/* Group 0x200 given up: MMU statistics collection stops on every vCPU of
 * the guest (docs/mmustat.md "EBADTRAP").  The buffers keep their
 * contents; the chip-wide PerfRegs of 0x100/0x101 are hardware registers
 * and keep theirs. */
static void niagara_release(struct hvpmu_hv *hv, unsigned guest)
{
	struct hvpmu_mmustat *ms = gst(hv, guest)->mmustat;

	for (unsigned v = 0; ms && v < hvpmu_mmustat_nvcpus(ms); v++)
		hvpmu_mmustat_reset(ms, v);
}



/* CORE_TRAP API_SET_VERSION: %o0 group, %o1 major, %o2 minor -> %o1 minor. */
static uint64_t api_set_version(struct hvpmu_hv *hv, unsigned guest, struct hvpmu_hv_regs *r)
{
	struct guest_state *gs = gst(hv, guest);
	int gi = group_index(hv, r->o[0]);
	uint64_t major = r->o[1], minor = r->o[2];

	if (gi < 0)
		return HV_EINVAL;
	if (major == 0) { /* major 0 disables the group */
		gs->major[gi] = gs->minor[gi] = 0;
		if (api_groups[gi].release)
			api_groups[gi].release(hv, guest);
		r->o[1] = 0;
		return HV_EOK;
	}
	if (major != api_groups[gi].major)
		return HV_ENOTSUPPORTED;
	if (minor > api_groups[gi].max_minor)
		minor = api_groups[gi].max_minor;
	if (api_groups[gi].group == HV_GRP_SUN4V)
		minor = 0;
	gs->major[gi] = major;
	gs->minor[gi] = minor;
	r->o[1] = minor;
	return HV_EOK;
}

/* CORE_TRAP API_GET_VERSION: %o0 group -> %o1 major, %o2 minor.  A group
 * that is unknown or not negotiated gives EINVAL (docs/sun4v-hypervisor.md). */
static uint64_t api_get_version(struct hvpmu_hv *hv, struct guest_state *gs, struct hvpmu_hv_regs *r)
{
	int gi = group_index(hv, r->o[0]);

	if (gi < 0 || gs->major[gi] == 0)
		return HV_EINVAL;
	r->o[1] = gs->major[gi];
	r->o[2] = gs->minor[gi];
	return HV_EOK;
}

static uint64_t vt_perfreg_checks(struct hvpmu_hv *hv, unsigned guest, uint64_t reg)
{
	int64_t acc = hv->md->guests[guest].perfctraccess;
	uint64_t nregs = HV_VT_PERFREG_MCU0 + (uint64_t)HV_VT_PERFREG_PER_MCU * hvpmu_machine_nmcu(hv->m);

	if (acc == HVPMU_MD_PROP_ABSENT || acc == 0)
		return HV_ENOACCESS;
	if (reg >= nregs) /* unsigned: catches "negative" numbers */
		return HV_EINVAL;
	return HV_EOK;
}

/* The MCU DRAM counter groups (§10.5) the guest owns: its
 * `dram_counter_group`, absent = none (hvpmu/md.h). */
static uint64_t dram_groups(const struct hvpmu_hv *hv, unsigned guest)
{
	int64_t g = hv->md->guests[guest].dram_counter_group;

	if (g == HVPMU_MD_PROP_ABSENT)
		return 0;
	return (uint64_t)g & (HVPMU_MD_DRAM_GROUP_OS | HVPMU_MD_DRAM_GROUP_PM);
}

/* Groups of which a guest must own one to access each MCU register: the
 * control register is shared, each count register belongs to one group. */
static const uint64_t mcu_reg_groups[HVPMU_T4_MCU_NREGS] = {
	[HVPMU_T4_MCU_CTL] = HVPMU_MD_DRAM_GROUP_OS | HVPMU_MD_DRAM_GROUP_PM,
	[HVPMU_T4_MCU_COUNT01] = HVPMU_MD_DRAM_GROUP_OS,
	[HVPMU_T4_MCU_COUNT23] = HVPMU_MD_DRAM_GROUP_PM,
};

/* The DRAM_PERF_CTL_REG sel fields the guest may change: its groups' own. */
static uint64_t ctl_writable(uint64_t groups)
{
	return ((groups & HVPMU_MD_DRAM_GROUP_OS) ? HVPMU_T4_DRAM_CTL_GROUP01_MASK : 0) |
	       ((groups & HVPMU_MD_DRAM_GROUP_PM) ? HVPMU_T4_DRAM_CTL_GROUP23_MASK : 0);
}

/* An MCU register id (checked in range): its device on the machine's
 * register bus and its register, or ENOACCESS when the guest owns none of
 * the groups it needs. */
static uint64_t mcu_reg(struct hvpmu_hv *hv, unsigned guest, uint64_t id, unsigned *dev, unsigned *reg)
{
	uint64_t idx = id - HV_VT_PERFREG_MCU0;
	int d = hvpmu_machine_device_find(hv->m, HVPMU_DEV_T4_MCU, (unsigned)(idx / HV_VT_PERFREG_PER_MCU));

	*reg = (unsigned)(idx % HV_VT_PERFREG_PER_MCU);
	if (d < 0)
		return HV_EINVAL;
	*dev = (unsigned)d;
	if (!(dram_groups(hv, guest) & mcu_reg_groups[*reg]))
		return HV_ENOACCESS;
	return HV_EOK;
}

static uint64_t vt_get_perfreg(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r)
{
	uint64_t st = vt_perfreg_checks(hv, guest, r->o[0]), val;
	unsigned dev, reg;

	if (st != HV_EOK)
		return st;
	if (r->o[0] >= HV_VT_PERFREG_MCU0) {
		st = mcu_reg(hv, guest, r->o[0], &dev, &reg);
		if (st != HV_EOK)
			return st;
		if (hvpmu_machine_bus_read(hv->m, dev, reg, &val))
			return HV_EINVAL;
	} else if (hvpmu_machine_ldxa(hv->m, strand, HVPMU_T4_ASI_PCR, r->o[0] * 8, &val)) {
		return HV_EINVAL;
	}
	r->o[1] = val;
	return HV_EOK;
}

/* MCU register write: the control register keeps the sel fields of the
 * groups the guest does not own (docs/sun4v-hypervisor.md). */
static uint64_t mcu_set(struct hvpmu_hv *hv, unsigned guest, uint64_t id, uint64_t val)
{
	unsigned dev, reg;
	uint64_t st = mcu_reg(hv, guest, id, &dev, &reg), old, w;

	if (st != HV_EOK)
		return st;
	if (reg == HVPMU_T4_MCU_CTL) {
		if (hvpmu_machine_bus_read(hv->m, dev, reg, &old))
			return HV_EINVAL;
		w = ctl_writable(dram_groups(hv, guest));
		val = (old & ~w) | (val & w);
	}
	return hvpmu_machine_bus_write(hv->m, dev, reg, val) ? HV_EINVAL : HV_EOK;
}

static uint64_t vt_set_perfreg(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r)
{
	uint64_t st = vt_perfreg_checks(hv, guest, r->o[0]);
	int64_t ht = hv->md->guests[guest].perfctrhtaccess;

	if (st != HV_EOK)
		return st;
	if (r->o[0] >= HV_VT_PERFREG_MCU0)
		return mcu_set(hv, guest, r->o[0], r->o[1]);
	if (HVPMU_FEX(r->o[1], T4_PCR, HT) && (ht == HVPMU_MD_PROP_ABSENT || ht == 0))
		return HV_ENOACCESS;
	if (hvpmu_machine_stxa(hv->m, strand, HVPMU_T4_ASI_PCR, r->o[0] * 8, r->o[1]))
		return HV_EINVAL;
	return HV_EOK;
}

/*
 * NIAGARA_GET/SET_PERFREG (niagara-perf-api.txt): PerfReg 0..9 of the
 * chip-wide JBUS and DRAM registers.  Check order of the OpenSPARC
 * hypervisor (hw-and-hypervisor.md §1.2): perfctraccess absent or 0 ->
 * ENOACCESS, then PerfReg >= 10 (unsigned) -> EINVAL.  Control writes are
 * masked to their 8 bits by the device; values are shared by every guest.
 */
static uint64_t niagara_perfreg_checks(struct hvpmu_hv *hv, unsigned guest, uint64_t reg)
{
	int64_t acc = hv->md->guests[guest].perfctraccess;

	if (acc == HVPMU_MD_PROP_ABSENT || acc == 0)
		return HV_ENOACCESS;
	return reg >= HVPMU_T1_NPERFREGS ? HV_EINVAL : HV_EOK;
}

static uint64_t niagara_get_perfreg(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r)
{
	uint64_t st = niagara_perfreg_checks(hv, guest, r->o[0]), val;
	int dev = hvpmu_machine_device_find(hv->m, HVPMU_DEV_T1_PERFREGS, 0);

	(void)strand;
	if (st != HV_EOK)
		return st;
	if (dev < 0 || hvpmu_machine_bus_read(hv->m, (unsigned)dev, (unsigned)r->o[0], &val))
		return HV_EINVAL;
	r->o[1] = val;
	return HV_EOK;
}

static uint64_t niagara_set_perfreg(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, struct hvpmu_hv_regs *r)
{
	uint64_t st = niagara_perfreg_checks(hv, guest, r->o[0]);
	int dev = hvpmu_machine_device_find(hv->m, HVPMU_DEV_T1_PERFREGS, 0);

	(void)strand;
	if (st != HV_EOK)
		return st;
	if (dev < 0 || hvpmu_machine_bus_write(hv->m, (unsigned)dev, (unsigned)r->o[0], r->o[1]))
		return HV_EINVAL;
	return HV_EOK;
}

static uint64_t dispatch(struct hvpmu_hv *hv, unsigned guest, uint32_t strand, unsigned trapnum,
			 struct hvpmu_hv_regs *r)
{
	struct guest_state *gs = gst(hv, guest);

	if (trapnum == HV_CORE_TRAP) {
		switch (r->o[5]) {
		case HV_CORE_SET_VER: return api_set_version(hv, guest, r);
		case HV_CORE_GET_VER: return api_get_version(hv, gs, r);
		default: return HV_EBADTRAP;
		}
	}
	if (trapnum != HV_FAST_TRAP)
		return HV_EBADTRAP;
	for (unsigned i = 0; i < sizeof fast_calls / sizeof fast_calls[0]; i++) {
		const struct hcall *h = &fast_calls[i];
		int gi;

		if (h->fn != r->o[5])
			continue;
		gi = group_index(hv, h->group);
		if (gi < 0 || gs->major[gi] == 0)
			return HV_EBADTRAP;
		return h->handler(hv, guest, strand, r);
	}
	return HV_EBADTRAP;
}

/*
 * The Tcc trap types (SPARC V9 / UltraSPARC Architecture 2005; sources in
 * docs/sun4v-hypervisor.md "Who reaches the hypervisor"): the trap number
 * keeps 7 bits of the operand in user mode, 8 in privileged and
 * hyperprivileged mode (QEMU target/sparc/translate.c: V8_TRAP_MASK 0x7f,
 * UA2005_HTRAP_MASK 0xff when supervisor), and the trap type is 0x100 +
 * number.  trap_instruction 0x100-0x17f is the guest OS's; only
 * htrap_instruction 0x180-0x1ff, numbers 0x80-0xff that privileged code
 * alone can issue, enters the hypervisor (OpenSPARC sun4v/hypervisor
 * src/greatlakes/ontario/src/traptable.s: tt 0x180 hcall, 0x1ff
 * hcall_core, the rest of 0x181-0x1fe EBADTRAP; trap numbers
 * hw-and-hypervisor.md §2).  Decisions: docs/sun4v-hypervisor.md "Who
 * reaches the hypervisor".
 */
int hvpmu_hv_trap(struct hvpmu_hv *hv, uint32_t strand, unsigned trapnum, struct hvpmu_hv_regs *r)
{
	enum hvpmu_mode prev;
	unsigned num;
	int guest;

	if (strand >= hvpmu_machine_nstrands(hv->m))
		return HVPMU_ERANGE;
	prev = hvpmu_machine_mode(hv->m, strand);
	num = hvpmu_hv_tcc_trapnum(prev, trapnum);
	guest = svc_guest_of(hv, strand);
	if (num < HV_TRAPNUM_HV_FIRST) {
		/* trap_instruction: the hypervisor never sees it.  From user or
		 * privileged mode it is taken by the guest OS's trap table (the
		 * handler the guest installed, if any); from hyperprivileged
		 * mode it stays in the hypervisor, which has no service for it.
		 * %o0-%o5 untouched, no hypervisor cycles. */
		if (prev != HVPMU_MODE_HYPER && guest >= 0) {
			struct hvpmu_guest_trap gt = { 0 };

			gt.tt = hvpmu_hv_tcc_tt(prev, trapnum);
			gt.strand = strand;
			svc_to_guest_os(hv, (unsigned)guest, &gt);
		}
		return HVPMU_ETRAP;
	}
	if (guest < 0) {
		r->o[0] = HV_EBADTRAP;
		return HVPMU_OK;
	}
	hvpmu_machine_set_mode(hv->m, strand, HVPMU_MODE_HYPER);
	hvpmu_machine_add_cycles(hv->m, strand, HVPMU_MODE_HYPER, hv->md->timing.hcall_cycles);
	r->o[0] = dispatch(hv, (unsigned)guest, strand, num, r);
	hvpmu_machine_set_mode(hv->m, strand, prev);
	return HVPMU_OK;
}

/* A wrapper's result: the hypervisor's status, or the library error of a
 * trap that did not reach it as uint64_t (hvpmu/sun4v.h). */
_Static_assert(HVPMU_HV_ETRAP == (uint64_t)(int64_t)HVPMU_ETRAP, "HVPMU_HV_ETRAP");
_Static_assert(HVPMU_HV_ERANGE == (uint64_t)(int64_t)HVPMU_ERANGE, "HVPMU_HV_ERANGE");
static uint64_t wrapper_status(int rc, const struct hvpmu_hv_regs *r)
{
	return rc ? (uint64_t)(int64_t)rc : r->o[0];
}

uint64_t hvpmu_hv_set_version(struct hvpmu_hv *hv, uint32_t strand, uint64_t group, uint64_t major,
			      uint64_t minor, uint64_t *actual_minor)
{
	struct hvpmu_hv_regs r = { { group, major, minor, 0, 0, HV_CORE_SET_VER } };
	int rc = hvpmu_hv_trap(hv, strand, HV_CORE_TRAP, &r);

	if (actual_minor && rc == HVPMU_OK) /* %o1 whatever the status, as Linux's stub */
		*actual_minor = r.o[1];
	return wrapper_status(rc, &r);
}

uint64_t hvpmu_hv_get_version(struct hvpmu_hv *hv, uint32_t strand, uint64_t group, uint64_t *major,
			      uint64_t *minor)
{
	struct hvpmu_hv_regs r = { { group, 0, 0, 0, 0, HV_CORE_GET_VER } };
	uint64_t st = wrapper_status(hvpmu_hv_trap(hv, strand, HV_CORE_TRAP, &r), &r);

	if (st == HV_EOK) {
		if (major)
			*major = r.o[1];
		if (minor)
			*minor = r.o[2];
	}
	return st;
}

/* One FAST_TRAP call with up to two arguments; *out1 gets %o1 on EOK. */
static uint64_t fast_call(struct hvpmu_hv *hv, uint32_t strand, uint64_t fn, uint64_t a0, uint64_t a1,
			  uint64_t *out1)
{
	struct hvpmu_hv_regs r = { { a0, a1, 0, 0, 0, fn } };
	uint64_t st = wrapper_status(hvpmu_hv_trap(hv, strand, HV_FAST_TRAP, &r), &r);

	if (out1 && st == HV_EOK)
		*out1 = r.o[1];
	return st;
}

uint64_t hvpmu_hv_vt_get_perfreg(struct hvpmu_hv *hv, uint32_t strand, uint64_t reg, uint64_t *val)
{
	return fast_call(hv, strand, HV_FAST_VT_GET_PERFREG, reg, 0, val);
}

uint64_t hvpmu_hv_vt_set_perfreg(struct hvpmu_hv *hv, uint32_t strand, uint64_t reg, uint64_t val)
{
	return fast_call(hv, strand, HV_FAST_VT_SET_PERFREG, reg, val, NULL);
}

const char *hvpmu_hv_status_name(uint64_t status)
{
	static const char *const names[] = {
		"EOK", "ENOCPU", "ENORADDR", "ENOINTR", "EBADPGSZ", "EBADTSB", "EINVAL", "EBADTRAP", "EBADALIGN",
		"EWOULDBLOCK", "ENOACCESS", "EIO", "ECPUERROR", "ENOTSUPPORTED", "ENOMAP", "ETOOMANY", "ECHANNEL",
	};
	if (status == HVPMU_HV_ETRAP)
		return "ETRAP";
	if (status == HVPMU_HV_ERANGE)
		return "ERANGE";
	return status < sizeof names / sizeof names[0] ? names[status] : "E?";
}

uint64_t hvpmu_hv_niagara_get_perfreg(struct hvpmu_hv *hv, uint32_t strand, uint64_t reg, uint64_t *val)
{
	return fast_call(hv, strand, HV_FAST_NIAGARA_GET_PERFREG, reg, 0, val);
}

uint64_t hvpmu_hv_niagara_set_perfreg(struct hvpmu_hv *hv, uint32_t strand, uint64_t reg, uint64_t val)
{
	return fast_call(hv, strand, HV_FAST_NIAGARA_SET_PERFREG, reg, val, NULL);
}

uint64_t hvpmu_hv_mmustat_conf(struct hvpmu_hv *hv, uint32_t strand, uint64_t ra, uint64_t *old_ra)
{
	return fast_call(hv, strand, HV_FAST_NIAGARA_MMUSTAT_CONF, ra, 0, old_ra);
}

uint64_t hvpmu_hv_mmustat_info(struct hvpmu_hv *hv, uint32_t strand, uint64_t *ra)
{
	return fast_call(hv, strand, HV_FAST_NIAGARA_MMUSTAT_INFO, 0, 0, ra);
}

const struct svc_personality svc_sun4v = {
	.name = "sun4v",
	.guest_create = guest_create,
	.guest_destroy = guest_destroy,
	.machine_trap = machine_trap,
	.tsb_hit = tsb_hit,
};
