/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/trace.h - memory reference traces: an event source of layer 1
 * (../shared/DESIGN.md "trace replay").
 *
 * A trace is a sequence of records, each one memory reference of a strand's
 * user-mode code: a data read, a data write, or an instruction fetch, with
 * its virtual address and size.  Two file formats (docs/trace-format.md):
 *
 *   HVPMU_TRACE_DIN  Dinero "din" text, one reference per line:
 *                      LABEL ADDRESS [SIZE] [anything]
 *                    LABEL 0 read, 1 write, 2 instruction fetch (Dinero's 3
 *                    and 4 are refused); ADDRESS hex, optional 0x, at most
 *                    64 bits; SIZE optional, hex, 1..0xffff; a line without
 *                    SIZE is the 4-byte word holding ADDRESS (as Dinero IV
 *                    reads din).  After SIZE the rest of the line is
 *                    ignored.  Empty lines and lines starting with '#' are
 *                    skipped.  The writer writes "LABEL ADDRESS SIZE" in hex
 *                    and drops `pc` and `attr`.
 *   HVPMU_TRACE_BIN  hvpmu's own binary format for speed: a 16-byte header
 *                    ("HVPMUTRC", version 1) then fixed 16-byte
 *                    little-endian records {u64 addr; u32 pc; u16 size;
 *                    u8 kind; u8 attr}.  Lossless for struct hvpmu_trace_rec.
 *
 * Usage: hvpmu_trace_open() / hvpmu_trace_open_mem(), hvpmu_trace_read()
 * until it returns 0, hvpmu_trace_close(); or hvpmu_trace_create(),
 * hvpmu_trace_write() per record, hvpmu_trace_close() (which flushes).
 * hvpmu_trace_replay() feeds a whole trace to a machine's memory model.
 *
 * Errors (enum hvpmu_err, hvpmu/hvpmu.h):
 *   HVPMU_EINVAL   malformed input (a din line, a binary header or record, a
 *                  truncated binary file), an I/O error, or a bad argument;
 *   HVPMU_ENOTSUP  well-formed input this reader does not support (din
 *                  labels 3 and 4, a binary version other than 1);
 *   HVPMU_ERANGE   a record the format cannot hold (writer), a strand out of
 *                  range (replay);
 *   HVPMU_ENOMEM   allocation failed.
 * After an error on a trace object, hvpmu_trace_error() gives one line of
 * English naming the input and its line (din) or record (binary), e.g.
 * "t.din:12: bad address 'x12' (expected hex digits)", and every later
 * read or write returns the same error.  Library calls never print.
 *
 * Memory: a trace object holds one fixed I/O buffer (64 KB for files, none
 * for memory traces), whatever the trace's length.  Thread-safety: no global
 * state; one trace object must be used by one thread at a time, distinct
 * objects are independent.
 */
#ifndef HVPMU_TRACE_H
#define HVPMU_TRACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hvpmu_machine;
struct hvpmu_trace;

/* What a record is (equal to the din label). */
enum hvpmu_trace_kind {
	HVPMU_TRACE_READ = 0,   /* data load */
	HVPMU_TRACE_WRITE = 1,  /* data store */
	HVPMU_TRACE_IFETCH = 2, /* instruction fetch of `size` bytes */
	HVPMU_TRACE_NKIND = 3,
};

/* Attributes of a data reference (binary format only; din drops them).  They
 * select the decode flags the memory model sees (hvpmu/sparc_decode.h). */
enum hvpmu_trace_attr {
	HVPMU_TRACE_ATOMIC = 1u << 0,   /* LDSTUB, CASA, SWAP: HVPMU_IC_OTHER | HVPMU_IC_ATOMIC (read or write) */
	HVPMU_TRACE_PREFETCH = 1u << 1, /* PREFETCH: HVPMU_IC_OTHER | HVPMU_IC_PREFETCH (read only) */
	HVPMU_TRACE_BLOCK = 1u << 2,    /* block load / store: HVPMU_IC_LOAD or _STORE | HVPMU_IC_BLOCK */
	HVPMU_TRACE_ATTR_MASK = 7u,
};

/* One memory reference. */
struct hvpmu_trace_rec {
	uint64_t addr;  /* virtual address of the first byte */
	uint32_t pc;    /* low 32 bits of the PC of the instruction (0 if unknown);
	                   the memory model uses it only as a precise trap PC */
	uint16_t size;  /* bytes, 1..65535 (a fetch may cover a whole block) */
	uint8_t kind;   /* enum hvpmu_trace_kind */
	uint8_t attr;   /* enum hvpmu_trace_attr bits; 0 for fetches */
};

enum hvpmu_trace_format {
	HVPMU_TRACE_AUTO = 0, /* reading: binary if the input starts with the magic, else din */
	HVPMU_TRACE_DIN = 1,
	HVPMU_TRACE_BIN = 2,
};

