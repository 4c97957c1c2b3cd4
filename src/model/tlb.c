/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ITLB/DTLB, guest page layout, first-touch physical frames and the sun4v
 * TSB tablewalk, feeding TABLE 10-2 (sparc-t4-performance-instrumentation.md)
 * sl=5 mask 0x10 (ITLB misses), sl=6 (ITLB fills by page size, fill trap),
 * sl=10 (HWTW references hitting L2 / L3 / missing L3), sl=17 (DTLB fills,
 * fill trap), and the Niagara MMU statistics (niagara-mmustat-api.txt §2.3:
 * TSB hits and %tick per I/D, ctx0/ctxnon0, TTE size code).  The walk
 * probes TSB0 then TSB1 and stops at the first hit, as the OpenSPARC
 * hypervisor does (reference/hw-and-hypervisor.md §1.5).  Choices and
 * their sources: docs/tlb-model.md.
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "tlb.h"

_Static_assert(TLB_MICRO <= 64 && (TLB_MICRO & (TLB_MICRO - 1)) == 0, "tlb->slots: one bit per MRU slot");

#define KB(x) ((uint64_t)(x) << 10)
#define GB(x) ((uint64_t)(x) << 30)
#define MAX_TLB_ENTRIES (1u << 16)
#define MAX_TSB_ENTRIES (TLB_TSB_MIN_ENTRIES << 15) /* TSB_MAX_SZCODE 15 */
#define MAX_COST_CYCLES 1000000u                    /* keeps two walks within an int */
#define PA_LIMIT (UINT64_C(1) << 56)                /* TTE PA field is bits 55:13 */
#define FRAME_TABLE_MIN 1024u
#define FRAME_KEY_CODE_SHIFT 13                     /* frame key: ctx | code << 13 | used */
#define FRAME_KEY_USED (1u << 16)
#define TSB0_INDEX_SHIFT TLB_PAGE_SHIFT(TLB_PGSZ_8K) /* Linux PAGE_SHIFT */
#define TSB1_INDEX_SHIFT TLB_PAGE_SHIFT(TLB_PGSZ_4M) /* Linux REAL_HPAGE_SHIFT */
#define REGIONS_MIN 8u

/* The T4's MMU: its TLBs and walk costs, frames in groups of `group`
 * bytes (0: each page its own frame). */
#define TLB_T4_CHIP(chip_name, group)                          \
	{                                                      \
		.name = chip_name,                             \
		.itlb = { .entries = 64, .ways = 0 },          \
		.dtlb = { .entries = 128, .ways = 0 },         \
		.mmu = {                                       \
			.phys_base = 0,                        \
			.phys_size = GB(256),                  \
			.pgsz_mask = TLB_PGMASK_T4,            \
			.tsb_layout = TLB_TSB_SPLIT,           \
			.tsb_entries = { 8192, 512 },          \
			.retry = TLB_RETRY_WALK,               \
			.walk_base_cycles = 10,                \
			.ref_cycles = { 20, 45, 314 },         \
			.fill_trap_cycles = 200,               \
			.frame_group = (group),                \
		},                                             \
	}

const struct tlb_chip tlb_chip_t4 = TLB_T4_CHIP("t4", 0);

/* The SGI Origin: no R10000 TLB model yet, the T4's geometry stands in
 * (docs/tlb-model.md "Physical addresses"); frames in groups of 16 KB,
 * IRIX's page on the Origin, which is the unit the Hubs home
 * (docs/origin-directory.md "What the model keeps"). */
const struct tlb_chip tlb_chip_origin = TLB_T4_CHIP("origin", 16384);

/* POWER7: no POWER MMU model yet (SLB, ERAT, hashed page table); the
 * T4's geometry stands in, with frames of 64 KB, the base page of Linux
 * on POWER7 servers (CONFIG_PPC_64K_PAGES; docs/power-platform.md). */
const struct tlb_chip tlb_chip_power = TLB_T4_CHIP("power", 65536);

const struct tlb_chip tlb_chip_t1 = {
	.name = "t1",
	.itlb = { .entries = 64, .ways = 0 },
	.dtlb = { .entries = 64, .ways = 0 },
	.mmu = {
		.phys_base = 0,
		.phys_size = GB(32),
		.pgsz_mask = TLB_PGMASK_T1,
		.tsb_layout = TLB_TSB_SPLIT,
		.tsb_entries = { 8192, 512 },
		.retry = TLB_RETRY_WALK,
		.walk_base_cycles = 40,
		.ref_cycles = { 22, 120, 120 }, /* no L3: a miss in L2 goes to memory */
		.fill_trap_cycles = 200,
	},
};

int tlb_fill_class(unsigned code)
{
	switch (code) {
	case TLB_PGSZ_8K: return TLB_FILL_8K;
	case TLB_PGSZ_64K: return TLB_FILL_64K;
	case TLB_PGSZ_4M: return TLB_FILL_4M;
	case TLB_PGSZ_256M: return TLB_FILL_256M;
	case TLB_PGSZ_2G: return TLB_FILL_2G;
	default: return -1;
	}
}

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* Inclusive ranges [a, a_last] and [b, b_last] overlap. */
static int overlaps(uint64_t a, uint64_t a_last, uint64_t b, uint64_t b_last)
{
	return a <= b_last && b <= a_last;
}

