/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * TLBs, the guest's page layout and the TSB hardware tablewalk (layer 2),
 * behind TABLE 10-2 of sparc-t4-performance-instrumentation.md:
 *   sl=5 mask 0x10   ITLB misses (successful and unsuccessful walks),
 *   sl=6 / sl=17     ITLB / DTLB fills per page size (masks 0x01..0x10)
 *                    and fill traps (mask 0x20: walk unsuccessful),
 *   sl=10            HWTW references that hit L2 / hit L3 / miss L3,
 * and the TSB-hit statistics of niagara-mmustat-api.txt §2.3 (hits and
 * %tick cycles per I/D, ctx0/ctxnon0 and TTE size code).
 *
 * Objects:
 *   struct tlb      one ITLB or DTLB: entries, associativity, LRU, a small
 *                   MRU array in front so that a hit costs a few compares;
 *   struct tlb_mmu  the machine's translation state: per context, regions
 *                   with their page size, first-touch physical frames, and
 *                   the TSBs in modeled physical memory;
 *   struct tlb_stats  per-strand monotonic counters the PMU reads.
 * Every choice (geometry, TSB layout, costs) is in docs/tlb-model.md.
 * Not thread-safe: the caller serialises access to a tlb and a tlb_mmu.
 */
#ifndef HVPMU_MODEL_TLB_H
#define HVPMU_MODEL_TLB_H

#include <stdint.h>

/*
 * sun4v TTE page-size codes, TTE bits 3:0 (Linux
 * arch/sparc/include/asm/pgtable_64.h _PAGE_SZ*_4V; the OpenSPARC
 * hypervisor reads bits 3:0, reference/hw-and-hypervisor.md §1.5).
 * Page size = 8 KB << (3 * code).
 */
enum tlb_pgsz {
	TLB_PGSZ_8K = 0,
	TLB_PGSZ_64K = 1,
	TLB_PGSZ_512K = 2,
	TLB_PGSZ_4M = 3,
	TLB_PGSZ_32M = 4,
	TLB_PGSZ_256M = 5,
	TLB_PGSZ_2G = 6,
	TLB_PGSZ_16G = 7,
	TLB_NPGSZ = 8,
};
#define TLB_PAGE_SHIFT_MIN 13
#define TLB_PAGE_SHIFT(code) (TLB_PAGE_SHIFT_MIN + 3u * (unsigned)(code))
#define TLB_PAGE_SIZE(code) (UINT64_C(1) << TLB_PAGE_SHIFT(code))
#define TLB_PGMASK(code) (1u << (code))
/* Page sizes of TABLE 10-2 sl=6/17 (T4) and of T1 (TTE_VALIDSIZEARRAY). */
#define TLB_PGMASK_T4 (TLB_PGMASK(TLB_PGSZ_8K) | TLB_PGMASK(TLB_PGSZ_64K) | TLB_PGMASK(TLB_PGSZ_4M) | \
		       TLB_PGMASK(TLB_PGSZ_256M) | TLB_PGMASK(TLB_PGSZ_2G))
#define TLB_PGMASK_T1 (TLB_PGMASK(TLB_PGSZ_8K) | TLB_PGMASK(TLB_PGSZ_64K) | TLB_PGMASK(TLB_PGSZ_4M) | \
		       TLB_PGMASK(TLB_PGSZ_256M))

/* Fill counters of sl=6 (ITLB) and sl=17 (DTLB): mask bit = 1 << class. */
enum tlb_fill_class {
	TLB_FILL_8K = 0,   /* mask 0x01 */
	TLB_FILL_64K = 1,  /* mask 0x02 */
	TLB_FILL_4M = 2,   /* mask 0x04 */
	TLB_FILL_256M = 3, /* mask 0x08 */
	TLB_FILL_2G = 4,   /* mask 0x10 */
	TLB_NFILL = 5,
};
#define TLB_FILL_TRAP_MASK 0x20 /* sl=6/17 mask 0x20: hardware tablewalk unsuccessful */

/* Fill class of a size code, or -1 for sizes TABLE 10-2 does not count. */
int tlb_fill_class(unsigned code);

/*
 * sun4v TTE (data) fields, Linux pgtable_64.h _PAGE_*_4V.
 */
