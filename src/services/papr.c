/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PAPR hypervisor's H_GetPerformanceCounterInfo (hvpmu/papr.h):
 * ../shared/specs/papr-platform-hcalls.xml "H_GetPerformanceCounterInfo
 * (0xF080)", every request's list of counters at its byte offsets (the
 * tables below: data, walked by one engine; the seed's layouts and, for
 * the counter-info versions Linux names, Linux's later ones), the four
 * checks in the spec's order, and the header fields of Linux's hv_gpci client
 * (../shared/reference/linux-clients.md §2.2-§2.5).  Description values
 * come from the CEC (hvpmu/cec.h), counters from the CEC statistics
 * device's registers over the bus (hvpmu/cec_stats.h).  docs/papr-gpci.md
 * gives the choices.
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/error.h>
#include <hvpmu/papr.h>
#include <hvpmu/cec_stats.h>

/* Where a field's value comes from. */
enum source {
	S_ZERO = 0,      /* reserved: 0 */
	S_REG,           /* device register: the request's group, the element's index, field `arg` */
	S_PROC_HWID, S_PROC_CHIP_HWID, S_PROC_MODULE, S_PROC_PRIMARY, S_PROC_SECONDARY, S_PROC_VERSION,
	S_PROC_LOGICAL,
	S_PART_ID,
	S_CHIP_HWID,
	S_CAP_PRIVILEGED, S_CAP_MASK,
	S_PROC_INDEX,    /* the physical processor index */
	S_LINK_TOTAL,    /* the largest total of the links in mask arg */
};

struct field_src {
	uint8_t source, arg;
};
#define LINKS(first, n) ((uint8_t)(((1u << (n)) - 1u) << (first))) /* a mask of n links from first */

#define FLD(name, off, width, counter) { name, off, width, counter }

/* 0x10 Dispatch_PURR_by_processor: 48 bytes per physical processor.
 * F10_SEED, S10_SEED: the fields and sources every version starts with. */
#define F10_SEED \
	FLD("processor_time_in_purr_cycles", 0x00, 8, 1), FLD("hw_processor_id", 0x08, 4, 0), \
	FLD("owning_partition_id", 0x0C, 2, 0), FLD("processor_state", 0x0E, 1, 0), \
	FLD("hw_chip_id", 0x10, 4, 0), FLD("hw_module_id", 0x14, 4, 0), \
	FLD("primary_affinity_domain", 0x18, 4, 0), FLD("secondary_affinity_domain", 0x1C, 4, 0), \
	FLD("processor_version", 0x20, 4, 0), FLD("logical_processor_index", 0x24, 2, 0)
#define S10_SEED \
	{ S_REG, HVPMU_CEC_P_PURR }, { S_PROC_HWID, 0 }, { S_REG, HVPMU_CEC_P_OWNER }, \
	{ S_REG, HVPMU_CEC_P_STATE }, { S_PROC_CHIP_HWID, 0 }, { S_PROC_MODULE, 0 }, \
	{ S_PROC_PRIMARY, 0 }, { S_PROC_SECONDARY, 0 }, { S_PROC_VERSION, 0 }, { S_PROC_LOGICAL, 0 }
static const struct hvpmu_gpci_field f10[] = {
	F10_SEED,
	/* 0x0F uint8[1] and 0x26 uint8[10] reserved */
};
static const struct field_src s10[] = { S10_SEED };

/* 0x20 Entitled_capped_uncapped_donated_idle_PURR_by_partition: 6 uint64. */
static const struct hvpmu_gpci_field f20[] = {
	FLD("partition_id", 0x00, 8, 0),
	FLD("entitled_cycles", 0x08, 8, 1),
	FLD("consumed_capped_cycles", 0x10, 8, 1),
	FLD("consumed_uncapped_cycles", 0x18, 8, 1),
	FLD("cycles_donated", 0x20, 8, 1),
	FLD("purr_idle_cycles", 0x28, 8, 1),
};
static const struct field_src s20[] = {
	{ S_PART_ID, 0 }, { S_REG, HVPMU_CEC_L_ENTITLED }, { S_REG, HVPMU_CEC_L_CAPPED },
	{ S_REG, HVPMU_CEC_L_UNCAPPED }, { S_REG, HVPMU_CEC_L_DONATED }, { S_REG, HVPMU_CEC_L_IDLE },
};