/*
 * Open the file `path` for reading in `fmt` (AUTO allowed).  Returns 0 and
 * *out, or HVPMU_EINVAL with *out = NULL when the file cannot be opened
 * (errno says why), HVPMU_ENOMEM.  The format and the binary header are
 * checked by the first hvpmu_trace_read().
 */
int hvpmu_trace_open(const char *path, enum hvpmu_trace_format fmt, struct hvpmu_trace **out);

/*
 * Read a trace held in memory: `len` bytes at `data`, in `fmt` (AUTO
 * allowed).  Nothing is copied: `data` must stay valid and unchanged until
 * hvpmu_trace_close().  Returns 0, HVPMU_EINVAL (data NULL with len > 0),
 * HVPMU_ENOMEM.
 */
int hvpmu_trace_open_mem(const void *data, size_t len, enum hvpmu_trace_format fmt, struct hvpmu_trace **out);

/*
 * Create (or truncate) the file `path` and write a trace in `fmt` (DIN or
 * BIN; the binary header is written at once).  Returns 0 and *out,
 * HVPMU_EINVAL (bad format; or the file cannot be created, errno says why),
 * HVPMU_ENOMEM.
 */
int hvpmu_trace_create(const char *path, enum hvpmu_trace_format fmt, struct hvpmu_trace **out);

/*
 * Read the next record into *rec.  Returns 1 (a record), 0 (end of trace:
 * every later call returns 0 too), or a negative enum hvpmu_err (see the top
 * of this file; hvpmu_trace_error() has the line).
 */
int hvpmu_trace_read(struct hvpmu_trace *t, struct hvpmu_trace_rec *rec);

/*
 * Read up to `max` records into recs[0..max).  Returns 0 with *got records
 * (*got == 0 only at the end of the trace), or a negative enum hvpmu_err
 * with *got the valid records read before the bad one.  Same records as
 * hvpmu_trace_read(), fewer calls.
 */
int hvpmu_trace_read_many(struct hvpmu_trace *t, struct hvpmu_trace_rec *recs, size_t max, size_t *got);

/*
 * Append one record (a trace from hvpmu_trace_create()).  Returns 0,
 * HVPMU_ERANGE (kind >= HVPMU_TRACE_NKIND, size 0, unknown attr bits, attr
 * on a fetch, PREFETCH on a write; nothing written), HVPMU_EINVAL (a write
 * error, or a trace opened for reading).
 */
int hvpmu_trace_write(struct hvpmu_trace *t, const struct hvpmu_trace_rec *rec);

/*
 * Flush (writers), close and free.  Returns 0, or the first error the trace
 * met (a writer's failed flush or close is HVPMU_EINVAL).  NULL is a no-op.
 */
int hvpmu_trace_close(struct hvpmu_trace *t);

/* One line describing the trace's first error ("" if none).  Valid until
 * the next call on `t`. */
const char *hvpmu_trace_error(const struct hvpmu_trace *t);

/*
 * Position in the input: for din the line number of the record last read
 * or of the error (1-based); for binary the index of the record last read
 * or of the error (1-based).  0 before the first record.  Writers: records
 * written.
 */
uint64_t hvpmu_trace_position(const struct hvpmu_trace *t);

/* The format being read or written (AUTO until the first read detects it). */
enum hvpmu_trace_format hvpmu_trace_format(const struct hvpmu_trace *t);

/*
 * Replay the rest of trace `t` on `strand` of machine `m`: enables the
 * memory model (hvpmu_machine_enable_memory(m, 1); it stays on), then feeds
 * each record in order, as the event source would:
 *   READ   hvpmu_machine_dref(m, strand, pc, addr, size, HVPMU_IC_LOAD, 0)
 *   WRITE  hvpmu_machine_dref(m, strand, pc, addr, size, HVPMU_IC_STORE, 1)
 *          (attr bits replace LOAD/STORE as enum hvpmu_trace_attr says)
 *   IFETCH hvpmu_machine_ifetch(m, strand, addr, size)
 * so caches, TLBs, act->mev, the strand's cycles and the PMU move as they
 * would for the live program.  *nrefs (if not NULL) receives the number of
 * records fed.  Returns 0 at the end of the trace, HVPMU_EINVAL (NULL m or
 * t, t a writer), HVPMU_ERANGE (strand), or a read error: the records
 * before the bad one have been fed and counted.  Memory: a fixed 4 KB
 * batch on the stack; nothing grows with the trace's length beyond what the
 * model itself holds (caches, TLBs, one frame per touched page).  Same
 * thread-safety as the machine's functions.
 */
int hvpmu_trace_replay(struct hvpmu_machine *m, uint32_t strand, struct hvpmu_trace *t, uint64_t *nrefs);

#ifdef __cplusplus
}
#endif
#endif
