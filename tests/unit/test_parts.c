/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model runs only the parts the counters read (src/model/parts.c,
 * docs/memory-model.md "Model parts"), and what they read comes out
 * exactly as with every part on:
 *   - the table: which parts run for which outputs on the T4, the T1 and
 *     the Origin descriptions, and what the source is asked to report;
 *   - for every TABLE 10-2 event the model counts (hvpmu_t4_events()) and
 *     every T1 PICL event: a machine with only the parts the event reads
 *     (hvpmu_sv_event_reads(): not even the clock unless it reads cycles)
 *     and one with everything on run the same synthetic stream -- two
 *     strands of one core, blocks over several pages and aliasing
 *     microtags, conditional / call / return / indirect CTIs, loads,
 *     stores in bursts, loads of buffered stores, block loads, atomics,
 *     software prefetches to both destinations, a large-page region,
 *     references over 64 MB, system calls -- through the guest driver,
 *     and the event's count must be equal; once from PIC 0, once from a
 *     PIC 50 events short of its wrap, so that memory events sync the
 *     machine at the access that wraps (the overflow traps must land at
 *     the same PCs too).
 * The full machine's run must show the events the closure's edges are
 * about (dropped prefetches, full buffers, RAW hits, duplicate misses,
 * BTC and microtag outcomes, ...), or the comparison would prove little.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <hvpmu/hvpmu.h>

#define ALL_FEATURES (HVPMU_FEAT_MEMORY | HVPMU_FEAT_BRANCHES | HVPMU_FEAT_TAKEN | HVPMU_FEAT_BTC)

/* ---- the table ---- */

static unsigned parts_of(enum hvpmu_platform p, unsigned features)
{
	struct hvpmu_md md;

	assert_int_equal(hvpmu_md_default(p, &md), HVPMU_OK);
	return hvpmu_md_parts(&md, features);
}

#define P(x) HVPMU_PART_##x
#define F(x) HVPMU_FEAT_##x

static void test_table(void **state)
{
	const unsigned t4_clock = P(CORE) | P(SB) | P(BUFFERS) | P(DRAM) | P(UTAG) | P(BTC) | P(BPRED);

	(void)state;
	/* nothing asked, nothing runs; outcomes need no part of the memory model */
	assert_int_equal(parts_of(HVPMU_PLATFORM_T4, 0), 0);
	assert_int_equal(parts_of(HVPMU_PLATFORM_T4, F(TAKEN)), 0);
	assert_int_equal(parts_of(HVPMU_PLATFORM_T4, F(BRANCHES)), P(BPRED));
	assert_int_equal(parts_of(HVPMU_PLATFORM_T4, F(BTC)), P(BTC));
	/* the TLBs read neither the caches' outcomes nor the clock */
	assert_int_equal(parts_of(HVPMU_PLATFORM_T4, F(TLB)), P(CORE));
	/* T4: the clock reads every part the description gives a cost, but
	 * not the store buffer's addresses */
	assert_int_equal(parts_of(HVPMU_PLATFORM_T4, F(CYCLES)), t4_clock);
	/* T4 caches read the clock: finite request buffers drop prefetches */
	assert_int_equal(parts_of(HVPMU_PLATFORM_T4, F(CACHES)), t4_clock);
	assert_int_equal(parts_of(HVPMU_PLATFORM_T4, F(UTAG)), t4_clock);
	assert_int_equal(parts_of(HVPMU_PLATFORM_T4, F(STBUF)), t4_clock | P(SB_RAW));
	assert_int_equal(parts_of(HVPMU_PLATFORM_T4, F(MEMORY)), t4_clock | P(SB_RAW));
	/* T1: unbounded request buffers, no branch, microtag or DRAM cycles */
	assert_int_equal(parts_of(HVPMU_PLATFORM_T1, F(CACHES)), P(CORE));
	assert_int_equal(parts_of(HVPMU_PLATFORM_T1, F(TLB)), P(CORE));
	assert_int_equal(parts_of(HVPMU_PLATFORM_T1, F(CYCLES)), P(CORE) | P(SB));
	assert_int_equal(parts_of(HVPMU_PLATFORM_T1, F(STBUF)), P(CORE) | P(SB) | P(SB_RAW));
	assert_int_equal(parts_of(HVPMU_PLATFORM_T1, F(DRAM)), P(CORE) | P(SB) | P(DRAM));
	assert_int_equal(parts_of(HVPMU_PLATFORM_T1, F(MEMORY)),
			 P(CORE) | P(SB) | P(SB_RAW) | P(BUFFERS) | P(DRAM) | P(UTAG));
	/* Origin: no branch rule in its timing; its directory's NACKs are timed */
	assert_int_equal(parts_of(HVPMU_PLATFORM_ORIGIN, F(MEMORY)) & (P(BTC) | P(BPRED)), 0);
	assert_int_equal(parts_of(HVPMU_PLATFORM_ORIGIN, F(CACHES)), parts_of(HVPMU_PLATFORM_ORIGIN, F(CYCLES)));
	/* every memory event is some output */
	for (unsigned e = 0; e < HVPMU_NMEV; e++)
		assert_int_not_equal(hvpmu_machine_mev_features(UINT64_C(1) << e), 0);
	assert_int_equal(hvpmu_machine_mev_features(UINT64_C(1) << HVPMU_MEV_DTLB_FILL_8K), F(TLB));
	assert_int_equal(hvpmu_machine_mev_features(UINT64_C(1) << HVPMU_MEV_RAW_SQ_FULL), F(STBUF));
}

