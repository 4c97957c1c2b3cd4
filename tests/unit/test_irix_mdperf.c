/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The IRIX syssgi(SGI_EVENTCTR, MDPERF_*) service on the SGI Origin
 * (hvpmu/irix.h), without QEMU: every command and error path of
 * ../shared/reference/hw-and-hypervisor.md §5.4 (md_perf.c) and
 * ../shared/specs/irix-mdperf.2, the node/system locking between two
 * callers, the tick path's multiplexing and its shares, pegging and the
 * read-to-clear overflow flag, cumulative values, timestamps, generation
 * numbers, and the md_perf_values_t byte layout.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>

#define UBASE UINT64_C(0x7fff0000) /* the caller's one mapped range */
#define ULEN 4096
#define TICK UINT64_C(1950000)     /* 195 MHz / HZ 100 */

struct proc {
	struct hvpmu_irix_caller c;
	struct hvpmu_irix_range as;
	uint8_t mem[ULEN];
};

static void proc_init(struct proc *p, uint32_t uid, uint64_t caps)
{
	memset(p, 0, sizeof *p);
	p->c.uid = uid;
	p->c.caps = caps;
	p->as = (struct hvpmu_irix_range){ UBASE, p->mem, ULEN };
	p->c.copyin = hvpmu_irix_range_copyin;
	p->c.copyout = hvpmu_irix_range_copyout;
	p->c.ctx = &p->as;
}

struct rig {
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	unsigned clock_traps;
};

static void on_trap(void *ctx, const struct hvpmu_guest_trap *t)
{
	struct rig *r = ctx;

	if (t->tt == HVPMU_IRIX_TRAP_CLOCK)
		r->clock_traps++;
}

static void rig_init(struct rig *r)
{
	struct hvpmu_md md;

	memset(r, 0, sizeof *r);
	assert_int_equal(hvpmu_md_by_name("origin", &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &r->m), 0);
	assert_int_equal(hvpmu_hv_create(r->m, &r->hv), 0);
	assert_string_equal(hvpmu_hv_personality(r->hv), "irix");
	assert_int_equal(hvpmu_hv_set_guest_trap_handler(r->hv, 0, on_trap, r), 0);
}

static void rig_fini(struct rig *r)
{
	hvpmu_hv_destroy(r->hv);
	hvpmu_machine_destroy(r->m);
}

/* syssgi(SGI_EVENTCTR, cmd, node, ptr) by p on CPU 0. */
static struct hvpmu_irix_ret call(struct rig *r, struct proc *p, int64_t cmd, int64_t node, uint64_t ptr)
{
	struct hvpmu_irix_ret ret;

	assert_int_equal(hvpmu_irix_eventctr(r->hv, 0, &p->c, cmd, node, ptr, &ret), HVPMU_OK);
	return ret;
}

static void put_ctrl(struct proc *p, uint64_t ua, uint32_t ctrl)
{
	uint8_t *b = p->mem + (ua - UBASE);

	b[0] = (uint8_t)(ctrl >> 24);
	b[1] = (uint8_t)(ctrl >> 16);
	b[2] = (uint8_t)(ctrl >> 8);
	b[3] = (uint8_t)ctrl;
}