/* 0x30 Run_instructions_run_cycles_by_partition: 3 uint64. */
static const struct hvpmu_gpci_field f30[] = {
	FLD("partition_id", 0x00, 8, 0),
	FLD("instructions_completed", 0x08, 8, 1),
	FLD("cycles", 0x10, 8, 1),
};
static const struct field_src s30[] = {
	{ S_PART_ID, 0 }, { S_REG, HVPMU_CEC_L_RUN_INSNS }, { S_REG, HVPMU_CEC_L_RUN_CYCLES },
};

/* 0x40 System_performance_capabilities: 16 bytes. */
static const struct hvpmu_gpci_field f40[] = {
	FLD("perf_collect_privileged", 0x00, 1, 0),
	FLD("capability_mask", 0x01, 1, 0),
	/* 0x02 uint8[14] reserved (the seed: uint8[15] after the boolean) */
};
static const struct field_src s40[] = { { S_CAP_PRIVILEGED, 0 }, { S_CAP_MASK, 0 } };

/* 0x50 Processor_bus_utilization_ABC_links: 64 bytes per chip. */
static const struct hvpmu_gpci_field f50[] = {
	FLD("hw_chip_id", 0x00, 4, 0),
	FLD("idle_cycles_a_link", 0x10, 8, 1),
	FLD("total_cycles_a_link", 0x18, 8, 1),
	FLD("idle_cycles_b_link", 0x20, 8, 1),
	FLD("total_cycles_b_link", 0x28, 8, 1),
	FLD("idle_cycles_c_link", 0x30, 8, 1),
	FLD("total_cycles_c_link", 0x38, 8, 1),
};
static const struct field_src s50[] = {
	{ S_CHIP_HWID, 0 },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_A) }, { S_REG, HVPMU_CEC_C_LINK_TOTAL(HVPMU_CEC_LINK_A) },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_B) }, { S_REG, HVPMU_CEC_C_LINK_TOTAL(HVPMU_CEC_LINK_B) },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_C) }, { S_REG, HVPMU_CEC_C_LINK_TOTAL(HVPMU_CEC_LINK_C) },
};

/* 0x60 Processor_bus_utilization_WXYZ_links: 80 bytes per chip. */
static const struct hvpmu_gpci_field f60[] = {
	FLD("hw_chip_id", 0x00, 4, 0),
	FLD("idle_cycles_w_link", 0x10, 8, 1),
	FLD("total_cycles_w_link", 0x18, 8, 1),
	FLD("idle_cycles_x_link", 0x20, 8, 1),
	FLD("total_cycles_x_link", 0x28, 8, 1),
	FLD("idle_cycles_y_link", 0x30, 8, 1),
	FLD("total_cycles_y_link", 0x38, 8, 1),
	FLD("idle_cycles_z_link", 0x40, 8, 1),
	FLD("total_cycles_z_link", 0x48, 8, 1),
};
static const struct field_src s60[] = {
	{ S_CHIP_HWID, 0 },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_W) }, { S_REG, HVPMU_CEC_C_LINK_TOTAL(HVPMU_CEC_LINK_W) },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_X) }, { S_REG, HVPMU_CEC_C_LINK_TOTAL(HVPMU_CEC_LINK_X) },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_Y) }, { S_REG, HVPMU_CEC_C_LINK_TOTAL(HVPMU_CEC_LINK_Y) },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_Z) }, { S_REG, HVPMU_CEC_C_LINK_TOTAL(HVPMU_CEC_LINK_Z) },
};

/*
 * Layouts of later counter-info versions (docs/papr-gpci.md
 * "Counter-info versions"): Linux's, torvalds/linux
 * arch/powerpc/perf/hv-gpci-requests.h (commit 2555693dd85c), each
 * REQUEST_BEGIN block's __field, __count and __array offsets, from the
 * first version the historical arch/powerpc/perf/hv-gpci.h (the
 * "H_GetPerformanceCounterInfo Interface" v1.07 enum counter_info_requests
 * and cv_* structs) gives them: version 3 for all three.
 */

