/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest real memory: the segments of a guest's machine description and the
 * host bytes behind them (hvpmu/guest_mem.h).
 *  - A range is valid when it lies wholly inside one memory segment, the
 *    OpenSPARC hypervisor's RA2PA_RANGE_CONV test
 *    (../shared/reference/hw-and-hypervisor.md §1.4 "Real-address validity").
 *  - Bytes are kept in guest (big-endian) order, in 8 KB host pages found
 *    through an open-addressing hash table keyed by RA >> 13 and allocated
 *    on the first non-zero store, so a multi-gigabyte segment costs nothing
 *    until the hypervisor writes into it.
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/guest_mem.h>

#define PAGE_SHIFT 13
_Static_assert(HVPMU_GUEST_MEM_PAGE == 1u << PAGE_SHIFT, "page size");
#define WORD_BYTES 8u
#define TABLE_MIN_LOG2 4

struct page_slot {
	uint64_t pfn;   /* ra >> PAGE_SHIFT */
	uint8_t *data;  /* HVPMU_GUEST_MEM_PAGE bytes; NULL = empty slot */
};

struct hvpmu_guest_mem {
	struct hvpmu_guest_mem_seg *seg; /* sorted by base, disjoint */
	unsigned nseg;
	struct page_slot *tab;           /* 1 << log2 slots, at most half used */
	unsigned log2;
	uint64_t used;
};

static int seg_cmp(const void *a, const void *b)
{
	const struct hvpmu_guest_mem_seg *x = a, *y = b;

	return x->base < y->base ? -1 : x->base > y->base;
}

/* Last byte of a segment (no overflow for base + size == 2^64). */
static uint64_t seg_last(const struct hvpmu_guest_mem_seg *s)
{
	return s->base + (s->size - 1);
}

int hvpmu_guest_mem_create(const struct hvpmu_guest_mem_seg *segs, unsigned nsegs,
			   struct hvpmu_guest_mem **out)
{
	struct hvpmu_guest_mem *gm;

	if (!out || (nsegs && !segs))
		return HVPMU_EINVAL;
	*out = NULL;
	for (unsigned i = 0; i < nsegs; i++)
		if (segs[i].size == 0 || segs[i].size - 1 > UINT64_MAX - segs[i].base)
			return HVPMU_EINVAL;
	gm = calloc(1, sizeof *gm);
	if (!gm)
		return HVPMU_ENOMEM;
	gm->log2 = TABLE_MIN_LOG2;
	gm->tab = calloc((size_t)1 << gm->log2, sizeof *gm->tab);
	gm->seg = calloc(nsegs ? nsegs : 1, sizeof *gm->seg);
	if (!gm->tab || !gm->seg) {
		hvpmu_guest_mem_destroy(gm);
		return HVPMU_ENOMEM;
	}
	if (nsegs)
		memcpy(gm->seg, segs, nsegs * sizeof *segs);
	gm->nseg = nsegs;
	qsort(gm->seg, nsegs, sizeof *gm->seg, seg_cmp);
	for (unsigned i = 1; i < nsegs; i++) {
		if (gm->seg[i].base <= seg_last(&gm->seg[i - 1])) {
			hvpmu_guest_mem_destroy(gm);
			return HVPMU_EINVAL;
		}
	}
	*out = gm;
	return 0;
}

void hvpmu_guest_mem_destroy(struct hvpmu_guest_mem *gm)
{
	if (!gm)
		return;
	if (gm->tab)
		for (size_t i = 0; i < (size_t)1 << gm->log2; i++)
			free(gm->tab[i].data);
	free(gm->tab);
	free(gm->seg);
	free(gm);
}

unsigned hvpmu_guest_mem_nsegs(const struct hvpmu_guest_mem *gm)
{
	return gm->nseg;
}

int hvpmu_guest_mem_seg(const struct hvpmu_guest_mem *gm, unsigned i, struct hvpmu_guest_mem_seg *out)
{
	if (i >= gm->nseg)
		return HVPMU_ERANGE;
	*out = gm->seg[i];
	return 0;
}

int hvpmu_guest_mem_find(const struct hvpmu_guest_mem *gm, uint64_t ra, uint64_t len)
{
	unsigned lo = 0, hi = gm->nseg;
	const struct hvpmu_guest_mem_seg *s;

	if (len == 0)
		return -1;
	/* the last segment whose base is <= ra */
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (gm->seg[mid].base <= ra)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	s = &gm->seg[lo - 1];
	/* ra - base < size and len <= size - (ra - base): no sum can wrap */
	if (ra - s->base >= s->size || len > s->size - (ra - s->base))
		return -1;
	return (int)(lo - 1);
}

int hvpmu_guest_mem_range_ok(const struct hvpmu_guest_mem *gm, uint64_t ra, uint64_t len)
{
	return hvpmu_guest_mem_find(gm, ra, len) >= 0;
}

/* ---- host pages ------------------------------------------------------ */

/* Fibonacci hashing: the top log2 bits of pfn * 2^64/phi. */
static size_t slot_of(uint64_t pfn, unsigned log2)
{
	return (size_t)((pfn * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - log2));
}

static uint8_t *page_find(const struct hvpmu_guest_mem *gm, uint64_t pfn)
{
	size_t mask = ((size_t)1 << gm->log2) - 1;

	for (size_t i = slot_of(pfn, gm->log2);; i = (i + 1) & mask) {
		if (!gm->tab[i].data)
			return NULL;
		if (gm->tab[i].pfn == pfn)
			return gm->tab[i].data;
	}
}

