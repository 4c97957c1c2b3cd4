/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sun4v.c - unit tests for the sun4v hypervisor services
 * (src/services/sun4v.c, include/hvpmu/sun4v.h) on the default T4 machine.
 *
 * Every status path of the trap dispatcher and of the hypercalls, through
 * hvpmu_hv_trap() with raw %o registers and through the Linux-shaped
 * wrappers, made from privileged mode as the guest OS makes them:
 *   - who reaches the hypervisor (SPARC V9 / UA2005 Tcc,
 *     docs/sun4v-hypervisor.md): user-mode traps and numbers below 0x80
 *     are the guest OS's (tt 0x100 + number), on t4 and t1;
 *   - trap ABI, status codes, CORE_TRAP API_SET_VERSION / API_GET_VERSION
 *     (../shared/reference/hw-and-hypervisor.md §2, linux-clients.md
 *     §1.1-1.2): EBADTRAP for unknown traps / functions / groups not
 *     negotiated, EINVAL, ENOTSUPPORTED, minor downgrade, SUN4V minor 0,
 *     major 0 disables;
 *   - HV_FAST_VT_GET_PERFREG 0x184 / HV_FAST_VT_SET_PERFREG 0x185, group
 *     0x20c, reg 0..3 = PCR0-3 (hw-and-hypervisor.md §4, linux-clients.md
 *     §1.3), check order perfctraccess -> register -> perfctrhtaccess (the
 *     Niagara-2 order, §4), with the PCR semantics of
 *     sparc-t4-performance-instrumentation.md TABLE 10-1;
 *   - NIAGARA_MMUSTAT_CONF / INFO on t1 (niagara-mmustat-api.txt §2.1):
 *     an error, or giving group 0x200 up, stops collection.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <hvpmu/hvpmu.h>

struct fx {
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
};

/* A T4 machine whose strands all run guest OS code (privileged mode), the
 * only code that reaches the hypervisor (hvpmu_hv_trap()). */
static void fx_init(struct fx *f, void (*edit)(struct hvpmu_md *))
{
	memset(f, 0, sizeof *f);
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &f->md), HVPMU_OK);
	if (edit)
		edit(&f->md);
	assert_int_equal(hvpmu_machine_create(&f->md, &f->m), HVPMU_OK);
	assert_int_equal(hvpmu_hv_create(f->m, &f->hv), HVPMU_OK);
	for (uint32_t i = 0; i < hvpmu_machine_nstrands(f->m); i++)
		assert_int_equal(hvpmu_machine_set_mode(f->m, i, HVPMU_MODE_PRIV), HVPMU_OK);
}

static void fx_fini(struct fx *f)
{
	hvpmu_hv_destroy(f->hv);
	hvpmu_machine_destroy(f->m);
}

/* Registers with recognisable junk in every slot. */
static struct hvpmu_hv_regs regs(uint64_t o0, uint64_t o1, uint64_t o2, uint64_t o5)
{
	struct hvpmu_hv_regs r = { { o0, o1, o2, UINT64_C(0x3333333333333333),
				     UINT64_C(0x4444444444444444), o5 } };
	return r;
}

static void negotiate_vt(struct fx *f, uint32_t strand)
{
	uint64_t minor = 99;

	assert_int_equal(hvpmu_hv_set_version(f->hv, strand, HV_GRP_VT_CPU, 1, 0, &minor), HV_EOK);
	assert_int_equal(minor, 0);
}

static uint64_t pcr_val(unsigned sl, unsigned mask, int ut, int st, int ht)
{
	uint64_t v = HVPMU_FMASK(T4_PCR, TOE);

	v = HVPMU_FDP(v, T4_PCR, SL, sl);
	v = HVPMU_FDP(v, T4_PCR, MASK, mask);
	v = HVPMU_FDP(v, T4_PCR, UT, ut);
	v = HVPMU_FDP(v, T4_PCR, ST, st);
	return HVPMU_FDP(v, T4_PCR, HT, ht);
}

/* --- constants against the reference ----------------------------------- */

static void test_constants(void **state)
{
	static const char *const names[] = {
		"EOK", "ENOCPU", "ENORADDR", "ENOINTR", "EBADPGSZ", "EBADTSB", "EINVAL", "EBADTRAP",
		"EBADALIGN", "EWOULDBLOCK", "ENOACCESS", "EIO", "ECPUERROR", "ENOTSUPPORTED",
		"ENOMAP", "ETOOMANY", "ECHANNEL",
	};

	(void)state;
	/* hw-and-hypervisor.md §2; Linux hypervisor.h (linux-clients.md §1.1) */
	assert_int_equal(HV_EOK, 0);
	assert_int_equal(HV_ENOCPU, 1);
	assert_int_equal(HV_ENORADDR, 2);
	assert_int_equal(HV_ENOINTR, 3);
	assert_int_equal(HV_EBADPGSZ, 4);
	assert_int_equal(HV_EBADTSB, 5);
	assert_int_equal(HV_EINVAL, 6);
	assert_int_equal(HV_EBADTRAP, 7);
	assert_int_equal(HV_EBADALIGN, 8);
	assert_int_equal(HV_EWOULDBLOCK, 9);
	assert_int_equal(HV_ENOACCESS, 10);
	assert_int_equal(HV_EIO, 11);
	assert_int_equal(HV_ECPUERROR, 12);
	assert_int_equal(HV_ENOTSUPPORTED, 13);
	assert_int_equal(HV_ENOMAP, 14);
	assert_int_equal(HV_ETOOMANY, 15);
	assert_int_equal(HV_ECHANNEL, 16);
	for (uint64_t s = 0; s < sizeof names / sizeof names[0]; s++)
		assert_string_equal(hvpmu_hv_status_name(s), names[s]);
	assert_string_equal(hvpmu_hv_status_name(17), "E?");
	assert_string_equal(hvpmu_hv_status_name(~UINT64_C(0)), "E?");
	/* trap numbers, CORE_TRAP functions, groups, VT functions */
	assert_int_equal(HV_FAST_TRAP, 0x80);
	assert_int_equal(HV_CORE_TRAP, 0xff);
	assert_int_equal(HV_CORE_SET_VER, 0x00);
	assert_int_equal(HV_CORE_GET_VER, 0x03);
	assert_int_equal(HV_GRP_SUN4V, 0x0000);
	assert_int_equal(HV_GRP_CORE, 0x0001);
	assert_int_equal(HV_GRP_VT_CPU, 0x020c);
	assert_int_equal(HV_FAST_VT_GET_PERFREG, 0x184);
	assert_int_equal(HV_FAST_VT_SET_PERFREG, 0x185);
	assert_int_equal(HV_VT_PERFREG_PCR0, 0);
	assert_int_equal(HV_VT_PERFREG_NPCR, 4);
	/* Tcc: 7 bits in user mode, 8 otherwise; tt = 0x100 + number */
	assert_int_equal(HV_TT_TRAP_INSTRUCTION, 0x100);
	assert_int_equal(HV_TT_HTRAP_INSTRUCTION, 0x180);
	assert_int_equal(HV_TT_TRAP_INSTRUCTION + HV_TRAPNUM_HV_FIRST, HV_TT_HTRAP_INSTRUCTION);
	assert_int_equal(hvpmu_hv_tcc_tt(HVPMU_MODE_USER, HV_FAST_TRAP), 0x100);
	assert_int_equal(hvpmu_hv_tcc_tt(HVPMU_MODE_USER, HV_CORE_TRAP), 0x17f);
	assert_int_equal(hvpmu_hv_tcc_tt(HVPMU_MODE_USER, 0x6d), 0x16d);
	assert_int_equal(hvpmu_hv_tcc_tt(HVPMU_MODE_PRIV, HV_FAST_TRAP), 0x180);
	assert_int_equal(hvpmu_hv_tcc_tt(HVPMU_MODE_PRIV, 0x100 + HV_CORE_TRAP), 0x1ff);
	assert_int_equal(hvpmu_hv_tcc_tt(HVPMU_MODE_HYPER, HV_FAST_TRAP), 0x180);
	assert_int_equal(hvpmu_hv_tcc_tt(HVPMU_NMODES, HV_FAST_TRAP), 0x100);
	assert_int_equal(hvpmu_hv_tcc_trapnum(HVPMU_MODE_USER, ~0u), 0x7f);
	assert_int_equal(hvpmu_hv_tcc_trapnum(HVPMU_MODE_PRIV, ~0u), 0xff);
	assert_true(hvpmu_hv_serviced(HV_EOK) && hvpmu_hv_serviced(HV_ECHANNEL));
	assert_false(hvpmu_hv_serviced(HVPMU_HV_ETRAP) || hvpmu_hv_serviced(HVPMU_HV_ERANGE));
	assert_string_equal(hvpmu_hv_status_name(HVPMU_HV_ERANGE), "ERANGE");
	/* guest trap types: interrupt_level_14 / 15 (Linux tl0_irq15) */
	assert_int_equal(HV_TT_INTERRUPT_LEVEL_14, 0x4e);
	assert_int_equal(HV_TT_INTERRUPT_LEVEL_15, 0x4f);
}

