/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The request file from a tool to the session (json-c); the result comes
 * back in the result area (stat_area.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>
#include <hvpmu/session.h>
#include "common/shm_seal.h"

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
	json_object_object_add(o, "result_fd", json_object_new_int(rq->result_fd));
	json_object_object_add(o, "sample_cycles", u64(rq->sample_cycles));
	json_object_object_add(o, "platform", json_object_new_string(rq->platform));
	json_object_object_add(o, "md_path", json_object_new_string(rq->md_path));
	json_object_object_add(o, "placement", json_object_new_string(rq->placement));
	json_object_object_add(o, "mmustat", u64((uint64_t)rq->mmustat));
	json_object_object_add(o, "cpustat", u64((uint64_t)rq->cpustat));
	json_object_object_add(o, "mdperf", u64((uint64_t)rq->mdperf));
	json_object_object_add(o, "mdperf_node", json_object_new_int(rq->mdperf_node));
	json_object_object_add(o, "mdperf_sets", u64(rq->mdperf_sets));
	json_object_object_add(o, "hw_prefetch", u64(rq->hw_prefetch));
	json_object_object_add(o, "monitor_cycles", u64(rq->monitor_cycles));
	a = json_object_new_array();
	for (unsigned i = 0; i < rq->nbusdev; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "dev", u64(rq->busdev[i].dev));
		json_object_object_add(e, "code0", u64(rq->busdev[i].code[0]));
		json_object_object_add(e, "code1", u64(rq->busdev[i].code[1]));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "busdev", a);
	a = json_object_new_array();
	for (unsigned i = 0; i < rq->ngpci; i++) {
		json_object *e = json_object_new_object();
		const struct hvpmu_gpci_event *g = &rq->gpci[i];

		json_object_object_add(e, "request", u64(g->request));
		json_object_object_add(e, "starting_index", u64(g->starting_index));
		json_object_object_add(e, "secondary_index", u64(g->secondary_index));
		json_object_object_add(e, "counter_info_version", u64(g->version_in));
		json_object_object_add(e, "offset", u64(g->offset));
		json_object_object_add(e, "length", u64(g->length));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "gpci", a);
	if (rq->have_md) { /* the finished description: this build's bytes, in hex */
		static const char hex[] = "0123456789abcdef";
		const unsigned char *b = (const unsigned char *)&rq->md;
		char *h = malloc(2 * sizeof rq->md + 1);

		if (!h) {
			json_object_put(o);
			return fail(err, n, "out of memory", path);
		}
		for (size_t i = 0; i < sizeof rq->md; i++) {
			h[2 * i] = hex[b[i] >> 4];
			h[2 * i + 1] = hex[b[i] & 15];
		}
		h[2 * sizeof rq->md] = 0;
		json_object_object_add(o, "md_bytes", u64(sizeof rq->md));
		json_object_object_add(o, "md", json_object_new_string(h));
		free(h);
	}
	return write_obj(path, o, err, n);
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The finished description's bytes (the writer's hex of struct hvpmu_md):
 * 0, or -1 if not this build's size or not hex.  The run host checks the
 * values (hvpmu_md_check). */