/* 0x10 from version 3: the seed's fields, then "counter_info_version >=
 * 0x3" processor_id_register @0x28/4 and phys_processor_idx @0x2C/4
 * (cv_dispatch_timebase_by_processor; reserved @0x26/2). */
static const struct hvpmu_gpci_field f10v3[] = {
	F10_SEED,
	FLD("processor_id_register", 0x28, 4, 0),
	FLD("phys_processor_idx", 0x2C, 4, 0),
	/* 0x0F "version" (unused unless counter_info_version == 0) and 0x26 uint8[2] reserved */
};
static const struct field_src s10v3[] = {
	S10_SEED,
	{ S_PROC_HWID, 0 }, /* the description has no PIR: the hardware processor id (docs) */
	{ S_PROC_INDEX, 0 },
};

/* 0x50 from version 3 ("Data from this should only be considered valid
 * if counter_info_version >= 0x3"): one total, then each link's idle;
 * reserved2 @0x30/0x20: 80 bytes per chip. */
static const struct hvpmu_gpci_field f50v3[] = {
	FLD("hw_chip_id", 0x00, 4, 0),
	FLD("total_link_cycles", 0x10, 8, 1),
	FLD("idle_cycles_for_a_link", 0x18, 8, 1),
	FLD("idle_cycles_for_b_link", 0x20, 8, 1),
	FLD("idle_cycles_for_c_link", 0x28, 8, 1),
};
static const struct field_src s50v3[] = {
	{ S_CHIP_HWID, 0 },
	{ S_LINK_TOTAL, LINKS(HVPMU_CEC_LINK_A, 3) },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_A) },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_B) },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_C) },
};

/* 0x60 from version 3: one total, then each link's idle; reserved2
 * @0x38/0x28: 96 bytes per chip. */
static const struct hvpmu_gpci_field f60v3[] = {
	FLD("hw_chip_id", 0x00, 4, 0),
	FLD("total_link_cycles", 0x10, 8, 1),
	FLD("idle_cycles_for_w_link", 0x18, 8, 1),
	FLD("idle_cycles_for_x_link", 0x20, 8, 1),
	FLD("idle_cycles_for_y_link", 0x28, 8, 1),
	FLD("idle_cycles_for_z_link", 0x30, 8, 1),
};
static const struct field_src s60v3[] = {
	{ S_CHIP_HWID, 0 },
	{ S_LINK_TOTAL, LINKS(HVPMU_CEC_LINK_W, 4) },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_W) },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_X) },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_Y) },
	{ S_REG, HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_Z) },
};

/* 0x80001000 Set MMCRH: its input, one uint64. */
static const struct hvpmu_gpci_field f81[] = { FLD("mmcrh_value_to_set", 0x00, 8, 0) };
static const struct field_src s81[] = { { S_ZERO, 0 } };