static void test_create_args(void **state)
{
	struct hvpmu_hv *hv = NULL;
	struct fx f;

	(void)state;
	assert_int_equal(hvpmu_hv_create(NULL, &hv), HVPMU_EINVAL);
	fx_init(&f, NULL);
	assert_int_equal(hvpmu_hv_create(f.m, NULL), HVPMU_EINVAL);
	assert_ptr_equal(hvpmu_hv_machine(f.hv), f.m);
	assert_int_equal(hvpmu_hv_set_guest_trap_handler(f.hv, 1, NULL, NULL), HVPMU_ERANGE);
	assert_int_equal(hvpmu_hv_set_guest_trap_handler(f.hv, 0, NULL, NULL), HVPMU_OK);
	fx_fini(&f);
	hvpmu_hv_destroy(NULL);
}

/* The hypervisor takes its guests from the machine description: it
 * refuses a guest table it cannot hold (more guests or memory segments
 * than hvpmu/md.h allows) and one that gives a strand to two guests or
 * strands the machine does not have, since a strand's hypercalls are its
 * one guest's (docs/machine-description.md; md_file.c checks files the
 * same way). */
static void too_many_guests(struct hvpmu_md *md)
{
	md->nguests = HVPMU_MD_MAX_GUESTS + 1;
}

static void too_many_segments(struct hvpmu_md *md)
{
	md->guests[0].nmem = HVPMU_MD_MAX_MEM + 1;
}

static void shared_strand(struct hvpmu_md *md)
{
	md->nguests = 2;
	md->guests[0].nstrands = 33;
	md->guests[1] = md->guests[0];
	md->guests[1].first_strand = 32;
	md->guests[1].nstrands = 32;
}

static void strands_past_machine(struct hvpmu_md *md)
{
	md->guests[0].first_strand = 1;
}

static void strands_wrap(struct hvpmu_md *md)
{
	md->guests[0].first_strand = UINT32_MAX;
	md->guests[0].nstrands = 2;
}

static void test_create_checks_guests(void **state)
{
	void (*const bad[])(struct hvpmu_md *) = { too_many_guests, too_many_segments, shared_strand,
						   strands_past_machine, strands_wrap };
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;

	(void)state;
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), HVPMU_OK);
		bad[i](&md);
		m = NULL;
		hv = (struct hvpmu_hv *)&md; /* must be cleared */
		assert_int_equal(hvpmu_machine_create(&md, &m), HVPMU_OK);
		assert_int_equal(hvpmu_hv_create(m, &hv), HVPMU_EINVAL);
		assert_null(hv);
		hvpmu_machine_destroy(m);
	}
}

/* --- dispatch: EBADTRAP paths ------------------------------------------- */

static void test_vt_ebadtrap_until_negotiated(void **state)
{
	struct fx f;
	struct hvpmu_hv_regs r;
	uint64_t v = 0, minor = 99;

	(void)state;
	fx_init(&f, NULL);
	r = regs(0, 0, 0, HV_FAST_VT_GET_PERFREG);
	hvpmu_hv_trap(f.hv, 0, HV_FAST_TRAP, &r);
	assert_int_equal(r.o[0], HV_EBADTRAP);
	r = regs(0, 0, 0, HV_FAST_VT_SET_PERFREG);
	hvpmu_hv_trap(f.hv, 0, HV_FAST_TRAP, &r);
	assert_int_equal(r.o[0], HV_EBADTRAP);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HV_EBADTRAP);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 0, 0), HV_EBADTRAP);
	/* negotiating another group does not open VT_CPU */
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_CORE, 1, 6, &minor), HV_EOK);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HV_EBADTRAP);

	negotiate_vt(&f, 0);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HV_EOK);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 0, 0), HV_EOK);
	/* the negotiation is per guest, not per strand */
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 63, 3, &v), HV_EOK);

	/* major 0 disables the group: its functions revert to EBADTRAP */
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_VT_CPU, 0, 0, &minor), HV_EOK);
	assert_int_equal(minor, 0);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HV_EBADTRAP);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 0, 0), HV_EBADTRAP);
	assert_int_equal(hvpmu_hv_get_version(f.hv, 0, HV_GRP_VT_CPU, NULL, NULL), HV_EINVAL);
	/* and can be negotiated again */
	negotiate_vt(&f, 5);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HV_EOK);
	fx_fini(&f);
}

static void test_unknown_trap_and_function(void **state)
{
	/* hypervisor trap numbers without a service (0x80-0xff; the number
	 * keeps 8 bits: 0x181 is 0x81); numbers below 0x80 are not
	 * hypervisor traps at all (test_priv_trap_numbers) */
	static const unsigned traps[] = { 0x81, 0x83, 0x84, 0x85, 0xfe, 0x181, 0x2fe, ~0u & ~0x1u };
	static const uint64_t fast_fns[] = { 0, 0x100, 0x101, 0x104, 0x105, 0x122, 0x183, 0x186,
					     0x1a8, 0x43, UINT64_C(0x10000000184), ~UINT64_C(0) };
	static const uint64_t core_fns[] = { 0x01, 0x02, 0x04, 0x80, UINT64_C(0x100000000), ~UINT64_C(0) };
	struct fx f;

	(void)state;
	fx_init(&f, NULL);
	negotiate_vt(&f, 0);
	for (unsigned i = 0; i < sizeof traps / sizeof traps[0]; i++) {
		struct hvpmu_hv_regs r = regs(0, 0, 0, HV_FAST_VT_GET_PERFREG);

		assert_int_equal(hvpmu_hv_trap(f.hv, 0, traps[i], &r), HVPMU_OK);
		assert_int_equal(r.o[0], HV_EBADTRAP);
		r = regs(HV_GRP_CORE, 1, 0, HV_CORE_SET_VER);
		assert_int_equal(hvpmu_hv_trap(f.hv, 0, traps[i], &r), HVPMU_OK);
		assert_int_equal(r.o[0], HV_EBADTRAP);
	}
	for (unsigned i = 0; i < sizeof fast_fns / sizeof fast_fns[0]; i++) {
		struct hvpmu_hv_regs r = regs(0, 0, 0, fast_fns[i]);

		hvpmu_hv_trap(f.hv, 0, HV_FAST_TRAP, &r);
		assert_int_equal(r.o[0], HV_EBADTRAP);
		assert_int_equal(r.o[5], fast_fns[i]);
	}
	for (unsigned i = 0; i < sizeof core_fns / sizeof core_fns[0]; i++) {
		struct hvpmu_hv_regs r = regs(HV_GRP_CORE, 1, 0, core_fns[i]);

		hvpmu_hv_trap(f.hv, 0, HV_CORE_TRAP, &r);
		assert_int_equal(r.o[0], HV_EBADTRAP);
	}
	/* CORE_TRAP functions are not fast-trap functions and vice versa */
	{
		struct hvpmu_hv_regs r = regs(0, 0, 0, HV_FAST_VT_GET_PERFREG);

		hvpmu_hv_trap(f.hv, 0, HV_CORE_TRAP, &r);
		assert_int_equal(r.o[0], HV_EBADTRAP);
		r = regs(HV_GRP_CORE, 1, 0, HV_CORE_GET_VER);
		hvpmu_hv_trap(f.hv, 0, HV_FAST_TRAP, &r);
		assert_int_equal(r.o[0], HV_EBADTRAP);
	}
	fx_fini(&f);
}

