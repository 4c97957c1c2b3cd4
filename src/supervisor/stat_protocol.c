/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Request / result files between `hvpmu stat` and the plugin (json-c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <hvpmu/session.h>

#define K_EVENTS "events"
#define K_NAME "name"

static int fail(char *err, size_t n, const char *what, const char *path)
{
	snprintf(err, n, "%s: %s", path, what);
	return -1;
}

static int write_obj(const char *path, json_object *o, char *err, size_t n)
{
	int rc = json_object_to_file_ext(path, o, JSON_C_TO_STRING_PLAIN);

	json_object_put(o);
	return rc ? fail(err, n, "cannot write", path) : 0;
}

static uint64_t get_u64(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? (uint64_t)json_object_get_uint64(v) : 0;
}

static void get_str(json_object *o, const char *k, char *dst, size_t n)
{
	json_object *v;

	dst[0] = 0;
	if (json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string))
		snprintf(dst, n, "%s", json_object_get_string(v));
}

static json_object *u64(uint64_t v) { return json_object_new_uint64(v); }

int stat_request_write(const char *path, const struct stat_request *rq, char *err, size_t n)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	for (unsigned i = 0; i < rq->nevents; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, K_NAME, json_object_new_string(rq->ev[i].name));
		json_object_object_add(e, "config", u64(rq->ev[i].config));
		json_object_object_add(e, "modes", u64(rq->ev[i].modes));
		json_object_object_add(e, "new_group", u64(rq->ev[i].new_group));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, K_EVENTS, a);
	json_object_object_add(o, "pic_init", u64(rq->pic_init));
	json_object_object_add(o, "rotate_cycles", u64(rq->rotate_cycles));
	json_object_object_add(o, "overflow_log", json_object_new_string(rq->overflow_log));
	json_object_object_add(o, "out", json_object_new_string(rq->out));
	json_object_object_add(o, "sample_cycles", u64(rq->sample_cycles));
	json_object_object_add(o, "platform", json_object_new_string(rq->platform));
	json_object_object_add(o, "md_path", json_object_new_string(rq->md_path));
	json_object_object_add(o, "placement", json_object_new_string(rq->placement));
	json_object_object_add(o, "mmustat", u64((uint64_t)rq->mmustat));
	json_object_object_add(o, "cpustat", u64((uint64_t)rq->cpustat));
	json_object_object_add(o, "hw_prefetch", u64(rq->hw_prefetch));
	a = json_object_new_array();
	for (unsigned i = 0; i < rq->nbusdev; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "dev", u64(rq->busdev[i].dev));
		json_object_object_add(e, "code0", u64(rq->busdev[i].code[0]));
		json_object_object_add(e, "code1", u64(rq->busdev[i].code[1]));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "busdev", a);
	return write_obj(path, o, err, n);
}

int stat_request_read(const char *path, struct stat_request *rq, char *err, size_t n)
{
	json_object *o = json_object_from_file(path), *a;

	memset(rq, 0, sizeof *rq);
	if (!o)
		return fail(err, n, "cannot parse request", path);
	if (!json_object_object_get_ex(o, K_EVENTS, &a) || !json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) > HVPMU_SV_MAX_EVENTS) {
		json_object_put(o);
		return fail(err, n, "bad event list", path);
	}
	rq->nevents = (unsigned)json_object_array_length(a);
	for (unsigned i = 0; i < rq->nevents; i++) {
		json_object *e = json_object_array_get_idx(a, i);

		get_str(e, K_NAME, rq->ev[i].name, sizeof rq->ev[i].name);
		rq->ev[i].config = get_u64(e, "config");
		rq->ev[i].modes = (uint8_t)get_u64(e, "modes");
		rq->ev[i].new_group = get_u64(e, "new_group") != 0;
	}
	rq->pic_init = (uint32_t)get_u64(o, "pic_init");
	rq->rotate_cycles = get_u64(o, "rotate_cycles");
	get_str(o, "overflow_log", rq->overflow_log, sizeof rq->overflow_log);
	get_str(o, "out", rq->out, sizeof rq->out);
	rq->sample_cycles = get_u64(o, "sample_cycles");
	get_str(o, "platform", rq->platform, sizeof rq->platform);
	get_str(o, "md_path", rq->md_path, sizeof rq->md_path);
	get_str(o, "placement", rq->placement, sizeof rq->placement);
	rq->mmustat = get_u64(o, "mmustat") != 0;
	rq->cpustat = get_u64(o, "cpustat") != 0;
	rq->hw_prefetch = (uint32_t)get_u64(o, "hw_prefetch");
	if (json_object_object_get_ex(o, "busdev", &a) && json_object_is_type(a, json_type_array)) {
		if (json_object_array_length(a) > STAT_MAX_BUSDEV) {
			json_object_put(o);
			return fail(err, n, "too many busstat devices", path);
		}
		rq->nbusdev = (unsigned)json_object_array_length(a);
		for (unsigned i = 0; i < rq->nbusdev; i++) {
			json_object *e = json_object_array_get_idx(a, i);

			rq->busdev[i].dev = (unsigned)get_u64(e, "dev");
			rq->busdev[i].code[0] = (unsigned)get_u64(e, "code0");
			rq->busdev[i].code[1] = (unsigned)get_u64(e, "code1");
		}
	}
	json_object_put(o);
	return 0;
}

