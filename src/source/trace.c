/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory reference traces (layer 1, "trace replay"): Dinero din text and
 * hvpmu's binary format, reader, writer and replay into the memory model.
 * Formats: docs/trace-format.md; API: hvpmu/trace.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/trace.h>

/* I/O buffer of a file trace; a din line's fields must lie in its first
 * BUFSZ bytes (the fuzz target makes it small to reach every boundary). */
#ifdef HVPMU_TRACE_BUFSZ
#define BUFSZ HVPMU_TRACE_BUFSZ
#else
#define BUFSZ (64 * 1024)
#endif
#if BUFSZ < 64
#error "HVPMU_TRACE_BUFSZ below 64"
#endif
#define HDR_BYTES 16
#define REC_BYTES 16
#define BIN_VERSION 1
#define DIN_DEFAULT_SIZE 4 /* a din line without SIZE: the 4-byte word holding ADDRESS */
#define REPLAY_BATCH 256
/* Function code replayed prefetches get: the trace records none (0 = #n_reads, into L1D;
 * docs/prefetch-model.md). */
#define TRACE_PREFETCH_FCN 0

static const uint8_t magic[8] = { 'H', 'V', 'P', 'M', 'U', 'T', 'R', 'C' };

struct hvpmu_trace {
	int writer;
	enum hvpmu_trace_format fmt; /* AUTO until the first read detects it */
	int fd;                      /* -1: a memory trace */
	const uint8_t *p, *end;      /* unread input */
	uint8_t *buf;                /* BUFSZ bytes (files only) */
	size_t wlen;                 /* writer: bytes pending in buf */
	int eof;                     /* nothing more beyond [p, end) */
	int started;                 /* format detected, header checked */
	uint64_t pos;                /* din line / binary record, 1-based; writer: records */
	unsigned long col;           /* din: the column (1-based, bytes) of the token being read */
	int err;                     /* first error, sticky */
	char name[128];
	char msg[320];
};

/* ---- helpers ---- */