static uint32_t get_ctrl(const struct proc *p, uint64_t ua)
{
	const uint8_t *b = p->mem + (ua - UBASE);

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

#define EXPECT_OK(x, rv)                        \
	do {                                    \
		struct hvpmu_irix_ret t_ = (x); \
		assert_int_equal(t_.ret, 0);    \
		assert_int_equal(t_.rval, (rv)); \
	} while (0)
#define EXPECT_ERR(x, e)                        \
	do {                                    \
		struct hvpmu_irix_ret t_ = (x); \
		assert_int_equal(t_.ret, -1);   \
		assert_int_equal(t_.err, (e));  \
	} while (0)

/* The Hub device of node n. */
static unsigned hub(struct rig *r, unsigned n)
{
	int d = hvpmu_machine_device_find(r->m, HVPMU_DEV_ORIGIN_MD, n);

	assert_true(d >= 0);
	return (unsigned)d;
}

/* One clock tick: CPU 0 runs up to the next deadline. */
static void tick(struct rig *r)
{
	uint64_t now = hvpmu_machine_tick(r->m, 0), next = (now / TICK + 1) * TICK;

	assert_int_equal(hvpmu_machine_add_cycles(r->m, 0, HVPMU_MODE_USER, next - now), 0);
}

static void test_node_commands(void **state)
{
	struct rig r;
	struct proc p;
	uint64_t sel;

	(void)state;
	rig_init(&r);
	proc_init(&p, 1000, 0);
	put_ctrl(&p, UBASE, HVPMU_MD_PERF_SEL_ALL);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 0, UBASE), 1); /* generation 1 */
	/* the first selected set is live */
	assert_int_equal(hvpmu_machine_bus_read(r.m, hub(&r, 0), HVPMU_HUBMD_REG_SEL, &sel), 0);
	assert_int_equal(sel, 8 | 0);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_CTRL, 0, UBASE + 64), 1);
	assert_int_equal(get_ctrl(&p, UBASE + 64), 0x3f);
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 0, UBASE), HVPMU_IRIX_EBUSY);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_DISABLE, 0, 0), 2); /* irix-mdperf.2 l. 57 (md_perf.c: 0) */
	assert_int_equal(hvpmu_machine_bus_read(r.m, hub(&r, 0), HVPMU_HUBMD_REG_SEL, &sel), 0);
	assert_int_equal(sel, 0);
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_GET_CTRL, 0, UBASE + 64), HVPMU_IRIX_EINVAL);
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_DISABLE, 0, 0), -1); /* raw -1 */
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 0, UBASE + 128), 1); /* works disabled: the ENABLE's */
	/* enable again: generation 3 */
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 0, UBASE), 3);
	rig_fini(&r);
}

static void test_errors(void **state)
{
	struct rig r;
	struct proc p;

	(void)state;
	rig_init(&r);
	proc_init(&p, 1000, 0);
	put_ctrl(&p, UBASE, 0x3f);
	/* copyin of ctrl first: EFAULT before the node check */
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 99, 0), HVPMU_IRIX_EFAULT);
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 0, UBASE + ULEN - 2), HVPMU_IRIX_EFAULT);
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 4, UBASE), HVPMU_IRIX_EINVAL);  /* 4 nodes */
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, -2, UBASE), HVPMU_IRIX_EINVAL);
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 4, UBASE), HVPMU_IRIX_EINVAL);
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 0, 8), HVPMU_IRIX_EFAULT);
	/* no set bit 0..5: EINVAL (bits above 5 are ignored) */
	put_ctrl(&p, UBASE, 0xffffffc0u);
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 1, UBASE), HVPMU_IRIX_EINVAL);
	/* ... and nothing is enabled */
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_GET_CTRL, 1, UBASE), HVPMU_IRIX_EINVAL);
	/* the obsolete commands and others */
	for (int64_t cmd = 259; cmd <= 263; cmd++)
		EXPECT_ERR(call(&r, &p, cmd, 0, UBASE), HVPMU_IRIX_EINVAL);
	EXPECT_ERR(call(&r, &p, 268, 0, UBASE), HVPMU_IRIX_EINVAL);
	EXPECT_ERR(call(&r, &p, 300, 0, UBASE), HVPMU_IRIX_EINVAL); /* IOPERF_ENABLE: not modeled */
	/* GET_CTRL's copyout */
	put_ctrl(&p, UBASE, 0x3f);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 2, UBASE), 1);
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_GET_CTRL, 2, 0), HVPMU_IRIX_EFAULT);
	/* a cnodeid_t is 16 bits: 0x10002 is node 2 */
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_CTRL, 0x10002, UBASE), 1);
	/* no IRIX kernel on a sun4v machine */
	{
		struct hvpmu_md md;
		struct hvpmu_machine *m;
		struct hvpmu_hv *hv;
		struct hvpmu_irix_ret ret;

		assert_int_equal(hvpmu_md_by_name("t4", &md), 0);
		assert_int_equal(hvpmu_machine_create(&md, &m), 0);
		assert_int_equal(hvpmu_hv_create(m, &hv), 0);
		assert_int_equal(hvpmu_irix_eventctr(hv, 0, &p.c, HVPMU_MDPERF_NODE_ENABLE, 0, UBASE, &ret),
				 HVPMU_EINVAL);
		hvpmu_hv_destroy(hv);
		hvpmu_machine_destroy(m);
	}
	rig_fini(&r);
}

