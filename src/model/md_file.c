/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine-description files (../shared/DESIGN.md "Machine descriptions":
 * built-in defaults, overridable from a file).  JSON read with json-c;
 * the keys, their ranges and the checks are tables below and are
 * documented in docs/machine-description.md.  A file starts from the
 * built-in description of its platform and overrides what it names;
 * unknown keys, wrong types and out-of-range values are errors that name
 * the key.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/origin_md.h>
#include "kernel.h"
#include "cec_json.h"
#include "json_bind.h"

#define MAX_FILE_BYTES (1u << 20) /* a description is a few hundred bytes */
#define MAX_STRANDS 4096          /* hvpmu_machine_create's bound */
#define MAX_CACHE_BYTES (UINT64_C(64) << 20)
#define MAX_WAYS 64
#define MAX_LINE 512
#define MAX_LATENCY 100000
#define FETCHOP_ALIGN UINT64_C(16384) /* the fetch-and-op region: IRIX's 16 KB pages */

/* The integer keys: JB_FIELD with U32 / U64 (the member's width), or
 * PROP, an MD integer property (int64_t) that may be null = absent
 * (HVPMU_MD_PROP_ABSENT). */
#define U32 0
#define U64 0
#define PROP JB_NULL
#define F(k, kind, type, member, lo, hi) JB_FIELD(k, type, member, lo, hi, kind, HVPMU_MD_PROP_ABSENT)
#define PATH_MAX_MSG 160 /* key paths in messages (and place()'s lookup) */

static const struct jb_field top_fields[] = {
	F("chips", U32, struct hvpmu_md, chips, 1, 64),
	F("cores_per_chip", U32, struct hvpmu_md, cores_per_chip, 1, 64),
	F("strands_per_core", U32, struct hvpmu_md, strands_per_core, 1, 64),
	F("clock_hz", U64, struct hvpmu_md, clock_hz, 1000000, UINT64_C(100000000000)),
	F("home_shift", U32, struct hvpmu_md, home_shift, 13, 62),       /* docs/coherence-model.md */
	F("remote_latency", U32, struct hvpmu_md, remote_latency, 0, MAX_LATENCY),
	/* the Origin Hub's clock and IRIX's HZ (md.h); 0: the defaults */
	F("uncore_clock_hz", U64, struct hvpmu_md, uncore_clock_hz, 0, UINT64_C(100000000000)),
	F("os_hz", U32, struct hvpmu_md, os_hz, 0, 100000),
	F("quantum_cycles", U64, struct hvpmu_md, quantum_cycles, 0, 1000000000),
	/* the Origin's I/O by DMA through the directory (md.h); 0: none */
	F("io_dma", U32, struct hvpmu_md, io_dma, 0, 1),
	/* the Origin's fetch-and-op region (md.h): 16 KB aligned (checked below) */
	F("fetchop_va", U64, struct hvpmu_md, fetchop_va, 0, UINT64_C(0x7fffffffffffc000)),
	F("fetchop_bytes", U64, struct hvpmu_md, fetchop_bytes, 0, UINT64_C(1) << 30),
	/* the Origin's page migration (md.h): MD_MIG_DIFF_THRESH's 20-bit value; 0: off */
	F("migration_threshold", U32, struct hvpmu_md, migration_threshold, 0,
	  HVPMU_FMASK(MD_MIG_DIFF_THRESH, VALUE)),
};

static const struct jb_field timing_fields[] = {
	F("insn_cycles", U32, struct hvpmu_md_timing, insn_cycles, 1, 1000),
	F("taken_cti_cycles", U32, struct hvpmu_md_timing, taken_cti_cycles, 0, 1000),
	F("syscall_cycles", U32, struct hvpmu_md_timing, syscall_cycles, 0, 100000000),
	F("hcall_cycles", U32, struct hvpmu_md_timing, hcall_cycles, 0, 100000000),
	F("trap_cycles", U32, struct hvpmu_md_timing, trap_cycles, 0, 100000000),
	/* pipeline timing (docs/timing-model.md); 0 turns a rule off */
	F("mispredict_cycles", U32, struct hvpmu_md_timing, mispredict_cycles, 0, 1000),
	F("refetch_cycles", U32, struct hvpmu_md_timing, refetch_cycles, 0, 1000),
	F("btc_cycles", U32, struct hvpmu_md_timing, btc_cycles, 0, 1000),
	F("utag_cycles", U32, struct hvpmu_md_timing, utag_cycles, 0, 1000),
	F("dram_wait_cap", U32, struct hvpmu_md_timing, dram_wait_cap, 0, MAX_LATENCY),
};