static int read_md(json_object *v, uint64_t bytes, struct stat_request *rq)
{
	const char *h = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
	unsigned char *b = (unsigned char *)&rq->md;

	if (!h || bytes != sizeof rq->md || (size_t)json_object_get_string_len(v) != 2 * sizeof rq->md)
		return -1;
	for (size_t i = 0; i < sizeof rq->md; i++) {
		int hi = hexval(h[2 * i]), lo = hexval(h[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		b[i] = (unsigned char)(hi << 4 | lo);
	}
	rq->have_md = 1;
	return 0;
}

/* The request in object o (parsed from `path`; NULL: it did not parse),
 * which this puts. */
static int request_of(json_object *o, struct stat_request *rq, char *err, size_t n, const char *path)
{
	json_object *a;

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
	rq->result_fd = json_object_object_get_ex(o, "result_fd", &a) ? json_object_get_int(a) : -1;
	rq->sample_cycles = get_u64(o, "sample_cycles");
	get_str(o, "platform", rq->platform, sizeof rq->platform);
	get_str(o, "md_path", rq->md_path, sizeof rq->md_path);
	get_str(o, "placement", rq->placement, sizeof rq->placement);
	rq->mmustat = get_u64(o, "mmustat") != 0;
	rq->cpustat = get_u64(o, "cpustat") != 0;
	rq->hw_prefetch = (uint32_t)get_u64(o, "hw_prefetch");
	rq->monitor_cycles = get_u64(o, "monitor_cycles");
	rq->mdperf = get_u64(o, "mdperf") != 0;
	/* a cnodeid_t is a signed short (hw-and-hypervisor.md §5.1): out of
	 * range is passed as such, for the service to refuse */
	rq->mdperf_node = json_object_object_get_ex(o, "mdperf_node", &a) ? json_object_get_int(a) : -1;
	rq->mdperf_sets = (uint32_t)get_u64(o, "mdperf_sets");
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
	if (json_object_object_get_ex(o, "gpci", &a) && json_object_is_type(a, json_type_array)) {
		if (json_object_array_length(a) > STAT_MAX_GPCI) {
			json_object_put(o);
			return fail(err, n, "too many hv_gpci events", path);
		}
		rq->ngpci = (unsigned)json_object_array_length(a);
		for (unsigned i = 0; i < rq->ngpci; i++) {
			json_object *e = json_object_array_get_idx(a, i);
			struct hvpmu_gpci_event *g = &rq->gpci[i];

			g->request = (uint32_t)get_u64(e, "request");
			g->starting_index = (uint32_t)get_u64(e, "starting_index");
			g->secondary_index = (uint16_t)get_u64(e, "secondary_index");
			g->version_in = (uint8_t)get_u64(e, "counter_info_version");
			g->offset = (uint32_t)get_u64(e, "offset");
			g->length = (uint32_t)get_u64(e, "length"); /* hvpmu_gpci_event_read checks it */
		}
	}
	if (json_object_object_get_ex(o, "md", &a) && read_md(a, get_u64(o, "md_bytes"), rq)) {
		json_object_put(o);
		return fail(err, n, "a machine description not of this build", path);
	}
	json_object_put(o);
	return 0;
}

int stat_request_read(const char *path, struct stat_request *rq, char *err, size_t n)
{
	return request_of(json_object_from_file(path), rq, err, n, path);
}

/* Every byte of a request written as JSON at most six times over (a
 * string's \u00XX; a number's digits are fewer than its bytes' six), and
 * 64 KiB of keys and punctuation: the largest request a tool can write
 * is read whole. */
_Static_assert(6 * sizeof(struct stat_request) + 65536 <= STAT_REQUEST_MAX, "STAT_REQUEST_MAX below a request");

int stat_request_read_fd(int fd, struct stat_request *rq, char *err, size_t n)
{
	static const char what[] = "request descriptor";
	json_tokener *tok;
	json_object *o = NULL;
	struct stat st;
	size_t len, got = 0;
	char *buf;

	memset(rq, 0, sizeof *rq);
	if (fstat(fd, &st))
		return fail(err, n, "cannot fstat it", what);
	/* a pipe, socket or device could make the reader wait for ever or
	 * read without end (/dev/zero); a file on a disk, NFS or FUSE could
	 * make it wait on the device or a server: only memory (a memfd) */
	if (!shm_is_memory(fd, &st))
		return fail(err, n,
			    S_ISREG(st.st_mode) ? "a file outside memory (tmpfs), not a memfd"
						: "not a regular file (a pipe, socket or device?), not a memfd",
			    what);
	if (st.st_size < 0 || (uint64_t)st.st_size > STAT_REQUEST_MAX) {
		char why[96];

		snprintf(why, sizeof why, "larger than a request may be (%zu bytes)", (size_t)STAT_REQUEST_MAX);
		return fail(err, n, why, what);
	}
	len = (size_t)st.st_size;
	if (!(buf = malloc(len + 1)))
		return fail(err, n, "out of memory", what);
	/* at most the size fstat saw, however the file changes meanwhile */
	while (got < len) {
		ssize_t r = pread(fd, buf + got, len - got, (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if ((tok = json_tokener_new())) {
		o = json_tokener_parse_ex(tok, buf, (int)got);
		if (o && json_tokener_get_error(tok) != json_tokener_success) {
			json_object_put(o);
			o = NULL;
		}
		json_tokener_free(tok);
	}
	free(buf);
	return request_of(o, rq, err, n, what);
}

void stat_result_free(struct stat_result *rs)
{
	free(rs->samples);
	rs->samples = NULL;
	rs->nsamples = 0;
	free(rs->mmu);
	rs->mmu = NULL;
	rs->nmmu = 0;
	free(rs->proc);
	rs->proc = NULL;
	rs->nproc = 0;
}