static void own_four_strands(struct hvpmu_md *md)
{
	md->guests[0].nstrands = 4;
}

static void test_strand_without_guest(void **state)
{
	struct fx f;
	uint64_t v = 0, minor = 0;
	struct hvpmu_hv_regs r;

	(void)state;
	fx_init(&f, own_four_strands);
	negotiate_vt(&f, 3);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 3, 0, &v), HV_EOK);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 4, 0, &v), HV_EBADTRAP);
	assert_int_equal(hvpmu_hv_set_version(f.hv, 4, HV_GRP_CORE, 1, 0, &minor), HV_EBADTRAP);
	assert_int_equal(hvpmu_hv_get_version(f.hv, 63, HV_GRP_VT_CPU, NULL, NULL), HV_EBADTRAP);
	/* strands beyond the machine: no such strand runs any code */
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 64, 0, &v), HVPMU_HV_ERANGE);
	assert_false(hvpmu_hv_serviced(HVPMU_HV_ERANGE));
	r = regs(HV_GRP_CORE, 1, 0, HV_CORE_SET_VER);
	assert_int_equal(hvpmu_hv_trap(f.hv, UINT32_MAX, HV_CORE_TRAP, &r), HVPMU_ERANGE);
	assert_int_equal(r.o[0], HV_GRP_CORE);
	assert_int_equal(r.o[1], 1);
	/* an unowned strand in user mode: the trap is not a hypercall */
	assert_int_equal(hvpmu_machine_set_mode(f.m, 4, HVPMU_MODE_USER), HVPMU_OK);
	r = regs(HV_GRP_CORE, 1, 0, HV_CORE_SET_VER);
	assert_int_equal(hvpmu_hv_trap(f.hv, 4, HV_CORE_TRAP, &r), HVPMU_ETRAP);
	assert_int_equal(r.o[0], HV_GRP_CORE);
	fx_fini(&f);
}

/* --- API_SET_VERSION / API_GET_VERSION ---------------------------------- */

static void test_set_version(void **state)
{
	struct fx f;
	uint64_t minor = 0;
	struct hvpmu_hv_regs r;

	(void)state;
	fx_init(&f, NULL);
	/* unknown groups */
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, 0x0200, 1, 0, &minor), HV_EINVAL);
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, 0x0202, 1, 0, &minor), HV_EINVAL);
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, 0x0002, 1, 0, &minor), HV_EINVAL);
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, UINT64_C(0x10000020c), 1, 0, &minor), HV_EINVAL);
	/* unknown group even with major 0 */
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, 0x0211, 0, 0, &minor), HV_EINVAL);
	/* major not offered */
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_VT_CPU, 2, 0, &minor), HV_ENOTSUPPORTED);
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_CORE, 3, 0, &minor), HV_ENOTSUPPORTED);
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_SUN4V, 2, 0, &minor), HV_ENOTSUPPORTED);
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_VT_CPU, UINT64_C(0x100000001), 0, &minor),
			 HV_ENOTSUPPORTED);
	/* a failed call did not negotiate anything */
	assert_int_equal(hvpmu_hv_get_version(f.hv, 0, HV_GRP_VT_CPU, NULL, NULL), HV_EINVAL);
	/* CORE 1.6: asking 1.9 gives 6, asking 1.2 gives 2 */
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_CORE, 1, 9, &minor), HV_EOK);
	assert_int_equal(minor, 6);
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_CORE, 1, 2, &minor), HV_EOK);
	assert_int_equal(minor, 2);
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_CORE, 1, ~UINT64_C(0), &minor), HV_EOK);
	assert_int_equal(minor, 6);
	/* SUN4V: minor forced to 0 */
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_SUN4V, 1, 5, &minor), HV_EOK);
	assert_int_equal(minor, 0);
	/* VT_CPU 1.0 only */
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_VT_CPU, 1, 3, &minor), HV_EOK);
	assert_int_equal(minor, 0);
	/* raw registers: %o1 = actual minor, %o2..%o5 preserved */
	r = regs(HV_GRP_CORE, 1, 7, HV_CORE_SET_VER);
	hvpmu_hv_trap(f.hv, 0, HV_CORE_TRAP, &r);
	assert_int_equal(r.o[0], HV_EOK);
	assert_int_equal(r.o[1], 6);
	assert_int_equal(r.o[2], 7);
	assert_int_equal(r.o[3], UINT64_C(0x3333333333333333));
	assert_int_equal(r.o[4], UINT64_C(0x4444444444444444));
	assert_int_equal(r.o[5], HV_CORE_SET_VER);
	/* NULL actual_minor is allowed */
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_CORE, 1, 0, NULL), HV_EOK);
	fx_fini(&f);
}

static void test_get_version(void **state)
{
	struct fx f;
	uint64_t major = 77, minor = 77;
	struct hvpmu_hv_regs r;

	(void)state;
	fx_init(&f, NULL);
	/* unknown group */
	assert_int_equal(hvpmu_hv_get_version(f.hv, 0, 0x0202, &major, &minor), HV_EINVAL);
	/* known but not negotiated */
	assert_int_equal(hvpmu_hv_get_version(f.hv, 0, HV_GRP_CORE, &major, &minor), HV_EINVAL);
	assert_int_equal(major, 77); /* outputs untouched on error */
	assert_int_equal(minor, 77);
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_CORE, 1, 9, NULL), HV_EOK);
	assert_int_equal(hvpmu_hv_get_version(f.hv, 0, HV_GRP_CORE, &major, &minor), HV_EOK);
	assert_int_equal(major, 1);
	assert_int_equal(minor, 6);
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_SUN4V, 1, 3, NULL), HV_EOK);
	assert_int_equal(hvpmu_hv_get_version(f.hv, 0, HV_GRP_SUN4V, &major, &minor), HV_EOK);
	assert_int_equal(major, 1);
	assert_int_equal(minor, 0);
	negotiate_vt(&f, 0);
	assert_int_equal(hvpmu_hv_get_version(f.hv, 7, HV_GRP_VT_CPU, &major, &minor), HV_EOK);
	assert_int_equal(major, 1);
	assert_int_equal(minor, 0);
	/* raw: %o1 major, %o2 minor, %o3..%o5 preserved */
	r = regs(HV_GRP_CORE, 0x1111, 0x2222, HV_CORE_GET_VER);
	hvpmu_hv_trap(f.hv, 0, HV_CORE_TRAP, &r);
	assert_int_equal(r.o[0], HV_EOK);
	assert_int_equal(r.o[1], 1);
	assert_int_equal(r.o[2], 6);
	assert_int_equal(r.o[3], UINT64_C(0x3333333333333333));
	assert_int_equal(r.o[4], UINT64_C(0x4444444444444444));
	assert_int_equal(r.o[5], HV_CORE_GET_VER);
	/* error leaves %o1..%o5 alone */
	r = regs(0x0999, 0x1111, 0x2222, HV_CORE_GET_VER);
	hvpmu_hv_trap(f.hv, 0, HV_CORE_TRAP, &r);
	assert_int_equal(r.o[0], HV_EINVAL);
	assert_int_equal(r.o[1], 0x1111);
	assert_int_equal(r.o[2], 0x2222);
	/* disabling removes it */
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_CORE, 0, 0, NULL), HV_EOK);
	assert_int_equal(hvpmu_hv_get_version(f.hv, 0, HV_GRP_CORE, &major, &minor), HV_EINVAL);
	fx_fini(&f);
}