/* ---- TLB ------------------------------------------------------------ */

int tlb_create(const struct tlb_geom *g, enum tlb_side side, struct tlb **out)
{
	struct tlb *t;
	uint32_t ways;

	if (!g || !out || (side != TLB_SIDE_I && side != TLB_SIDE_D))
		return HVPMU_EINVAL;
	ways = g->ways ? g->ways : g->entries;
	if (g->entries == 0 || g->entries > MAX_TLB_ENTRIES || ways > g->entries ||
	    g->entries % ways || !is_pow2(g->entries / ways))
		return HVPMU_EINVAL;
	t = calloc(1, sizeof *t);
	if (!t)
		return HVPMU_ENOMEM;
	t->e = calloc(g->entries, sizeof *t->e);
	if (!t->e) {
		free(t);
		return HVPMU_ENOMEM;
	}
	t->side = side;
	t->cur = TLB_NO_CUR;
	t->ways = ways;
	t->sets = g->entries / ways;
	t->hsize = 1;
	while (t->hsize < 4 * g->entries)
		t->hsize *= 2;
	t->head = malloc(t->hsize * sizeof *t->head);
	t->next = malloc(g->entries * sizeof *t->next);
	t->stamp = calloc(g->entries, sizeof *t->stamp);
	t->slots = calloc(g->entries, sizeof *t->slots);
	if (!t->head || !t->next || !t->stamp || !t->slots) {
		tlb_destroy(t);
		return HVPMU_ENOMEM;
	}
	memset(t->head, 0xff, t->hsize * sizeof *t->head);
	for (uint32_t k = 0; k < TLB_MICRO; k++)
		t->micro[k].vpn = TLB_NO_VPN;
	t->slots[0] = ~UINT64_C(0) >> (64 - TLB_MICRO); /* every slot's idx is 0 */
	*out = t;
	return HVPMU_OK;
}

void tlb_destroy(struct tlb *t)
{
	if (!t)
		return;
	free(t->e);
	free(t->head);
	free(t->next);
	free(t->stamp);
	free(t->slots);
	free(t);
}

static uint32_t hidx(const struct tlb *t, uint64_t va, unsigned code)
{
	uint64_t h = ((va >> TLB_PAGE_SHIFT(code)) ^ ((uint64_t)code << 58)) * UINT64_C(0x9e3779b97f4a7c15);

	return (uint32_t)(h >> 40) & (t->hsize - 1);
}

static void hash_add(struct tlb *t, uint32_t i)
{
	uint32_t b = hidx(t, t->e[i].va, t->e[i].code);

	t->next[i] = t->head[b];
	t->head[b] = (int32_t)i;
	t->nvalid++;
}

static void hash_del(struct tlb *t, uint32_t i)
{
	int32_t *p = &t->head[hidx(t, t->e[i].va, t->e[i].code)];

	while (*p != (int32_t)i)
		p = &t->next[*p];
	*p = t->next[i];
	t->nvalid--;
}

/* After a demap: entries changed, the pages of the micro slots are
 * forgotten, and the clock moves (stamps keep their order) so that a
 * fetch memo of the old entries is stale. */
static void hash_rebuild(struct tlb *t)
{
	for (uint32_t k = 0; k < TLB_MICRO; k++)
		t->micro[k].vpn = TLB_NO_VPN;
	t->clock++;
	t->cur = TLB_NO_CUR;
	memset(t->head, 0xff, t->hsize * sizeof *t->head);
	t->nvalid = 0;
	for (uint32_t i = 0; i < t->sets * t->ways; i++)
		if (t->e[i].key)
			hash_add(t, i);
}

static uint32_t tlb_nentries(const struct tlb *t)
{
	return t->sets * t->ways;
}

void tlb_demap_all(struct tlb *t)
{
	memset(t->e, 0, sizeof *t->e * tlb_nentries(t));
	t->codes = 0;
	hash_rebuild(t);
}

void tlb_demap_context(struct tlb *t, uint32_t ctx)
{
	for (uint32_t i = 0; i < tlb_nentries(t); i++)
		if (t->e[i].key == (ctx | TLB_ENTRY_VALID))
			t->e[i].key = 0;
	hash_rebuild(t);
}

void tlb_demap_range(struct tlb *t, uint32_t ctx, uint64_t va, uint64_t len)
{
	uint64_t last;

	if (!len)
		return;
	last = len - 1 > UINT64_MAX - va ? UINT64_MAX : va + len - 1;
	for (uint32_t i = 0; i < tlb_nentries(t); i++) {
		struct tlb_entry *e = &t->e[i];

		if (e->key == (ctx | TLB_ENTRY_VALID) && overlaps(e->va, e->va | ~e->mask, va, last))
			e->key = 0;
	}
	hash_rebuild(t);
}