static const struct jb_field stbuf_fields[] = { /* docs/memory-model.md "Store buffer" */
	F("entries", U32, struct hvpmu_md_stbuf, entries, 0, 16),
	F("commit_cycles", U32, struct hvpmu_md_stbuf, commit_cycles, 0, MAX_LATENCY),
	F("drain_latency", U32, struct hvpmu_md_stbuf, drain_latency, 0, MAX_LATENCY),
	F("drain_interval", U32, struct hvpmu_md_stbuf, drain_interval, 0, MAX_LATENCY),
};

static const struct jb_field buf_fields[] = { /* docs/memory-model.md "L2 buffers" */
	F("l1d_miss", U32, struct hvpmu_md_l2buf, l1d_miss, 0, 64),
	F("l1d_pf_drop", U32, struct hvpmu_md_l2buf, l1d_pf_drop, 0, 64),
	F("l2_miss", U32, struct hvpmu_md_l2buf, l2_miss, 0, 64),
	F("l2_fill", U32, struct hvpmu_md_l2buf, l2_fill, 0, 64),
	F("l2_wb", U32, struct hvpmu_md_l2buf, l2_wb, 0, 64),
	F("l3_miss", U32, struct hvpmu_md_l2buf, l3_miss, 0, 64),
	F("fill_cycles", U32, struct hvpmu_md_l2buf, fill_cycles, 0, MAX_LATENCY),
};

#define KF(k, kind, member, lo, hi) F(k, kind, struct hvpmu_md_kernel, member, lo, hi)
static const struct jb_field kernel_fields[] = { /* docs/kernel-model.md; kernel_check() checks the shape */
	KF("syscall_insns", U32, syscall_insns, 0, 1000000),
	KF("page_bytes", U64, page_bytes, 8192, UINT64_C(1) << 31),
	KF("text_va", U64, text_va, 0, UINT64_MAX),
	KF("text_bytes", U64, text_bytes, 0, UINT64_C(1) << 40),
	KF("tba", U64, tba, 0, UINT64_MAX),
	KF("handler_va", U64, handler_va, 0, UINT64_MAX),
	KF("syscall_table", U64, syscall_table, 0, UINT64_MAX),
	KF("nsyscalls", U32, nsyscalls, 1, 65536),
	KF("data_va", U64, data_va, 0, UINT64_MAX),
	KF("data_bytes", U64, data_bytes, 0, UINT64_C(1) << 40),
	KF("thread_info", U64, thread_info, 0, UINT64_MAX),
	KF("trap_frame", U64, trap_frame, 0, UINT64_MAX),
	KF("trap_frame_bytes", U32, trap_frame_bytes, 0, 65536),
};

static const struct jb_field cache_fields[] = {
	F("size", U64, struct hvpmu_md_cache, size, 0, MAX_CACHE_BYTES),
	F("ways", U32, struct hvpmu_md_cache, ways, 0, MAX_WAYS),
	F("line", U32, struct hvpmu_md_cache, line, 0, MAX_LINE),
	F("latency", U32, struct hvpmu_md_cache, latency, 0, MAX_LATENCY),
};

static const struct jb_field memory_fields[] = {
	F("mem_latency", U32, struct hvpmu_md_memory, mem_latency, 0, MAX_LATENCY),
	F("l1d_hw_prefetch", U32, struct hvpmu_md_memory, l1d_hw_prefetch, 0, HVPMU_MD_MAX_L1D_HW_PREFETCH), /* docs/prefetch-model.md */
};

static const struct {
	const char *key;
	size_t off;
} cache_levels[] = {
	{ "l1i", offsetof(struct hvpmu_md_memory, l1i) },
	{ "l1d", offsetof(struct hvpmu_md_memory, l1d) },
	{ "l2", offsetof(struct hvpmu_md_memory, l2) },
	{ "l3", offsetof(struct hvpmu_md_memory, l3) },
};