/* Versions are per guest. */
static void two_guests(struct hvpmu_md *md)
{
	md->nguests = 2;
	md->guests[0].nstrands = 32;
	md->guests[1] = md->guests[0];
	strcpy(md->guests[1].name, "ldom1");
	md->guests[1].first_strand = 32;
	md->guests[1].perfctraccess = HVPMU_MD_PROP_ABSENT;
}

static void test_per_guest_state(void **state)
{
	struct fx f;
	uint64_t v;

	(void)state;
	fx_init(&f, two_guests);
	negotiate_vt(&f, 0);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 31, 0, &v), HV_EOK);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 32, 0, &v), HV_EBADTRAP);
	assert_int_equal(hvpmu_hv_get_version(f.hv, 40, HV_GRP_VT_CPU, NULL, NULL), HV_EINVAL);
	negotiate_vt(&f, 40);
	/* guest 1 has no perfctraccess */
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 32, 0, &v), HV_ENOACCESS);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 63, 0, 0), HV_ENOACCESS);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HV_EOK);
	assert_int_equal(hvpmu_hv_set_guest_trap_handler(f.hv, 1, NULL, NULL), HVPMU_OK);
	assert_int_equal(hvpmu_hv_set_guest_trap_handler(f.hv, 2, NULL, NULL), HVPMU_ERANGE);
	fx_fini(&f);
}

/* --- VT_GET_PERFREG / VT_SET_PERFREG ------------------------------------ */

static void access_absent(struct hvpmu_md *md)
{
	md->guests[0].perfctraccess = HVPMU_MD_PROP_ABSENT;
}

static void access_zero(struct hvpmu_md *md)
{
	md->guests[0].perfctraccess = 0;
}

static void access_other(struct hvpmu_md *md)
{
	md->guests[0].perfctraccess = 42; /* any non-zero value grants */
}

static void check_noaccess(void (*edit)(struct hvpmu_md *))
{
	static const uint64_t regs_tried[] = { 0, 3, 4, 99, ~UINT64_C(0) };
	struct fx f;

	fx_init(&f, edit);
	negotiate_vt(&f, 0);
	for (unsigned i = 0; i < sizeof regs_tried / sizeof regs_tried[0]; i++) {
		uint64_t v = 0x5555;

		/* perfctraccess is checked before the register number */
		assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, regs_tried[i], &v), HV_ENOACCESS);
		assert_int_equal(v, 0x5555);
		assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, regs_tried[i], pcr_val(3, 0x3f, 1, 1, 1)),
				 HV_ENOACCESS);
	}
	fx_fini(&f);
}

static void test_vt_noaccess(void **state)
{
	struct fx f;
	uint64_t v = 1;

	(void)state;
	check_noaccess(access_absent);
	check_noaccess(access_zero);
	fx_init(&f, access_other);
	negotiate_vt(&f, 0);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HV_EOK);
	assert_int_equal(v, 0);
	fx_fini(&f);
}

static void test_vt_bad_register(void **state)
{
	/* ids 4..9 are the MCU registers of the default chip (test_t4_mcu.c) */
	static const uint64_t bad[] = { HV_VT_PERFREG_MCU0 + HV_VT_PERFREG_PER_MCU * HVPMU_T4_MCUS_PER_CHIP,
					0x19, 99, UINT64_C(0x100000000), ~UINT64_C(0), (uint64_t)-4 };
	struct fx f;

	(void)state;
	fx_init(&f, NULL);
	negotiate_vt(&f, 0);
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		uint64_t v = 0x5555;

		assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, bad[i], &v), HV_EINVAL);
		assert_int_equal(v, 0x5555);
		assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, bad[i], 0), HV_EINVAL);
		/* the register number is checked before perfctrhtaccess */
		assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, bad[i], pcr_val(3, 0x3f, 0, 0, 1)), HV_EINVAL);
	}
	fx_fini(&f);
}

static void htaccess_zero(struct hvpmu_md *md)
{
	md->guests[0].perfctrhtaccess = 0;
}

static void htaccess_one(struct hvpmu_md *md)
{
	md->guests[0].perfctrhtaccess = 1;
}

static void test_vt_ht_gate(void **state)
{
	void (*denied[])(struct hvpmu_md *) = { NULL /* default: absent */, htaccess_zero };
	const uint64_t with_ht = pcr_val(3, 0x3f, 1, 1, 1);
	struct fx f;
	uint64_t v = 0;

	(void)state;
	for (unsigned d = 0; d < 2; d++) {
		fx_init(&f, denied[d]);
		negotiate_vt(&f, 0);
		assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 1, with_ht), HV_ENOACCESS);
		assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 1, &v), HV_EOK);
		assert_int_equal(v, 0); /* not written */
		assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 1, HVPMU_FMASK(T4_PCR, HT)), HV_ENOACCESS);
		/* the same value without ht is fine */
		assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 1, with_ht & ~HVPMU_FMASK(T4_PCR, HT)), HV_EOK);
		assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 1, &v), HV_EOK);
		assert_int_equal(v, with_ht & ~HVPMU_FMASK(T4_PCR, HT));
		/* the ht check looks at bit 4 of the T4 PCR only (not N2's bit 3) */
		assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 2, HVPMU_FMASK(T4_PCR, ST)), HV_EOK);
		fx_fini(&f);
	}
	fx_init(&f, htaccess_one);
	negotiate_vt(&f, 0);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 1, with_ht), HV_EOK);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 1, &v), HV_EOK);
	assert_int_equal(v, with_ht);
	fx_fini(&f);
}

/* get returns what set wrote, under the TABLE 10-1 rules. */
static void test_vt_roundtrip(void **state)
{
	struct fx f;
	uint64_t v;
	const uint64_t writable = HVPMU_T4_PCR_IMPL_MASK & ~HVPMU_T4_PCR_STICKY_MASK;

	(void)state;
	fx_init(&f, htaccess_one);
	negotiate_vt(&f, 0);
	for (uint64_t reg = 0; reg < HV_VT_PERFREG_NPCR; reg++) {
		const uint64_t vals[] = { pcr_val(3, 0x04, 1, 0, 0), pcr_val(26, 0, 1, 1, 0),
					  HVPMU_FMASK(T4_PCR, PICNPT), ~UINT64_C(0), 0,
					  UINT64_C(0xfff8000000000000) | pcr_val(4, 2, 1, 0, 0) };

		for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) {
			v = 0x5555;
			assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, reg, vals[i]), HV_EOK);
			assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, reg, &v), HV_EOK);
			assert_int_equal(v, vals[i] & writable);
		}
		/* leave each PCR with a distinct value */
		assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, reg, pcr_val(3, 1u << reg, 1, 0, 0)), HV_EOK);
	}
	for (uint64_t reg = 0; reg < HV_VT_PERFREG_NPCR; reg++) {
		assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, reg, &v), HV_EOK);
		assert_int_equal(v, pcr_val(3, 1u << reg, 1, 0, 0));
	}
	/* PCRs of the calling strand only */
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 1, 0, &v), HV_EOK);
	assert_int_equal(v, 0);
	/* and it is the strand's real PCR: the machine's PMU sees it */
	assert_int_equal(hvpmu_t4_pcr_read(hvpmu_machine_pmu(f.m, 0), 2, &v), HVPMU_OK);
	assert_int_equal(v, pcr_val(3, 4, 1, 0, 0));
	fx_fini(&f);
}