uint32_t tlb_valid_entries(const struct tlb *t)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < tlb_nentries(t); i++)
		n += t->e[i].key != 0;
	return n;
}

static uint32_t tlb_set(const struct tlb *t, uint64_t va, unsigned code)
{
	return (uint32_t)(va >> TLB_PAGE_SHIFT(code)) & (t->sets - 1);
}

static int entry_matches(const struct tlb_entry *e, uint32_t key, uint64_t va)
{
	return e->key == key && !((va ^ e->va) & e->mask);
}

/* Index of the entry translating (ctx, va), or -1.  A set-associative TLB
 * indexes each page size by its own VPN, so every size present is probed. */
static int64_t tlb_find(const struct tlb *t, uint32_t ctx, uint64_t va)
{
	uint32_t key = ctx | TLB_ENTRY_VALID;

	if (t->sets == 1) {
		for (uint32_t codes = t->codes; codes; codes &= codes - 1) {
			unsigned code = (unsigned)__builtin_ctz(codes);

			for (int32_t i = t->head[hidx(t, va & ~(TLB_PAGE_SIZE(code) - 1), code)]; i >= 0; i = t->next[i])
				if (t->e[i].code == code && entry_matches(&t->e[i], key, va))
					return i;
		}
		return -1;
	}
	for (uint32_t codes = t->codes; codes; codes &= codes - 1) {
		unsigned code = (unsigned)__builtin_ctz(codes);
		uint32_t base = tlb_set(t, va, code) * t->ways;

		for (uint32_t w = 0; w < t->ways; w++)
			if (t->e[base + w].code == code && entry_matches(&t->e[base + w], key, va))
				return base + w;
	}
	return -1;
}

static void tlb_use(struct tlb *t, uint32_t idx, uint64_t va)
{
	uint32_t k = (uint32_t)(va >> TLB_PAGE_SHIFT_MIN) & (TLB_MICRO - 1);

	t->stamp[idx] = ++t->clock;
	t->cur = idx;
	t->slots[t->micro[k].idx] &= ~(UINT64_C(1) << k);
	t->slots[idx] |= UINT64_C(1) << k;
	t->micro[k].idx = idx;
	t->micro[k].vpn = TLB_NO_VPN; /* tlb_hit_fast() learns the page at its next hit */
}

int tlb_lookup(struct tlb *t, uint32_t ctx, uint64_t va, uint64_t *pa)
{
	int64_t idx = t->micro[(va >> TLB_PAGE_SHIFT_MIN) & (TLB_MICRO - 1)].idx;
	const struct tlb_entry *e;

	if (!entry_matches(&t->e[idx], ctx | TLB_ENTRY_VALID, va) && (idx = tlb_find(t, ctx, va)) < 0)
		return 0;
	tlb_use(t, (uint32_t)idx, va);
	e = &t->e[idx];
	*pa = e->pa | (va & ~e->mask);
	return 1;
}

/* Insert a translation: an invalid way of the set, else the least recently used. */
static void tlb_insert(struct tlb *t, uint32_t ctx, uint64_t va, uint64_t pa, unsigned code)
{
	uint32_t base = (t->sets == 1 ? 0 : tlb_set(t, va, code)) * t->ways;
	uint32_t victim = base;
	uint64_t oldest = UINT64_MAX;
	uint64_t mask = ~(TLB_PAGE_SIZE(code) - 1);
	struct tlb_entry *e;

	if (t->sets == 1 && t->nvalid == t->ways) {
		for (uint32_t w = 0; w < t->ways; w++) {
			uint64_t st = t->stamp[w];

			victim = st < oldest ? w : victim;
			oldest = st < oldest ? st : oldest;
		}
	} else {
		for (uint32_t w = 0; w < t->ways; w++) {
			e = &t->e[base + w];
			if (!e->key) {
				victim = base + w;
				break;
			}
			if (t->stamp[base + w] < oldest) {
				oldest = t->stamp[base + w];
				victim = base + w;
			}
		}
	}
	e = &t->e[victim];
	if (t->sets == 1 && e->key)
		hash_del(t, victim);
	for (uint64_t b = t->slots[victim]; b; b &= b - 1) /* slots of the entry replaced */
		t->micro[__builtin_ctzll(b)].vpn = TLB_NO_VPN;
	e->va = va & mask;
	e->mask = mask;
	e->pa = pa & mask;
	e->key = ctx | TLB_ENTRY_VALID;
	e->code = code;
	t->codes |= TLB_PGMASK(code);
	if (t->sets == 1)
		hash_add(t, victim);
	tlb_use(t, victim, va);
}

/* ---- modeled physical memory, address spaces, TSBs --------------------- */

struct region {
	uint64_t va;
	uint64_t last; /* inclusive */
	unsigned code;
};

/* A TSB entry as the guest stores it (tag, TTE) plus the page it maps,
 * kept by the model to invalidate entries when the page layout changes. */
struct tsb_slot {
	uint64_t tag;
	uint64_t tte;
	uint64_t va;
};

struct tsb {
	uint64_t pa;
	uint32_t entries;
	uint32_t shift; /* VA bits above this index the TSB */
	struct tsb_slot *slot;
};