static void test_system_mode(void **state)
{
	struct rig r;
	struct proc user, root;
	struct hvpmu_md_perf_values v;

	(void)state;
	rig_init(&r);
	proc_init(&user, 1000, 0);
	proc_init(&root, 0, HVPMU_IRIX_CAP_DEVICE_MGT);
	put_ctrl(&user, UBASE, 0x3f);
	put_ctrl(&root, UBASE, 0x21); /* sets 0 and 5 */
	EXPECT_ERR(call(&r, &user, HVPMU_MDPERF_NODE_ENABLE, -1, UBASE), HVPMU_IRIX_EPERM);
	EXPECT_ERR(call(&r, &root, HVPMU_MDPERF_NODE_GET_COUNT, -1, UBASE + 64), -1); /* not system mode */
	{
		struct hvpmu_irix_ret t = call(&r, &root, HVPMU_MDPERF_NODE_GET_COUNT, -1, UBASE + 64);

		assert_int_equal(t.rval, -1);
	}
	EXPECT_ERR(call(&r, &root, HVPMU_MDPERF_NODE_DISABLE, -1, 0), HVPMU_IRIX_EINVAL);
	EXPECT_OK(call(&r, &root, HVPMU_MDPERF_NODE_ENABLE, -1, UBASE), 1); /* global generation 1 */
	/* every node is locked; a second system enable is busy */
	EXPECT_ERR(call(&r, &user, HVPMU_MDPERF_NODE_ENABLE, 3, UBASE), HVPMU_IRIX_EBUSY);
	EXPECT_ERR(call(&r, &root, HVPMU_MDPERF_NODE_ENABLE, -1, UBASE), HVPMU_IRIX_EBUSY);
	/* a node of system mode is not disabled alone */
	EXPECT_ERR(call(&r, &root, HVPMU_MDPERF_NODE_DISABLE, 3, 0), HVPMU_IRIX_EINVAL);
	EXPECT_OK(call(&r, &user, HVPMU_MDPERF_NODE_GET_CTRL, -1, UBASE + 32), 1);
	assert_int_equal(get_ctrl(&user, UBASE + 32), 0x21);
	EXPECT_OK(call(&r, &user, HVPMU_MDPERF_NODE_GET_CTRL, 2, UBASE + 32), 1); /* a node: the global one */
	EXPECT_OK(call(&r, &user, HVPMU_MDPERF_NODE_GET_COUNT, 2, UBASE + 64), 1); /* the global one too */
	/* counts on two nodes, one tick: the system count sums them */
	assert_int_equal(hvpmu_machine_bus_write(r.m, hub(&r, 1), HVPMU_HUBMD_REG_CNT0 + 2, 100), 0);
	assert_int_equal(hvpmu_machine_bus_write(r.m, hub(&r, 3), HVPMU_HUBMD_REG_CNT0 + 2, 23), 0);
	tick(&r);
	EXPECT_OK(call(&r, &user, HVPMU_MDPERF_NODE_GET_COUNT, -1, UBASE + 64), 1);
	hvpmu_md_perf_values_decode(user.mem + 64, &v);
	assert_int_equal(v.value[0][2], 100 + 23 + 0);
	assert_int_equal(v.timestamp[0], 1);
	EXPECT_ERR(call(&r, &user, HVPMU_MDPERF_NODE_DISABLE, -1, 0), HVPMU_IRIX_EPERM);
	EXPECT_OK(call(&r, &root, HVPMU_MDPERF_NODE_DISABLE, -1, 0), 2);
	EXPECT_ERR(call(&r, &root, HVPMU_MDPERF_NODE_GET_CTRL, -1, UBASE), HVPMU_IRIX_EINVAL);
	/* values stay after DISABLE; node monitoring again possible */
	EXPECT_OK(call(&r, &user, HVPMU_MDPERF_NODE_GET_COUNT, 1, UBASE + 64), 1);
	hvpmu_md_perf_values_decode(user.mem + 64, &v);
	assert_int_equal(v.value[0][2], 100);
	EXPECT_OK(call(&r, &user, HVPMU_MDPERF_NODE_ENABLE, 1, UBASE), 3);
	/* and with one node monitored, system mode is busy */
	EXPECT_ERR(call(&r, &root, HVPMU_MDPERF_NODE_ENABLE, -1, UBASE), HVPMU_IRIX_EBUSY);
	EXPECT_OK(call(&r, &user, HVPMU_MDPERF_NODE_DISABLE, 1, 0), 4);
	{ /* uid 0 without the bit: the superuser holds every capability */
		struct proc su;

		proc_init(&su, 0, 0);
		put_ctrl(&su, UBASE, 0x21);
		EXPECT_OK(call(&r, &su, HVPMU_MDPERF_NODE_ENABLE, -1, UBASE), 3); /* global generation 3 */
		EXPECT_OK(call(&r, &su, HVPMU_MDPERF_NODE_DISABLE, -1, 0), 4);
	}
	rig_fini(&r);
}