/* ov/ntc cannot be set through the hypercall; set_perfreg can clear them. */
static void test_vt_sticky_bits(void **state)
{
	struct fx f;
	uint64_t v;
	struct hvpmu_t4_pmu *pmu;
	const uint64_t cfg = pcr_val(3, 0x3f, 1, 0, 0);

	(void)state;
	fx_init(&f, NULL);
	negotiate_vt(&f, 0);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 0, HVPMU_T4_PCR_STICKY_MASK), HV_EOK);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HV_EOK);
	assert_int_equal(v, 0);
	/* make PIC0 wrap: user instructions through the machine */
	pmu = hvpmu_machine_pmu(f.m, 0);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 0, cfg), HV_EOK);
	assert_int_equal(hvpmu_t4_pic_write(pmu, 0, HVPMU_MODE_HYPER, 0xffffffff), HVPMU_OK);
	{
		int cls = hvpmu_machine_class(f.m, HVPMU_IC_OTHER);
		struct hvpmu_activity *act = hvpmu_machine_activity(f.m, 0);

		assert_true(cls >= 0);
		assert_int_equal(hvpmu_machine_set_mode(f.m, 0, HVPMU_MODE_USER), HVPMU_OK);
		act->icount[cls] += 1;
		act->bound += 1;
		assert_int_equal(hvpmu_machine_sync(f.m, 0, NULL, NULL), HVPMU_OK);
		assert_int_equal(hvpmu_machine_set_mode(f.m, 0, HVPMU_MODE_PRIV), HVPMU_OK);
	}
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HV_EOK);
	assert_int_equal(v, cfg | HVPMU_FMASK(T4_PCR, OV));
	/* writing the software copy (ov=0) clears it, as Linux's handler does */
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 0, cfg), HV_EOK);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HV_EOK);
	assert_int_equal(v, cfg);
	fx_fini(&f);
}

/* Other %o registers preserved; %o1 carries the result of get. */
static void test_vt_register_convention(void **state)
{
	struct fx f;
	struct hvpmu_hv_regs r;
	const uint64_t cfg = pcr_val(26, 0, 1, 1, 0);

	(void)state;
	fx_init(&f, NULL);
	negotiate_vt(&f, 0);
	r = regs(2, cfg, 0x2222, HV_FAST_VT_SET_PERFREG);
	hvpmu_hv_trap(f.hv, 0, HV_FAST_TRAP, &r);
	assert_int_equal(r.o[0], HV_EOK);
	assert_int_equal(r.o[1], cfg);
	assert_int_equal(r.o[2], 0x2222);
	assert_int_equal(r.o[3], UINT64_C(0x3333333333333333));
	assert_int_equal(r.o[4], UINT64_C(0x4444444444444444));
	assert_int_equal(r.o[5], HV_FAST_VT_SET_PERFREG);

	r = regs(2, 0x1111, 0x2222, HV_FAST_VT_GET_PERFREG);
	hvpmu_hv_trap(f.hv, 0, HV_FAST_TRAP, &r);
	assert_int_equal(r.o[0], HV_EOK);
	assert_int_equal(r.o[1], cfg);
	assert_int_equal(r.o[2], 0x2222);
	assert_int_equal(r.o[3], UINT64_C(0x3333333333333333));
	assert_int_equal(r.o[4], UINT64_C(0x4444444444444444));
	assert_int_equal(r.o[5], HV_FAST_VT_GET_PERFREG);

	/* errors leave %o1.. alone */
	r = regs(99, 0x1111, 0x2222, HV_FAST_VT_GET_PERFREG);
	hvpmu_hv_trap(f.hv, 0, HV_FAST_TRAP, &r);
	assert_int_equal(r.o[0], HV_EINVAL);
	assert_int_equal(r.o[1], 0x1111);
	assert_int_equal(r.o[2], 0x2222);
	assert_int_equal(r.o[5], HV_FAST_VT_GET_PERFREG);
	r = regs(0, 0x1111, 0x2222, 0x186);
	hvpmu_hv_trap(f.hv, 0, HV_FAST_TRAP, &r);
	assert_int_equal(r.o[0], HV_EBADTRAP);
	assert_int_equal(r.o[1], 0x1111);
	assert_int_equal(r.o[2], 0x2222);
	assert_int_equal(r.o[3], UINT64_C(0x3333333333333333));
	fx_fini(&f);
}

/* A hypercall runs hyperprivileged, costs hcall_cycles, restores the mode;
 * it is made from privileged (or hyperprivileged) code.  From user mode
 * the same trap costs the hypervisor nothing: it is not a hypercall. */
static void test_trap_mode_and_cost(void **state)
{
	struct fx f;
	uint64_t t0, v;
	enum hvpmu_mode modes[] = { HVPMU_MODE_PRIV, HVPMU_MODE_HYPER };

	(void)state;
	fx_init(&f, NULL);
	negotiate_vt(&f, 0);
	assert_int_equal(hvpmu_machine_set_mode(f.m, 0, HVPMU_MODE_USER), HVPMU_OK);
	t0 = hvpmu_machine_tick(f.m, 0);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HVPMU_HV_ETRAP);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 99, &v), HVPMU_HV_ETRAP);
	assert_int_equal(hvpmu_machine_tick(f.m, 0), t0);
	assert_int_equal(hvpmu_machine_mode(f.m, 0), HVPMU_MODE_USER);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(hvpmu_machine_set_mode(f.m, 0, modes[i]), HVPMU_OK);
		t0 = hvpmu_machine_tick(f.m, 0);
		assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HV_EOK);
		assert_int_equal(hvpmu_machine_tick(f.m, 0) - t0, f.md.timing.hcall_cycles);
		assert_int_equal(hvpmu_machine_mode(f.m, 0), modes[i]);
		/* failing calls cost the same and restore the mode too */
		t0 = hvpmu_machine_tick(f.m, 0);
		assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 99, &v), HV_EINVAL);
		assert_int_equal(hvpmu_machine_tick(f.m, 0) - t0, f.md.timing.hcall_cycles);
		assert_int_equal(hvpmu_machine_mode(f.m, 0), modes[i]);
	}
	/* the hyperprivileged cycles are visible to an sl=26 ht=1 counter */
	{
		struct fx g;
		uint64_t pic0, pic1;
		struct hvpmu_t4_pmu *pmu;

		fx_init(&g, htaccess_one);
		negotiate_vt(&g, 0);
		pmu = hvpmu_machine_pmu(g.m, 0);
		assert_int_equal(hvpmu_hv_vt_set_perfreg(g.hv, 0, 0, pcr_val(26, 0, 0, 0, 1)), HV_EOK);
		pic0 = hvpmu_t4_pmu_peek_pic(pmu, 0);
		assert_int_equal(hvpmu_hv_vt_get_perfreg(g.hv, 0, 0, &v), HV_EOK);
		pic1 = hvpmu_t4_pmu_peek_pic(pmu, 0);
		assert_int_equal(pic1 - pic0, g.md.timing.hcall_cycles);
		fx_fini(&g);
	}
	fx_fini(&f);
}

/* --- NIAGARA_MMUSTAT_CONF 0x102 / INFO 0x103 through the trap ABI (t1) -- */

#define MMU_BUF UINT64_C(0x100000)       /* a 64-byte aligned buffer in the guest's memory */
#define MMU_DMMU_CTXNON0_8K 0x180        /* niagara-mmustat-api.txt §2.3 */
#define USER_PAGES UINT64_C(0x80000000)  /* the program's data, 8 KB pages */
#define PASSED_O1 UINT64_C(0x1111)       /* %o1 as the guest passes it */

struct t1fx {
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	struct hvpmu_guest_mem *gm;
	uint64_t page; /* next user page not touched yet */
};

static void t1_init(struct t1fx *f)
{
	memset(f, 0, sizeof *f);
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T1, &f->md), HVPMU_OK);
	assert_int_equal(hvpmu_machine_create(&f->md, &f->m), HVPMU_OK);
	assert_int_equal(hvpmu_hv_create(f->m, &f->hv), HVPMU_OK);
	f->gm = hvpmu_hv_guest_mem(f->hv, 0);
	assert_non_null(f->gm);
	hvpmu_machine_enable_memory(f->m, 1); /* tablewalks and TSB hits */
	f->page = USER_PAGES;
}

static void t1_fini(struct t1fx *f)
{
	hvpmu_hv_destroy(f->hv);
	hvpmu_machine_destroy(f->m);
}

