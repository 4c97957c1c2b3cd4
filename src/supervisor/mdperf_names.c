/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SGI Origin Hub MD counter sets and counters by name, as `hvpmu
 * mdperf` shows them (hvpmu/supervisor.h): the set order and the counter
 * order of hw-and-hypervisor.md §5.2 (hwperftypes.h rev 1.23), in
 * lower case, each name the short form of the header's description.
 * Constant data: thread-safe.
 */
#include <stddef.h>
#include <strings.h>
#include <hvpmu/supervisor.h>

static const struct md_set {
	const char *name;
	const char *counter[HVPMU_SV_MD_COUNTERS];
} md_sets[HVPMU_SV_MD_SETS] = {
	/* set 0: memory/directory unit cycles */
	{ "mem_cycles", { "idle", "blocked", "refresh", "dir_busy", "mem_dir_busy", "misc_busy" } },
	/* set 1: outgoing messages */
	{ "outmsg_class",
	  { "interv_inval", "backoff_interv_inval", "wb_ack", "response", "nack", "other_reply" } },
	/* set 2: outgoing interventions and invalidations */
	{ "inval_class",
	  { "inval", "interv_remove", "interv_rdex_uncached", "interv_rdsh_uncached", "interv_rdex", "interv_rdsh" } },
	/* set 3: incoming messages */
	{ "inmsg_class", { "misc_req", "reads", "write_replies", "revision_replies", "fop_hit", "fop_miss" } },
	/* set 4: directory state seen by reads */
	{ "dir_state", { "unowned", "poisoned", "shared", "excl_requester", "excl_other", "busy" } },
	/* set 5: local requests */
	{ "local_req", { "cpu0_reads", "cpu0_wb", "cpu1_reads", "cpu1_wb", "io_reads", "io_wrinv" } },
};

const char *hvpmu_sv_mdperf_set_name(unsigned set)
{
	return set < HVPMU_SV_MD_SETS ? md_sets[set].name : NULL;
}

const char *hvpmu_sv_mdperf_counter_name(unsigned set, unsigned counter)
{
	return set < HVPMU_SV_MD_SETS && counter < HVPMU_SV_MD_COUNTERS ? md_sets[set].counter[counter] : NULL;
}

int hvpmu_sv_mdperf_set_of(const char *name)
{
	for (unsigned i = 0; name && i < HVPMU_SV_MD_SETS; i++)
		if (strcasecmp(name, md_sets[i].name) == 0)
			return (int)i;
	return -1;
}