/* Two processes contend for node 2. */
static void test_contention(void **state)
{
	struct rig r;
	struct proc a, b;

	(void)state;
	rig_init(&r);
	proc_init(&a, 1000, 0);
	proc_init(&b, 1001, HVPMU_IRIX_CAP_DEVICE_MGT);
	put_ctrl(&a, UBASE, 0x3f);
	put_ctrl(&b, UBASE, 0x3f);
	EXPECT_OK(call(&r, &a, HVPMU_MDPERF_NODE_ENABLE, 2, UBASE), 1);
	EXPECT_ERR(call(&r, &b, HVPMU_MDPERF_NODE_ENABLE, 2, UBASE), HVPMU_IRIX_EBUSY);
	EXPECT_ERR(call(&r, &b, HVPMU_MDPERF_NODE_ENABLE, -1, UBASE), HVPMU_IRIX_EBUSY);
	EXPECT_OK(call(&r, &b, HVPMU_MDPERF_NODE_ENABLE, 1, UBASE), 1); /* another node is free */
	EXPECT_OK(call(&r, &b, HVPMU_MDPERF_NODE_DISABLE, 2, 0), 2);    /* no owner is recorded */
	rig_fini(&r);
}

/* Sets 1 and 4 multiplexed per tick; pegging and the read-to-clear flag. */
static void test_multiplex(void **state)
{
	struct rig r;
	struct proc p;
	struct hvpmu_md_perf_values v;
	unsigned d;
	uint64_t sel;

	(void)state;
	rig_init(&r);
	d = hub(&r, 0);
	proc_init(&p, 1000, 0);
	put_ctrl(&p, UBASE, (1u << 1) | (1u << 4));
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 0, UBASE), 1);
	assert_int_equal(hvpmu_machine_bus_read(r.m, d, HVPMU_HUBMD_REG_SEL, &sel), 0);
	assert_int_equal(sel, 8 | 1);
	/* tick 1: set 1 collected, set 4 live */
	assert_int_equal(hvpmu_machine_bus_write(r.m, d, HVPMU_HUBMD_REG_CNT0 + 4, 7), 0);
	tick(&r);
	assert_int_equal(r.clock_traps, 1);
	assert_int_equal(hvpmu_irix_lbolt(r.hv), 1);
	assert_int_equal(hvpmu_machine_bus_read(r.m, d, HVPMU_HUBMD_REG_SEL, &sel), 0);
	assert_int_equal(sel, 8 | 4);
	assert_int_equal(hvpmu_machine_bus_read(r.m, d, HVPMU_HUBMD_REG_CNT0 + 4, &sel), 0);
	assert_int_equal(sel, 0); /* cleared for the next set */
	/* tick 2: set 4's counter 0 pegged */
	assert_int_equal(hvpmu_machine_bus_write(r.m, d, HVPMU_HUBMD_REG_CNT0, HVPMU_HUBMD_PERF_PEG), 0);
	tick(&r);
	/* ticks 3, 4: set 1 again (5 more), then set 4 */
	assert_int_equal(hvpmu_machine_bus_write(r.m, d, HVPMU_HUBMD_REG_CNT0 + 4, 5), 0);
	tick(&r);
	tick(&r);
	assert_int_equal(hvpmu_irix_live_ticks(r.hv, 0, 1), 2);
	assert_int_equal(hvpmu_irix_live_ticks(r.hv, 0, 4), 2);
	assert_int_equal(hvpmu_irix_live_ticks(r.hv, 0, 0), 0);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 0, UBASE + 64), 1);
	hvpmu_md_perf_values_decode(p.mem + 64, &v);
	assert_int_equal(v.value[1][4], 12);          /* cumulative over set 1's ticks */
	assert_false(v.overflow[1][4]);
	assert_int_equal(v.value[4][0], HVPMU_HUBMD_PERF_PEG);
	assert_true(v.overflow[4][0]);                /* a tick read found it pegged */
	assert_int_equal(v.timestamp[1], 3);          /* lbolt of its last collection */
	assert_int_equal(v.timestamp[4], 4);
	assert_int_equal(v.timestamp[0], 0);          /* never live */
	/* read to clear: the flag goes, the value stays */
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 0, UBASE + 64), 1);
	hvpmu_md_perf_values_decode(p.mem + 64, &v);
	assert_false(v.overflow[4][0]);
	assert_int_equal(v.value[4][0], HVPMU_HUBMD_PERF_PEG);
	/* DISABLE: a last collection, values kept, generation up */
	assert_int_equal(hvpmu_machine_bus_write(r.m, d, HVPMU_HUBMD_REG_CNT0 + 1, 9), 0); /* set 1 live */
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_DISABLE, 0, 0), 2);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 0, UBASE + 64), 1); /* the ENABLE's */
	hvpmu_md_perf_values_decode(p.mem + 64, &v);
	assert_int_equal(v.value[1][1], 9);
	/* ticks after DISABLE collect nothing */
	tick(&r);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 0, UBASE + 64), 1);
	hvpmu_md_perf_values_decode(p.mem + 64, &v);
	assert_int_equal(v.value[1][4], 12);
	/* ENABLE clears the values */
	put_ctrl(&p, UBASE, 1);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 0, UBASE), 3);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 0, UBASE + 64), 3);
	hvpmu_md_perf_values_decode(p.mem + 64, &v);
	assert_int_equal(v.value[1][4], 0);
	rig_fini(&r);
}