struct space {
	struct region *r; /* sorted by va, disjoint */
	uint32_t nr, cap;
	uint32_t ntsb;
	struct tsb tsb[TLB_MAX_TSB];
};

struct frame {
	uint64_t va;
	uint64_t pa;
	uint32_t key; /* 0 = empty */
};

/* Physical blocks given back (tlb_mmu_free_context), by size: every block
 * is a power of two aligned to its size (frame groups, pages, TSBs), so a
 * free block serves the next request of its size as is (no coalescing). */
#define PHYS_SIZE_CLASSES 64
struct phys_free {
	uint64_t *pa;
	uint32_t n, cap;
};

struct tlb_mmu {
	struct tlb_mmu_config cfg;
	uint64_t next; /* first unassigned physical address */
	uint64_t end;  /* phys_base + phys_size */
	struct frame *f;
	uint64_t fcap, fcount;
	struct space *sp[TLB_NCTX];
	struct phys_free free[PHYS_SIZE_CLASSES]; /* by log2 of the size */
	uint64_t freed;  /* bytes in the free lists */
};

static int tsb_entries_ok(uint32_t n)
{
	return is_pow2(n) && n >= TLB_TSB_MIN_ENTRIES && n <= MAX_TSB_ENTRIES;
}

static int config_ok(const struct tlb_mmu_config *c)
{
	if (c->phys_size == 0 || c->phys_size > PA_LIMIT || c->phys_base > PA_LIMIT - c->phys_size ||
	    c->phys_base & (TLB_PAGE_SIZE(TLB_PGSZ_8K) - 1))
		return 0;
	if (!(c->pgsz_mask & TLB_PGMASK(TLB_PGSZ_8K)) || c->pgsz_mask >> TLB_NPGSZ)
		return 0;
	if (c->tsb_layout != TLB_TSB_SPLIT && c->tsb_layout != TLB_TSB_SHARED)
		return 0;
	if (!tsb_entries_ok(c->tsb_entries[0]) ||
	    (c->tsb_layout == TLB_TSB_SPLIT && !tsb_entries_ok(c->tsb_entries[1])))
		return 0;
	if (c->retry != TLB_RETRY_WALK && c->retry != TLB_RETRY_OS_LOADS)
		return 0;
	if (c->walk_base_cycles > MAX_COST_CYCLES || c->fill_trap_cycles > MAX_COST_CYCLES)
		return 0;
	for (int r = 0; r < TLB_NREF; r++)
		if (c->ref_cycles[r] > MAX_COST_CYCLES / TLB_MAX_TSB)
			return 0;
	return 1;
}

int tlb_mmu_create(const struct tlb_mmu_config *cfg, struct tlb_mmu **out)
{
	struct tlb_mmu *m;

	if (!cfg || !out || !config_ok(cfg))
		return HVPMU_EINVAL;
	m = calloc(1, sizeof *m);
	if (!m)
		return HVPMU_ENOMEM;
	m->f = calloc(FRAME_TABLE_MIN, sizeof *m->f);
	if (!m->f) {
		free(m);
		return HVPMU_ENOMEM;
	}
	m->cfg = *cfg;
	m->next = cfg->phys_base;
	m->end = cfg->phys_base + cfg->phys_size;
	m->fcap = FRAME_TABLE_MIN;
	*out = m;
	return HVPMU_OK;
}

static void space_free(struct space *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < TLB_MAX_TSB; i++)
		free(s->tsb[i].slot);
	free(s->r);
	free(s);
}

void tlb_mmu_destroy(struct tlb_mmu *m)
{
	if (!m)
		return;
	for (uint32_t c = 0; c < TLB_NCTX; c++)
		space_free(m->sp[c]);
	for (unsigned k = 0; k < PHYS_SIZE_CLASSES; k++)
		free(m->free[k].pa);
	free(m->f);
	free(m);
}

const struct tlb_mmu_config *tlb_mmu_config(const struct tlb_mmu *m)
{
	return &m->cfg;
}

uint64_t tlb_mmu_frames(const struct tlb_mmu *m)
{
	return m->fcount;
}

uint64_t tlb_mmu_phys_next(const struct tlb_mmu *m)
{
	return m->next;
}

/* Carve `size` bytes aligned to `align` (a power of two) from the range:
 * a block of that size given back before (last in, first out), else the
 * first unassigned address. */
static int phys_alloc(struct tlb_mmu *m, uint64_t size, uint64_t align, uint64_t *pa)
{
	uint64_t p;
	unsigned k = (unsigned)__builtin_ctzll(size);

	if (size == align && !(size & (size - 1)) && m->free[k].n) {
		*pa = m->free[k].pa[--m->free[k].n];
		m->freed -= size;
		return HVPMU_OK;
	}

	if (m->next > UINT64_MAX - (align - 1))
		return HVPMU_EFULL;
	p = (m->next + align - 1) & ~(align - 1);
	if (p > m->end || size > m->end - p)
		return HVPMU_EFULL;
	m->next = p + size;
	*pa = p;
	return HVPMU_OK;
}

