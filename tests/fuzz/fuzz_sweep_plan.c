/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_sweep_plan.c - libFuzzer target for the plan of `hvpmu sweep`
 * (src/tools/sweep_plan.c, compiled in; docs/sweeps.md "The plan").
 *
 * Input: the plan's text.  Invariants: sweep_plan_parse returns 0 or -1;
 * on -1 the message is one non-empty line and the plan is empty; on 0 the
 * plan keeps the documented limits (1..SWEEP_MAX_PROGRAMS programs with
 * valid, unique names, each a path or 1..SWEEP_MAX_GUESTS runs in guests
 * of valid, unique names, at most SWEEP_MAX_AXES non-empty axes, repeat
 * 1..SWEEP_MAX_REPEAT, at most SWEEP_MAX_JOBS jobs, options the tool
 * takes), every axis can be set into a description object or is refused
 * with a message, and the canonical JSON of the result parses back to an
 * object whose canonical form is the same text (what the keys hash).  Nothing crashes or
 * leaks (ASan/UBSan).
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sweep_plan.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_canonical(json_object *o)
{
	char *c = sweep_canonical_json(o), *c2;
	json_object *back;

	if (!c)
		return; /* nesting past the canonical writer's bound */
	if (!(back = json_tokener_parse(c)))
		abort();
	if (!(c2 = sweep_canonical_json(back)) || strcmp(c, c2))
		abort();
	free(c2);
	json_object_put(back);
	free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sweep_plan pl, empty;
	char err[1024];
	uint64_t jobs;

	memset(&empty, 0, sizeof empty);
	if (sweep_plan_parse((const char *)data, size, "/plans", "plan.json", &pl, err, sizeof err)) {
		if (!err[0] || strchr(err, '\n') || memcmp(&pl, &empty, sizeof pl))
			abort();
		return 0;
	}
	if (pl.nprog < 1 || pl.nprog > SWEEP_MAX_PROGRAMS || pl.naxes > SWEEP_MAX_AXES || pl.repeat < 1 ||
	    pl.repeat > SWEEP_MAX_REPEAT || pl.npoints < 1)
		abort();
	jobs = (uint64_t)pl.npoints * pl.nprog * pl.repeat;
	if (jobs > SWEEP_MAX_JOBS)
		abort();
	for (unsigned i = 0; i < pl.nprog; i++) {
		const struct sweep_program *p = &pl.prog[i];

		if (!valid_name(p->name) || (!p->guests && (!p->path || !p->path[0])) ||
		    (p->guests && (p->path || p->nguests < 1 || p->nguests > SWEEP_MAX_GUESTS)))
			abort();
		for (unsigned g = 0; p->guests && g < p->nguests; g++) {
			if (!p->guests[g].path || !p->guests[g].path[0] || !valid_guest(p->guests[g].guest))
				abort();
			for (unsigned h = 0; h < g; h++)
				if (!strcmp(p->guests[g].guest, p->guests[h].guest))
					abort();
		}
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(pl.prog[i].name, pl.prog[j].name))
				abort();
	}
	for (unsigned i = 0; i < pl.noptions; i++) {
		const char *opt, *val;

		if (sweep_plan_option_argv(&pl, i, &opt, &val))
			abort();
	}
	{
		json_object *md = pl.md_inline ? NULL : json_object_new_object();

		if (pl.md_inline && json_object_deep_copy(pl.md_inline, &md, NULL))
			abort();
		for (unsigned a = 0; a < pl.naxes; a++) {
			if (pl.axis[a].nvalues < 1 || pl.axis[a].nvalues > SWEEP_MAX_VALUES)
				abort();
			if (sweep_set_key(md, pl.axis[a].key, json_object_array_get_idx(pl.axis[a].values, 0), err,
					  sizeof err) && (!err[0] || strchr(err, '\n')))
				abort();
		}
		check_canonical(md);
		json_object_put(md);
	}
	check_canonical(pl.root);
	sweep_plan_free(&pl);
	return 0;
}