/* md_perf_values_t: 36 big-endian md_perf_reg_t (overflow bit 63), then
 * six big-endian timestamps: 336 bytes. */
static void test_values_layout(void **state)
{
	struct rig r;
	struct proc p;
	unsigned d;

	(void)state;
	rig_init(&r);
	d = hub(&r, 0);
	proc_init(&p, 1000, 0);
	put_ctrl(&p, UBASE, 1u << 5);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 0, UBASE), 1);
	assert_int_equal(hvpmu_machine_bus_write(r.m, d, HVPMU_HUBMD_REG_CNT0 + 5, HVPMU_HUBMD_PERF_PEG), 0);
	tick(&r);
	memset(p.mem + 64, 0xee, 400);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 0, UBASE + 64), 1);
	/* mpv_count[5][5]: byte offset 8 * 35 */
	{
		const uint8_t *e = p.mem + 64 + 8 * 35;
		static const uint8_t want[8] = { 0x80, 0, 0, 0, 0, 0x0f, 0xff, 0xff };

		assert_memory_equal(e, want, 8);
	}
	/* mpv_timestamp[5] = lbolt 1: the last 8 bytes of 336 */
	{
		static const uint8_t one[8] = { 0, 0, 0, 0, 0, 0, 0, 1 };

		assert_memory_equal(p.mem + 64 + 336 - 8, one, 8);
	}
	assert_int_equal(p.mem[64 + 336], 0xee); /* nothing past 336 bytes */
	/* a buffer that ends one byte short: EFAULT */
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 0, UBASE + ULEN - 335), HVPMU_IRIX_EFAULT);
	rig_fini(&r);
}

/* ---- issue 30: the man page's rules (../shared/specs/irix-mdperf.2) ---- */

/* irix-mdperf.2 lines 57-58, MDPERF_NODE_DISABLE: "RETURNS: The generation
 * number (that it has incremented again) on success or -1 on error." --
 * for a node and for the system (line 53: "node: The same as above",
 * line 36: CNODEID_NONE monitors the entire system). */