/* What the source is asked to report, through the machine. */
static void test_source_features(void **state)
{
	static const struct {
		enum hvpmu_platform p;
		unsigned req, want;
	} cases[] = {
		{ HVPMU_PLATFORM_T4, 0, 0 },
		{ HVPMU_PLATFORM_T4, F(TAKEN), F(TAKEN) },
		{ HVPMU_PLATFORM_T4, F(BRANCHES), F(BRANCHES) },
		{ HVPMU_PLATFORM_T4, F(BTC), F(BRANCHES) },
		{ HVPMU_PLATFORM_T4, F(TLB), F(MEMORY) },
		{ HVPMU_PLATFORM_T4, F(CACHES), F(MEMORY) | F(BRANCHES) }, /* the clock charges branches */
		{ HVPMU_PLATFORM_T4, F(MEMORY) | F(TAKEN), F(MEMORY) | F(BRANCHES) | F(TAKEN) },
		{ HVPMU_PLATFORM_T1, F(CACHES), F(MEMORY) },
		{ HVPMU_PLATFORM_T1, F(MEMORY), F(MEMORY) },
		{ HVPMU_PLATFORM_ORIGIN, F(MEMORY), F(MEMORY) },
		{ HVPMU_PLATFORM_ORIGIN, F(MEMORY) | F(BRANCHES), F(MEMORY) | F(BRANCHES) },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct hvpmu_md md;
		struct hvpmu_machine *m;

		assert_int_equal(hvpmu_md_default(cases[i].p, &md), HVPMU_OK);
		assert_int_equal(hvpmu_machine_create(&md, &m), HVPMU_OK);
		hvpmu_machine_set_features(m, cases[i].req);
		assert_int_equal(hvpmu_machine_features(m), cases[i].want);
		assert_int_equal(hvpmu_machine_parts(m), hvpmu_md_parts(&md, cases[i].req));
		assert_int_equal(hvpmu_machine_memory_enabled(m), (cases[i].want & F(MEMORY)) != 0);
		hvpmu_machine_destroy(m);
	}
}

/*
 * The sync bound (act->mem_refs) moves only with the memory events a
 * counter counts, so that where the machine syncs -- which is where a
 * timer or a disrupting trap is taken -- does not depend on the parts the
 * other events come from: a DTLB fill counter sees its fills, not the
 * cache misses, evictions or RAW hits of the same accesses.
 */
#define SB_CODE UINT64_C(0x100000)