/* 0x80002000 Retrieve HPMCx: 72 bytes per physical processor. */
static const struct hvpmu_gpci_field f82[] = {
	FLD("hw_processor_id", 0x00, 4, 0),
	FLD("mmcrh", 0x08, 8, 0),
	FLD("timebase_since_mmcrh_set", 0x10, 8, 1),
	FLD("hpmc1_since_set", 0x18, 8, 1),
	FLD("hpmc2_since_set", 0x20, 8, 1),
	FLD("hpmc3_since_set", 0x28, 8, 1),
	FLD("hpmc3", 0x30, 8, 1),
	FLD("hpmc4_since_set", 0x38, 8, 1),
	FLD("hpmc4", 0x40, 8, 1),
};
static const struct field_src s82[] = {
	{ S_PROC_HWID, 0 }, { S_REG, HVPMU_CEC_P_MMCRH }, { S_REG, HVPMU_CEC_P_MMCRH_TB },
	{ S_REG, HVPMU_CEC_P_HPMC1 }, { S_REG, HVPMU_CEC_P_HPMC2 }, { S_REG, HVPMU_CEC_P_HPMC3_SET },
	{ S_REG, HVPMU_CEC_P_HPMC3 }, { S_REG, HVPMU_CEC_P_HPMC4_SET }, { S_REG, HVPMU_CEC_P_HPMC4 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define REQ(code, name, idx, bytes, lab, f) { code, name, idx, bytes, lab, N(f), f, 0 }
#define LATER(code, name, idx, bytes, f, v) { code, name, idx, bytes, 0, N(f), f, v }

/* The seed's layouts first (hvpmu_gpci_request_at), then the later ones
 * of the same requests, in version order. */
static const struct hvpmu_gpci_request requests[] = {
	REQ(HVPMU_GPCI_DISPATCH_PURR_BY_PROCESSOR, "dispatch_purr_by_processor", HVPMU_GPCI_IDX_PROCESSOR, 0x30, 0, f10),
	REQ(HVPMU_GPCI_PURR_BY_PARTITION, "entitled_capped_uncapped_donated_idle_purr_by_partition",
	    HVPMU_GPCI_IDX_PARTITION, 0x30, 0, f20),
	REQ(HVPMU_GPCI_RUN_BY_PARTITION, "run_instructions_run_cycles_by_partition", HVPMU_GPCI_IDX_PARTITION, 0x18, 0,
	    f30),
	REQ(HVPMU_GPCI_SYSTEM_CAPABILITIES, "system_performance_capabilities", HVPMU_GPCI_IDX_SELF, 0x10, 0, f40),
	REQ(HVPMU_GPCI_BUS_ABC_LINKS, "processor_bus_utilization_abc_links", HVPMU_GPCI_IDX_CHIP, 0x40, 0, f50),
	REQ(HVPMU_GPCI_BUS_WXYZ_LINKS, "processor_bus_utilization_wxyz_links", HVPMU_GPCI_IDX_CHIP, 0x50, 0, f60),
	REQ(HVPMU_GPCI_SET_MMCRH, "set_mmcrh", HVPMU_GPCI_IDX_NONE, 0x08, 1, f81),
	REQ(HVPMU_GPCI_RETRIEVE_HPMCX, "retrieve_hpmcx", HVPMU_GPCI_IDX_PROCESSOR, 0x48, 1, f82),
	LATER(HVPMU_GPCI_DISPATCH_PURR_BY_PROCESSOR, "dispatch_purr_by_processor", HVPMU_GPCI_IDX_PROCESSOR, 0x30,
	      f10v3, 3),
	LATER(HVPMU_GPCI_BUS_ABC_LINKS, "processor_bus_utilization_abc_links", HVPMU_GPCI_IDX_CHIP, 0x50, f50v3, 3),
	LATER(HVPMU_GPCI_BUS_WXYZ_LINKS, "processor_bus_utilization_wxyz_links", HVPMU_GPCI_IDX_CHIP, 0x60, f60v3, 3),
};
#define NSEED 8u /* the seed's layouts: requests[0 .. NSEED - 1] */
static const struct field_src *const sources[N(requests)] = { s10, s20, s30, s40, s50, s60, s81, s82,
							      s10v3, s50v3, s60v3 };

/* The counter-info versions Linux names (hv-gpci.h's comment). */
static const uint8_t versions_named[] = { 0, 3, 5, 6, 8 };

/* Every field inside its element, every table's sources as long as its
 * fields: checked once at compile time where C allows, else at create. */
_Static_assert(N(f10) == N(s10) && N(f20) == N(s20) && N(f30) == N(s30) && N(f40) == N(s40) &&
		       N(f50) == N(s50) && N(f60) == N(s60) && N(f81) == N(s81) && N(f82) == N(s82) &&
		       N(f10v3) == N(s10v3) && N(f50v3) == N(s50v3) && N(f60v3) == N(s60v3),
	       "one source per field");
_Static_assert(NSEED <= N(requests), "the seed's layouts come first");
_Static_assert(HVPMU_GPCI_HEADER_BYTES == 4 + 4 + 4 + 4 + 2 * 8, "seed: u32, i32, u32, u32, u64[2]");

/* Requests Linux knows (linux-clients.md §2.3) that this firmware, the
 * seed's, does not implement. */
static const uint32_t known_unavailable[] = {
	0x70, 0x80, 0x90, 0x91, 0x94, 0x95, 0xA0, 0xB0, 0xB1, 0xC0, 0xD0, 0xE0, 0xF0, 0xF4, 0x100,
};

const struct hvpmu_gpci_request *hvpmu_gpci_request_at(unsigned i) { return i < NSEED ? &requests[i] : NULL; }

/* The seed's layout of `code`: its index, or -1. */
static int request_index(uint32_t code)
{
	for (unsigned i = 0; i < NSEED; i++)
		if (requests[i].code == code)
			return (int)i;
	return -1;
}

/* `code`'s layout at answered version `version`: its index, or -1. */
static int layout_index(uint32_t code, uint8_t version)
{
	int best = request_index(code);

	for (unsigned i = NSEED; best >= 0 && i < N(requests); i++)
		if (requests[i].code == code && requests[i].min_version <= version &&
		    requests[i].min_version > requests[best].min_version)
			best = (int)i;
	return best;
}

const struct hvpmu_gpci_request *hvpmu_gpci_request_layout(uint32_t code, uint8_t version)
{
	int i = layout_index(code, version);

	return i < 0 ? NULL : &requests[i];
}

int hvpmu_gpci_version_named(unsigned version)
{
	for (unsigned i = 0; i < N(versions_named); i++)
		if (versions_named[i] == version)
			return 1;
	return 0;
}

uint8_t hvpmu_gpci_version_answered(uint8_t level, uint8_t version_in)
{
	return version_in <= level && hvpmu_gpci_version_named(version_in) ? version_in : 0;
}

const struct hvpmu_gpci_request *hvpmu_gpci_request_find(uint32_t code)
{
	int i = request_index(code);

	return i < 0 ? NULL : &requests[i];
}

int hvpmu_gpci_request_known(uint32_t code)
{
	for (unsigned i = 0; i < N(known_unavailable); i++)
		if (known_unavailable[i] == code)
			return 1;
	return 0;
}

/* ---- the service ---- */

#define MAX_ELEMENT 0x60
#define MAX_OUT (HVPMU_GPCI_HEADER_BYTES + HVPMU_CEC_MAX_PROCS * MAX_ELEMENT)

struct hvpmu_papr {
	struct hvpmu_cec cec;
	struct hvpmu_papr_bus bus;
	/* each index kind's elements in index order: processors by index,
	 * partitions by id, chips by hardware id (the CEC's indices) */
	uint32_t order[3][HVPMU_CEC_MAX_PROCS];
	uint32_t count[3];
	uint8_t out[MAX_OUT]; /* the block as it will be written */
};

/* The key an element is found by: processor index, partition id, chip hardware id. */
static uint32_t key_of(const struct hvpmu_cec *cec, enum hvpmu_gpci_index_kind k, uint32_t i)
{
	switch (k) {
	case HVPMU_GPCI_IDX_PARTITION: return cec->partitions[i].id;
	case HVPMU_GPCI_IDX_CHIP: return cec->chips[i].hw_id;
	default: return i;
	}
}

static void sort_kind(struct hvpmu_papr *p, enum hvpmu_gpci_index_kind k, uint32_t n)
{
	uint32_t *o = p->order[k];

	p->count[k] = n;
	for (uint32_t i = 0; i < n; i++) { /* insertion sort: at most 128 */
		uint32_t j = i;

		while (j > 0 && key_of(&p->cec, k, o[j - 1]) > key_of(&p->cec, k, i)) {
			o[j] = o[j - 1];
			j--;
		}
		o[j] = i;
	}
}

int hvpmu_papr_create(const struct hvpmu_cec *cec, const struct hvpmu_papr_bus *bus, struct hvpmu_papr **out)
{
	struct hvpmu_papr *p;

	if (!out)
		return HVPMU_EINVAL;
	*out = NULL;
	if (!cec || !bus || !bus->read || !bus->write || hvpmu_cec_check(cec, "", NULL, 0))
		return HVPMU_EINVAL;
	for (unsigned r = 0; r < N(requests); r++) /* the tables are sane */
		for (unsigned f = 0; f < requests[r].nfields; f++)
			if (requests[r].fields[f].offset + requests[r].fields[f].width > requests[r].element_bytes ||
			    requests[r].element_bytes > MAX_ELEMENT)
				return HVPMU_EINVAL;
	if (!(p = calloc(1, sizeof *p)))
		return HVPMU_ENOMEM;
	p->cec = *cec;
	p->bus = *bus;
	sort_kind(p, HVPMU_GPCI_IDX_PROCESSOR, cec->nprocs);
	sort_kind(p, HVPMU_GPCI_IDX_PARTITION, cec->npartitions);
	sort_kind(p, HVPMU_GPCI_IDX_CHIP, cec->nchips);
	*out = p;
	return HVPMU_OK;
}

void hvpmu_papr_destroy(struct hvpmu_papr *p) { free(p); }

static uint64_t get_be(const uint8_t *b, unsigned width)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < width; i++)
		v = v << 8 | b[i];
	return v;
}