#define TLB_TTE_V (UINT64_C(1) << 63)                /* _PAGE_VALID */
#define TLB_TTE_PA_MASK UINT64_C(0x00FFFFFFFFFFE000) /* _PAGE_PADDR_4V: PA[55:13] */
#define TLB_TTE_CP (UINT64_C(1) << 10)               /* cacheable in physically indexed caches */
#define TLB_TTE_CV (UINT64_C(1) << 9)                /* cacheable in virtually indexed caches */
#define TLB_TTE_P (UINT64_C(1) << 8)                 /* privileged page */
#define TLB_TTE_X (UINT64_C(1) << 7)                 /* executable */
#define TLB_TTE_W (UINT64_C(1) << 6)                 /* writable */
#define TLB_TTE_SZ_MASK UINT64_C(0xF)                /* size code, bits 3:0 */

/*
 * TSB tag = the MMU tag-target register: context in bits 60:48, VA[63:22]
 * in bits 41:0 (Linux arch/sparc/include/asm/tsb.h; hypervisor
 * TAGTRG_CTX_RSHIFT 48, TAGTRG_VA_LSHIFT 22).  16-byte TSB entries: the
 * tag, then the TTE.
 */
#define TLB_TAG_CTX_SHIFT 48
#define TLB_TAG_VA_SHIFT 22
#define TLB_TSB_ENTRY_BYTES 16
#define TLB_TSB_MIN_ENTRIES 512 /* TSB sizes are 512 << n entries (TSB_SZ0_ENTRIES) */
#define TLB_NCTX 8192           /* 13-bit contexts */
#define TLB_MAX_TSB 2           /* TSB0 (base pages) and TSB1 (large pages) */

/* I- or D-side: selects the counters of a struct tlb_stats. */
enum tlb_side {
	TLB_SIDE_I = 0,
	TLB_SIDE_D = 1,
	TLB_NSIDES = 2,
};

/* Where a tablewalk reference was satisfied (TABLE 10-2 sl=10). */
enum tlb_ref {
	TLB_REF_L2 = 0,  /* hit L2: I mask 0x01, D mask 0x08 */
	TLB_REF_L3 = 1,  /* missed L2, hit L3 or another L2 (C2C): I 0x02, D 0x10 */
	TLB_REF_MEM = 2, /* missed L2 and L3: I 0x04, D 0x20 */
	TLB_NREF = 3,
};
/* sl=10 mask bit of a reference: side I -> bits 0..2, side D -> bits 3..5. */
#define TLB_HWTW_MASK(side, ref) (1u << (3u * (unsigned)(side) + (unsigned)(ref)))

/*
 * Memory reference of one TSB probe, supplied by the cache hierarchy:
 * looks `paddr` up (updating the caches) and returns an enum tlb_ref.
 * Out-of-range values count as TLB_REF_MEM.
 */
typedef int (*tlb_ref_fn)(void *ref_ctx, uint64_t paddr);

/* One slot of the Niagara MMU statistics buffer (mmustat §2.3). */
struct tlb_tsb_stat {
	uint64_t hits;
	uint64_t ticks; /* cycles of the walks that hit, summed */
};

/*
 * Per-strand monotonic counters.  Zero-initialise; never reset by the
 * model.  Invariant: miss[s] == sum(fill[s]) + fill_trap[s].
 */
struct tlb_stats {
	uint64_t miss[TLB_NSIDES];                /* tablewalks: I = sl=5 mask 0x10; = sl=6/17 mask 0x3F */
	uint64_t fill[TLB_NSIDES][TLB_NFILL];     /* sl=6 (I) / sl=17 (D) masks 0x01..0x10 */
	uint64_t fill_trap[TLB_NSIDES];           /* sl=6 / sl=17 mask 0x20 */
	uint64_t hwtw_ref[TLB_NSIDES][TLB_NREF];  /* sl=10 */
	/* [side][ctx != 0][size code]: the layout of the mmustat buffer, whose
	 * byte offset is side*0x100 + ctxnon0*0x80 + code*0x10 (+8 for ticks). */
	struct tlb_tsb_stat tsb[TLB_NSIDES][2][TLB_NPGSZ];
	uint64_t walk_cycles[TLB_NSIDES];         /* all tablewalk cycles (hits and misses) */
	uint64_t trap_cycles[TLB_NSIDES];         /* guest fill-trap handler cycles */
};

