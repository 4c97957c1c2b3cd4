/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CEC description of a PAPR machine (hvpmu/cec.h): the default CEC,
 * its consistency checks, names and look-ups.  Plain functions over the
 * description, used by the machine model (layer 2), the CEC statistics
 * device (layer 3) and the PAPR service (layer 4): hence src/common.  Its
 * JSON form is src/model/cec_json.c.  The fields are those of
 * ../shared/specs/papr-platform-hcalls.xml, H_GetPerformanceCounterInfo;
 * docs/papr-gpci.md gives the default and the choices.
 */
#include <stdio.h>
#include <string.h>
#include <hvpmu/error.h>
#include <hvpmu/md.h>
#include <hvpmu/cec.h>

_Static_assert(HVPMU_CEC_MAX_PARTITIONS == HVPMU_MD_MAX_GUESTS, "partition i is guest i of the md");

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- names ---- */

static const char *const state_names[] = {
	[HVPMU_CEC_NOT_INSTALLED] = "not-installed", [HVPMU_CEC_GUARDED_OFF] = "guarded-off",
	[HVPMU_CEC_UNLICENSED] = "unlicensed",       [HVPMU_CEC_SHARED] = "shared",
	[HVPMU_CEC_BORROWED] = "borrowed",           [HVPMU_CEC_DEDICATED] = "dedicated",
};
static const char *const mode_names[] = {
	[HVPMU_CEC_MODE_DEDICATED] = "dedicated", [HVPMU_CEC_MODE_CAPPED] = "capped",
	[HVPMU_CEC_MODE_UNCAPPED] = "uncapped",
};
static const char *const link_names[HVPMU_CEC_NLINKS] = { "A", "B", "C", "W", "X", "Y", "Z" };