static void test_sync_bound(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_activity *a;
	uint64_t pcr = 0, fills;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), HVPMU_OK);
	assert_int_equal(hvpmu_machine_create(&md, &m), HVPMU_OK);
	hvpmu_machine_enable_memory(m, 1);
	a = hvpmu_machine_activity(m, 0);
	pcr = HVPMU_FDP(pcr, T4_PCR, SL, 17);
	pcr = HVPMU_FDP(pcr, T4_PCR, MASK, 0x3f);
	pcr = HVPMU_FDP(pcr, T4_PCR, UT, 1);
	/* no memory counter: nothing moves it */
	hvpmu_machine_ifetch(m, 0, SB_CODE, 64);
	for (unsigned i = 0; i < 64; i++)
		hvpmu_machine_dref(m, 0, SB_CODE, UINT64_C(0x20000000) + i * UINT64_C(0x2000), 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(a->mem_refs, 0);
	assert_true(a->mev[HVPMU_MEV_DC_MISS_MEM] > 0 && a->mev[HVPMU_MEV_DTLB_FILL_8K] > 0);
	/* DTLB_miss_asynch (sl=17) in user mode: one per fill */
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_HYPER), HVPMU_OK);
	assert_int_equal(hvpmu_machine_stxa(m, 0, HVPMU_T4_ASI_PCR, 0, pcr), HVPMU_OK);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_USER), HVPMU_OK);
	assert_int_equal(a->mem_refs, 0);
	hvpmu_machine_dref(m, 0, SB_CODE, UINT64_C(0x20000000), 8, HVPMU_IC_STORE, 1); /* a DTLB hit, an L2 store */
	hvpmu_machine_dref(m, 0, SB_CODE + 4, UINT64_C(0x20000000), 8, HVPMU_IC_LOAD, 0); /* and its RAW hit */
	assert_int_equal(a->mem_refs, 0);
	assert_true(a->mev[HVPMU_MEV_RAW_SB_FULL] > 0);
	fills = a->mev[HVPMU_MEV_DTLB_FILL_8K] + a->mev[HVPMU_MEV_DTLB_FILL_TRAP];
	hvpmu_machine_dref(m, 0, SB_CODE + 8, UINT64_C(0x30000000), 8, HVPMU_IC_LOAD, 0); /* a DTLB miss */
	assert_true(a->mem_refs > 0);
	assert_int_equal(a->mem_refs, a->mev[HVPMU_MEV_DTLB_FILL_8K] + a->mev[HVPMU_MEV_DTLB_FILL_TRAP] - fills);
	hvpmu_machine_destroy(m);
}

/* ---- the synthetic stream ---- */

#define CODE UINT64_C(0x100000)
#define ALIAS UINT64_C(0x100000)     /* 1 MB: same microtag (VA[19:12]) and L1I set */
#define NBLK 40
#define NALIAS 6                     /* blocks 0..5 also run from CODE + k * ALIAS */
#define MAXN 16
#define HEAP UINT64_C(0x20000000)    /* 64 MB of 8 KB pages, mostly untouched */
#define HEAP_BYTES (UINT64_C(64) << 20)
#define HOT UINT64_C(0x10000000)     /* 12 KB hot set */
#define SHARED UINT64_C(0x18000000)  /* lines both strands stream through */
#define BIG UINT64_C(0x40000000)     /* 4 MB pages (hvpmu_machine_map_large) */
#define BIG_BYTES (UINT64_C(8) << 20)
#define STEPS 12000

enum op { OP_OTHER, OP_LD, OP_ST, OP_PF1, OP_PF2, OP_BLK, OP_ATOM, OP_LD_ST };
enum cti { CTI_COND, CTI_CALL, CTI_RET, CTI_IND, CTI_JMP };
enum where { W_HOT, W_STREAM, W_HEAP, W_BIG, W_SHARED, W_STORED, W_PFSTREAM };

struct blk {
	uint32_t n;
	uint8_t op[MAXN];
	uint8_t where[MAXN];
	uint8_t cti;
	uint32_t target;   /* block index */
	uint32_t bias;     /* taken probability of a conditional, /256 */
};

static struct blk blocks[NBLK];

struct rng {
	uint64_t x;
};