static void put_be(uint8_t *b, unsigned width, uint64_t v)
{
	for (unsigned i = width; i-- > 0; v >>= 8)
		b[i] = (uint8_t)v;
}

static uint8_t capability_mask(const struct hvpmu_cec *cec)
{
	/* GA: the generally available requests; no EXPANDED ones (0x70, 0x80);
	 * LAB when the firmware has the LAB requests (docs/papr-gpci.md) */
	return (uint8_t)(HVPMU_GPCI_CM_GA | (cec->lab ? HVPMU_GPCI_CM_LAB : 0));
}

static const unsigned group_of[] = {
	[HVPMU_GPCI_IDX_PROCESSOR] = HVPMU_CEC_GRP_PROC,
	[HVPMU_GPCI_IDX_PARTITION] = HVPMU_CEC_GRP_PARTITION,
	[HVPMU_GPCI_IDX_CHIP] = HVPMU_CEC_GRP_CHIP,
	[HVPMU_GPCI_IDX_SELF] = HVPMU_CEC_GRP_PARTITION,
	[HVPMU_GPCI_IDX_NONE] = HVPMU_CEC_GRP_GLOBAL,
};

/* Fill element `e` (CEC index `i`) of request r for caller c: 0, or -1
 * when the device did not answer. */
static int fill(struct hvpmu_papr *p, unsigned r, uint32_t i, const struct hvpmu_papr_caller *c, uint8_t *e)
{
	const struct hvpmu_gpci_request *rq = &requests[r];
	const struct hvpmu_cec *cec = &p->cec;
	const struct hvpmu_cec_proc *pr = rq->index == HVPMU_GPCI_IDX_PROCESSOR ? &cec->procs[i] : NULL;

	memset(e, 0, rq->element_bytes);
	for (unsigned f = 0; f < rq->nfields; f++) {
		const struct field_src *s = &sources[r][f];
		uint64_t v = 0;

		switch (s->source) {
		case S_REG:
			if (p->bus.read(p->bus.ctx, HVPMU_CEC_REG(group_of[rq->index], i, s->arg), &v))
				return -1;
			break;
		case S_PROC_HWID: v = pr->hw_id; break;
		case S_PROC_CHIP_HWID: /* "-1 for Not Installed processors" */
			v = pr->state == HVPMU_CEC_NOT_INSTALLED ? UINT32_MAX : cec->chips[pr->chip].hw_id;
			break;
		case S_PROC_MODULE: v = cec->chips[pr->chip].module; break;
		case S_PROC_PRIMARY: v = pr->primary_domain; break;
		case S_PROC_SECONDARY: v = pr->secondary_domain; break;
		case S_PROC_VERSION: v = pr->version; break; /* -1 when not installed: hvpmu_cec_check */
		case S_PROC_LOGICAL: v = pr->logical_index; break;
		case S_PART_ID: v = cec->partitions[i].id; break;
		case S_CHIP_HWID: v = cec->chips[i].hw_id; break;
		case S_CAP_PRIVILEGED: v = cec->partitions[c->partition].collect_privileged ? 1 : 0; break;
		case S_CAP_MASK: v = capability_mask(cec); break;
		case S_PROC_INDEX: v = i; break;
		case S_LINK_TOTAL: /* the time the links' data was collected: the longest */
			for (unsigned l = 0; l < HVPMU_CEC_NLINKS; l++) {
				uint64_t t;

				if (!(s->arg >> l & 1))
					continue;
				if (p->bus.read(p->bus.ctx, HVPMU_CEC_REG(group_of[rq->index], i, HVPMU_CEC_C_LINK_TOTAL(l)),
						&t))
					return -1;
				v = t > v ? t : v;
			}
			break;
		default: break;
		}
		put_be(e + rq->fields[f].offset, rq->fields[f].width, v);
	}
	return 0;
}

