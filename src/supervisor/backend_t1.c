/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The UltraSPARC T1 driver as the tools see it (hvpmu/supervisor.h):
 * PICH counts instructions (Instr_cnt, config HVPMU_SV_T1_PICH) and PICL
 * one of eight events by its SL select (niagara-perf-api.txt §2.1, the
 * Solaris cpustat names of hvpmu/t1_pmu.h; config = SL), with the generic
 * aliases as Linux's niagara1 PMU maps them (linux-clients.md §1.7: there
 * is no cycle event, cycles count instructions) and the raw `rN` (the
 * PICL select); the PCR has UT and ST but no HT.  Chip-wide devices: the
 * JBUS (jbus0, device 0) and the four DRAM channels (dram0-3, devices
 * 1-4), as Solaris busstat names them (niagara-perf-api.txt §1.2-1.3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sv_internal.h"

#define T1_PICH_NAME "Instr_cnt"
#define T1_DEV_JBUS 0
#define T1_DEV_DRAM0 1

static const struct {
	const char *alias;
	int picl;           /* PICL event, or -1 for PICH */
} t1_aliases[] = {
	{ "instructions", -1 }, { "cycles", -1 }, { "cpu-cycles", -1 },
	{ "cache-misses", HVPMU_T1_SL_DC_MISS }, { "L1-dcache-load-misses", HVPMU_T1_SL_DC_MISS },
	{ "L1-icache-load-misses", HVPMU_T1_SL_IC_MISS }, { "LLC-load-misses", HVPMU_T1_SL_L2_DMISS_LD },
	{ "dTLB-load-misses", HVPMU_T1_SL_DTLB_MISS }, { "iTLB-load-misses", HVPMU_T1_SL_ITLB_MISS },
};

static int config_valid(uint64_t config) { return config == HVPMU_SV_T1_PICH || config < HVPMU_T1_NSL; }

static int lookup(const char *tok, const char *base, uint64_t *config, char *err, size_t errlen)
{
	unsigned long raw;
	char *end;

	(void)tok;
	if (strcmp(base, T1_PICH_NAME) == 0) {
		*config = HVPMU_SV_T1_PICH;
		return 0;
	}
	for (unsigned k = 0; k < HVPMU_T1_NSL; k++)
		if (strcmp(base, hvpmu_t1_picl_name(k)) == 0) {
			*config = k;
			return 0;
		}
	for (unsigned i = 0; i < sizeof t1_aliases / sizeof t1_aliases[0]; i++)
		if (strcmp(base, t1_aliases[i].alias) == 0) {
			*config = t1_aliases[i].picl < 0 ? HVPMU_SV_T1_PICH : (uint64_t)t1_aliases[i].picl;
			return 0;
		}
	if (base[0] == 'r' && base[1]) { /* rN: the PICL select code */
		raw = strtoul(base + 1, &end, 16);
		if (!*end && raw < HVPMU_T1_NSL) {
			*config = raw;
			return 0;
		}
	}
	if (strncmp(base, "sl=", 3) == 0)
		snprintf(err, errlen, "raw sl=N,mask=M events are T4 events (T1: rN)");
	else
		snprintf(err, errlen, "event syntax error: unknown T1 event '%s' (see 'hvpmu list')", base);
	return -1;
}

static int supported(uint64_t config) { return config_valid(config); }

static int event(unsigned i, struct hvpmu_sv_event_info *out)
{
	if (i > HVPMU_T1_NSL)
		return HVPMU_ERANGE;
	out->supported = 1;
	if (i == 0) {
		out->name = T1_PICH_NAME;
		out->config = HVPMU_SV_T1_PICH;
		snprintf(out->text, sizeof out->text, "PICH       instructions");
	} else {
		out->name = hvpmu_t1_picl_name(i - 1);
		out->config = i - 1;
		snprintf(out->text, sizeof out->text, "PICL sl=%u", i - 1);
	}
	return HVPMU_OK;
}

/* §2.1: Instr_cnt only on PICH (pic1), the SL events only on PICL (pic0). */
static uint32_t pics(uint64_t config) { return config == HVPMU_SV_T1_PICH ? 1u << T1_PIC_PICH : 1u << T1_PIC_PICL; }
static int shared(uint64_t config) { return config == HVPMU_SV_T1_PICH; }

/* Linux's niagara1: instructions is PICH; cycles are counted as
 * instructions too, so no derived metric holds. */
static int generic(uint64_t config)
{
	return config == HVPMU_SV_T1_PICH ? HVPMU_SV_GENERIC_INSTRUCTIONS : HVPMU_SV_GENERIC_NONE;
}

/* PICL's cache, TLB and store-buffer events: the outputs their memory
 * events are (hvpmu_machine_mev_features). */
static unsigned reads(uint64_t config)
{
	return config == HVPMU_SV_T1_PICH ? 0 : hvpmu_machine_mev_features(hvpmu_t1_picl_mevs((unsigned)config));
}

/* and they run on the modeled time: the running time is %tick
 * (hvpmu/supervisor.h) */
static unsigned features(uint64_t config)
{
	unsigned f = reads(config);

	return f ? f | HVPMU_FEAT_CYCLES : 0;
}

static const struct sv_uncore_kind kinds[] = {
	{ "dram", T1_DEV_DRAM0, HVPMU_T1_DRAM_CHANNELS, HVPMU_T1_NCODES, HVPMU_T1_CODE_CLEAR_PIC,
	  hvpmu_t1_dram_event_name, hvpmu_t1_dram_event_by_name },
	{ "jbus", T1_DEV_JBUS, 1, HVPMU_T1_NCODES, HVPMU_T1_CODE_CLEAR_PIC,
	  hvpmu_t1_jbus_event_name, hvpmu_t1_jbus_event_by_name },
};

static unsigned uncore_count(const struct hvpmu_md *md)
{
	(void)md;
	return T1_DEV_DRAM0 + HVPMU_T1_DRAM_CHANNELS;
}

const struct hvpmu_sv_backend sv_backend_t1 = {
	.desc = {
		.name = "t1",
		.services = HVPMU_SV_SERVICE_MMUSTAT, /* the T1 hypervisor's MMU statistics (src/services/sun4v.c) */
		.title = "UltraSPARC T1 events (hvpmu stat -p t1; niagara-perf-api.txt §2.1):",
		.alias_title = NULL,
		.raw_help = NULL,
		.cpustat_title = "UltraSPARC T1 (--platform t1)",
		.tick_name = "%tick",
		.default_events = "Instr_cnt,DC_miss",
		.npic = T1_NPIC,
		.modes = SV_T1_MODES,
		.emask = 0,
		.mode_help = "T1: :u, :k",
	},
	.platform = HVPMU_PLATFORM_T1,
	.ops = &sv_pcbe_t1,
	.event = event,
	.alias = NULL,
	.lookup = lookup,
	.supported = supported,
	.pics = pics,
	.shared = shared,
	.generic = generic,
	.reads = reads,
	.features = features,
	.kinds = kinds,
	.nkinds = sizeof kinds / sizeof kinds[0],
	.uncore_count = uncore_count,
};