static uint32_t rnd(struct rng *r)
{
	r->x = r->x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
	return (uint32_t)(r->x >> 33);
}

/* The program: the same for every run. */
static void make_blocks(void)
{
	struct rng r = { 12345 };

	for (unsigned i = 0; i < NBLK; i++) {
		struct blk *b = &blocks[i];

		b->n = 3 + rnd(&r) % (MAXN - 3);
		for (unsigned k = 0; k + 1 < b->n; k++) {
			uint32_t x = rnd(&r) % 100;

			b->op[k] = x < 30 ? OP_OTHER : x < 55 ? OP_LD : x < 80 ? OP_ST : x < 84 ? OP_PF1 : x < 88 ? OP_PF2
				 : x < 91 ? OP_BLK : x < 93 ? OP_ATOM : OP_LD_ST;
			x = rnd(&r) % 100;
			b->where[k] = x < 45 ? W_HOT : x < 60 ? W_STREAM : x < 70 ? W_HEAP : x < 78 ? W_BIG
				    : x < 88 ? W_SHARED : W_STORED;
		}
		if (i == 1 || i == 2) { /* a burst of L1D prefetches: the L1D miss buffer fills */
			b->n = MAXN;
			for (unsigned k = 0; k + 1 < b->n; k++) {
				b->op[k] = OP_PF1;
				b->where[k] = W_PFSTREAM;
			}
		}
		b->op[b->n - 1] = OP_OTHER;
		b->cti = (uint8_t)(i % 7 == 3 ? CTI_CALL : i % 7 == 5 ? CTI_RET : i % 5 == 4 ? CTI_IND
				   : i % 13 == 6 ? CTI_JMP : CTI_COND);
		b->target = (i + 1 + rnd(&r) % (NBLK - 1)) % NBLK; /* not itself: a jump would loop for ever */
		if (i == 1)
			b->cti = CTI_JMP, b->target = 2;
		b->bias = 40 + rnd(&r) % 180;
	}
}

static uint64_t block_va(unsigned i, unsigned alias)
{
	return CODE + (uint64_t)i * 0x3a0 + (i < NALIAS ? (uint64_t)alias * ALIAS : 0);
}

static uint32_t op_flags(enum op o)
{
	switch (o) {
	case OP_LD: return HVPMU_IC_LOAD;
	case OP_ST: return HVPMU_IC_STORE;
	case OP_PF1: case OP_PF2: return HVPMU_IC_LOAD | HVPMU_IC_PREFETCH;
	case OP_BLK: return HVPMU_IC_LOAD | HVPMU_IC_BLOCK;
	case OP_ATOM: return HVPMU_IC_LOAD | HVPMU_IC_STORE | HVPMU_IC_ATOMIC;
	case OP_LD_ST: return HVPMU_IC_LOAD;
	default: return HVPMU_IC_OTHER;
	}
}

static uint32_t cti_flags(enum cti c)
{
	switch (c) {
	case CTI_COND: return HVPMU_IC_BRANCH | HVPMU_IC_CTI_COND;
	case CTI_CALL: return HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS | HVPMU_IC_CALL;
	case CTI_RET: return HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS | HVPMU_IC_RET | HVPMU_IC_INDIRECT;
	case CTI_IND: return HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS | HVPMU_IC_INDIRECT;
	default: return HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS;
	}
}

/* One strand of the run: its stream state. */
struct runner {
	struct hvpmu_machine *m;
	uint32_t strand;
	struct hvpmu_activity *act;
	struct rng r;
	unsigned cur, alias;
	uint64_t cur_va;
	uint64_t stream, shared, last_store, pfstream;
	unsigned ret[8], nret;
	int pend;                 /* a CTI to report at the next block */
	uint64_t pend_pc, pend_to;
	uint32_t pend_flags;
	int pend_taken;
	struct hvpmu_block blk;
	uint8_t cls[MAXN];
};

struct run {
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	struct hvpmu_sv *sv;
	unsigned features;        /* what the source reports */
	uint8_t op_cls[OP_LD_ST + 1];
	uint8_t cti_cls[CTI_JMP + 1];
	struct runner st[2];
	unsigned novf;
	uint64_t ovf_tpc[64];
};