static void test_disable_returns_generation(void **state)
{
	struct rig r;
	struct proc p, root;

	(void)state;
	rig_init(&r);
	proc_init(&p, 1000, 0);
	proc_init(&root, 0, HVPMU_IRIX_CAP_DEVICE_MGT);
	put_ctrl(&p, UBASE, 0x3f);
	put_ctrl(&root, UBASE, 0x3f);
	/* a node: ENABLE increments to 1 (line 49), DISABLE again to 2 */
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 2, UBASE), 1);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_DISABLE, 2, 0), 2);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 2, UBASE), 3);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_DISABLE, 2, 0), 4);
	/* the system: its own counter (lines 105-107) */
	EXPECT_OK(call(&r, &root, HVPMU_MDPERF_NODE_ENABLE, -1, UBASE), 1);
	EXPECT_OK(call(&r, &root, HVPMU_MDPERF_NODE_DISABLE, -1, 0), 2);
	EXPECT_OK(call(&r, &root, HVPMU_MDPERF_NODE_ENABLE, -1, UBASE), 3);
	EXPECT_OK(call(&r, &root, HVPMU_MDPERF_NODE_DISABLE, -1, 0), 4);
	/* ... and on error -1 (not enabled: md_perf.c's raw -1) */
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_DISABLE, 2, 0), -1);
	rig_fini(&r);
}

/* irix-mdperf.2 lines 104-111, Generation Number: "When you use the enable
 * command you will receive a return value which states which generation
 * the counters are in.  Any commands to collect from the counters will
 * return the same number unless the counters have been disabled and
 * enabled again."  GET_CTRL (line 66) and GET_COUNT (line 75) return it
 * without incrementing: one generation per collection, that of the ENABLE
 * that started it -- on a node of a system collection too, and after the
 * collection's DISABLE (its values stay collectable, lines 54-56). */
static void test_one_generation_per_collection(void **state)
{
	struct rig r;
	struct proc p, root;

	(void)state;
	rig_init(&r);
	proc_init(&p, 1000, 0);
	proc_init(&root, 0, HVPMU_IRIX_CAP_DEVICE_MGT);
	put_ctrl(&p, UBASE, 0x3f);
	put_ctrl(&root, UBASE, 0x21);
	/* node 2's own counter moves ahead of the system's: 1, 2 */
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 2, UBASE), 1);
	call(&r, &p, HVPMU_MDPERF_NODE_DISABLE, 2, 0);
	/* a system collection: generation 1, on every node */
	EXPECT_OK(call(&r, &root, HVPMU_MDPERF_NODE_ENABLE, -1, UBASE), 1);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_CTRL, 2, UBASE + 32), 1);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 2, UBASE + 64), 1);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_CTRL, -1, UBASE + 32), 1);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, -1, UBASE + 64), 1);
	tick(&r); /* collections between: the same number */
	for (int n = -1; n < 4; n++) {
		EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_CTRL, n, UBASE + 32), 1);
		EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, n, UBASE + 64), 1);
	}
	/* disabled, not enabled again: the collection's values, its number */
	EXPECT_OK(call(&r, &root, HVPMU_MDPERF_NODE_DISABLE, -1, 0), 2);
	for (int n = -1; n < 4; n++)
		EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, n, UBASE + 64), 1);
	/* a node collection: the node's ENABLE's number, also after DISABLE */
	put_ctrl(&p, UBASE, 1);
	{
		struct hvpmu_irix_ret en = call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 2, UBASE);

		assert_int_equal(en.ret, 0);
		EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_CTRL, 2, UBASE + 32), en.rval);
		EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 2, UBASE + 64), en.rval);
		tick(&r);
		EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 2, UBASE + 64), en.rval);
		EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_DISABLE, 2, 0), en.rval + 1);
		EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 2, UBASE + 64), en.rval);
		/* enabled again: a new number */
		EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 2, UBASE), en.rval + 2);
		EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 2, UBASE + 64), en.rval + 2);
	}
	rig_fini(&r);
}

/* irix-mdperf.2 lines 48-50, MDPERF_NODE_ENABLE: "Enabling the counters
 * also clears their values.  RETURNS: The generation number (after
 * incrementing it) on success and -1 on error."  An ENABLE that fails
 * enables nothing, so it clears nothing: the previous collection's values,
 * overflow flags, live periods and generation stay together (lines
 * 105-106: "To insure that the data you collect is from the test set you
 * enabled"). */