/* TSB `i` of a space: TSB0 indexes by 8 KB pages, TSB1 by 4 MB pages. */
static int tsb_add(struct tlb_mmu *m, struct space *s, unsigned i)
{
	struct tsb *b = &s->tsb[i];
	uint64_t bytes = (uint64_t)m->cfg.tsb_entries[i] * TLB_TSB_ENTRY_BYTES;
	int rc;

	b->slot = calloc(m->cfg.tsb_entries[i], sizeof *b->slot);
	if (!b->slot)
		return HVPMU_ENOMEM;
	rc = phys_alloc(m, bytes, bytes, &b->pa);
	if (rc) {
		free(b->slot);
		b->slot = NULL;
		return rc;
	}
	b->entries = m->cfg.tsb_entries[i];
	b->shift = i == 0 ? TSB0_INDEX_SHIFT : TSB1_INDEX_SHIFT;
	s->ntsb = i + 1;
	return HVPMU_OK;
}

static int get_space(struct tlb_mmu *m, uint32_t ctx, struct space **out)
{
	struct space *s = m->sp[ctx];
	int rc;

	if (!s) {
		s = calloc(1, sizeof *s);
		if (!s)
			return HVPMU_ENOMEM;
		rc = tsb_add(m, s, 0);
		if (rc) {
			free(s);
			return rc;
		}
		m->sp[ctx] = s;
	}
	*out = s;
	return HVPMU_OK;
}

/* The TSB a page of size `code` lives in, and whether TSB i holds that size. */
static unsigned tsb_for_code(const struct tlb_mmu *m, unsigned code)
{
	return m->cfg.tsb_layout == TLB_TSB_SPLIT && code >= TLB_PGSZ_4M;
}

static uint64_t tsb_index(const struct tsb *b, uint64_t va)
{
	return (va >> b->shift) & (b->entries - 1);
}

static uint64_t tsb_tag(uint32_t ctx, uint64_t va)
{
	return ((uint64_t)ctx << TLB_TAG_CTX_SHIFT) | (va >> TLB_TAG_VA_SHIFT);
}

static uint64_t make_tte(uint32_t ctx, uint64_t pa, unsigned code)
{
	return TLB_TTE_V | (pa & TLB_TTE_PA_MASK) | TLB_TTE_CP | TLB_TTE_CV |
	       (ctx == 0 ? TLB_TTE_P : 0) | TLB_TTE_X | TLB_TTE_W | code;
}

static const struct region *region_find(const struct space *s, uint64_t va)
{
	uint32_t lo = 0, hi = s->nr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->r[mid].va <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || va > s->r[lo - 1].last)
		return NULL;
	return &s->r[lo - 1];
}

static unsigned space_code(const struct space *s, uint64_t va)
{
	const struct region *r = s ? region_find(s, va) : NULL;

	return r ? r->code : TLB_PGSZ_8K;
}

int tlb_mmu_page_size(const struct tlb_mmu *m, uint32_t ctx, uint64_t va)
{
	if (!m || ctx >= TLB_NCTX)
		return HVPMU_EINVAL;
	return (int)space_code(m->sp[ctx], va);
}

int tlb_mmu_add_region(struct tlb_mmu *m, uint32_t ctx, uint64_t va, uint64_t len, unsigned code)
{
	struct space *s;
	uint64_t size, last;
	uint32_t pos;
	int rc;

	if (!m || ctx >= TLB_NCTX || code >= TLB_NPGSZ || !(m->cfg.pgsz_mask & TLB_PGMASK(code)) || !len)
		return HVPMU_EINVAL;
	size = TLB_PAGE_SIZE(code);
	if ((va | len) & (size - 1) || len - 1 > UINT64_MAX - va)
		return HVPMU_EINVAL;
	last = va + len - 1;
	rc = get_space(m, ctx, &s);
	if (rc)
		return rc;
	for (pos = 0; pos < s->nr && s->r[pos].va <= va; pos++)
		;
	if ((pos > 0 && s->r[pos - 1].last >= va) || (pos < s->nr && s->r[pos].va <= last))
		return HVPMU_EINVAL;
	if (s->nr == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : REGIONS_MIN;
		struct region *r = realloc(s->r, cap * sizeof *r);

		if (!r)
			return HVPMU_ENOMEM;
		s->r = r;
		s->cap = cap;
	}
	if (tsb_for_code(m, code) == 1 && s->ntsb < 2) {
		rc = tsb_add(m, s, 1);
		if (rc)
			return rc;
	}
	memmove(&s->r[pos + 1], &s->r[pos], (s->nr - pos) * sizeof *s->r);
	s->r[pos] = (struct region){ .va = va, .last = last, .code = code };
	s->nr++;
	/* Translations of the old layout must not be found by a walk. */
	for (unsigned i = 0; i < s->ntsb; i++) {
		struct tsb *b = &s->tsb[i];

		for (uint32_t j = 0; j < b->entries; j++) {
			struct tsb_slot *sl = &b->slot[j];
			uint64_t psize = TLB_PAGE_SIZE(sl->tte & TLB_TTE_SZ_MASK);

			if ((sl->tte & TLB_TTE_V) && overlaps(sl->va, sl->va + psize - 1, va, last))
				memset(sl, 0, sizeof *sl);
		}
	}
	return HVPMU_OK;
}