static int by_name(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (names[i] && strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

const char *hvpmu_cec_state_name(unsigned s) { return s < N(state_names) ? state_names[s] : NULL; }
int hvpmu_cec_state_by_name(const char *name) { return by_name(state_names, N(state_names), name); }
const char *hvpmu_cec_mode_name(unsigned m) { return m < N(mode_names) ? mode_names[m] : NULL; }
int hvpmu_cec_mode_by_name(const char *name) { return by_name(mode_names, N(mode_names), name); }
const char *hvpmu_cec_link_name(unsigned l) { return l < N(link_names) ? link_names[l] : NULL; }
int hvpmu_cec_link_by_name(const char *name) { return by_name(link_names, N(link_names), name); }

/* A link's group: A-C (request 0x50) or W-Z (request 0x60). */
static int link_group(unsigned l) { return l >= HVPMU_CEC_LINK_W; }

int hvpmu_cec_partition_index(const struct hvpmu_cec *cec, uint32_t id)
{
	for (uint32_t i = 0; i < cec->npartitions && i < HVPMU_CEC_MAX_PARTITIONS; i++)
		if (cec->partitions[i].id == id)
			return (int)i;
	return -1;
}

int hvpmu_cec_chip_index(const struct hvpmu_cec *cec, uint32_t hw_id)
{
	for (uint32_t i = 0; i < cec->nchips && i < HVPMU_CEC_MAX_CHIPS; i++)
		if (cec->chips[i].hw_id == hw_id)
			return (int)i;
	return -1;
}

/* ---- the default CEC (docs/papr-gpci.md "Default CEC") ---- */

#define DEFAULT_PVR HVPMU_CEC_DEFAULT_PVR
#define DEFAULT_TIMEBASE_HZ UINT64_C(512000000) /* POWER7's 512 MHz timebase (docs/papr-gpci.md) */
#define DEFAULT_MODULES 2
#define DEFAULT_CHIPS_PER_MODULE 2
#define DEFAULT_PROCS_PER_CHIP 8   /* POWER7: 8 cores per chip */
#define DEFAULT_CHIP_ID0 0x10u
#define DEFAULT_PROC_ID0 0x100u
#define DEFAULT_UNLICENSED 2       /* the last processors of the last chip */

struct default_partition {
	const char *name;
	enum hvpmu_cec_mode mode;
	uint8_t donating, privileged;
	uint32_t entitlement, weight, nvps;
};
static const struct default_partition default_partitions[] = {
	{ "dedicated", HVPMU_CEC_MODE_DEDICATED, 1, 1, 4 * HVPMU_CEC_PU, 0, 4 },
	{ "capped", HVPMU_CEC_MODE_CAPPED, 0, 0, 200, 0, 4 },
	{ "uncapped", HVPMU_CEC_MODE_UNCAPPED, 0, 0, 150, 128, 8 },
};

void hvpmu_cec_default(struct hvpmu_cec *cec)
{
	unsigned dedicated = 0;

	memset(cec, 0, sizeof *cec);
	cec->timebase_hz = DEFAULT_TIMEBASE_HZ;
	cec->counter_info_version = 8; /* the v1.07 document's, Linux's current (docs/papr-gpci.md) */
	cec->window_us = HVPMU_CEC_WINDOW_US_DEFAULT;
	cec->lab = 1;
	cec->nchips = DEFAULT_MODULES * DEFAULT_CHIPS_PER_MODULE;
	for (unsigned c = 0; c < cec->nchips; c++) {
		struct hvpmu_cec_chip *ch = &cec->chips[c];

		ch->hw_id = DEFAULT_CHIP_ID0 + c;
		ch->module = c / DEFAULT_CHIPS_PER_MODULE;
		for (unsigned l = 0; l < HVPMU_CEC_NLINKS; l++)
			ch->link[l] = HVPMU_CEC_LINK_NONE;
		ch->link[HVPMU_CEC_LINK_X] = (int32_t)(c ^ 1u);                    /* the other chip of the module */
		ch->link[HVPMU_CEC_LINK_A] = (int32_t)(c ^ DEFAULT_CHIPS_PER_MODULE); /* its peer in the other module */
	}
	cec->npartitions = N(default_partitions);
	for (unsigned i = 0; i < cec->npartitions; i++) {
		const struct default_partition *d = &default_partitions[i];
		struct hvpmu_cec_partition *p = &cec->partitions[i];

		p->id = (uint16_t)(i + 1);
		snprintf(p->name, sizeof p->name, "%s", d->name);
		p->mode = (uint8_t)d->mode;
		p->donating = d->donating;
		p->collect_privileged = d->privileged;
		p->entitlement = d->entitlement;
		p->weight = d->weight;
		p->nvps = d->nvps;
	}
	cec->nprocs = cec->nchips * DEFAULT_PROCS_PER_CHIP;
	for (unsigned i = 0; i < cec->nprocs; i++) {
		struct hvpmu_cec_proc *pr = &cec->procs[i];

		pr->hw_id = DEFAULT_PROC_ID0 + i;
		pr->chip = i / DEFAULT_PROCS_PER_CHIP;
		pr->primary_domain = cec->chips[pr->chip].module;
		pr->secondary_domain = pr->chip;
		pr->version = DEFAULT_PVR;
		pr->logical_index = (uint16_t)i;
		pr->owner = HVPMU_CEC_NO_OWNER;
		pr->state = HVPMU_CEC_SHARED;
		if (dedicated < default_partitions[0].nvps) {
			pr->state = HVPMU_CEC_DEDICATED;
			pr->owner = cec->partitions[0].id;
			dedicated++;
		} else if (i >= cec->nprocs - DEFAULT_UNLICENSED) {
			pr->state = HVPMU_CEC_UNLICENSED;
		}
	}
}

/* ---- checks ---- */

static int fail(char *err, size_t n, const char *prefix, const char *key, const char *what)
{
	if (err && n)
		snprintf(err, n, "%s%s%s: %s", prefix, prefix[0] && key[0] != '[' ? "." : "", key, what);
	return HVPMU_EINVAL;
}

static int check_chips(const struct hvpmu_cec *cec, const char *pre, char *err, size_t n)
{
	char key[48];

	if (cec->nchips < 1 || cec->nchips > HVPMU_CEC_MAX_CHIPS)
		return fail(err, n, pre, "chips", "not 1..16 chips");
	for (uint32_t c = 0; c < cec->nchips; c++) {
		const struct hvpmu_cec_chip *ch = &cec->chips[c];

		snprintf(key, sizeof key, "chips[%u]", c);
		if (hvpmu_cec_chip_index(cec, ch->hw_id) != (int)c)
			return fail(err, n, pre, key, "hardware chip id used twice");
		if (ch->hw_id == UINT32_MAX)
			return fail(err, n, pre, key, "hardware chip id -1 means not installed");
		for (unsigned l = 0; l < HVPMU_CEC_NLINKS; l++) {
			int32_t peer = ch->link[l];
			int back = 0;

			if (peer == HVPMU_CEC_LINK_NONE)
				continue;
			snprintf(key, sizeof key, "chips[%u].links.%s", c, link_names[l]);
			if (peer < 0 || (uint32_t)peer >= cec->nchips || (uint32_t)peer == c)
				return fail(err, n, pre, key, "not the index of another chip");
			for (unsigned k = 0; k < HVPMU_CEC_NLINKS; k++)
				back |= link_group(k) == link_group(l) && cec->chips[peer].link[k] == (int32_t)c;
			if (!back)
				return fail(err, n, pre, key, "the peer chip has no link of the same group back");
		}
	}
	return 0;
}

static int check_procs(const struct hvpmu_cec *cec, const char *pre, char *err, size_t n)
{
	char key[48];

	if (cec->nprocs < 1 || cec->nprocs > HVPMU_CEC_MAX_PROCS)
		return fail(err, n, pre, "procs", "not 1..128 processors");
	for (uint32_t i = 0; i < cec->nprocs; i++) {
		const struct hvpmu_cec_proc *pr = &cec->procs[i];
		int part;

		snprintf(key, sizeof key, "procs[%u]", i);
		for (uint32_t j = 0; j < i; j++) {
			if (cec->procs[j].hw_id == pr->hw_id)
				return fail(err, n, pre, key, "hardware processor id used twice");
			if (cec->procs[j].logical_index == pr->logical_index)
				return fail(err, n, pre, key, "logical processor index used twice");
		}
		if (pr->chip >= cec->nchips)
			return fail(err, n, pre, strcat(key, ".chip"), "not the index of a chip");
		if (!hvpmu_cec_state_name(pr->state))
			return fail(err, n, pre, strcat(key, ".state"), "not 1..6");
		if (pr->state == HVPMU_CEC_NOT_INSTALLED && pr->version != UINT32_MAX)
			return fail(err, n, pre, strcat(key, ".version"), "a processor not installed has version -1");
		part = hvpmu_cec_partition_index(cec, pr->owner);
		if (pr->state == HVPMU_CEC_DEDICATED || pr->state == HVPMU_CEC_BORROWED) {
			if (part < 0 || cec->partitions[part].mode != HVPMU_CEC_MODE_DEDICATED)
				return fail(err, n, pre, strcat(key, ".owner"), "not the id of a dedicated partition");
			if (pr->state == HVPMU_CEC_BORROWED && !cec->partitions[part].donating)
				return fail(err, n, pre, strcat(key, ".owner"), "a borrowed processor's owner must donate");
		} else if (pr->owner != HVPMU_CEC_NO_OWNER) {
			return fail(err, n, pre, strcat(key, ".owner"), "only dedicated and borrowed processors have one");
		}
	}
	return 0;
}

static int check_partitions(const struct hvpmu_cec *cec, const char *pre, char *err, size_t n)
{
	uint64_t pool = 0, entitled = 0;
	char key[48];

	if (cec->npartitions > HVPMU_CEC_MAX_PARTITIONS)
		return fail(err, n, pre, "partitions", "more than 8 partitions");
	for (uint32_t i = 0; i < cec->nprocs; i++)
		pool += cec->procs[i].state == HVPMU_CEC_SHARED;
	for (uint32_t i = 0; i < cec->npartitions; i++) {
		const struct hvpmu_cec_partition *p = &cec->partitions[i];
		uint32_t owned = 0;

		snprintf(key, sizeof key, "partitions[%u]", i);
		if (p->id < 1 || p->id > HVPMU_CEC_MAX_PARTITION_ID || hvpmu_cec_partition_index(cec, p->id) != (int)i)
			return fail(err, n, pre, strcat(key, ".id"), "not 1..65534, or used twice");
		if (!hvpmu_cec_mode_name(p->mode))
			return fail(err, n, pre, strcat(key, ".mode"), "not dedicated, capped or uncapped");
		for (uint32_t k = 0; k < cec->nprocs; k++)
			owned += cec->procs[k].owner == p->id;
		if (p->mode == HVPMU_CEC_MODE_DEDICATED) {
			if (p->nvps != owned || owned == 0)
				return fail(err, n, pre, strcat(key, ".vps"), "a dedicated partition has one virtual processor per processor it owns");
			if (p->entitlement != HVPMU_CEC_PU * p->nvps)
				return fail(err, n, pre, strcat(key, ".entitlement"), "a dedicated partition is entitled to its processors");
			if (p->weight)
				return fail(err, n, pre, strcat(key, ".weight"), "a dedicated partition has no weight");
			continue;
		}
		if (p->donating)
			return fail(err, n, pre, strcat(key, ".donating"), "only dedicated partitions donate");
		if (p->nvps < 1 || p->nvps > HVPMU_CEC_MAX_PROCS)
			return fail(err, n, pre, strcat(key, ".vps"), "not 1..128");
		if (p->entitlement < 1 || p->entitlement > (uint64_t)HVPMU_CEC_PU * p->nvps)
			return fail(err, n, pre, strcat(key, ".entitlement"), "not 0.01 .. one unit per virtual processor");
		if (p->weight > (p->mode == HVPMU_CEC_MODE_UNCAPPED ? HVPMU_CEC_MAX_WEIGHT : 0))
			return fail(err, n, pre, strcat(key, ".weight"), "0..255, and only for uncapped partitions");
		entitled += p->entitlement;
	}
	if (entitled > pool * HVPMU_CEC_PU)
		return fail(err, n, pre, "partitions", "the shared partitions' entitlements exceed the shared pool");
	return 0;
}

int hvpmu_cec_check(const struct hvpmu_cec *cec, const char *prefix, char *err, size_t errlen)
{
	int rc;

	if (!prefix)
		prefix = "";
	if (!cec)
		return fail(err, errlen, prefix, "", "NULL");
	if (!cec->timebase_hz)
		return fail(err, errlen, prefix, "timebase_hz", "must be > 0");
	if (cec->window_us < 1 || cec->window_us > 1000000)
		return fail(err, errlen, prefix, "dispatch_window_us", "must be 1..1000000");
	if ((rc = check_chips(cec, prefix, err, errlen)) || (rc = check_procs(cec, prefix, err, errlen)) ||
	    (rc = check_partitions(cec, prefix, err, errlen)))
		return rc;
	return 0;
}

