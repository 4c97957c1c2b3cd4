/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SPARC T4 driver as the tools see it (hvpmu/supervisor.h): events are
 * the TABLE 10-2 (sl, mask) pairs of sparc-t4-performance-instrumentation.md,
 * encoded as the Solaris PCBE and Linux do, config = (sl << 6) | mask
 * (reference/t4-events.md §0), named as Solaris cpustat names them
 * (hvpmu/t4_events.h), with Linux's generic aliases for T4
 * (linux-clients.md §1.7), the raw syntax `sl=N,mask=M` and perf's `rHHH`;
 * four PICs, any event on any; the chip-wide devices are the memory
 * controllers' DRAM counters, mcuN (§10.5, TABLE 10-7 select codes).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sv_internal.h"

#define RAW_MASK_BITS SV_T4_MASK_BITS
#define MAX_SL SV_T4_MAX_SL
#define RAW_MAX SV_T4_CONFIG_MAX
/* the T4 groups perf's generic events map to (linux-clients.md §1.7) */
#define SL_INSN 3u
#define MASK_ALL_INSN 0x3fu
#define SL_CYCLES 26u
/* TABLE 10-7: select codes 0x0-0xc; 0xd-0xf reserved, counting nothing
 * (0xf is what busstat's clear_pic selects) */
#define DRAM_MAX_SEL 0xcu
#define DRAM_CLEAR_PIC 0xfu

#define sl_of sv_t4_sl
#define mask_of sv_t4_mask
#define config_of sv_t4_config
#define config_valid sv_t4_config_valid

static int parse_num(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	if (!*s)
		return -1;
	*out = strtoul(s, &end, 0);
	return (errno || *end || *out > max || *s == '-') ? -1 : 0;
}

/* rHHH: hexadecimal digits only, as perf's raw syntax. */
static int parse_raw(const char *s, unsigned long *out)
{
	char buf[32];

	if (!*s || strlen(s) + 3 > sizeof buf || strspn(s, "0123456789abcdefABCDEF") != strlen(s))
		return -1;
	snprintf(buf, sizeof buf, "0x%s", s);
	return parse_num(buf, RAW_MAX, out);
}

static int lookup(const char *tok, const char *base, uint64_t *config, char *err, size_t errlen)
{
	const struct hvpmu_t4_event *nat;
	const struct hvpmu_t4_alias *al;
	unsigned long sl, mask, raw;

	if ((nat = hvpmu_t4_event_by_name(base))) {
		*config = config_of(nat->sl, nat->mask);
	} else if ((al = hvpmu_t4_alias_by_name(base))) {
		*config = config_of(al->sl, al->mask);
	} else if (strncmp(base, "sl=", 3) == 0) { /* the parser joined "sl=N" and "mask=M" with '/' */
		char b[128], *m;

		snprintf(b, sizeof b, "%s", base);
		m = strstr(b, "/mask=");
		if (!m || (*m = 0, parse_num(b + 3, MAX_SL, &sl)) || parse_num(m + 6, RAW_MASK_BITS, &mask)) {
			snprintf(err, errlen, "invalid raw event '%s' (want sl=0..31,mask=0..0x3f)", tok);
			return -1;
		}
		*config = config_of((unsigned)sl, (unsigned)mask);
	} else if (base[0] == 'r' && base[1] && parse_raw(base + 1, &raw) == 0) {
		*config = raw;
	} else {
		snprintf(err, errlen, "event syntax error: unknown event '%s' (see 'hvpmu list')", base);
		return -1;
	}
	return 0;
}

static int supported(uint64_t config)
{
	return config_valid(config) && hvpmu_t4_event_supported(sl_of(config), mask_of(config));
}

static void describe(struct hvpmu_sv_event_info *out, const char *name, unsigned sl, unsigned mask,
		     const char *what)
{
	out->name = name;
	out->config = config_of(sl, mask);
	out->supported = hvpmu_t4_event_supported(sl, mask);
	snprintf(out->text, sizeof out->text, "sl=%-2u mask=0x%02x  %s", sl, mask, what);
}