/* Geometry of one TLB.  ways == 0 or ways == entries: fully associative. */
struct tlb_geom {
	uint32_t entries;
	uint32_t ways;
};

/* TSB organisation of every context (docs/tlb-model.md). */
enum tlb_tsb_layout {
	TLB_TSB_SPLIT = 0,  /* TSB0 (8K/64K, index VA>>13) + TSB1 (4M and up, index VA>>22),
			       TSB1 created with the context's first large-page region */
	TLB_TSB_SHARED = 1, /* one TSB for every size, index VA>>13 */
};

/* What follows a fill trap. */
enum tlb_retry {
	TLB_RETRY_WALK = 0,     /* the OS writes the TSB, the access retries and walks again */
	TLB_RETRY_OS_LOADS = 1, /* the OS also loads the TLB itself (Linux sun4v: mmu_map_addr) */
};

struct tlb_mmu_config {
	uint64_t phys_base;     /* modeled physical memory for frames and TSBs */
	uint64_t phys_size;
	uint32_t pgsz_mask;     /* supported size codes (TLB_PGMASK bits) */
	enum tlb_tsb_layout tsb_layout;
	uint32_t tsb_entries[TLB_MAX_TSB]; /* 512 << n each */
	enum tlb_retry retry;
	uint32_t walk_base_cycles;         /* fixed cost of one tablewalk */
	uint32_t ref_cycles[TLB_NREF];     /* latency of one TSB probe by outcome */
	uint32_t fill_trap_cycles;         /* guest OS handler: page-table walk + TSB store */
	/* 0, or bytes (a power of two above 8 KB): the 8 KB pages of an aligned
	 * group of this many bytes of virtual memory get their frames in one
	 * aligned group of physical memory, in the same order, whichever page
	 * is touched first (the Origin: 16 KB, IRIX's page) */
	uint32_t frame_group;
};

/* Chip defaults as data (docs/tlb-model.md, docs/machine-figures.md §4, §6). */
struct tlb_chip {
	const char *name;
	struct tlb_geom itlb;
	struct tlb_geom dtlb;
	struct tlb_mmu_config mmu;
};
extern const struct tlb_chip tlb_chip_t4;
extern const struct tlb_chip tlb_chip_t1;
extern const struct tlb_chip tlb_chip_origin;
extern const struct tlb_chip tlb_chip_power;

/* ---- TLB ------------------------------------------------------------ */

#define TLB_MICRO 64 /* MRU array, indexed by VA bits 18:13 (at most 64: tlb->slots) */
#define TLB_ENTRY_VALID (1u << 16)

struct tlb_entry {
	uint64_t va;    /* page-aligned */
	uint64_t mask;  /* ~(page size - 1) */
	uint64_t pa;    /* page-aligned */
	uint32_t key;   /* ctx | TLB_ENTRY_VALID; 0 = invalid */
	uint32_t code;
};

struct tlb {
	enum tlb_side side;
	uint32_t sets, ways;
	uint32_t codes;  /* size codes ever inserted (set-associative probing) */
	uint64_t clock;
	/* the entry whose stamp equals clock (its use changes nothing), or
	 * TLB_NO_CUR when not known; kept wherever clock or a stamp moves */
	uint32_t cur;
	/* MRU slots: the entry index of a recent hit, and the 8 KB page the
	 * slot was last used for with its context and PA: a hit there needs no
	 * entry compare (vpn TLB_NO_VPN = none; reset whenever the slot's
	 * entry changes).  One 24-byte record per slot: the hot path touches
	 * one host cache line for them. */
	struct tlb_micro {
		uint64_t vpn;
		uint64_t pa;
		uint32_t ctx;
		uint32_t idx;
	} micro[TLB_MICRO];
	struct tlb_entry *e;       /* [sets * ways] */
	/* fully associative: exact hash index of valid entries by (page, code) */
	int32_t *head;             /* [hsize] first entry of each bucket, -1 */
	int32_t *next;             /* [entries] */
	uint32_t hsize;
	uint32_t nvalid;
	uint64_t *stamp;           /* [entries] LRU: clock of the last use */
	uint64_t *slots;           /* [entries] bit k: micro[k].idx is this entry */
};
#define TLB_NO_VPN UINT64_MAX
#define TLB_NO_CUR UINT32_MAX