static uint64_t ld64(const uint8_t *b)
{
	uint64_t v;

	memcpy(&v, b, sizeof v);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static uint32_t ld32(const uint8_t *b)
{
	uint32_t v;

	memcpy(&v, b, sizeof v);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

static uint16_t ld16(const uint8_t *b) { return (uint16_t)(b[0] | b[1] << 8); }

static void st64(uint8_t *b, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static void st32(uint8_t *b, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static void st16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
}

/* Record the trace's first error: "NAME:LINE:COL: what" (din), "NAME:
 * record N (byte B): what" (binary: the record's first byte), "NAME:
 * what" (no position). */
static int fail(struct hvpmu_trace *t, int err, int with_pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct hvpmu_trace *t, int err, int with_pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->err)
		return t->err;
	t->err = err;
	if (!with_pos)
		n = snprintf(t->msg, sizeof t->msg, "%s: ", t->name);
	else if (t->fmt == HVPMU_TRACE_BIN)
		n = snprintf(t->msg, sizeof t->msg, "%s: record %llu (byte %llu): ", t->name, (unsigned long long)t->pos,
			     (unsigned long long)(HDR_BYTES + (t->pos ? t->pos - 1 : 0) * REC_BYTES));
	else
		n = snprintf(t->msg, sizeof t->msg, "%s:%llu:%lu: ", t->name, (unsigned long long)t->pos, t->col);
	if (n < 0 || (size_t)n >= sizeof t->msg)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(t->msg + n, sizeof t->msg - (size_t)n, fmt, ap);
	va_end(ap);
	return err;
}

static int fail_errno(struct hvpmu_trace *t, const char *what, int e)
{
	char eb[128];
	const char *es = strerror_r(e, eb, sizeof eb);

	return fail(t, HVPMU_EINVAL, 0, "%s: %s", what, es);
}

/* Printable excerpt of input for a message: at most 24 characters, other
 * bytes as '?', so that the message stays one line. */
static const char *excerpt(const uint8_t *s, const uint8_t *lim, char out[32])
{
	size_t i = 0;

	while (s < lim && i < 24) {
		uint8_t c = *s++;
		out[i++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (s < lim) {
		memcpy(out + i, "...", 3);
		i += 3;
	}
	out[i] = 0;
	return out;
}

/*
 * Is `attr` allowed on a record of `kind`?  NULL if so, else why not.  At
 * most one attribute; prefetches are reads; fetches have none.
 */
static const char *attr_problem(unsigned kind, unsigned attr)
{
	if (!attr)
		return NULL;
	if (attr & ~HVPMU_TRACE_ATTR_MASK)
		return "unknown attribute bits";
	if (attr & (attr - 1))
		return "more than one attribute";
	if (kind == HVPMU_TRACE_IFETCH)
		return "attribute on an instruction fetch";
	if (kind == HVPMU_TRACE_WRITE && attr == HVPMU_TRACE_PREFETCH)
		return "prefetch on a write";
	return NULL;
}

static void copy_name(struct hvpmu_trace *t, const char *name)
{
	size_t n = strlen(name);

	if (n >= sizeof t->name) { /* keep the end of a long path */
		name += n - (sizeof t->name - 4);
		memcpy(t->name, "...", 3);
		memcpy(t->name + 3, name, sizeof t->name - 4);
		t->name[sizeof t->name - 1] = 0;
	} else {
		memcpy(t->name, name, n + 1);
	}
}

static struct hvpmu_trace *trace_new(const char *name, int with_buf)
{
	struct hvpmu_trace *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	if (with_buf && !(t->buf = malloc(BUFSZ))) {
		free(t);
		return NULL;
	}
	t->fd = -1;
	copy_name(t, name);
	return t;
}

/* ---- opening and closing ---- */

int hvpmu_trace_open(const char *path, enum hvpmu_trace_format fmt, struct hvpmu_trace **out)
{
	struct hvpmu_trace *t;
	int e;

	if (!out)
		return HVPMU_EINVAL;
	*out = NULL;
	if (!path || (fmt != HVPMU_TRACE_AUTO && fmt != HVPMU_TRACE_DIN && fmt != HVPMU_TRACE_BIN))
		return HVPMU_EINVAL;
	t = trace_new(path, 1);
	if (!t)
		return HVPMU_ENOMEM;
	t->fmt = fmt;
	t->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (t->fd < 0) {
		e = errno;
		hvpmu_trace_close(t);
		errno = e;
		return HVPMU_EINVAL;
	}
	t->p = t->end = t->buf;
	*out = t;
	return HVPMU_OK;
}

int hvpmu_trace_open_mem(const void *data, size_t len, enum hvpmu_trace_format fmt, struct hvpmu_trace **out)
{
	static const uint8_t none[1];
	struct hvpmu_trace *t;

	if (!out)
		return HVPMU_EINVAL;
	*out = NULL;
	if ((!data && len) || (fmt != HVPMU_TRACE_AUTO && fmt != HVPMU_TRACE_DIN && fmt != HVPMU_TRACE_BIN))
		return HVPMU_EINVAL;
	t = trace_new("<memory>", 0);
	if (!t)
		return HVPMU_ENOMEM;
	t->fmt = fmt;
	t->p = len ? data : none;
	t->end = t->p + len;
	t->eof = 1;
	*out = t;
	return HVPMU_OK;
}

static int flush(struct hvpmu_trace *t)
{
	size_t done = 0;

	while (done < t->wlen) {
		ssize_t n = write(t->fd, t->buf + done, t->wlen - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			t->wlen = 0;
			return fail_errno(t, "write failed", n < 0 ? errno : EIO);
		}
		done += (size_t)n;
	}
	t->wlen = 0;
	return HVPMU_OK;
}

int hvpmu_trace_create(const char *path, enum hvpmu_trace_format fmt, struct hvpmu_trace **out)
{
	struct hvpmu_trace *t;
	int e;

	if (!out)
		return HVPMU_EINVAL;
	*out = NULL;
	if (!path || (fmt != HVPMU_TRACE_DIN && fmt != HVPMU_TRACE_BIN))
		return HVPMU_EINVAL;
	t = trace_new(path, 1);
	if (!t)
		return HVPMU_ENOMEM;
	t->writer = 1;
	t->fmt = fmt;
	t->started = 1;
	t->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (t->fd < 0) {
		e = errno;
		hvpmu_trace_close(t);
		errno = e;
		return HVPMU_EINVAL;
	}
	if (fmt == HVPMU_TRACE_BIN) {
		uint8_t *h = t->buf;

		memcpy(h, magic, sizeof magic);
		st16(h + 8, BIN_VERSION);
		st16(h + 10, REC_BYTES);
		st32(h + 12, 0);
		t->wlen = HDR_BYTES;
	}
	*out = t;
	return HVPMU_OK;
}

int hvpmu_trace_close(struct hvpmu_trace *t)
{
	int rc;

	if (!t)
		return HVPMU_OK;
	if (t->writer && t->fd >= 0 && !t->err)
		flush(t);
	if (t->fd >= 0 && close(t->fd) && t->writer)
		fail_errno(t, "close failed", errno);
	rc = t->err;
	free(t->buf);
	free(t);
	return rc;
}

const char *hvpmu_trace_error(const struct hvpmu_trace *t)
{
	return t && t->err ? t->msg : "";
}

uint64_t hvpmu_trace_position(const struct hvpmu_trace *t)
{
	return t ? t->pos : 0;
}

enum hvpmu_trace_format hvpmu_trace_format(const struct hvpmu_trace *t)
{
	return t ? t->fmt : HVPMU_TRACE_AUTO;
}

/* ---- reading ---- */

/*
 * Move the unread bytes to the start of the buffer and read more after
 * them.  Returns the number of new bytes (0 at end of input: t->eof set),
 * or a negative error.
 */
static ssize_t refill(struct hvpmu_trace *t)
{
	size_t keep = (size_t)(t->end - t->p);
	ssize_t n;

	if (t->eof || t->fd < 0)
		return 0;
	if (keep && t->p != t->buf)
		memmove(t->buf, t->p, keep);
	t->p = t->buf;
	t->end = t->buf + keep;
	if (keep == BUFSZ)
		return 0;
	do
		n = read(t->fd, t->buf + keep, BUFSZ - keep);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail_errno(t, "read failed", errno);
	if (n == 0)
		t->eof = 1;
	t->end += n;
	return n;
}

/* Make at least `want` bytes available (fewer only at end of input). */
static int need(struct hvpmu_trace *t, size_t want)
{
	while ((size_t)(t->end - t->p) < want && !t->eof) {
		ssize_t n = refill(t);

		if (n < 0)
			return (int)n;
	}
	return HVPMU_OK;
}

/* First read: detect the format, check the binary header. */
static int start(struct hvpmu_trace *t)
{
	int rc = need(t, HDR_BYTES);
	size_t have = (size_t)(t->end - t->p);
	unsigned version, recsz;

	if (rc)
		return rc;
	t->started = 1;
	if (t->fmt == HVPMU_TRACE_AUTO)
		t->fmt = have >= sizeof magic && !memcmp(t->p, magic, sizeof magic) ? HVPMU_TRACE_BIN
										      : HVPMU_TRACE_DIN;
	if (t->fmt == HVPMU_TRACE_DIN)
		return HVPMU_OK;
	if (have < HDR_BYTES)
		return fail(t, HVPMU_EINVAL, 0, "truncated header (%zu of %d bytes)", have, HDR_BYTES);
	if (memcmp(t->p, magic, sizeof magic))
		return fail(t, HVPMU_EINVAL, 0, "not an hvpmu binary trace (bad magic)");
	version = ld16(t->p + 8);
	recsz = ld16(t->p + 10);
	if (version != BIN_VERSION)
		return fail(t, HVPMU_ENOTSUP, 0, "binary trace version %u not supported (this reader: %d)",
			    version, BIN_VERSION);
	if (recsz != REC_BYTES)
		return fail(t, HVPMU_EINVAL, 0, "bad record size %u in header (version 1: %d)", recsz, REC_BYTES);
	if (ld32(t->p + 12))
		return fail(t, HVPMU_EINVAL, 0, "reserved header field is not 0");
	t->p += HDR_BYTES;
	return HVPMU_OK;
}

/* Decode one binary record; an error names record t->pos + 1. */
static int bin_decode(struct hvpmu_trace *t, const uint8_t *b, struct hvpmu_trace_rec *r)
{
	const char *why;

	r->addr = ld64(b);
	r->pc = ld32(b + 8);
	r->size = ld16(b + 12);
	r->kind = b[14];
	r->attr = b[15];
	if (__builtin_expect(r->kind < HVPMU_TRACE_NKIND && r->size && !r->attr, 1))
		return HVPMU_OK;
	t->pos++;
	if (r->kind >= HVPMU_TRACE_NKIND)
		return fail(t, HVPMU_EINVAL, 1, "bad kind %u (expected 0 read, 1 write, 2 fetch)", r->kind);
	if (!r->size)
		return fail(t, HVPMU_EINVAL, 1, "size 0 (expected 1..65535 bytes)");
	if ((why = attr_problem(r->kind, r->attr)))
		return fail(t, HVPMU_EINVAL, 1, "bad attributes 0x%02x: %s", r->attr, why);
	t->pos--;
	return HVPMU_OK;
}

static int bin_read(struct hvpmu_trace *t, struct hvpmu_trace_rec *recs, size_t max, size_t *got)
{
	size_t n = 0;
	int rc = HVPMU_OK;

	while (n < max) {
		size_t avail = (size_t)(t->end - t->p) / REC_BYTES, k;

		if (!avail) {
			size_t part = (size_t)(t->end - t->p);

			if (!t->eof) {
				if ((rc = need(t, REC_BYTES)))
					break;
				continue;
			}
			if (part) {
				t->pos++;
				rc = fail(t, HVPMU_EINVAL, 1, "truncated record (%zu of %d bytes)", part, REC_BYTES);
			}
			break;
		}
		k = avail < max - n ? avail : max - n;
		for (size_t i = 0; i < k; i++, t->p += REC_BYTES) {
			if ((rc = bin_decode(t, t->p, &recs[n])))
				goto out;
			n++;
			t->pos++;
		}
	}
out:
	*got = n;
	return rc;
}

static int is_blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static int hexval(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * A hex number of the din line at *sp (optional 0x), ending at a blank or
 * `lim`.  Returns 0 (and advances *sp), -1 (not hex digits), -2 (more than
 * 64 bits).
 */
static int parse_hex(const uint8_t **sp, const uint8_t *lim, uint64_t *out)
{
	const uint8_t *s = *sp;
	uint64_t v = 0;
	unsigned nd = 0;
	int d;

	if (lim - s >= 2 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	for (; s < lim && !is_blank(*s); s++) {
		if ((d = hexval(*s)) < 0)
			return -1;
		if (v >> 60)
			return -2;
		v = v << 4 | (unsigned)d;
		nd++;
	}
	if (!nd)
		return -1;
	*sp = s;
	*out = v;
	return 0;
}

static const uint8_t *token_end(const uint8_t *s, const uint8_t *lim)
{
	while (s < lim && !is_blank(*s))
		s++;
	return s;
}

/* Parse din line [s, lim) (line t->pos).  1: a record, 0: blank or
 * comment, < 0: error. */
static int din_line(struct hvpmu_trace *t, const uint8_t *s, const uint8_t *lim, struct hvpmu_trace_rec *r)
{
	const uint8_t *tok, *line = s;
	char ex[32];
	uint64_t v;
	int rc;

	while (s < lim && is_blank(*s))
		s++;
	if (s == lim || *s == '#')
		return 0;
	tok = s;
	t->col = (unsigned long)(tok - line) + 1;
	s = token_end(s, lim);
	if (s - tok != 1 || *tok < '0' || *tok > '4')
		return fail(t, HVPMU_EINVAL, 1, "bad label '%s' (expected 0 read, 1 write, 2 fetch)",
			    excerpt(tok, s, ex));
	if (*tok > '2')
		return fail(t, HVPMU_ENOTSUP, 1, "label %c (%s) not supported", *tok,
			    *tok == '3' ? "escape" : "cache flush");
	r->kind = (uint8_t)(*tok - '0');
	r->attr = 0;
	r->pc = 0;
	while (s < lim && is_blank(*s))
		s++;
	t->col = (unsigned long)(s - line) + 1;
	if (s == lim)
		return fail(t, HVPMU_EINVAL, 1, "missing address (expected hex digits after the label)");
	tok = s;
	if ((rc = parse_hex(&s, lim, &r->addr)))
		return fail(t, HVPMU_EINVAL, 1, rc == -2 ? "address '%s' exceeds 64 bits" :
			    "bad address '%s' (expected hex digits)", excerpt(tok, token_end(tok, lim), ex));
	while (s < lim && is_blank(*s))
		s++;
	if (s == lim) {
		r->addr &= ~(uint64_t)(DIN_DEFAULT_SIZE - 1);
		r->size = DIN_DEFAULT_SIZE;
		return 1;
	}
	tok = s;
	t->col = (unsigned long)(tok - line) + 1;
	if (parse_hex(&s, lim, &v) || v == 0 || v > UINT16_MAX)
		return fail(t, HVPMU_EINVAL, 1, "bad size '%s' (expected hex 1..ffff)",
			    excerpt(tok, token_end(tok, lim), ex));
	r->size = (uint16_t)v;
	return 1; /* the rest of the line is ignored */
}

/* Drop input up to and including the next newline (after a line longer
 * than the buffer). */
static int skip_line(struct hvpmu_trace *t)
{
	for (;;) {
		const uint8_t *nl = memchr(t->p, '\n', (size_t)(t->end - t->p));
		ssize_t n;

		if (nl) {
			t->p = nl + 1;
			return HVPMU_OK;
		}
		t->p = t->end;
		if ((n = refill(t)) < 0)
			return (int)n;
		if (n == 0)
			return HVPMU_OK;
	}
}

static int din_read(struct hvpmu_trace *t, struct hvpmu_trace_rec *recs, size_t max, size_t *got)
{
	size_t n = 0;
	int rc = HVPMU_OK;

	while (n < max) {
		const uint8_t *nl = memchr(t->p, '\n', (size_t)(t->end - t->p)), *lim;
		int r, longline = 0;

		if (nl) {
			lim = nl;
		} else if (!t->eof && (t->p != t->buf || t->end != t->buf + BUFSZ)) {
			ssize_t k = refill(t); /* room left: read the rest of the line */

			if (k < 0) {
				rc = (int)k;
				break;
			}
			continue;
		} else if (t->p == t->end) {
			break; /* end of trace */
		} else {
			lim = t->end; /* last line without newline, or longer than the buffer */
			longline = !t->eof;
		}
		t->pos++;
		r = din_line(t, t->p, lim, &recs[n]);
		if (r < 0) {
			rc = r;
			break;
		}
		n += (size_t)r;
		if (longline) {
			if ((rc = skip_line(t)))
				break;
		} else {
			t->p = nl ? nl + 1 : lim;
		}
	}
	*got = n;
	return rc;
}

int hvpmu_trace_read_many(struct hvpmu_trace *t, struct hvpmu_trace_rec *recs, size_t max, size_t *got)
{
	size_t dummy;
	int rc;

	if (!got)
		got = &dummy;
	*got = 0;
	if (!t || (!recs && max))
		return HVPMU_EINVAL;
	if (t->writer)
		return HVPMU_EINVAL;
	if (t->err)
		return t->err;
	if (!t->started && (rc = start(t)))
		return rc;
	if (t->fmt == HVPMU_TRACE_BIN)
		return bin_read(t, recs, max, got);
	return din_read(t, recs, max, got);
}

int hvpmu_trace_read(struct hvpmu_trace *t, struct hvpmu_trace_rec *rec)
{
	size_t got;
	int rc = hvpmu_trace_read_many(t, rec, 1, &got);

	return rc ? rc : (int)got;
}

/* ---- writing ---- */

static size_t put_hex(char *o, uint64_t v)
{
	char tmp[16];
	size_t n = 0, k;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	for (k = 0; k < n; k++)
		o[k] = tmp[n - 1 - k];
	return n;
}

int hvpmu_trace_write(struct hvpmu_trace *t, const struct hvpmu_trace_rec *r)
{
	if (!t || !r || !t->writer)
		return HVPMU_EINVAL;
	if (t->err)
		return t->err;
	if (r->kind >= HVPMU_TRACE_NKIND || !r->size || attr_problem(r->kind, r->attr))
		return HVPMU_ERANGE;
	if (BUFSZ - t->wlen < 48 && flush(t))
		return t->err;
	if (t->fmt == HVPMU_TRACE_BIN) {
		uint8_t *b = t->buf + t->wlen;

		st64(b, r->addr);
		st32(b + 8, r->pc);
		st16(b + 12, r->size);
		b[14] = r->kind;
		b[15] = r->attr;
		t->wlen += REC_BYTES;
	} else {
		char *o = (char *)t->buf + t->wlen, *o0 = o;

		*o++ = (char)('0' + r->kind);
		*o++ = ' ';
		o += put_hex(o, r->addr);
		*o++ = ' ';
		o += put_hex(o, r->size);
		*o++ = '\n';
		t->wlen += (size_t)(o - o0);
	}
	t->pos++;
	return HVPMU_OK;
}

/* ---- replay ---- */

/* Decode flags of a data reference by kind (READ, WRITE) and attribute
 * (none, ATOMIC, PREFETCH, BLOCK), as the SPARC decoder gives them. */
static const uint32_t si_of[2][4] = {
	{ HVPMU_IC_LOAD, HVPMU_IC_OTHER | HVPMU_IC_ATOMIC, HVPMU_IC_OTHER | HVPMU_IC_PREFETCH,
	  HVPMU_IC_LOAD | HVPMU_IC_BLOCK },
	{ HVPMU_IC_STORE, HVPMU_IC_OTHER | HVPMU_IC_ATOMIC, HVPMU_IC_STORE,
	  HVPMU_IC_STORE | HVPMU_IC_BLOCK },
};

static unsigned attr_index(unsigned attr)
{
	return attr == HVPMU_TRACE_ATOMIC ? 1 : attr == HVPMU_TRACE_PREFETCH ? 2 : attr == HVPMU_TRACE_BLOCK ? 3 : 0;
}

int hvpmu_trace_replay(struct hvpmu_machine *m, uint32_t strand, struct hvpmu_trace *t, uint64_t *nrefs)
{
	struct hvpmu_trace_rec b[REPLAY_BATCH];
	struct hvpmu_activity *act;
	uint64_t n = 0;
	int rc;

	if (nrefs)
		*nrefs = 0;
	if (!m || !t || t->writer)
		return HVPMU_EINVAL;
	if (strand >= hvpmu_machine_nstrands(m))
		return HVPMU_ERANGE;
	hvpmu_machine_enable_memory(m, 1);
	act = hvpmu_machine_activity(m, strand);
	for (;;) {
		size_t got;

		rc = hvpmu_trace_read_many(t, b, REPLAY_BATCH, &got);
		for (size_t i = 0; i < got; i++) {
			const struct hvpmu_trace_rec *r = &b[i];

			if (r->kind == HVPMU_TRACE_IFETCH) {
				hvpmu_machine_ifetch(m, strand, r->addr, r->size);
				/* the block's instructions: the store buffer's clock
				 * (docs/memory-model.md "Store buffer") */
				act->bound += r->size / 4;
			} else if (r->attr == HVPMU_TRACE_PREFETCH) { /* no fcn recorded: #n_reads */
				hvpmu_machine_prefetch(m, strand, r->pc, r->addr, hvpmu_prefetch_dest(TRACE_PREFETCH_FCN));
			} else {
				hvpmu_machine_dref(m, strand, r->pc, r->addr, r->size,
						   si_of[r->kind][r->attr ? attr_index(r->attr) : 0], r->kind);
			}
		}
		n += got;
		if (rc || !got)
			break;
	}
	if (nrefs)
		*nrefs = n;
	return rc;
}