static void on_overflow(void *ctx, unsigned event, const struct hvpmu_guest_trap *t)
{
	struct run *r = ctx;

	(void)event;
	if (r->novf < 64)
		r->ovf_tpc[r->novf] = t->tpc * 2 + (t->precise != 0);
	r->novf++;
}

static uint64_t data_addr(struct runner *u, enum where w, int store)
{
	uint64_t a;

	switch (w) {
	case W_HOT: a = HOT + (rnd(&u->r) % (12 * 1024 / 8)) * 8; break;
	case W_STREAM: a = HEAP + HEAP_BYTES / 2 + u->strand * (UINT64_C(4) << 20) + ((u->stream += 32) % (UINT64_C(4) << 20)); break;
	case W_HEAP: a = HEAP + (rnd(&u->r) % (HEAP_BYTES / 64)) * 64 + (rnd(&u->r) % 8) * 8; break;
	case W_BIG: a = BIG + (rnd(&u->r) % (BIG_BYTES / 8)) * 8; break;
	case W_SHARED: a = SHARED + ((u->shared += 32) % (UINT64_C(1) << 20)); break;
	case W_PFSTREAM: a = HEAP + u->strand * (UINT64_C(8) << 20) + ((u->pfstream += 64) % (UINT64_C(8) << 20)); break;
	default: /* a recent store's bytes, wholly or partly */
		a = u->last_store + (rnd(&u->r) % 3 == 0 ? 4 : 0);
		break;
	}
	if (store)
		u->last_store = a;
	return a;
}

/* The block's CTI, reported at the next block's entry (as the plugin
 * resolves it), and where execution goes. */
static unsigned next_block(struct runner *u, const struct blk *b, uint64_t va)
{
	uint64_t pc = va + 4 * (b->n - 1);
	unsigned to = (u->cur + 1) % NBLK;
	int taken = 1;

	switch ((enum cti)b->cti) {
	case CTI_COND: taken = rnd(&u->r) % 256 < b->bias; to = taken ? b->target : to; break;
	case CTI_CALL:
		if (u->nret < 8)
			u->ret[u->nret++] = (u->cur + 1) % NBLK;
		to = b->target;
		break;
	case CTI_RET: to = u->nret ? u->ret[--u->nret] : rnd(&u->r) % NBLK; break;
	case CTI_IND: /* a jump table: mostly its first entries */
		to = rnd(&u->r) % 4 ? (b->target + rnd(&u->r) % 4) % NBLK : rnd(&u->r) % NBLK;
		break;
	default: to = b->target; break;
	}
	u->pend = 1;
	u->pend_pc = pc;
	u->pend_flags = cti_flags((enum cti)b->cti);
	u->pend_taken = taken;
	u->alias = to < NALIAS ? rnd(&u->r) % 5 : 0;
	u->pend_to = taken ? block_va(to, u->alias) : pc + 8;
	return to;
}

static void syscall_(struct run *r, struct runner *u, int64_t num)
{
	assert_int_equal(hvpmu_machine_set_mode(r->m, u->strand, HVPMU_MODE_PRIV), HVPMU_OK);
	assert_int_equal(hvpmu_machine_syscall(r->m, u->strand, num, 1), HVPMU_OK);
	assert_int_equal(hvpmu_machine_set_mode(r->m, u->strand, HVPMU_MODE_USER), HVPMU_OK);
}