static uint64_t frame_hash(uint64_t va, uint32_t key)
{
	uint64_t h = (va >> TLB_PAGE_SHIFT_MIN) ^ ((uint64_t)key << 43);

	/* splitmix64 finaliser */
	h ^= h >> 30;
	h *= UINT64_C(0xbf58476d1ce4e5b9);
	h ^= h >> 27;
	h *= UINT64_C(0x94d049bb133111eb);
	h ^= h >> 31;
	return h;
}

static struct frame *frame_slot(struct frame *f, uint64_t cap, uint64_t va, uint32_t key)
{
	uint64_t i = frame_hash(va, key) & (cap - 1);

	while (f[i].key && (f[i].key != key || f[i].va != va))
		i = (i + 1) & (cap - 1);
	return &f[i];
}

static int frame_grow(struct tlb_mmu *m)
{
	uint64_t cap = m->fcap * 2;
	struct frame *f = calloc(cap, sizeof *f);

	if (!f)
		return HVPMU_ENOMEM;
	for (uint64_t i = 0; i < m->fcap; i++)
		if (m->f[i].key)
			*frame_slot(f, cap, m->f[i].va, m->f[i].key) = m->f[i];
	free(m->f);
	m->f = f;
	m->fcap = cap;
	return HVPMU_OK;
}

/* Frame of a base page in a frame group (cfg.frame_group): the group's
 * physical block if another page of the group has one, else a new block;
 * the page's place in it is its place in the virtual group. */
static int group_frame(struct tlb_mmu *m, uint32_t key, uint64_t page_va, uint64_t *pa)
{
	uint64_t g = m->cfg.frame_group, base = page_va & ~(g - 1), off = page_va - base;

	for (uint64_t p = base; p < base + g; p += TLB_PAGE_SIZE(0)) {
		const struct frame *f = p == page_va ? NULL : frame_slot(m->f, m->fcap, p, key);

		if (f && f->key) { /* a page of the group has its frame: the block is known */
			*pa = f->pa - (p - base) + off;
			return HVPMU_OK;
		}
	}
	if (phys_alloc(m, g, g, pa))
		return HVPMU_EFULL;
	*pa += off;
	return HVPMU_OK;
}

/* Physical frame of the page (ctx, page_va, code): first touch assigns it. */
static int frame_get(struct tlb_mmu *m, uint32_t ctx, uint64_t page_va, unsigned code, uint64_t *pa)
{
	uint32_t key = ctx | (code << FRAME_KEY_CODE_SHIFT) | FRAME_KEY_USED;
	struct frame *f = frame_slot(m->f, m->fcap, page_va, key);
	int rc;

	if (!f->key) {
		if ((m->fcount + 1) * 2 > m->fcap) {
			rc = frame_grow(m);
			if (rc)
				return rc;
			f = frame_slot(m->f, m->fcap, page_va, key);
		}
		if (code == 0 && m->cfg.frame_group > TLB_PAGE_SIZE(0))
			rc = group_frame(m, key, page_va, &f->pa);
		else
			rc = phys_alloc(m, TLB_PAGE_SIZE(code), TLB_PAGE_SIZE(code), &f->pa);
		if (rc)
			return rc;
		f->va = page_va;
		f->key = key;
		m->fcount++;
	}
	*pa = f->pa;
	return HVPMU_OK;
}

/* Page of (ctx, va): its space, size code and page-aligned PA. */
static int resolve(struct tlb_mmu *m, uint32_t ctx, uint64_t va, struct space **s, unsigned *code,
		   uint64_t *page_pa)
{
	int rc = get_space(m, ctx, s);

	if (rc)
		return rc;
	*code = space_code(*s, va);
	return frame_get(m, ctx, va & ~(TLB_PAGE_SIZE(*code) - 1), *code, page_pa);
}

int tlb_mmu_translate(struct tlb_mmu *m, uint32_t ctx, uint64_t va, uint64_t *pa, unsigned *code)
{
	struct space *s;
	unsigned c;
	uint64_t page_pa;
	int rc;

	if (!m || !pa || ctx >= TLB_NCTX)
		return HVPMU_EINVAL;
	rc = resolve(m, ctx, va, &s, &c, &page_pa);
	if (rc)
		return rc;
	*pa = page_pa | (va & (TLB_PAGE_SIZE(c) - 1));
	if (code)
		*code = c;
	return HVPMU_OK;
}

int tlb_mmu_tsb_base(struct tlb_mmu *m, uint32_t ctx, unsigned i, uint64_t *pa)
{
	struct space *s;
	int rc;

	if (!m || !pa || ctx >= TLB_NCTX)
		return HVPMU_EINVAL;
	rc = get_space(m, ctx, &s);
	if (rc)
		return rc;
	if (i >= s->ntsb)
		return HVPMU_ERANGE;
	*pa = s->tsb[i].pa;
	return HVPMU_OK;
}