static int event(unsigned i, struct hvpmu_sv_event_info *out)
{
	unsigned n;
	const struct hvpmu_t4_event *ev = hvpmu_t4_events(&n);

	if (i >= n)
		return HVPMU_ERANGE;
	describe(out, ev[i].name, ev[i].sl, ev[i].mask, ev[i].desc);
	return HVPMU_OK;
}

static int alias(unsigned i, struct hvpmu_sv_event_info *out)
{
	unsigned n;
	const struct hvpmu_t4_alias *al = hvpmu_t4_aliases(&n);

	if (i >= n)
		return HVPMU_ERANGE;
	describe(out, al[i].alias, al[i].sl, al[i].mask, al[i].native ? al[i].native : "(sl=4 branches)");
	return HVPMU_OK;
}

/* §10.1: four PCR/PIC pairs, each counting any event of TABLE 10-2. */
static uint32_t pics(uint64_t config)
{
	(void)config;
	return (1u << HVPMU_T4_NPIC) - 1;
}

static int shared(uint64_t config)
{
	(void)config;
	return 0;
}

static int generic(uint64_t config)
{
	if (config == config_of(SL_INSN, MASK_ALL_INSN))
		return HVPMU_SV_GENERIC_INSTRUCTIONS;
	if (sl_of(config) == SL_CYCLES)
		return HVPMU_SV_GENERIC_CYCLES;
	return HVPMU_SV_GENERIC_NONE;
}

/* What (sl, mask) reads: taken outcomes, mispredicts, the outputs its
 * memory events are (hvpmu_machine_mev_features), cycles. */
static unsigned reads(uint64_t config)
{
	unsigned sl = sl_of(config), mask = mask_of(config), f = 0;

	if (hvpmu_t4_event_needs_taken(sl, mask))
		f |= HVPMU_FEAT_TAKEN;
	if (hvpmu_t4_event_needs_branches(sl, mask))
		f |= HVPMU_FEAT_BRANCHES;
	f |= hvpmu_machine_mev_features(hvpmu_t4_event_mevs(sl, mask));
	if (hvpmu_t4_event_needs_cycles(sl, mask))
		f |= HVPMU_FEAT_CYCLES;
	return f;
}

/* A memory or pipeline group's counter (and sl=26) runs on the modeled
 * time: its running time is %tick (hvpmu/supervisor.h). */
static unsigned features(uint64_t config)
{
	return reads(config) |
	       (hvpmu_t4_event_needs_memory(sl_of(config), mask_of(config)) ? HVPMU_FEAT_CYCLES : 0u);
}

static const char *dram_name(unsigned code) { return code <= DRAM_MAX_SEL ? hvpmu_t4_dram_sel_name(code) : NULL; }

static const struct sv_uncore_kind kinds[] = {
	{ "mcu", 0, HVPMU_SV_MAX_UNCORE, DRAM_MAX_SEL + 1, DRAM_CLEAR_PIC, dram_name, hvpmu_t4_dram_sel_by_name },
};

/* §10.5: two memory controllers per chip. */
static unsigned uncore_count(const struct hvpmu_md *md)
{
	return md->chips * HVPMU_T4_MCUS_PER_CHIP;
}

const struct hvpmu_sv_backend sv_backend_t4 = {
	.desc = {
		.name = "t4",
		.title = "SPARC T4 events (sparc-t4-performance-instrumentation.md TABLE 10-2):",
		.alias_title = "Generic aliases (as Linux maps them for T4):",
		.raw_help = "Raw: sl=N,mask=M or rHHH ((sl << 6) | mask); modifiers :u (ut) :k (st) :h (ht)",
		.cpustat_title = "SPARC T4 (default)",
		.tick_name = "%tick",
		.default_events = "cycles,instructions,branches,Instr_ld",
		.npic = HVPMU_T4_NPIC,
		.modes = SV_T4_MODES,
		.emask = RAW_MASK_BITS, /* the PCBE ORs emask into PCR.mask */
		.mode_help = "use :u, :k, :h",
	},
	.platform = HVPMU_PLATFORM_T4,
	.ops = &sv_pcbe_t4,
	.event = event,
	.alias = alias,
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