/* One block of strand u, the way the QEMU source feeds it. */
static void step(struct run *r, struct runner *u)
{
	const struct blk *b = &blocks[u->cur];
	uint64_t va = block_va(u->cur, u->alias);
	const struct hvpmu_block *prev = u->blk.n ? &u->blk : NULL;
	struct hvpmu_block *next = &u->blk;
	unsigned to;

	if (u->pend) {
		if (u->pend_taken && (u->pend_flags & HVPMU_IC_CTI_COND))
			u->act->taken_cond++;
		if (r->features & HVPMU_FEAT_BRANCHES)
			hvpmu_machine_branch(r->m, u->strand, u->pend_pc, u->pend_flags, u->pend_taken, u->pend_to);
		u->pend = 0;
	}
	if (r->features & HVPMU_FEAT_MEMORY)
		hvpmu_machine_ifetch(r->m, u->strand, va, 4 * b->n);
	u->act->bound += b->n;
	for (unsigned k = 0; k < b->n; k++)
		u->cls[k] = k + 1 < b->n ? r->op_cls[b->op[k]] : r->cti_cls[b->cti];
	*next = (struct hvpmu_block){ .vaddr = va, .n = b->n, .cond_cti = b->cti == CTI_COND ? (int32_t)b->n - 1 : -1,
				      .cti = (int32_t)b->n - 1, .cls = u->cls };
	if (u->act->bound >= u->act->next_check)
		assert_int_equal(hvpmu_machine_sync(r->m, u->strand, prev, next), HVPMU_OK);
	for (unsigned k = 0; k < b->n; k++) {
		uint64_t pc = va + 4 * k;
		enum op o = (enum op)b->op[k];
		uint64_t a;

		u->act->icount[u->cls[k]]++;
		if (k + 1 == b->n || o == OP_OTHER)
			continue;
		a = data_addr(u, (enum where)b->where[k], o == OP_ST || o == OP_ATOM);
		if (!(r->features & HVPMU_FEAT_MEMORY))
			continue;
		switch (o) {
		case OP_PF1: case OP_PF2:
			hvpmu_machine_prefetch(r->m, u->strand, pc, a & ~UINT64_C(63),
					       hvpmu_prefetch_dest(o == OP_PF1 ? 0 : 1));
			break;
		case OP_BLK: /* a block load: eight 8-byte parts */
			for (unsigned j = 0; j < 8; j++)
				hvpmu_machine_dref(r->m, u->strand, pc, (a & ~UINT64_C(63)) + 8 * j, 8, op_flags(o), 0);
			break;
		case OP_ATOM:
			hvpmu_machine_dref(r->m, u->strand, pc, a & ~UINT64_C(7), 8, op_flags(o), 0);
			hvpmu_machine_dref(r->m, u->strand, pc, a & ~UINT64_C(7), 8, op_flags(o), 1);
			break;
		case OP_ST:
			hvpmu_machine_dref(r->m, u->strand, pc, a, 8, op_flags(o), 1);
			break;
		default: /* loads, some of 4 bytes straddling a store's granule */
			hvpmu_machine_dref(r->m, u->strand, pc, a, (a & 4) ? 4 : 8, op_flags(o), 0);
			break;
		}
	}
	to = next_block(u, b, va);
	u->cur = to;
}

static void run_init(struct run *r, enum hvpmu_platform p, unsigned features, uint64_t config, uint32_t pic_init)
{
	struct hvpmu_md md;
	struct hvpmu_sv_config cfg;
	struct hvpmu_sv_event ev;
	const struct hvpmu_sv_backend *be = hvpmu_sv_backend_of(p);

	memset(r, 0, sizeof *r);
	assert_int_equal(hvpmu_md_default(p, &md), HVPMU_OK);
	assert_int_equal(hvpmu_machine_create(&md, &r->m), HVPMU_OK);
	assert_int_equal(hvpmu_hv_create(r->m, &r->hv), HVPMU_OK);
	memset(&cfg, 0, sizeof cfg);
	cfg.pic_init = pic_init;
	cfg.on_overflow = on_overflow;
	cfg.ctx = r;
	assert_int_equal(hvpmu_sv_create(r->hv, 0, &cfg, &r->sv), HVPMU_OK);
	hvpmu_machine_set_features(r->m, features);
	r->features = hvpmu_machine_features(r->m);
	assert_int_equal(hvpmu_machine_map_large(r->m, BIG, BIG_BYTES, UINT64_C(4) << 20), HVPMU_OK);
	memset(&ev, 0, sizeof ev);
	strcpy(ev.name, "e");
	ev.config = config;
	ev.modes = HVPMU_SV_MODE_USER | HVPMU_SV_MODE_KERNEL;
	assert_true(be != NULL);
	assert_int_equal(hvpmu_sv_add_event(r->sv, &ev), 0);
	for (unsigned o = 0; o <= OP_LD_ST; o++)
		r->op_cls[o] = (uint8_t)hvpmu_machine_class(r->m, op_flags((enum op)o));
	for (unsigned c = 0; c <= CTI_JMP; c++)
		r->cti_cls[c] = (uint8_t)hvpmu_machine_class(r->m, cti_flags((enum cti)c));
	for (uint32_t s = 0; s < 2; s++) {
		struct runner *u = &r->st[s];

		u->m = r->m;
		u->strand = s; /* strands 0 and 1: one core */
		u->act = hvpmu_machine_activity(r->m, s);
		u->r.x = 777 + s;
		u->cur = s * 7;
		assert_int_equal(hvpmu_sv_start_strand(r->sv, s), HVPMU_OK);
	}
}