/* One trap as the guest OS issues it (privileged mode): %o0 = a0, %o1 =
 * PASSED_O1, function fn in %o5.  Returns %o0; *o1 gets %o1. */
static uint64_t os_trap(struct t1fx *f, uint32_t strand, unsigned trapnum, uint64_t fn, uint64_t a0, uint64_t a1,
			uint64_t *o1)
{
	struct hvpmu_hv_regs r = regs(a0, a1, 0, fn);

	assert_int_equal(hvpmu_machine_set_mode(f->m, strand, HVPMU_MODE_PRIV), HVPMU_OK);
	assert_int_equal(hvpmu_hv_trap(f->hv, strand, trapnum, &r), HVPMU_OK);
	assert_int_equal(hvpmu_machine_set_mode(f->m, strand, HVPMU_MODE_USER), HVPMU_OK);
	assert_int_equal(r.o[5], fn);
	if (o1)
		*o1 = r.o[1];
	return r.o[0];
}

static uint64_t conf_trap(struct t1fx *f, uint32_t strand, uint64_t ra, uint64_t *o1)
{
	return os_trap(f, strand, HV_FAST_TRAP, HV_FAST_NIAGARA_MMUSTAT_CONF, ra, PASSED_O1, o1);
}

static uint64_t info_trap(struct t1fx *f, uint32_t strand, uint64_t *o1)
{
	return os_trap(f, strand, HV_FAST_TRAP, HV_FAST_NIAGARA_MMUSTAT_INFO, 0, PASSED_O1, o1);
}

static uint64_t niag_version(struct t1fx *f, uint64_t major)
{
	return os_trap(f, 0, HV_CORE_TRAP, HV_CORE_SET_VER, HV_GRP_NIAGARA, major, NULL);
}

/* The user program on `strand` touches a new 8 KB page with an `ldx`: one
 * DTLB miss whose walk hits the TSB (ctx != 0, 8 KB), as the TLB model
 * counts it. */
#define LDX_G1_G2 0xC4584000u /* ldx [%g1], %g2 */
static void touch_page(struct t1fx *f, uint32_t strand)
{
	uint64_t before = hvpmu_machine_tsb_hits(f->m, strand, 1, 1, 0);
	struct hvpmu_sparc_insn d;

	hvpmu_machine_dref(f->m, strand, 0x1000, f->page, 8, hvpmu_sparc_decode(LDX_G1_G2, 0x1000, &d), 0);
	f->page += 8192;
	assert_int_equal(hvpmu_machine_tsb_hits(f->m, strand, 1, 1, 0), before + 1);
}

/* The DMMU ctxnon0 8 KB hits word of the buffer at ra. */
static uint64_t buf_hits(struct t1fx *f, uint64_t ra)
{
	uint64_t v = 0;

	assert_int_equal(hvpmu_guest_mem_read64(f->gm, ra + MMU_DMMU_CTXNON0_8K, &v), 0);
	return v;
}

/* niagara-mmustat-api.txt §2.1 "If an error is returned no statistics are
 * collected (equivalent to passing an raddr of zero)": after EBADALIGN or
 * ENORADDR the previous buffer is no longer written and INFO says 0; %o1
 * is what the guest passed. */
static void test_mmustat_error_stops_collection(void **state)
{
	struct t1fx f;
	uint64_t o1;

	(void)state;
	t1_init(&f);
	const struct {
		uint64_t ra, status;
	} bad[] = {
		{ MMU_BUF + 8, HV_EBADALIGN },
		{ MMU_BUF + 0x20, HV_EBADALIGN },
		{ f.md.guests[0].mem[0].size - 0x100, HV_ENORADDR }, /* runs past the segment */
		{ UINT64_C(0x7000000000), HV_ENORADDR },              /* in no segment */
	};
	assert_int_equal(niag_version(&f, 1), HV_EOK);
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		uint64_t n;

		assert_int_equal(conf_trap(&f, 0, MMU_BUF, &o1), HV_EOK);
		assert_int_equal(o1, 0); /* collection was off */
		touch_page(&f, 0);
		n = buf_hits(&f, MMU_BUF);
		assert_true(n >= 1);
		assert_int_equal(conf_trap(&f, 0, bad[i].ra, &o1), bad[i].status);
		assert_int_equal(o1, PASSED_O1);
		assert_int_equal(info_trap(&f, 0, &o1), HV_EOK);
		assert_int_equal(o1, 0);
		touch_page(&f, 0);
		assert_int_equal(buf_hits(&f, MMU_BUF), n); /* no longer accessed */
	}
	t1_fini(&f);
}

static void two_t1_buffers(struct t1fx *f)
{
	uint64_t o1;

	assert_int_equal(conf_trap(f, 0, MMU_BUF, &o1), HV_EOK);
	assert_int_equal(conf_trap(f, 1, MMU_BUF + HVPMU_MMUSTAT_AREA_SIZE, &o1), HV_EOK);
	touch_page(f, 0);
	touch_page(f, 1);
	assert_int_equal(buf_hits(f, MMU_BUF), 1);
	assert_int_equal(buf_hits(f, MMU_BUF + HVPMU_MMUSTAT_AREA_SIZE), 1);
}

/*
 * EBADTRAP is the dispatcher's answer when group 0x200 is not negotiated:
 * the function is never reached.  hvpmu keeps "a buffer is live only while
 * the group is negotiated" (docs/mmustat.md): un-negotiating the group
 * (API_SET_VERSION major 0) stops collection on every vCPU of the guest,
 * since the guest can no longer reach CONF to stop it; negotiating it
 * again starts with collection off.  A failed API_SET_VERSION changes
 * nothing.
 */
static void test_mmustat_ebadtrap(void **state)
{
	struct t1fx f;
	uint64_t o1;

	(void)state;
	t1_init(&f);
	/* before negotiation: EBADTRAP, %o1 untouched, nothing configured */
	assert_int_equal(conf_trap(&f, 0, MMU_BUF, &o1), HV_EBADTRAP);
	assert_int_equal(o1, PASSED_O1);
	assert_int_equal(info_trap(&f, 0, &o1), HV_EBADTRAP);
	assert_int_equal(o1, PASSED_O1);
	assert_int_equal(niag_version(&f, 1), HV_EOK);
	assert_int_equal(info_trap(&f, 0, &o1), HV_EOK);
	assert_int_equal(o1, 0);
	touch_page(&f, 0);
	assert_int_equal(buf_hits(&f, MMU_BUF), 0);

	/* a failed negotiation leaves the group, and collection, as they were */
	two_t1_buffers(&f);
	assert_int_equal(niag_version(&f, 2), HV_ENOTSUPPORTED);
	touch_page(&f, 0);
	assert_int_equal(buf_hits(&f, MMU_BUF), 2);
	assert_int_equal(info_trap(&f, 1, &o1), HV_EOK);
	assert_int_equal(o1, MMU_BUF + HVPMU_MMUSTAT_AREA_SIZE);

	/* major 0: the group's functions answer EBADTRAP and no buffer of
	 * the guest is written any more */
	assert_int_equal(niag_version(&f, 0), HV_EOK);
	assert_int_equal(conf_trap(&f, 0, 0, &o1), HV_EBADTRAP);
	assert_int_equal(info_trap(&f, 1, &o1), HV_EBADTRAP);
	assert_int_equal(o1, PASSED_O1);
	touch_page(&f, 0);
	touch_page(&f, 1);
	assert_int_equal(buf_hits(&f, MMU_BUF), 2);
	assert_int_equal(buf_hits(&f, MMU_BUF + HVPMU_MMUSTAT_AREA_SIZE), 1);
	/* negotiated again: collection is off until the guest configures */
	assert_int_equal(niag_version(&f, 1), HV_EOK);
	assert_int_equal(info_trap(&f, 0, &o1), HV_EOK);
	assert_int_equal(o1, 0);
	assert_int_equal(info_trap(&f, 1, &o1), HV_EOK);
	assert_int_equal(o1, 0);
	touch_page(&f, 1);
	assert_int_equal(buf_hits(&f, MMU_BUF + HVPMU_MMUSTAT_AREA_SIZE), 1);
	assert_int_equal(conf_trap(&f, 1, MMU_BUF, &o1), HV_EOK);
	assert_int_equal(o1, 0);
	t1_fini(&f);
}