/* The caller's own element of index kind k (starting index -1). */
static uint32_t self_of(const struct hvpmu_papr *p, enum hvpmu_gpci_index_kind k, const struct hvpmu_papr_caller *c)
{
	switch (k) {
	case HVPMU_GPCI_IDX_PROCESSOR: return c->proc;
	case HVPMU_GPCI_IDX_CHIP: return p->cec.procs[c->proc].chip;
	default: return c->partition;
	}
}

/* Write the header's outputs and n elements (already in p->out) to the block. */
static int64_t finish(struct hvpmu_papr *p, const struct hvpmu_papr_caller *c, uint64_t ra, uint32_t first,
		      uint32_t n, uint16_t element, uint8_t version, uint32_t detail, int64_t status)
{
	uint8_t *h = p->out;

	put_be(h + HVPMU_GPCI_STARTING_INDEX, 4, first);
	put_be(h + HVPMU_GPCI_RETURNED_VALUES, 4, n);
	put_be(h + HVPMU_GPCI_DETAIL_RC, 4, detail);
	put_be(h + HVPMU_GPCI_CV_ELEMENT_SIZE, 2, element);
	h[HVPMU_GPCI_VERSION_OUT] = version; /* the layout's version, as answered */
	if (hvpmu_guest_mem_write(c->mem, ra, h, HVPMU_GPCI_HEADER_BYTES + (size_t)n * element))
		return HVPMU_H_HARDWARE; /* the host could not back the caller's memory */
	return status;
}