int stat_result_write(const char *path, const struct stat_result *rs, char *err, size_t n)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	for (unsigned i = 0; i < rs->nevents; i++) {
		json_object *e = json_object_new_object();
		const struct hvpmu_sv_count *c = &rs->count[i];

		json_object_object_add(e, K_NAME, json_object_new_string(rs->name[i]));
		json_object_object_add(e, "supported", u64((uint64_t)c->supported));
		json_object_object_add(e, "raw", u64(c->raw));
		json_object_object_add(e, "enabled", u64(c->enabled));
		json_object_object_add(e, "running", u64(c->running));
		json_object_object_add(e, "overflows", u64(c->overflows));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, K_EVENTS, a);
	json_object_object_add(o, "clock_hz", u64(rs->clock_hz));
	json_object_object_add(o, "retired", u64(rs->retired));
	json_object_object_add(o, "hv_status", u64(rs->hv_status));
	a = json_object_new_array();
	for (unsigned i = 0; i < rs->nsamples; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "tick", u64(rs->samples[i].tick));
		json_object_object_add(e, "dev", u64(rs->samples[i].dev));
		json_object_object_add(e, "cpu", u64(rs->samples[i].cpu));
		json_object_object_add(e, "c0", u64(rs->samples[i].count[0]));
		json_object_object_add(e, "c1", u64(rs->samples[i].count[1]));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "samples", a);
	a = json_object_new_array();
	for (unsigned i = 0; i < rs->nmmu; i++) {
		json_object *e = json_object_new_object(), *w = json_object_new_array();

		json_object_object_add(e, "cpu", u64(rs->mmu[i].cpu));
		for (unsigned k = 0; k < STAT_MMU_WORDS; k++)
			json_object_array_add(w, u64(rs->mmu[i].words[k]));
		json_object_object_add(e, "words", w);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "mmustat", a);
	return write_obj(path, o, err, n);
}

int stat_result_read(const char *path, struct stat_result *rs, char *err, size_t n)
{
	json_object *o = json_object_from_file(path), *a;

	memset(rs, 0, sizeof *rs);
	if (!o)
		return fail(err, n, "no result from the plugin", path);
	if (!json_object_object_get_ex(o, K_EVENTS, &a) || !json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) > HVPMU_SV_MAX_EVENTS) {
		json_object_put(o);
		return fail(err, n, "bad result", path);
	}
	rs->nevents = (unsigned)json_object_array_length(a);
	for (unsigned i = 0; i < rs->nevents; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct hvpmu_sv_count *c = &rs->count[i];

		get_str(e, K_NAME, rs->name[i], sizeof rs->name[i]);
		c->supported = (int)get_u64(e, "supported");
		c->raw = get_u64(e, "raw");
		c->enabled = get_u64(e, "enabled");
		c->running = get_u64(e, "running");
		c->overflows = get_u64(e, "overflows");
		c->scaled = c->running ? (double)c->raw * (double)c->enabled / (double)c->running : 0.0;
	}
	rs->clock_hz = get_u64(o, "clock_hz");
	rs->retired = get_u64(o, "retired");
	rs->hv_status = get_u64(o, "hv_status");
	if (json_object_object_get_ex(o, "samples", &a) && json_object_is_type(a, json_type_array)) {
		size_t ns = json_object_array_length(a);

		if (ns > STAT_MAX_SAMPLES || (ns && !(rs->samples = calloc(ns, sizeof *rs->samples)))) {
			json_object_put(o);
			return fail(err, n, "bad busstat samples", path);
		}
		rs->nsamples = (unsigned)ns;
		for (unsigned i = 0; i < rs->nsamples; i++) {
			json_object *e = json_object_array_get_idx(a, i);

			rs->samples[i].tick = get_u64(e, "tick");
			rs->samples[i].dev = (unsigned)get_u64(e, "dev");
			rs->samples[i].cpu = (unsigned)get_u64(e, "cpu");
			rs->samples[i].count[0] = get_u64(e, "c0");
			rs->samples[i].count[1] = get_u64(e, "c1");
		}
	}
	if (json_object_object_get_ex(o, "mmustat", &a) && json_object_is_type(a, json_type_array)) {
		size_t nm = json_object_array_length(a);

		if (nm > HVPMU_SV_MAX_EVENTS * 4 || (nm && !(rs->mmu = calloc(nm, sizeof *rs->mmu)))) {
			json_object_put(o);
			stat_result_free(rs);
			return fail(err, n, "bad MMU statistics", path);
		}
		rs->nmmu = (unsigned)nm;
		for (unsigned i = 0; i < rs->nmmu; i++) {
			json_object *e = json_object_array_get_idx(a, i), *w;

			rs->mmu[i].cpu = (unsigned)get_u64(e, "cpu");
			if (json_object_object_get_ex(e, "words", &w) && json_object_is_type(w, json_type_array))
				for (unsigned k = 0; k < STAT_MMU_WORDS && k < json_object_array_length(w); k++)
					rs->mmu[i].words[k] = (uint64_t)json_object_get_uint64(
						json_object_array_get_idx(w, k));
		}
	}
	json_object_put(o);
	return 0;
}

void stat_result_free(struct stat_result *rs)
{
	free(rs->samples);
	rs->samples = NULL;
	rs->nsamples = 0;
	free(rs->mmu);
	rs->mmu = NULL;
	rs->nmmu = 0;
}