/* --- who reaches the hypervisor: mode and trap number (Tcc) ------------- */

/* The guest OS's trap table: records what the hardware delivers to it. */
struct os_traps {
	struct hvpmu_machine *m;
	unsigned n;
	struct hvpmu_guest_trap last;
	enum hvpmu_mode mode; /* the strand's mode while the OS handles it */
};

static void os_trap_table(void *ctx, const struct hvpmu_guest_trap *t)
{
	struct os_traps *o = ctx;

	o->n++;
	o->last = *t;
	o->mode = hvpmu_machine_mode(o->m, t->strand);
}

static void assert_regs_equal(const struct hvpmu_hv_regs *a, const struct hvpmu_hv_regs *b)
{
	for (int i = 0; i < 6; i++)
		assert_int_equal(a->o[i], b->o[i]);
}

/* A software trap the hypervisor must not service: the registers, %tick
 * and the mode are untouched, and the guest OS gets trap type `tt`. */
static void check_not_hv(struct hvpmu_hv *hv, struct hvpmu_machine *m, struct os_traps *o, uint32_t strand,
			 unsigned trapnum, uint64_t fn, unsigned tt)
{
	struct hvpmu_hv_regs r = regs(HV_GRP_VT_CPU, 0x1111, 0x2222, fn), in = r;
	enum hvpmu_mode mode = hvpmu_machine_mode(m, strand);
	uint64_t t0 = hvpmu_machine_tick(m, strand);
	unsigned n = o->n;

	assert_int_equal(hvpmu_hv_trap(hv, strand, trapnum, &r), HVPMU_ETRAP);
	assert_regs_equal(&r, &in);
	assert_int_equal(tt, hvpmu_hv_tcc_tt(mode, trapnum));
	assert_int_equal(hvpmu_machine_tick(m, strand), t0); /* no hypervisor cycles */
	assert_int_equal(hvpmu_machine_mode(m, strand), mode);
	assert_int_equal(o->n, n + 1);
	assert_int_equal(o->last.tt, tt);
	assert_int_equal(o->last.strand, strand);
	assert_int_equal(o->last.pic_mask, 0);
	assert_int_equal(o->last.precise, 0);
	assert_int_equal(o->mode, HVPMU_MODE_PRIV); /* the OS handles it */
}

/*
 * SPARC V9 / UA2005 Tcc: the software trap number is the low 7 bits of the
 * operand in user mode, the low 8 bits in privileged and hyperprivileged
 * mode, and the trap type is 0x100 + number; 0x100-0x17f go to the guest
 * OS, 0x180-0x1ff (numbers 0x80-0xff, privileged code only) to the
 * hypervisor (docs/sun4v-hypervisor.md "Who reaches the hypervisor").
 * So `ta 0x80` from a user program is the guest OS's trap 0x100: it can
 * neither read nor set the performance registers.
 */
/* PCR `idx` of strand 0 as the guest OS reads it (VT_GET_PERFREG from
 * privileged mode); the strand returns to its mode. */
static uint64_t os_pcr(struct fx *f, uint64_t idx)
{
	enum hvpmu_mode mode = hvpmu_machine_mode(f->m, 0);
	uint64_t v = 0;

	assert_int_equal(hvpmu_machine_set_mode(f->m, 0, HVPMU_MODE_PRIV), HVPMU_OK);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f->hv, 0, idx, &v), HV_EOK);
	assert_int_equal(hvpmu_machine_set_mode(f->m, 0, mode), HVPMU_OK);
	return v;
}

static void test_user_tcc_goes_to_os_t4(void **state)
{
	struct fx f;
	struct os_traps o = { 0 };
	const uint64_t cfg = pcr_val(3, 0x3f, 1, 0, 0);
	uint64_t v, minor = 0;

	(void)state;
	fx_init(&f, NULL);
	o.m = f.m;
	assert_int_equal(hvpmu_hv_set_guest_trap_handler(f.hv, 0, os_trap_table, &o), HVPMU_OK);
	assert_int_equal(hvpmu_machine_set_mode(f.m, 0, HVPMU_MODE_PRIV), HVPMU_OK);
	negotiate_vt(&f, 0);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 0, cfg), HV_EOK);

	assert_int_equal(hvpmu_machine_set_mode(f.m, 0, HVPMU_MODE_USER), HVPMU_OK);
	check_not_hv(f.hv, f.m, &o, 0, HV_FAST_TRAP, HV_FAST_VT_GET_PERFREG, 0x100);
	check_not_hv(f.hv, f.m, &o, 0, HV_FAST_TRAP, HV_FAST_VT_SET_PERFREG, 0x100);
	check_not_hv(f.hv, f.m, &o, 0, HV_CORE_TRAP, HV_CORE_SET_VER, 0x17f);
	check_not_hv(f.hv, f.m, &o, 0, HV_CORE_TRAP, HV_CORE_GET_VER, 0x17f);
	check_not_hv(f.hv, f.m, &o, 0, 0x180, HV_FAST_VT_GET_PERFREG, 0x100); /* 7 bits */
	check_not_hv(f.hv, f.m, &o, 0, 0x6d, HV_FAST_VT_GET_PERFREG, 0x16d);
	/* nothing changed: the PCR, the negotiated group */
	assert_int_equal(os_pcr(&f, 0), cfg);
	assert_int_equal(hvpmu_machine_set_mode(f.m, 0, HVPMU_MODE_PRIV), HVPMU_OK);
	assert_int_equal(hvpmu_hv_get_version(f.hv, 0, HV_GRP_VT_CPU, NULL, &minor), HV_EOK);

	/* the wrappers from user mode: no hypervisor status, outputs untouched */
	assert_int_equal(hvpmu_machine_set_mode(f.m, 0, HVPMU_MODE_USER), HVPMU_OK);
	v = 0x5555;
	minor = 0x5555;
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, 0, &v), HVPMU_HV_ETRAP);
	assert_false(hvpmu_hv_serviced(HVPMU_HV_ETRAP));
	assert_string_equal(hvpmu_hv_status_name(HVPMU_HV_ETRAP), "ETRAP");
	assert_int_equal(v, 0x5555);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 0, 0), HVPMU_HV_ETRAP);
	assert_int_equal(hvpmu_hv_set_version(f.hv, 0, HV_GRP_VT_CPU, 0, 0, &minor), HVPMU_HV_ETRAP);
	assert_int_equal(minor, 0x5555);
	assert_int_equal(hvpmu_hv_get_version(f.hv, 0, HV_GRP_VT_CPU, &v, &minor), HVPMU_HV_ETRAP);
	assert_int_equal(v, 0x5555);
	assert_int_equal(os_pcr(&f, 0), cfg);
	/* without a guest trap handler the trap is still not serviced */
	assert_int_equal(hvpmu_hv_set_guest_trap_handler(f.hv, 0, NULL, NULL), HVPMU_OK);
	{
		struct hvpmu_hv_regs r = regs(0, 0x1111, 0x2222, HV_FAST_VT_GET_PERFREG), in = r;

		assert_int_equal(hvpmu_hv_trap(f.hv, 0, HV_FAST_TRAP, &r), HVPMU_ETRAP);
		assert_regs_equal(&r, &in);
	}
	fx_fini(&f);
}