static const struct jb_field guest_fields[] = {
	F("perfctraccess", PROP, struct hvpmu_md_guest, perfctraccess, 0, INT64_MAX),
	F("perfctrhtaccess", PROP, struct hvpmu_md_guest, perfctrhtaccess, 0, INT64_MAX),
	F("dram_counter_group", PROP, struct hvpmu_md_guest, dram_counter_group, 0,
	  HVPMU_MD_DRAM_GROUP_OS | HVPMU_MD_DRAM_GROUP_PM),
	F("first_strand", U32, struct hvpmu_md_guest, first_strand, 0, MAX_STRANDS - 1),
	F("nstrands", U32, struct hvpmu_md_guest, nstrands, 1, MAX_STRANDS),
	/* not 0 (root is the operator) nor (uid_t)-1 (no uid: setresuid(2)) */
	F("uid", PROP, struct hvpmu_md_guest, uid, 1, UINT32_MAX - 1),
};

/* A guest's mblock: mem[i] is { base, size }; base, size < 2^63, so
 * base + size cannot wrap. */
static const struct jb_field mblock_fields[] = {
	{ "base", 0, sizeof(uint64_t), 0, UINT64_MAX >> 1, 0, 0 },
	{ "size", sizeof(uint64_t), sizeof(uint64_t), 1, UINT64_MAX >> 1, 0, 0 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* Apply the keys of object o: scalars from `fields`; any other key must be
 * one `sub` accepts (return 1 = handled), else it is unknown. */
static int apply(void *base, json_object *o, const struct jb_field *fields, size_t nf, const char *prefix,
		 jb_sub_fn sub, void *ctx, char *err, size_t n)
{
	const struct jb_object d = { fields, nf, sub, PATH_MAX_MSG };

	return jb_apply(base, ctx, o, &d, prefix, err, n);
}

static int memory_sub(void *ctx, const char *key, json_object *v, const char *path, char *err, size_t n)
{
	if (strcmp(key, "buffers") == 0) {
		int rc = apply(&((struct hvpmu_md_memory *)ctx)->buf, v, buf_fields, N(buf_fields), path, NULL, NULL,
			       err, n);

		return rc ? rc : 1;
	}
	if (strcmp(key, "stbuf") == 0) {
		int rc = apply(&((struct hvpmu_md_memory *)ctx)->stbuf, v, stbuf_fields, N(stbuf_fields), path, NULL,
			       NULL, err, n);

		return rc ? rc : 1;
	}
	for (size_t i = 0; i < N(cache_levels); i++)
		if (strcmp(cache_levels[i].key, key) == 0) {
			int rc = apply((char *)ctx + cache_levels[i].off, v, cache_fields, N(cache_fields), path, NULL,
				       NULL, err, n);

			return rc ? rc : 1;
		}
	return 0;
}

static int guest_sub(void *ctx, const char *key, json_object *v, const char *path, char *err, size_t n)
{
	struct hvpmu_md_guest *g = ctx;

	if (strcmp(key, "name") == 0) {
		if (!json_object_is_type(v, json_type_string) || json_object_get_string_len(v) == 0 ||
		    (size_t)json_object_get_string_len(v) >= sizeof g->name)
			return jb_fail(err, n, path, "not a name of 1..31 characters");
		strcpy(g->name, json_object_get_string(v));
		return 1;
	}
	if (strcmp(key, "mblock") == 0) { /* the MD's mblock nodes: real memory */
		size_t len;

		if (jb_array(v, 1, HVPMU_MD_MAX_MEM, path, "not an array of 1..4 {base, size}", &len, err, n))
			return HVPMU_EINVAL;
		g->nmem = (uint32_t)len;
		for (size_t i = 0; i < len; i++) {
			char p[176];
			int rc;

			jb_index_path(p, sizeof p, path, i);
			if ((rc = apply(&g->mem[i], json_object_array_get_idx(v, i), mblock_fields, N(mblock_fields), p,
					NULL, NULL, err, n)))
				return rc;
		}
		return 1;
	}
	return 0;
}

struct top_ctx {
	struct hvpmu_md *md;
	int have_guests;
};

static int top_sub(void *ctx, const char *key, json_object *v, const char *path, char *err, size_t n)
{
	struct top_ctx *t = ctx;
	struct hvpmu_md *md = t->md;
	int rc;

	if (strcmp(key, "platform") == 0)
		return 1; /* read first, by md_from_json */
	if (strcmp(key, "placement") == 0) {
		int pl = json_object_is_type(v, json_type_string) ? hvpmu_placement_by_name(json_object_get_string(v)) : -1;

		if (pl < 0)
			return jb_fail(err, n, path, "not a placement (pack, spread)");
		md->placement = (enum hvpmu_placement)pl;
		return 1;
	}
	if (strcmp(key, "timing") == 0) {
		rc = apply(&md->timing, v, timing_fields, N(timing_fields), path, NULL, NULL, err, n);
		return rc ? rc : 1;
	}
	if (strcmp(key, "memory") == 0) {
		rc = apply(&md->mem, v, memory_fields, N(memory_fields), path, memory_sub, &md->mem, err, n);
		return rc ? rc : 1;
	}
	if (strcmp(key, "kernel") == 0) {
		rc = apply(&md->kernel, v, kernel_fields, N(kernel_fields), path, NULL, NULL, err, n);
		return rc ? rc : 1;
	}
	if (strcmp(key, "cec") == 0) { /* the PAPR CEC (hvpmu/cec.h, cec.c) */
		rc = cec_from_json(&md->cec, v, path, err, n);
		return rc ? rc : 1;
	}
	if (strcmp(key, "guests") == 0) { /* replaces the default guest list */
		size_t len;

		if (jb_array(v, 1, HVPMU_MD_MAX_GUESTS, path, "not an array of 1..8 guests", &len, err, n))
			return HVPMU_EINVAL;
		md->nguests = (uint32_t)len;
		for (size_t i = 0; i < len; i++) {
			struct hvpmu_md_guest *g = &md->guests[i];
			char p[176];

			/* a guest given in the file has only the properties it names */
			memset(g, 0, sizeof *g);
			snprintf(g->name, sizeof g->name, "guest%zu", i);
			g->perfctraccess = g->perfctrhtaccess = g->dram_counter_group = g->uid = HVPMU_MD_PROP_ABSENT;
			jb_index_path(p, sizeof p, path, i);
			if ((rc = apply(g, json_object_array_get_idx(v, i), guest_fields, N(guest_fields), p, guest_sub,
					g, err, n)))
				return rc;
			if (!g->nstrands)
				return jb_fail(err, n, p, "needs nstrands");
			if (!g->nmem)
				return jb_fail(err, n, p, "needs mblock");
		}
		t->have_guests = 1;
		return 1;
	}
	return 0;
}

/* Cross-field checks of a complete description. */
static int validate(const struct hvpmu_md *md, char *err, size_t n)
{
	const struct hvpmu_md_cache *lv[] = { &md->mem.l1i, &md->mem.l1d, &md->mem.l2, &md->mem.l3 };
	static const char *lvname[] = { "memory.l1i", "memory.l1d", "memory.l2", "memory.l3" };
	uint64_t nstrands = (uint64_t)md->chips * md->cores_per_chip * md->strands_per_core;
	const struct hvpmu_platform_info *pi = hvpmu_platform_info(md->platform);

	if (nstrands > MAX_STRANDS)
		return jb_fail(err, n, "chips", "more than 4096 strands in all");
	if ((md->fetchop_va | md->fetchop_bytes) & (FETCHOP_ALIGN - 1))
		return jb_fail(err, n, md->fetchop_va & (FETCHOP_ALIGN - 1) ? "fetchop_va" : "fetchop_bytes",
			       "not a multiple of 16384 (IRIX's page)");
	if (pi->max_chips && md->chips > pi->max_chips) {
		char what[64];

		if (pi->max_chips == 1)
			snprintf(what, sizeof what, "%s has one chip", pi->name);
		else
			snprintf(what, sizeof what, "%s has 1..%u chips", pi->name, pi->max_chips);
		return jb_fail(err, n, "chips", what);
	}
	for (unsigned i = 0; i < 4; i++) {
		const struct hvpmu_md_cache *c = lv[i];

		if (i == 2 && c->size == 0) /* no private L2 (as T1) */
			continue;
		if (i == 3 && c->size == 0 && md->mem.l2.size) /* no shared last level (Origin) */
			continue;
		if (!is_pow2(c->line) || !c->ways || !c->size || c->size % ((uint64_t)c->ways * c->line) ||
		    !is_pow2(c->size / ((uint64_t)c->ways * c->line)))
			return jb_fail(err, n, lvname[i],
				    "needs a power-of-two line, ways, and size = ways x line x a power-of-two number of sets");
	}
	if ((md->mem.l2.size && (md->mem.l1i.line > md->mem.l2.line || md->mem.l1d.line > md->mem.l2.line ||
				 (md->mem.l3.size && md->mem.l2.line > md->mem.l3.line))) ||
	    (md->mem.l3.size && (md->mem.l1i.line > md->mem.l3.line || md->mem.l1d.line > md->mem.l3.line)))
		return jb_fail(err, n, "memory", "line sizes must not shrink towards memory");
	if (md->timing.refetch_cycles > md->timing.mispredict_cycles)
		return jb_fail(err, n, "timing.refetch_cycles", "more than timing.mispredict_cycles");
	if (md->cec.nchips) { /* the CEC's processors are the machine's cores (docs/papr-gpci.md) */
		if (md->cec.nchips != md->chips)
			return jb_fail(err, n, "cec.chips", "not as many chips as the machine's");
		if (md->cec.nprocs != md->chips * md->cores_per_chip)
			return jb_fail(err, n, "cec.procs", "not one processor per core of the machine");
		for (uint32_t i = 0; i < md->cec.nprocs; i++)
			if (md->cec.procs[i].chip != i / md->cores_per_chip) {
				char p[32];

				snprintf(p, sizeof p, "cec.procs[%u].chip", i);
				return jb_fail(err, n, p, "processor i is core i: chip i / cores_per_chip");
			}
	}
	if (kernel_check(md))
		return jb_fail(err, n, "kernel",
			    "regions not page-aligned, overlapping, or addresses outside them (docs/kernel-model.md)");
	for (uint32_t i = 0; i < md->nguests; i++) {
		const struct hvpmu_md_guest *g = &md->guests[i];
		char p[32];

		snprintf(p, sizeof p, "guests[%u]", i);
		if ((uint64_t)g->first_strand + g->nstrands > nstrands)
			return jb_fail(err, n, p, "strands beyond the machine's");
		for (uint32_t j = 0; j < i; j++) {
			const struct hvpmu_md_guest *h = &md->guests[j];

			if (g->first_strand < h->first_strand + h->nstrands && h->first_strand < g->first_strand + g->nstrands)
				return jb_fail(err, n, p, "shares strands with another guest");
			if (g->uid != HVPMU_MD_PROP_ABSENT && g->uid == h->uid)
				return jb_fail(err, n, p, "has another guest's uid (a uid is one guest's)");
		}
	}
	return 0;
}

/* The values a file may give, each in the range the tables above give
 * (what md_from_json would have refused). */
static int check_fields(const struct hvpmu_md *md, char *err, size_t n)
{
	static const char *const lvname[] = { "memory.l1i", "memory.l1d", "memory.l2", "memory.l3" };
	const struct hvpmu_md_cache *lv[] = { &md->mem.l1i, &md->mem.l1d, &md->mem.l2, &md->mem.l3 };
	int rc;

	if ((rc = jb_check(md, top_fields, N(top_fields), "", err, n)) ||
	    (rc = jb_check(&md->timing, timing_fields, N(timing_fields), "timing", err, n)) ||
	    (rc = jb_check(&md->mem, memory_fields, N(memory_fields), "memory", err, n)) ||
	    (rc = jb_check(&md->mem.stbuf, stbuf_fields, N(stbuf_fields), "memory.stbuf", err, n)) ||
	    (rc = jb_check(&md->mem.buf, buf_fields, N(buf_fields), "memory.buf", err, n)) ||
	    /* a platform without a kernel path has none (syscall_insns 0: kernel_check) */
	    (md->kernel.syscall_insns && (rc = jb_check(&md->kernel, kernel_fields, N(kernel_fields), "kernel", err, n))))
		return rc;
	for (unsigned i = 0; i < 4; i++)
		if ((rc = jb_check(lv[i], cache_fields, N(cache_fields), lvname[i], err, n)))
			return rc;
	if ((unsigned)md->placement > HVPMU_PLACE_SPREAD)
		return jb_fail(err, n, "placement", "not a placement (pack, spread)");
	if (md->nguests < 1 || md->nguests > HVPMU_MD_MAX_GUESTS)
		return jb_fail(err, n, "guests", "not an array of 1..8 guests");
	for (uint32_t i = 0; i < md->nguests; i++) {
		const struct hvpmu_md_guest *g = &md->guests[i];
		char p[32], q[64];

		snprintf(p, sizeof p, "guests[%u]", i);
		if (!memchr(g->name, 0, sizeof g->name) || !g->name[0])
			return jb_fail(err, n, p, "a name of 1..31 characters");
		if ((rc = jb_check(g, guest_fields, N(guest_fields), p, err, n)))
			return rc;
		if (g->nmem < 1 || g->nmem > HVPMU_MD_MAX_MEM)
			return jb_fail(err, n, p, "needs mblock");
		for (uint32_t k = 0; k < g->nmem; k++) {
			snprintf(q, sizeof q, "%s.mblock[%u]", p, k);
			if ((rc = jb_check(&g->mem[k], mblock_fields, N(mblock_fields), q, err, n)))
				return rc;
		}
	}
	return 0;
}

int hvpmu_md_check(const struct hvpmu_md *md, char *err, size_t n)
{
	const struct hvpmu_platform_info *pi = md ? hvpmu_platform_info(md->platform) : NULL;
	int rc;

	if (!pi)
		return jb_fail(err, n, "platform", "not a platform of this build");
	if (!memchr(md->isa, 0, sizeof md->isa) || strcmp(md->isa, pi->isa) != 0)
		return jb_fail(err, n, "isa", "not the platform's instruction set");
	if ((rc = check_fields(md, err, n)))
		return rc;
	if (md->cec.nchips && hvpmu_cec_check(&md->cec, "cec", err, n))
		return HVPMU_EINVAL;
	return validate(md, err, n);
}

static int md_from_json(json_object *o, const struct hvpmu_md *base, struct hvpmu_md *out, char *err, size_t n)
{
	struct hvpmu_md md, from;
	struct top_ctx t = { &md, 0 };
	json_object *p, *v;
	int rc;

	if (!json_object_is_type(o, json_type_object))
		return jb_fail(err, n, "(top)", "not a JSON object");
	if (base)
		md = *base;
	else
		hvpmu_md_default(hvpmu_platform_default(), &md);
	if (json_object_object_get_ex(o, "platform", &p) &&
	    (!json_object_is_type(p, json_type_string) || hvpmu_md_by_name(json_object_get_string(p), &md))) {
		char what[256] = "not a description name (";
		const char *name;

		for (unsigned i = 0; (name = hvpmu_md_name_at(i)); i++)
			snprintf(what + strlen(what), sizeof what - strlen(what), "%s%s", i ? ", " : "", name);
		snprintf(what + strlen(what), sizeof what - strlen(what), ")");
		return jb_fail(err, n, "platform", what);
	}
	from = md;
	if ((rc = apply(&md, o, top_fields, N(top_fields), "", top_sub, &t, err, n)))
		return rc;
	/* chips without home_shift: each chip stays home of an equal share of
	 * the same memory (docs/coherence-model.md); a new clock keeps the
	 * remote penalty's time (ns), unless remote_latency is given */
	if (md.chips != from.chips && !json_object_object_get_ex(o, "home_shift", &v)) {
		unsigned was = (unsigned)__builtin_ctz(from.chips), now = (unsigned)__builtin_ctz(md.chips);

		if ((md.chips & (md.chips - 1)) || (from.chips & (from.chips - 1)) || from.home_shift + was < now)
			return jb_fail(err, n, "chips", "not a power of two: give home_shift too");
		md.home_shift = from.home_shift + was - now;
	}
	if (md.clock_hz != from.clock_hz && !json_object_object_get_ex(o, "remote_latency", &v))
		md.remote_latency = (uint32_t)((double)from.remote_latency * (double)md.clock_hz / (double)from.clock_hz);
	if (!t.have_guests) /* the default guest owns every strand of the new shape */
		md.guests[0].nstrands = hvpmu_md_nstrands(&md) <= MAX_STRANDS ? hvpmu_md_nstrands(&md) : MAX_STRANDS;
	if ((rc = validate(&md, err, n)))
		return rc;
	*out = md;
	return 0;
}

/* ---- where in the file: line and column of an offset or a key path ---- */

/* 1-based line and column (in bytes) of text[off]. */
static void line_col(const char *text, size_t off, unsigned *line, unsigned *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

/*
 * A minimal scanner over JSON text json-c accepted: skip_value() steps
 * over one value; find() follows a key path of the messages ("guests[1].
 * mblock[0].size", keys without escapes) to the offset of its value, or
 * of its object's key when the path names an unknown key.
 */
struct scan {
	const char *t;
	size_t len, i;
};

static void skip_ws(struct scan *s)
{
	while (s->i < s->len && (s->t[s->i] == ' ' || s->t[s->i] == '\t' || s->t[s->i] == '\n' || s->t[s->i] == '\r'))
		s->i++;
}

/* A string at s->i: its contents are t[*b, *e) (escapes left in). */
static int scan_string(struct scan *s, size_t *b, size_t *e)
{
	if (s->i >= s->len || s->t[s->i] != '"')
		return -1;
	*b = ++s->i;
	while (s->i < s->len && s->t[s->i] != '"')
		s->i += s->t[s->i] == '\\' ? 2 : 1;
	if (s->i >= s->len)
		return -1;
	*e = s->i++;
	return 0;
}

static int skip_value(struct scan *s, unsigned depth)
{
	size_t b, e;

	skip_ws(s);
	if (s->i >= s->len || depth > 64)
		return -1;
	if (s->t[s->i] == '"')
		return scan_string(s, &b, &e);
	if (s->t[s->i] == '{' || s->t[s->i] == '[') {
		char close = s->t[s->i] == '{' ? '}' : ']';

		s->i++;
		for (;;) {
			skip_ws(s);
			if (s->i < s->len && s->t[s->i] == close)
				return (int)(++s->i, 0);
			if (close == '}') {
				if (scan_string(s, &b, &e))
					return -1;
				skip_ws(s);
				if (s->i >= s->len || s->t[s->i++] != ':')
					return -1;
			}
			if (skip_value(s, depth + 1))
				return -1;
			skip_ws(s);
			if (s->i < s->len && s->t[s->i] == ',')
				s->i++;
			else if (s->i >= s->len || s->t[s->i] != close)
				return -1;
		}
	}
	while (s->i < s->len && !strchr(",]} \t\n\r", s->t[s->i])) /* number, true, false, null */
		s->i++;
	return 0;
}

static int find(struct scan *s, const char *path, size_t *off, size_t *key)
{
	size_t b, e, klen;
	const char *dot;

	skip_ws(s);
	if (!*path) {
		*off = *key = s->i;
		return 0;
	}
	if (*path == '[') { /* [N]: the N-th element */
		unsigned long n = strtoul(path + 1, (char **)&dot, 10);

		if (*dot != ']' || s->i >= s->len || s->t[s->i] != '[')
			return -1;
		s->i++;
		for (unsigned long k = 0; k < n; k++) {
			if (skip_value(s, 0))
				return -1;
			skip_ws(s);
			if (s->i >= s->len || s->t[s->i++] != ',')
				return -1;
		}
		path = dot + 1;
		if (*path == '.')
			path++;
		return find(s, path, off, key);
	}
	klen = strcspn(path, ".[");
	if (s->i >= s->len || s->t[s->i] != '{')
		return -1;
	s->i++;
	for (;;) {
		size_t key_at;

		skip_ws(s);
		key_at = s->i;
		if (scan_string(s, &b, &e))
			return -1;
		skip_ws(s);
		if (s->i >= s->len || s->t[s->i++] != ':')
			return -1;
		if (e - b == klen && memcmp(s->t + b, path, klen) == 0) {
			const char *rest = path + klen;

			if (*rest == 0) {
				skip_ws(s);
				*off = s->i;
				*key = key_at;
				return 0;
			}
			return find(s, *rest == '.' ? rest + 1 : rest, off, key);
		}
		if (skip_value(s, 0))
			return -1;
		skip_ws(s);
		if (s->i >= s->len || s->t[s->i] != ',')
			return -1;
		s->i++;
	}
}

/* Put "LINE:COL: " before err, of the value its key path names (of the
 * key itself for an unknown key), when the path is found in the text. */
static void place(const char *text, size_t len, char *err, size_t n)
{
	char path[160], msg[512];
	struct scan sc = { text, len, 0 };
	const char *colon;
	unsigned line, col;
	size_t off, key;

	if (!err || !n || !(colon = strstr(err, ": ")) || (size_t)(colon - err) >= sizeof path)
		return;
	memcpy(path, err, (size_t)(colon - err));
	path[colon - err] = 0;
	if (strcmp(path, "(top)") == 0)
		path[0] = 0;
	if (find(&sc, path, &off, &key))
		return;
	line_col(text, strncmp(colon + 2, "unknown key", 11) == 0 ? key : off, &line, &col);
	snprintf(msg, sizeof msg, "%u:%u: %s", line, col, err);
	snprintf(err, n, "%s", msg);
}

/* json-c's parse errors, as what the file lacks there. */
static const char *syntax_error(enum json_tokener_error e)
{
	switch (e) {
	case json_tokener_success: return "text after the JSON object (expected the end of the file)";
	case json_tokener_continue: return "the file ends inside the JSON object (expected more of it)";
	case json_tokener_error_parse_eof: return "unexpected end of the file (expected a value)";
	case json_tokener_error_parse_object_key_name: return "expected a key in double quotes";
	case json_tokener_error_parse_object_key_sep: return "expected ':' after a key";
	case json_tokener_error_parse_object_value_sep: return "expected ',' or '}' after a value";
	case json_tokener_error_parse_array: return "expected ',' or ']' in an array";
	case json_tokener_error_parse_string: return "bad string (expected a closing '\"')";
	case json_tokener_error_parse_number: return "bad number";
	default: return json_tokener_error_desc(e);
	}
}

int hvpmu_md_parse(const char *text, size_t len, const struct hvpmu_md *base, struct hvpmu_md *md, char *err,
		   size_t errlen)
{
	struct json_tokener *tok;
	json_object *o;
	int rc;

	if (!text || !md)
		return jb_fail(err, errlen, "(arguments)", "NULL");
	if (len > MAX_FILE_BYTES)
		return jb_fail(err, errlen, "(file)", "larger than 1 MB");
	if (!(tok = json_tokener_new()))
		return HVPMU_ENOMEM;
	o = json_tokener_parse_ex(tok, text, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) < len) {
		enum json_tokener_error e = json_tokener_get_error(tok);
		size_t at = json_tokener_get_parse_end(tok);
		unsigned line, col;
		char what[160];

		json_object_put(o);
		json_tokener_free(tok);
		/* where the tokener stopped; for text cut short, its end */
		line_col(text, at < len ? at : len, &line, &col);
		snprintf(what, sizeof what, "%u:%u: JSON", line, col);
		return jb_fail(err, errlen, what, syntax_error(e));
	}
	json_tokener_free(tok);
	rc = md_from_json(o, base, md, err, errlen);
	json_object_put(o);
	if (rc == HVPMU_EINVAL)
		place(text, len, err, errlen);
	return rc;
}

int hvpmu_md_load(const char *path, const struct hvpmu_md *base, struct hvpmu_md *md, char *err, size_t errlen)
{
	FILE *f;
	char *buf;
	size_t len;
	int rc;

	if (!path || !md)
		return jb_fail(err, errlen, "(arguments)", "NULL");
	if (!(f = fopen(path, "rb")))
		return jb_fail(err, errlen, path, strerror(errno));
	buf = malloc(MAX_FILE_BYTES + 1);
	if (!buf) {
		fclose(f);
		return HVPMU_ENOMEM;
	}
	len = fread(buf, 1, MAX_FILE_BYTES + 1, f);
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return jb_fail(err, errlen, path, "read error");
	}
	fclose(f);
	rc = hvpmu_md_parse(buf, len, base, md, err, errlen);
	free(buf);
	if (rc == HVPMU_EINVAL && err && errlen) { /* PATH:LINE:COL: what, as compilers say it */
		char msg[512];

		snprintf(msg, sizeof msg, "%s:%s%s", path, err[0] >= '0' && err[0] <= '9' ? "" : " ", err);
		snprintf(err, errlen, "%s", msg);
	}
	return rc;
}