/* The stream; returns the event's count (both strands). */
static uint64_t run_stream(struct run *r)
{
	struct hvpmu_sv_count c;

	for (unsigned i = 0; i < STEPS; i++) {
		/* strand 1 runs a block now and then: the core's second running
		 * strand (duplicate misses, sl=18 0x04 drops) */
		step(r, &r->st[i % 8 == 7 ? 1 : 0]);
		if (i % 997 == 500)
			syscall_(r, &r->st[0], 3 + i % 5);
	}
	for (uint32_t s = 0; s < 2; s++) {
		struct runner *u = &r->st[s];

		assert_int_equal(hvpmu_machine_sync(r->m, s, u->blk.n ? &u->blk : NULL, NULL), HVPMU_OK);
		assert_int_equal(hvpmu_sv_stop_strand(r->sv, s), HVPMU_OK);
	}
	assert_int_equal(hvpmu_sv_read(r->sv, 0, &c), HVPMU_OK);
	return c.supported ? c.raw : UINT64_MAX;
}

static void run_fini(struct run *r)
{
	hvpmu_sv_destroy(r->sv);
	hvpmu_hv_destroy(r->hv);
	hvpmu_machine_destroy(r->m);
}

/* The event `config` counted with only the parts it reads and with every
 * part on, from PIC 0 and from 50 short of the wrap: equal counts and
 * overflow traps.  Returns the count with every part on. */
static uint64_t compare(enum hvpmu_platform p, uint64_t config, const char *name, uint64_t *mev_all)
{
	static struct run a, b;
	const struct hvpmu_sv_backend *be = hvpmu_sv_backend_of(p);
	unsigned reads = hvpmu_sv_event_reads(be, config);
	uint64_t ca = 0, cb = 0, first = 0;

	for (int near_wrap = 0; near_wrap < 2; near_wrap++) {
		uint32_t init = near_wrap ? UINT32_C(0xffffffff) - 50 : 0;

		run_init(&a, p, reads, config, init);
		run_init(&b, p, ALL_FEATURES, config, init);
		ca = run_stream(&a);
		cb = run_stream(&b);
		if (ca != cb || a.novf != b.novf)
			print_error("%s (config %#llx, reads %#x, parts %#x, pic init %#x): %llu with its parts, %llu with "
				    "all; %u / %u overflow traps\n",
				    name, (unsigned long long)config, reads, hvpmu_machine_parts(a.m), init,
				    (unsigned long long)ca, (unsigned long long)cb, a.novf, b.novf);
		assert_true(ca == cb);
		assert_int_equal(a.novf, b.novf);
		for (unsigned i = 0; i < a.novf && i < 64; i++)
			assert_true(a.ovf_tpc[i] == b.ovf_tpc[i]);
		if (!near_wrap) {
			first = cb;
			for (unsigned k = 0; mev_all && k < HVPMU_NMEV; k++)
				mev_all[k] = hvpmu_machine_activity(b.m, 0)->mev[k] + hvpmu_machine_activity(b.m, 1)->mev[k];
		}
		run_fini(&a);
		run_fini(&b);
	}
	return first;
}