static void test_user_tcc_goes_to_os_t1(void **state)
{
	struct t1fx f;
	struct os_traps o = { 0 };
	uint64_t v = 0, o1;

	(void)state;
	t1_init(&f);
	o.m = f.m;
	assert_int_equal(hvpmu_hv_set_guest_trap_handler(f.hv, 0, os_trap_table, &o), HVPMU_OK);
	assert_int_equal(niag_version(&f, 1), HV_EOK);
	assert_int_equal(os_trap(&f, 0, HV_FAST_TRAP, HV_FAST_NIAGARA_SET_PERFREG, 2, 0x37, NULL), HV_EOK);
	assert_int_equal(conf_trap(&f, 0, MMU_BUF, &o1), HV_EOK);

	/* t1_init leaves the strands in user mode */
	check_not_hv(f.hv, f.m, &o, 0, HV_FAST_TRAP, HV_FAST_NIAGARA_GET_PERFREG, 0x100);
	check_not_hv(f.hv, f.m, &o, 0, HV_FAST_TRAP, HV_FAST_NIAGARA_SET_PERFREG, 0x100);
	check_not_hv(f.hv, f.m, &o, 0, HV_FAST_TRAP, HV_FAST_NIAGARA_MMUSTAT_CONF, 0x100);
	check_not_hv(f.hv, f.m, &o, 0, HV_FAST_TRAP, HV_FAST_NIAGARA_MMUSTAT_INFO, 0x100);
	check_not_hv(f.hv, f.m, &o, 1, HV_CORE_TRAP, HV_CORE_SET_VER, 0x17f);
	assert_int_equal(os_trap(&f, 0, HV_FAST_TRAP, HV_FAST_NIAGARA_GET_PERFREG, 2, 0, &v), HV_EOK);
	assert_int_equal(v, 0x37);
	assert_int_equal(info_trap(&f, 0, &o1), HV_EOK); /* still configured */
	assert_int_equal(o1, MMU_BUF);
	/* the wrappers */
	v = 0x5555;
	assert_int_equal(hvpmu_hv_niagara_get_perfreg(f.hv, 0, 2, &v), HVPMU_HV_ETRAP);
	assert_int_equal(v, 0x5555);
	assert_int_equal(hvpmu_hv_niagara_set_perfreg(f.hv, 0, 2, 0), HVPMU_HV_ETRAP);
	assert_int_equal(hvpmu_hv_mmustat_conf(f.hv, 0, 0, &v), HVPMU_HV_ETRAP);
	assert_int_equal(hvpmu_hv_mmustat_info(f.hv, 0, &v), HVPMU_HV_ETRAP);
	assert_int_equal(v, 0x5555);
	assert_int_equal(os_trap(&f, 0, HV_FAST_TRAP, HV_FAST_NIAGARA_GET_PERFREG, 2, 0, &v), HV_EOK);
	assert_int_equal(v, 0x37);
	assert_int_equal(info_trap(&f, 0, &o1), HV_EOK);
	assert_int_equal(o1, MMU_BUF);
	t1_fini(&f);
}

/* In privileged mode a trap number below 0x80 is the OS's own software
 * trap (tt 0x100 + number), 0x80-0xff the hypervisor's; the number keeps 8
 * bits.  From hyperprivileged mode a number below 0x80 is no hypercall
 * either, and nothing reaches the guest OS. */
static void test_priv_trap_numbers(void **state)
{
	static const unsigned os_nums[] = { 0x00, 0x10, 0x6d, 0x7f };
	static const unsigned bad_hv[] = { 0x81, 0x83, 0x84, 0x85, 0xfe };
	struct fx f;
	struct os_traps o = { 0 };
	struct hvpmu_hv_regs r, in;
	uint64_t t0;

	(void)state;
	fx_init(&f, NULL);
	o.m = f.m;
	assert_int_equal(hvpmu_hv_set_guest_trap_handler(f.hv, 0, os_trap_table, &o), HVPMU_OK);
	assert_int_equal(hvpmu_machine_set_mode(f.m, 0, HVPMU_MODE_PRIV), HVPMU_OK);
	negotiate_vt(&f, 0);
	for (unsigned i = 0; i < sizeof os_nums / sizeof os_nums[0]; i++) {
		check_not_hv(f.hv, f.m, &o, 0, os_nums[i], HV_FAST_VT_GET_PERFREG, 0x100 + os_nums[i]);
		check_not_hv(f.hv, f.m, &o, 0, 0x100 + os_nums[i], HV_CORE_GET_VER, 0x100 + os_nums[i]);
	}
	/* hypervisor trap numbers the hypervisor does not offer: EBADTRAP */
	for (unsigned i = 0; i < sizeof bad_hv / sizeof bad_hv[0]; i++) {
		r = regs(0, 0x1111, 0x2222, HV_FAST_VT_GET_PERFREG);
		t0 = hvpmu_machine_tick(f.m, 0);
		assert_int_equal(hvpmu_hv_trap(f.hv, 0, bad_hv[i], &r), HVPMU_OK);
		assert_int_equal(r.o[0], HV_EBADTRAP);
		assert_int_equal(r.o[1], 0x1111);
		assert_int_equal(hvpmu_machine_tick(f.m, 0) - t0, f.md.timing.hcall_cycles);
	}
	/* 8 bits: 0x180 is FAST_TRAP, 0x1ff CORE_TRAP */
	r = regs(1, 0x1111, 0x2222, HV_FAST_VT_GET_PERFREG);
	assert_int_equal(hvpmu_hv_trap(f.hv, 0, 0x100 | HV_FAST_TRAP, &r), HVPMU_OK);
	assert_int_equal(r.o[0], HV_EOK);
	assert_int_equal(r.o[1], 0);
	r = regs(HV_GRP_VT_CPU, 0x1111, 0x2222, HV_CORE_GET_VER);
	assert_int_equal(hvpmu_hv_trap(f.hv, 0, 0x100 | HV_CORE_TRAP, &r), HVPMU_OK);
	assert_int_equal(r.o[0], HV_EOK);
	assert_int_equal(r.o[1], 1);
	assert_int_equal(o.n, 2 * (sizeof os_nums / sizeof os_nums[0]));
	/* hyperprivileged code: numbers 0x80-0xff are serviced, lower ones
	 * are not, and the guest OS gets nothing */
	assert_int_equal(hvpmu_machine_set_mode(f.m, 0, HVPMU_MODE_HYPER), HVPMU_OK);
	r = regs(0, 0x1111, 0x2222, HV_FAST_VT_GET_PERFREG);
	assert_int_equal(hvpmu_hv_trap(f.hv, 0, HV_FAST_TRAP, &r), HVPMU_OK);
	assert_int_equal(r.o[0], HV_EOK);
	assert_int_equal(hvpmu_machine_mode(f.m, 0), HVPMU_MODE_HYPER);
	r = in = regs(0, 0x1111, 0x2222, HV_FAST_VT_GET_PERFREG);
	t0 = hvpmu_machine_tick(f.m, 0);
	assert_int_equal(hvpmu_hv_trap(f.hv, 0, 0x10, &r), HVPMU_ETRAP);
	assert_regs_equal(&r, &in);
	assert_int_equal(hvpmu_machine_tick(f.m, 0), t0);
	assert_int_equal(o.n, 2 * (sizeof os_nums / sizeof os_nums[0]));
	fx_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_create_args),
		cmocka_unit_test(test_create_checks_guests),
		cmocka_unit_test(test_vt_ebadtrap_until_negotiated),
		cmocka_unit_test(test_unknown_trap_and_function),
		cmocka_unit_test(test_strand_without_guest),
		cmocka_unit_test(test_set_version),
		cmocka_unit_test(test_get_version),
		cmocka_unit_test(test_per_guest_state),
		cmocka_unit_test(test_vt_noaccess),
		cmocka_unit_test(test_vt_bad_register),
		cmocka_unit_test(test_vt_ht_gate),
		cmocka_unit_test(test_vt_roundtrip),
		cmocka_unit_test(test_vt_sticky_bits),
		cmocka_unit_test(test_vt_register_convention),
		cmocka_unit_test(test_trap_mode_and_cost),
		cmocka_unit_test(test_mmustat_error_stops_collection),
		cmocka_unit_test(test_mmustat_ebadtrap),
		cmocka_unit_test(test_user_tcc_goes_to_os_t4),
		cmocka_unit_test(test_user_tcc_goes_to_os_t1),
		cmocka_unit_test(test_priv_trap_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