static void test_failed_enable_changes_nothing(void **state)
{
	struct rig r;
	struct proc p, root;
	struct hvpmu_md_perf_values v;
	unsigned d;

	(void)state;
	rig_init(&r);
	d = hub(&r, 0);
	proc_init(&p, 1000, 0);
	proc_init(&root, 0, HVPMU_IRIX_CAP_DEVICE_MGT);
	put_ctrl(&p, UBASE, 1u << 3);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 0, UBASE), 1);
	assert_int_equal(hvpmu_machine_bus_write(r.m, d, HVPMU_HUBMD_REG_CNT0 + 1, 41), 0);
	assert_int_equal(hvpmu_machine_bus_write(r.m, d, HVPMU_HUBMD_REG_CNT0 + 2, HVPMU_HUBMD_PERF_PEG), 0);
	tick(&r);
	call(&r, &p, HVPMU_MDPERF_NODE_DISABLE, 0, 0);
	/* a control word with no set bit 0-5: -1 (EINVAL), by the node's
	 * caller and by a system ENABLE */
	put_ctrl(&p, UBASE, 0xffffffc0u);
	put_ctrl(&root, UBASE, 0x40);
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 0, UBASE), HVPMU_IRIX_EINVAL);
	EXPECT_ERR(call(&r, &root, HVPMU_MDPERF_NODE_ENABLE, -1, UBASE), HVPMU_IRIX_EINVAL);
	/* the previous collection, whole: values, its flag, its number */
	{
		struct hvpmu_irix_ret t = call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 0, UBASE + 64);

		assert_int_equal(t.ret, 0);
		hvpmu_md_perf_values_decode(p.mem + 64, &v);
		assert_int_equal(v.value[3][1], 41);
		assert_int_equal(v.value[3][2], HVPMU_HUBMD_PERF_PEG);
		assert_true(v.overflow[3][2]);
		assert_int_equal(v.timestamp[3], 1);
		assert_int_equal(hvpmu_irix_live_ticks(r.hv, 0, 3), 2); /* a tick and DISABLE's part */
		assert_int_equal(t.rval, 1);
	}
	/* nothing was enabled: no ctrl, no system collection, the Hub stopped */
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_GET_CTRL, 0, UBASE + 32), HVPMU_IRIX_EINVAL);
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_GET_CTRL, -1, UBASE + 32), HVPMU_IRIX_EINVAL);
	{
		uint64_t sel;

		assert_int_equal(hvpmu_machine_bus_read(r.m, d, HVPMU_HUBMD_REG_SEL, &sel), 0);
		assert_int_equal(sel, 0);
	}
	/* and no generation was used: the next ENABLEs increment from where
	 * the last success left them (node 0: 1, its DISABLE 2) */
	put_ctrl(&p, UBASE, 1);
	put_ctrl(&root, UBASE, 1);
	EXPECT_OK(call(&r, &root, HVPMU_MDPERF_NODE_ENABLE, -1, UBASE), 1);
	EXPECT_OK(call(&r, &root, HVPMU_MDPERF_NODE_DISABLE, -1, 0), 2);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 0, UBASE), 5); /* 2, system's 3 and 4, then 5 */
	rig_fini(&r);
}

/* irix-mdperf.2 lines 54-56, MDPERF_NODE_DISABLE: "This command disables
 * the counters.  It will not discard the values recently collected. so the
 * user may collect them after disabling if they wish." -- with line 53
 * ("node: The same as above"), for the system (CNODEID_NONE) as for a
 * node, until an ENABLE clears them (line 48). */