int64_t hvpmu_papr_get_perf_counter_info(struct hvpmu_papr *p, const struct hvpmu_papr_caller *c, uint64_t ra,
					 uint64_t size)
{
	const struct hvpmu_gpci_request *rq;
	const struct hvpmu_cec_partition *self;
	uint8_t *h = p->out;
	uint32_t code, start, pos = 0, avail = 0, fit, first;
	uint8_t version;
	int r, privileged;

	if (!p || !c || c->partition >= p->cec.npartitions || c->proc >= p->cec.nprocs)
		return HVPMU_H_HARDWARE; /* not a call a partition can make: no caller */
	self = &p->cec.partitions[c->partition];
	privileged = self->collect_privileged != 0;

	/* 1. the block is accessible: in one segment of the caller's real memory */
	if (!c->mem || !hvpmu_guest_mem_range_ok(c->mem, ra, size ? size : 1))
		return HVPMU_H_PRIVILEGE;

	/* 2. its size and contents */
	if (size < HVPMU_GPCI_HEADER_BYTES || hvpmu_guest_mem_read(c->mem, ra, h, HVPMU_GPCI_HEADER_BYTES))
		return HVPMU_H_PARAMETER;
	code = (uint32_t)get_be(h + HVPMU_GPCI_REQUEST, 4);
	start = (uint32_t)get_be(h + HVPMU_GPCI_STARTING_INDEX, 4);
	/* the layout the caller's counter_info_version_in names, or the
	 * seed's for a version this firmware does not know */
	version = hvpmu_gpci_version_answered(p->cec.counter_info_version, h[HVPMU_GPCI_VERSION_IN]);
	r = layout_index(code, version);
	if (r < 0) /* (a known request's contents: this firmware cannot interpret them) */
		return hvpmu_gpci_request_known(code) ? HVPMU_H_NOT_AVAILABLE : HVPMU_H_PARAMETER;
	rq = &requests[r];
	if (rq->index == HVPMU_GPCI_IDX_NONE) { /* Set MMCRH: one uint64 in */
		uint8_t b[8];
		uint64_t v;

		if (size < HVPMU_GPCI_HEADER_BYTES + (uint64_t)rq->element_bytes ||
		    hvpmu_guest_mem_read(c->mem, ra + HVPMU_GPCI_HEADER_BYTES, b, sizeof b))
			return HVPMU_H_PARAMETER;
		v = get_be(b, 8);
		if (!hvpmu_cec_mmcrh_valid(v))
			return HVPMU_H_PARAMETER;
		if (!p->cec.lab)
			return HVPMU_H_NOT_AVAILABLE; /* 3. after its size and contents (the spec's order) */
		if (!privileged)
			return HVPMU_H_AUTHORITY; /* 4. it sets every processor's MMCRH */
		if (p->bus.write(p->bus.ctx, HVPMU_CEC_REG(HVPMU_CEC_GRP_GLOBAL, 0, HVPMU_CEC_G_MMCRH), v))
			return HVPMU_H_HARDWARE;
		return HVPMU_H_SUCCESS; /* "no output for this function other than errors" */
	}
	if (rq->index != HVPMU_GPCI_IDX_SELF) {
		const uint32_t *o = p->order[rq->index];
		uint32_t n = p->count[rq->index];

		if (start == HVPMU_GPCI_INDEX_SELF) {
			uint32_t me = self_of(p, rq->index, c);

			while (pos < n && o[pos] != me)
				pos++;
			avail = 1; /* "only information for the current processor/partition" */
		} else {
			while (pos < n && key_of(&p->cec, rq->index, o[pos]) < start)
				pos++;
			avail = n - pos;
		}
		if (pos >= n)
			return HVPMU_H_PARAMETER; /* nothing at or past the starting index */
	} else {
		avail = 1;
	}
	if (size < HVPMU_GPCI_HEADER_BYTES + (uint64_t)rq->element_bytes)
		return finish(p, c, ra, start, 0, rq->element_bytes, version, HVPMU_GPCI_DETAIL_BUF_TOO_SMALL,
			      HVPMU_H_PARAMETER);

	/* 3. available on this firmware and platform */
	if (rq->lab && !p->cec.lab)
		return HVPMU_H_NOT_AVAILABLE;
	if (rq->index == HVPMU_GPCI_IDX_SELF && start != HVPMU_GPCI_INDEX_SELF)
		return HVPMU_H_NOT_AVAILABLE; /* 0x40: "starting_index must always be -1" */

	/* 4. permitted: without the right, only the caller's own partition */
	if (!privileged) {
		if (rq->index == HVPMU_GPCI_IDX_PROCESSOR || rq->index == HVPMU_GPCI_IDX_CHIP)
			return HVPMU_H_AUTHORITY;
		if (rq->index == HVPMU_GPCI_IDX_PARTITION) {
			if (p->order[rq->index][pos] != c->partition)
				return HVPMU_H_AUTHORITY;
			avail = 1;
		}
	}

	/* 5. copy the counters */
	fit = (uint32_t)((size - HVPMU_GPCI_HEADER_BYTES) / rq->element_bytes < avail
				 ? (size - HVPMU_GPCI_HEADER_BYTES) / rq->element_bytes
				 : avail);
	for (uint32_t k = 0; k < fit; k++) {
		uint32_t i = rq->index == HVPMU_GPCI_IDX_SELF ? c->partition : p->order[rq->index][pos + k];

		if (fill(p, (unsigned)r, i, c, h + HVPMU_GPCI_HEADER_BYTES + (size_t)k * rq->element_bytes))
			return HVPMU_H_HARDWARE;
	}
	first = rq->index == HVPMU_GPCI_IDX_SELF ? self->id : key_of(&p->cec, rq->index, p->order[rq->index][pos]);
	return finish(p, c, ra, first, fit, rq->element_bytes, version,
		      fit < avail ? HVPMU_GPCI_DETAIL_BUF_TOO_SMALL : 0, fit < avail ? HVPMU_H_PARAMETER : HVPMU_H_SUCCESS);
}

int64_t hvpmu_papr_hcall(struct hvpmu_papr *p, const struct hvpmu_papr_caller *c, const uint64_t gpr[3])
{
	if (!gpr || gpr[0] != HVPMU_H_GET_PERF_COUNTER_INFO)
		return HVPMU_H_FUNCTION;
	return hvpmu_papr_get_perf_counter_info(p, c, gpr[1], gpr[2]);
}