/* Give a block of `size` (a power of two, aligned) back. */
static int phys_free(struct tlb_mmu *m, uint64_t pa, uint64_t size)
{
	struct phys_free *fl = &m->free[__builtin_ctzll(size)];

	if (fl->n == fl->cap) {
		uint32_t cap = fl->cap ? 2 * fl->cap : 64;
		uint64_t *np = realloc(fl->pa, cap * sizeof *np);

		if (!np)
			return HVPMU_ENOMEM;
		fl->pa = np;
		fl->cap = cap;
	}
	fl->pa[fl->n++] = pa;
	m->freed += size;
	return HVPMU_OK;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int tlb_mmu_free_context(struct tlb_mmu *m, uint32_t ctx, tlb_freed_fn freed, void *arg)
{
	struct space *s;
	struct frame *f;
	uint64_t *blocks, nb = 0, g;
	int rc = HVPMU_OK;

	if (!m || ctx == 0 || ctx >= TLB_NCTX)
		return HVPMU_EINVAL;
	g = m->cfg.frame_group > TLB_PAGE_SIZE(0) ? m->cfg.frame_group : TLB_PAGE_SIZE(0);
	/* the context's frames: out of the table (rebuilt without them), their
	 * blocks (a frame group's pages share one) back to the free lists */
	if (!(f = calloc(m->fcap, sizeof *f)) || !(blocks = malloc((m->fcount + 1) * sizeof *blocks))) {
		free(f);
		return HVPMU_ENOMEM;
	}
	for (uint64_t i = 0; i < m->fcap; i++) {
		const struct frame *e = &m->f[i];
		unsigned code;

		if (!e->key)
			continue;
		if ((e->key & (TLB_NCTX - 1)) != ctx) {
			*frame_slot(f, m->fcap, e->va, e->key) = *e;
			continue;
		}
		code = (e->key >> FRAME_KEY_CODE_SHIFT) & 7u;
		blocks[nb++] = code == 0 ? (e->pa & ~(g - 1)) | 1u : e->pa | (uint64_t)(code + 1) << 1;
		m->fcount--;
	}
	free(m->f);
	m->f = f;
	/* each block once: a base page's group (tag 1) or a large page (tag code + 1 << 1) */
	qsort(blocks, nb, sizeof *blocks, cmp_u64);
	for (uint64_t i = 0; i < nb && !rc; i++) {
		uint64_t b = blocks[i], size;

		if (i && blocks[i - 1] == b)
			continue;
		size = b & 1 ? g : TLB_PAGE_SIZE((unsigned)((b & 0x1F) >> 1) - 1);
		rc = phys_free(m, b & ~UINT64_C(0x1F), size);
		if (freed)
			freed(arg, b & ~UINT64_C(0x1F), size);
	}
	free(blocks);
	/* its address space: page layout and TSBs (their memory back too) */
	if ((s = m->sp[ctx])) {
		for (unsigned i = 0; i < s->ntsb && !rc; i++) {
			rc = phys_free(m, s->tsb[i].pa, (uint64_t)s->tsb[i].entries * TLB_TSB_ENTRY_BYTES);
			if (freed)
				freed(arg, s->tsb[i].pa, (uint64_t)s->tsb[i].entries * TLB_TSB_ENTRY_BYTES);
		}
		space_free(s);
		m->sp[ctx] = NULL;
	}
	return rc;
}

uint64_t tlb_mmu_phys_free(const struct tlb_mmu *m)
{
	return m->freed;
}

/* ---- tablewalk ---------------------------------------------------------- */

/*
 * One hardware tablewalk: probe the space's TSBs in order, one memory
 * reference each, stop at the first entry whose tag matches and whose TTE
 * is valid and of a size that TSB holds.  Returns 1 and the TTE on a hit.
 */
static int walk(const struct tlb_mmu *m, const struct space *s, struct tlb_stats *st, enum tlb_side side,
		uint32_t ctx, uint64_t va, tlb_ref_fn ref, void *ref_ctx, uint32_t *cycles, uint64_t *tte)
{
	uint64_t tag = tsb_tag(ctx, va);
	uint32_t c = m->cfg.walk_base_cycles;
	int hit = 0;

	st->miss[side]++;
	for (unsigned i = 0; i < s->ntsb && !hit; i++) {
		const struct tsb *b = &s->tsb[i];
		uint64_t idx = tsb_index(b, va);
		const struct tsb_slot *sl = &b->slot[idx];
		int r = ref ? ref(ref_ctx, b->pa + idx * TLB_TSB_ENTRY_BYTES) : TLB_REF_L2;

		if (r < 0 || r >= TLB_NREF)
			r = TLB_REF_MEM;
		st->hwtw_ref[side][r]++;
		c += m->cfg.ref_cycles[r];
		if ((sl->tte & TLB_TTE_V) && sl->tag == tag &&
		    tsb_for_code(m, (unsigned)(sl->tte & TLB_TTE_SZ_MASK)) == i) {
			*tte = sl->tte;
			hit = 1;
		}
	}
	st->walk_cycles[side] += c;
	*cycles = c;
	return hit;
}

/* Count a successful walk and fill the TLB from the TTE it found. */
static void fill(struct tlb *t, struct tlb_stats *st, uint32_t ctx, uint64_t va, uint64_t tte,
		 uint32_t cycles)
{
	unsigned code = (unsigned)(tte & TLB_TTE_SZ_MASK);
	int cls = tlb_fill_class(code);

	if (cls >= 0)
		st->fill[t->side][cls]++;
	if (code < TLB_NPGSZ) {
		st->tsb[t->side][ctx != 0][code].hits++;
		st->tsb[t->side][ctx != 0][code].ticks += cycles;
	}
	tlb_insert(t, ctx, va, tte & TLB_TTE_PA_MASK, code);
}

/* The guest's fill-trap handler stores the TTE in the page's TSB entry. */
static void os_tsb_write(const struct tlb_mmu *m, struct space *s, uint32_t ctx, uint64_t va,
			 unsigned code, uint64_t page_pa)
{
	struct tsb *b = &s->tsb[tsb_for_code(m, code)];
	struct tsb_slot *sl = &b->slot[tsb_index(b, va)];

	sl->tag = tsb_tag(ctx, va);
	sl->tte = make_tte(ctx, page_pa, code);
	sl->va = va & ~(TLB_PAGE_SIZE(code) - 1);
}

int tlb_access(struct tlb *t, struct tlb_mmu *m, struct tlb_stats *st, uint32_t ctx, uint64_t va,
	       tlb_ref_fn ref, void *ref_ctx, struct tlb_result *res)
{
	struct space *s;
	unsigned code;
	uint64_t page_pa, tte = 0;
	uint32_t cycles;
	int64_t idx;
	int rc;

	if (!t || !m || !st || !res || ctx >= TLB_NCTX)
		return HVPMU_EINVAL;
	memset(res, 0, sizeof *res);
	idx = t->micro[(va >> TLB_PAGE_SHIFT_MIN) & (TLB_MICRO - 1)].idx;
	if (!entry_matches(&t->e[idx], ctx | TLB_ENTRY_VALID, va))
		idx = tlb_find(t, ctx, va);
	if (idx >= 0) {
		const struct tlb_entry *e = &t->e[idx];

		tlb_use(t, (uint32_t)idx, va);
		res->pa = e->pa | (va & ~e->mask);
		res->code = (uint8_t)e->code;
		return 0;
	}
	/* A walk that will hit its TSB needs no frame lookup (it cannot fail). */
	if ((s = m->sp[ctx])) {
		uint64_t tag = tsb_tag(ctx, va);

		for (unsigned i = 0; i < s->ntsb; i++) {
			const struct tsb_slot *sl = &s->tsb[i].slot[tsb_index(&s->tsb[i], va)];

			if ((sl->tte & TLB_TTE_V) && sl->tag == tag &&
			    tsb_for_code(m, (unsigned)(sl->tte & TLB_TTE_SZ_MASK)) == i) {
				code = (unsigned)(sl->tte & TLB_TTE_SZ_MASK);
				res->code = (uint8_t)code;
				res->pa = (sl->tte & TLB_TTE_PA_MASK & ~(TLB_PAGE_SIZE(code) - 1)) |
					  (va & (TLB_PAGE_SIZE(code) - 1));
				res->walks = 1;
				walk(m, s, st, t->side, ctx, va, ref, ref_ctx, &cycles, &tte);
				fill(t, st, ctx, va, tte, cycles);
				res->walk_cycles = cycles;
				return (int)cycles;
			}
		}
	}
	/* Resolve the translation first: an error leaves every counter as it was. */
	rc = resolve(m, ctx, va, &s, &code, &page_pa);
	if (rc)
		return rc;
	res->code = (uint8_t)code;
	res->pa = page_pa | (va & (TLB_PAGE_SIZE(code) - 1));
	res->walks = 1;
	if (walk(m, s, st, t->side, ctx, va, ref, ref_ctx, &cycles, &tte)) {
		fill(t, st, ctx, va, tte, cycles);
		res->walk_cycles = cycles;
		return (int)cycles;
	}
	res->walk_cycles = cycles;
	res->trapped = 1;
	res->trap_cycles = m->cfg.fill_trap_cycles;
	st->fill_trap[t->side]++;
	st->trap_cycles[t->side] += m->cfg.fill_trap_cycles;
	os_tsb_write(m, s, ctx, va, code, page_pa);
	if (m->cfg.retry == TLB_RETRY_OS_LOADS) {
		tlb_insert(t, ctx, va, page_pa, code);
		return (int)res->walk_cycles;
	}
	res->walks = 2;
	if (walk(m, s, st, t->side, ctx, va, ref, ref_ctx, &cycles, &tte))
		fill(t, st, ctx, va, tte, cycles);
	else
		tlb_insert(t, ctx, va, page_pa, code); /* not reached: the handler just wrote the entry */
	res->walk_cycles += cycles;
	return (int)res->walk_cycles;
}