static void test_values_after_disable(void **state)
{
	struct rig r;
	struct proc p, root;
	struct hvpmu_md_perf_values v;

	(void)state;
	rig_init(&r);
	proc_init(&p, 1000, 0);
	proc_init(&root, 0, HVPMU_IRIX_CAP_DEVICE_MGT);
	put_ctrl(&root, UBASE, 0x21); /* sets 0 and 5 */
	EXPECT_OK(call(&r, &root, HVPMU_MDPERF_NODE_ENABLE, -1, UBASE), 1);
	assert_int_equal(hvpmu_machine_bus_write(r.m, hub(&r, 1), HVPMU_HUBMD_REG_CNT0 + 2, 100), 0);
	assert_int_equal(hvpmu_machine_bus_write(r.m, hub(&r, 3), HVPMU_HUBMD_REG_CNT0 + 2, 23), 0);
	tick(&r);
	/* set 5 live: DISABLE's last collection adds these */
	assert_int_equal(hvpmu_machine_bus_write(r.m, hub(&r, 0), HVPMU_HUBMD_REG_CNT0 + 4, 7), 0);
	assert_int_equal(hvpmu_machine_bus_write(r.m, hub(&r, 3), HVPMU_HUBMD_REG_CNT0 + 4, 8), 0);
	assert_int_equal(hvpmu_machine_bus_write(r.m, hub(&r, 3), HVPMU_HUBMD_REG_CNT0 + 5, HVPMU_HUBMD_PERF_PEG),
			 0);
	assert_int_equal(call(&r, &root, HVPMU_MDPERF_NODE_DISABLE, -1, 0).ret, 0);
	/* the system's values, by any caller, as often as asked */
	for (int i = 0; i < 2; i++) {
		struct hvpmu_irix_ret t = call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, -1, UBASE + 64);

		assert_int_equal(t.ret, 0);
		assert_int_equal(t.rval, 1); /* the system ENABLE's (lines 107-111) */
		hvpmu_md_perf_values_decode(p.mem + 64, &v);
		assert_int_equal(v.value[0][2], 100 + 23);
		assert_int_equal(v.value[5][4], 7 + 8);
		assert_int_equal(v.value[5][5], HVPMU_HUBMD_PERF_PEG);
		assert_int_equal(v.overflow[5][5], i == 0); /* read to clear */
		assert_int_equal(v.timestamp[0], 1);
		assert_int_equal(v.timestamp[5], 1); /* DISABLE's collection, at lbolt 1 */
	}
	/* each node's too */
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 3, UBASE + 64), 1);
	hvpmu_md_perf_values_decode(p.mem + 64, &v);
	assert_int_equal(v.value[0][2], 23);
	assert_int_equal(v.value[5][4], 8);
	/* ticks after DISABLE collect nothing */
	assert_int_equal(hvpmu_machine_bus_write(r.m, hub(&r, 1), HVPMU_HUBMD_REG_CNT0 + 2, 5), 0);
	tick(&r);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, -1, UBASE + 64), 1);
	hvpmu_md_perf_values_decode(p.mem + 64, &v);
	assert_int_equal(v.value[0][2], 123);
	/* a failed ENABLE discards nothing (lines 49-50) */
	put_ctrl(&p, UBASE, 0);
	EXPECT_ERR(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 1, UBASE), HVPMU_IRIX_EINVAL);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, -1, UBASE + 64), 1);
	/* an ENABLE of node 1 clears its values (line 48): the system's
	 * collection is no longer held, node 3's part of it still is */
	put_ctrl(&p, UBASE, 1);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_ENABLE, 1, UBASE), 3);
	{
		struct hvpmu_irix_ret t = call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, -1, UBASE + 64);

		assert_int_equal(t.ret, -1);
		assert_int_equal(t.err, -1);
		assert_int_equal(t.rval, -1);
	}
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 3, UBASE + 64), 1);
	hvpmu_md_perf_values_decode(p.mem + 64, &v);
	assert_int_equal(v.value[0][2], 23);
	/* a node's own collection after its DISABLE */
	assert_int_equal(hvpmu_machine_bus_write(r.m, hub(&r, 1), HVPMU_HUBMD_REG_CNT0 + 3, 17), 0);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_DISABLE, 1, 0), 4);
	EXPECT_OK(call(&r, &p, HVPMU_MDPERF_NODE_GET_COUNT, 1, UBASE + 64), 3);
	hvpmu_md_perf_values_decode(p.mem + 64, &v);
	assert_int_equal(v.value[0][3], 17);
	assert_int_equal(v.value[0][2], 0); /* the system's 100 were cleared by its ENABLE */
	rig_fini(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_commands),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_system_mode),
		cmocka_unit_test(test_contention),
		cmocka_unit_test(test_multiplex),
		cmocka_unit_test(test_values_layout),
		cmocka_unit_test(test_disable_returns_generation),
		cmocka_unit_test(test_one_generation_per_collection),
		cmocka_unit_test(test_failed_enable_changes_nothing),
		cmocka_unit_test(test_values_after_disable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