/* Create an empty TLB.  0, HVPMU_EINVAL (bad geometry) or HVPMU_ENOMEM. */
int tlb_create(const struct tlb_geom *g, enum tlb_side side, struct tlb **out);
void tlb_destroy(struct tlb *t);
/* Invalidate every entry / those of `ctx` / those of `ctx` overlapping [va, va+len). */
void tlb_demap_all(struct tlb *t);
void tlb_demap_context(struct tlb *t, uint32_t ctx);
void tlb_demap_range(struct tlb *t, uint32_t ctx, uint64_t va, uint64_t len);
/* Valid entries (for tests and statistics). */
uint32_t tlb_valid_entries(const struct tlb *t);

/*
 * Hottest path: 1 and *pa if (ctx, va) is in the 8 KB page its MRU slot
 * was last used for (counts as a use for LRU); 0 otherwise, with nothing
 * changed (tlb_hit_fast() then tries the slot's entry).
 */
static inline int tlb_hit_micro(struct tlb *t, uint32_t ctx, uint64_t va, uint64_t *pa)
{
	uint64_t vpn = va >> TLB_PAGE_SHIFT_MIN;
	const struct tlb_micro *mu = &t->micro[(uint32_t)vpn & (TLB_MICRO - 1)];
	uint64_t *st;

	/* the 8 KB page this slot was last used for: its entry, unchanged */
	if (mu->vpn != vpn || mu->ctx != ctx)
		return 0;
	/* a use; of the most recent entry (t->cur) it changes nothing,
	 * else its stamp becomes the next clock.  While t->cur is known, no
	 * other entry's stamp equals the clock (a clock value >= 1 is given
	 * to one stamp only; t->cur is set only once the clock is >= 1), so
	 * the clock moves without reading the stamp. */
	if (mu->idx != t->cur) {
		st = &t->stamp[mu->idx];
		if (t->cur != TLB_NO_CUR)
			t->clock++;
		else
			t->clock += *st != t->clock;
		*st = t->clock;
		t->cur = mu->idx;
	}
	*pa = mu->pa | (va & (TLB_PAGE_SIZE(TLB_PGSZ_8K) - 1));
	return 1;
}

/*
 * Hot path: 1 and *pa if (ctx, va) hits one of the entries recently hit
 * (counts as a use for LRU); 0 otherwise, with nothing changed.  No
 * counters change on a hit.
 */
static inline int tlb_hit_fast(struct tlb *t, uint32_t ctx, uint64_t va, uint64_t *pa)
{
	uint64_t vpn = va >> TLB_PAGE_SHIFT_MIN;
	struct tlb_micro *mu = &t->micro[(uint32_t)vpn & (TLB_MICRO - 1)];
	struct tlb_entry *e;

	if (tlb_hit_micro(t, ctx, va, pa))
		return 1;
	e = &t->e[mu->idx];
	if (e->key != (ctx | TLB_ENTRY_VALID) || ((va ^ e->va) & e->mask))
		return 0;
	t->stamp[mu->idx] = ++t->clock;
	t->cur = mu->idx;
	*pa = e->pa | (va & ~e->mask);
	mu->vpn = vpn;
	mu->ctx = ctx;
	mu->pa = *pa & ~(TLB_PAGE_SIZE(TLB_PGSZ_8K) - 1);
	return 1;
}

/*
 * The TLB-hit part of tlb_access(): 1 and *pa if an entry translates
 * (ctx, va) (a use for LRU, as tlb_access() counts it); 0 otherwise.  No
 * counters change.
 */
int tlb_lookup(struct tlb *t, uint32_t ctx, uint64_t va, uint64_t *pa);

/* ---- address spaces, frames, TSBs ----------------------------------- */

struct tlb_mmu;