/* Every TABLE 10-2 event the model counts. */
static void test_t4_events(void **state)
{
	unsigned n, counted = 0, nonzero = 0, reduced = 0;
	const struct hvpmu_t4_event *ev = hvpmu_t4_events(&n);
	struct hvpmu_md md;
	uint64_t mev[HVPMU_NMEV];
	/* the stream reaches what the table's edges are about */
	static const unsigned must[] = {
		HVPMU_MEV_IC_MISS_L2L3, HVPMU_MEV_IC_MISS_MEM, HVPMU_MEV_DC_MISS_L2L3, HVPMU_MEV_DC_MISS_MEM,
		HVPMU_MEV_ST_HIT_L2, HVPMU_MEV_ST_MEM, HVPMU_MEV_L2_CLEAN_EVICT, HVPMU_MEV_L2_DIRTY_EVICT,
		HVPMU_MEV_DC_EVICT_INVAL, HVPMU_MEV_DTLB_FILL_8K, HVPMU_MEV_DTLB_FILL_4M, HVPMU_MEV_ITLB_FILL_8K,
		HVPMU_MEV_HWTW_D_L2, HVPMU_MEV_HWTW_D_MEM, HVPMU_MEV_SWPF_DROP_DC_HIT, HVPMU_MEV_PF_HIT_MEM,
		HVPMU_MEV_BTC_MISS, HVPMU_MEV_BTC_TARG_INCORRECT, HVPMU_MEV_MTAG_MISS_PTAG_MISS,
		HVPMU_MEV_RAW_SB_FULL, HVPMU_MEV_RAW_SB_PARTIAL, HVPMU_MEV_RAW_SQ_FULL, HVPMU_MEV_SB_FULL_CYCLES,
		HVPMU_MEV_SQ_TAG_WAIT, HVPMU_MEV_PF_DROP_L2, HVPMU_MEV_L2_MB_FULL, HVPMU_MEV_L2_PIPE_STALL,
		HVPMU_MEV_SWPF_DROP_MB_FULL, HVPMU_MEV_DC_MISS_SPECIAL,
	};

	(void)state;
	make_blocks();
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), HVPMU_OK);
	compare(HVPMU_PLATFORM_T4, HVPMU_SV_T4_CONFIG(16, 0x07), "DC_miss_nospec", mev);
	for (unsigned i = 0; i < sizeof must / sizeof must[0]; i++) {
		if (!mev[must[i]])
			print_error("memory event %u never happens in the stream\n", must[i]);
		assert_true(mev[must[i]] > 0);
	}
	for (unsigned i = 0; i < n; i++) {
		uint64_t config = HVPMU_SV_T4_CONFIG(ev[i].sl, ev[i].mask);
		unsigned reads = hvpmu_sv_event_reads(hvpmu_sv_backend_of(HVPMU_PLATFORM_T4), config);

		if (!hvpmu_t4_event_supported(ev[i].sl, ev[i].mask))
			continue;
		counted++;
		nonzero += compare(HVPMU_PLATFORM_T4, config, ev[i].name, NULL) != 0;
		reduced += hvpmu_md_parts(&md, reads) != hvpmu_md_parts(&md, ALL_FEATURES);
	}
	print_message("%u T4 events, %u of them nonzero in the stream, %u run with fewer parts\n", counted, nonzero,
		      reduced);
	assert_true(counted > 100);
	assert_true(nonzero > counted / 2);
}

/* Every T1 PICL event (on the T1 nothing in the caches depends on time:
 * its cache events run without the store buffer or the clock). */
static void test_t1_events(void **state)
{
	(void)state;
	make_blocks();
	for (unsigned sl = 0; sl < HVPMU_T1_NSL; sl++) {
		char name[32];

		snprintf(name, sizeof name, "%s", hvpmu_t1_picl_name(sl));
		assert_true(compare(HVPMU_PLATFORM_T1, sl, name, NULL) != UINT64_MAX);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_source_features),
		cmocka_unit_test(test_sync_bound),
		cmocka_unit_test(test_t4_events),
		cmocka_unit_test(test_t1_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