static void slot_put(struct page_slot *tab, unsigned log2, uint64_t pfn, uint8_t *data)
{
	size_t mask = ((size_t)1 << log2) - 1;
	size_t i = slot_of(pfn, log2);

	while (tab[i].data)
		i = (i + 1) & mask;
	tab[i].pfn = pfn;
	tab[i].data = data;
}

static int table_grow(struct hvpmu_guest_mem *gm)
{
	unsigned log2 = gm->log2 + 1;
	struct page_slot *tab;

	if (log2 >= 8 * sizeof(size_t) - 5)
		return HVPMU_ENOMEM;
	tab = calloc((size_t)1 << log2, sizeof *tab);
	if (!tab)
		return HVPMU_ENOMEM;
	for (size_t i = 0; i < (size_t)1 << gm->log2; i++)
		if (gm->tab[i].data)
			slot_put(tab, log2, gm->tab[i].pfn, gm->tab[i].data);
	free(gm->tab);
	gm->tab = tab;
	gm->log2 = log2;
	return 0;
}

/* The page holding pfn, allocated (zeroed) if absent; NULL on ENOMEM. */
static uint8_t *page_get(struct hvpmu_guest_mem *gm, uint64_t pfn)
{
	uint8_t *p = page_find(gm, pfn);

	if (p)
		return p;
	if ((gm->used + 1) * 2 > (uint64_t)1 << gm->log2 && table_grow(gm))
		return NULL;
	p = calloc(1, HVPMU_GUEST_MEM_PAGE);
	if (!p)
		return NULL;
	slot_put(gm->tab, gm->log2, pfn, p);
	gm->used++;
	return p;
}

static int all_zero(const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

/* Bytes of [ra, ra + len) that fall in ra's page. */
static size_t chunk(uint64_t ra, uint64_t len)
{
	uint64_t room = HVPMU_GUEST_MEM_PAGE - (ra & (HVPMU_GUEST_MEM_PAGE - 1));

	return (size_t)(len < room ? len : room);
}

/* ---- access ------------------------------------------------------------ */

int hvpmu_guest_mem_read(const struct hvpmu_guest_mem *gm, uint64_t ra, void *buf, size_t len)
{
	uint8_t *dst = buf;

	if (len == 0)
		return 0;
	if (hvpmu_guest_mem_find(gm, ra, len) < 0)
		return HVPMU_ERANGE;
	while (len) {
		size_t n = chunk(ra, len);
		const uint8_t *p = page_find(gm, ra >> PAGE_SHIFT);

		if (p)
			memcpy(dst, p + (ra & (HVPMU_GUEST_MEM_PAGE - 1)), n);
		else
			memset(dst, 0, n);
		dst += n;
		ra += n;
		len -= n;
	}
	return 0;
}

int hvpmu_guest_mem_write(struct hvpmu_guest_mem *gm, uint64_t ra, const void *buf, size_t len)
{
	const uint8_t *src = buf;
	uint64_t a = ra;
	size_t left = len;

	if (len == 0)
		return 0;
	if (hvpmu_guest_mem_find(gm, ra, len) < 0)
		return HVPMU_ERANGE;
	/* First back every page that receives a non-zero byte, so that a
	 * failed allocation leaves the memory unchanged. */
	while (left) {
		size_t n = chunk(a, left);

		if (!all_zero(src + (a - ra), n) && !page_get(gm, a >> PAGE_SHIFT))
			return HVPMU_ENOMEM;
		a += n;
		left -= n;
	}
	while (len) {
		size_t n = chunk(ra, len);
		uint8_t *p = page_find(gm, ra >> PAGE_SHIFT);

		/* an absent page holds zeros, and so does this chunk */
		if (p)
			memcpy(p + (ra & (HVPMU_GUEST_MEM_PAGE - 1)), src, n);
		src += n;
		ra += n;
		len -= n;
	}
	return 0;
}

int hvpmu_guest_mem_read64(const struct hvpmu_guest_mem *gm, uint64_t ra, uint64_t *val)
{
	uint8_t b[WORD_BYTES];
	uint64_t v = 0;
	int err;

	if (ra & (WORD_BYTES - 1))
		return HVPMU_EINVAL;
	err = hvpmu_guest_mem_read(gm, ra, b, sizeof b);
	if (err)
		return err;
	for (unsigned i = 0; i < WORD_BYTES; i++)
		v = v << 8 | b[i];
	*val = v;
	return 0;
}

int hvpmu_guest_mem_write64(struct hvpmu_guest_mem *gm, uint64_t ra, uint64_t val)
{
	uint8_t b[WORD_BYTES];

	if (ra & (WORD_BYTES - 1))
		return HVPMU_EINVAL;
	for (unsigned i = 0; i < WORD_BYTES; i++)
		b[i] = (uint8_t)(val >> (8 * (WORD_BYTES - 1 - i)));
	return hvpmu_guest_mem_write(gm, ra, b, sizeof b);
}

int hvpmu_guest_mem_back(struct hvpmu_guest_mem *gm, uint64_t ra, uint64_t len)
{
	uint64_t first, last;

	if (hvpmu_guest_mem_find(gm, ra, len) < 0)
		return HVPMU_ERANGE;
	first = ra >> PAGE_SHIFT;
	last = (ra + (len - 1)) >> PAGE_SHIFT;
	for (uint64_t pfn = first;; pfn++) {
		if (!page_get(gm, pfn))
			return HVPMU_ENOMEM;
		if (pfn == last)
			break;
	}
	return 0;
}

uint64_t hvpmu_guest_mem_host_pages(const struct hvpmu_guest_mem *gm)
{
	return gm->used;
}