/* 0, HVPMU_EINVAL (bad config) or HVPMU_ENOMEM. */
int tlb_mmu_create(const struct tlb_mmu_config *cfg, struct tlb_mmu **out);
void tlb_mmu_destroy(struct tlb_mmu *m);
const struct tlb_mmu_config *tlb_mmu_config(const struct tlb_mmu *m);

/*
 * Declare [va, va+len) of context `ctx` as mapped with pages of size code
 * `code` (default everywhere else: 8 KB).  va and len must be multiples
 * of the page size, the range must not wrap nor overlap a declared region,
 * and the code must be in pgsz_mask (else HVPMU_EINVAL).  TSB entries of
 * the range are invalidated; TLB entries are the caller's (tlb_demap_range).
 * HVPMU_ENOMEM, or HVPMU_EFULL when modeled physical memory is exhausted
 * (a first large region may allocate TSB1).
 */
int tlb_mmu_add_region(struct tlb_mmu *m, uint32_t ctx, uint64_t va, uint64_t len, unsigned code);
/* Size code of the page holding va (no allocation), or HVPMU_EINVAL. */
int tlb_mmu_page_size(const struct tlb_mmu *m, uint32_t ctx, uint64_t va);
/*
 * Physical address of va.  The page's frame is assigned on first touch:
 * the next free address of the modeled range aligned to the page size
 * (TSBs are carved from the same range when a context is first used).
 * *code (optional) receives the page's size code.  0, HVPMU_EINVAL,
 * HVPMU_ENOMEM or HVPMU_EFULL.
 */
int tlb_mmu_translate(struct tlb_mmu *m, uint32_t ctx, uint64_t va, uint64_t *pa, unsigned *code);
/* Physical base address of TSB `i` of ctx (creating the context); HVPMU_ERANGE if it does not exist. */
int tlb_mmu_tsb_base(struct tlb_mmu *m, uint32_t ctx, unsigned i, uint64_t *pa);
/* Frames assigned so far, and the first unassigned physical address. */
uint64_t tlb_mmu_frames(const struct tlb_mmu *m);
/*
 * Context `ctx` (1..TLB_NCTX-1) is gone (its process ended): its frames
 * and TSBs go back to the modeled physical memory (the next pages and
 * TSBs of any context get them, last freed first), its page layout is
 * forgotten; the TLBs are the caller's to demap (tlb_demap_context).
 * freed (if not NULL) is called for every physical block given back.
 * 0, HVPMU_EINVAL, HVPMU_ENOMEM (nothing lost: retry).  Bytes free for
 * reuse: tlb_mmu_phys_free.
 */
typedef void (*tlb_freed_fn)(void *arg, uint64_t pa, uint64_t bytes);
int tlb_mmu_free_context(struct tlb_mmu *m, uint32_t ctx, tlb_freed_fn freed, void *arg);
uint64_t tlb_mmu_phys_free(const struct tlb_mmu *m);
uint64_t tlb_mmu_phys_next(const struct tlb_mmu *m);

/* ---- an access -------------------------------------------------------- */

struct tlb_result {
	uint64_t pa;
	uint32_t walk_cycles; /* = the return value */
	uint32_t trap_cycles; /* guest fill-trap handler (privileged mode), 0 if none */
	uint8_t code;         /* size code of the page */
	uint8_t walks;        /* tablewalks: 0 (TLB hit), 1, or 2 (walk, fill trap, walk) */
	uint8_t trapped;      /* a fill trap was taken */
};

/*
 * Translate an instruction fetch (ITLB) or data access (DTLB) of strand
 * counters `st` in context ctx: TLB hit, or tablewalk probing the
 * context's TSBs in order (each probe one `ref` call; NULL ref = every
 * probe hits L2), fill on a TSB hit, fill trap + guest TSB write on a
 * miss (then retry per cfg.retry).  Returns the tablewalk cycles the
 * access waited (0 on a TLB hit), or a negative HVPMU_E* code with no
 * counter changed.  Allocates only on TLB misses (first touches, table
 * growth).
 */
int tlb_access(struct tlb *t, struct tlb_mmu *m, struct tlb_stats *st, uint32_t ctx, uint64_t va,
	       tlb_ref_fn ref, void *ref_ctx, struct tlb_result *res);

#endif
