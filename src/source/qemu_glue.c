/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counter slots, instruction words and read-only code ranges on QEMU 10's
 * plugin API (qemu_glue.h; docs/event-source.md "QEMU").
 */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "qemu_glue.h"
#include "feed.h"
#include "elf_code.h"

/* the header QEMU ships is the one hvpmu is written for, or newer */
_Static_assert(QEMU_PLUGIN_VERSION >= HVPMU_QEMU_PLUGIN_VERSION, "qemu-plugin.h older than API v4");

/* ---- counter slots ---- */

static struct qemu_plugin_scoreboard *slot_sb[FEED_SLOT_MAXCHUNKS];
static uint32_t nslots;

int qg_slot_new(uint64_t **rows, uint32_t *slot)
{
	uint32_t c = nslots / FEED_SLOT_CHUNK;

	if (c >= FEED_SLOT_MAXCHUNKS)
		return -1;
	if (!slot_sb[c]) {
		slot_sb[c] = qemu_plugin_scoreboard_new(FEED_SLOT_CHUNK * sizeof(uint64_t));
		if (!slot_sb[c])
			return -1;
		rows[c] = qemu_plugin_scoreboard_find(slot_sb[c], 0);
	}
	*slot = nslots++;
	return 0;
}

qemu_plugin_u64 qg_slot_entry(uint32_t slot)
{
	return (qemu_plugin_u64){ .score = slot_sb[slot / FEED_SLOT_CHUNK],
				  .offset = (slot % FEED_SLOT_CHUNK) * sizeof(uint64_t) };
}

int qg_slots_refresh(uint64_t **rows)
{
	int moved = 0;

	for (uint32_t c = 0; c < FEED_SLOT_MAXCHUNKS && slot_sb[c]; c++) {
		uint64_t *row = qemu_plugin_scoreboard_find(slot_sb[c], 0);

		moved |= row != rows[c];
		rows[c] = row;
	}
	return moved;
}

uint32_t qg_insn_word(const struct hvpmu_isa *isa, const struct qemu_plugin_insn *insn)
{
	uint8_t b[8];

	if (qemu_plugin_insn_size(insn) != isa->insn_bytes || isa->insn_bytes > sizeof b ||
	    qemu_plugin_insn_data(insn, b, sizeof b) != isa->insn_bytes)
		return 0;
	return hvpmu_isa_word(isa, b);
}

/* ---- read-only code ranges ---- */

#define MAX_RANGES 256
#define MAX_PENDING 64       /* vCPUs whose pending mmap/mprotect is remembered */
#define PROT_W 2u            /* PROT_WRITE and PROT_EXEC: the same on sparc64, mips64, ppc64 */
#define PROT_X 4u            /* (asm-generic/mman-common.h; arch/sparc, mips, powerpc mman.h) */
#define MAP_FIXED_ 0x10u     /* MAP_FIXED: 0x10 on all three */
#define REMOVE_ALIGN 0x10000 /* a removal's end is widened to 64 KiB (the kernel rounds the
				length up to the guest's page size; its start is a page's) */

static struct range {
	uint64_t lo, hi;
	int used;
} ranges[MAX_RANGES];
static unsigned nranges;
static pthread_mutex_t rlock = PTHREAD_MUTEX_INITIALIZER;
static const struct hvpmu_isa *R_isa;
static struct pending {
	int64_t num;
	uint64_t addr, len, prot;
} pend[MAX_PENDING];

/* Take [lo, hi) out of every range; 1 if a used one lost something. */
static int remove_range(uint64_t lo, uint64_t hi)
{
	int hit = 0;

	for (unsigned i = 0; i < nranges; i++) {
		struct range *r = &ranges[i];

		if (r->hi <= lo || r->lo >= hi)
			continue;
		hit |= r->used;
		if (r->lo < lo && r->hi > hi) { /* split: the upper part goes last */
			if (nranges == MAX_RANGES) {
				r->hi = lo; /* no room: keep the lower part only */
				continue;
			}
			ranges[nranges++] = (struct range){ hi, r->hi, r->used };
			r->hi = lo;
		} else if (r->lo < lo) {
			r->hi = lo;
		} else if (r->hi > hi) {
			r->lo = hi;
		} else {
			*r = ranges[--nranges];
			i--;
		}
	}
	return hit;
}

static void add_range(uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	remove_range(lo, hi);
	if (nranges < MAX_RANGES) /* (full: not known read-only; a block there is full) */
		ranges[nranges++] = (struct range){ lo, hi, 0 };
}

int qg_code_readonly(uint64_t lo, uint64_t hi)
{
	int ok = 0;

	pthread_mutex_lock(&rlock);
	for (unsigned i = 0; i < nranges; i++)
		if (ranges[i].lo <= lo && hi <= ranges[i].hi) {
			ranges[i].used = 1;
			ok = 1;
			break;
		}
	pthread_mutex_unlock(&rlock);
	return ok;
}

/* The segments' ranges become read-only code ranges. */
static void add_segments(const struct elf_code_seg *seg, int n)
{
	pthread_mutex_lock(&rlock);
	for (int i = 0; i < n; i++)
		add_range(seg[i].lo, seg[i].hi);
	pthread_mutex_unlock(&rlock);
}

/* The main program's read-only code: its program headers, read from its
 * file, at the bias that puts its lowest executable segment at
 * qemu_plugin_start_code(). */
int qg_code_init(const struct hvpmu_isa *isa)
{
	const char *path = qemu_plugin_path_to_binary();
	uint8_t eh[ELF_CODE_EHDR], ph[ELF_CODE_PHDR * ELF_CODE_MAX_PHNUM];
	struct elf_code_seg seg[ELF_CODE_MAX_PHNUM];
	struct elf_code_hdr h;
	uint64_t lowx;
	int rc = -1, n;
	FILE *f;

	R_isa = isa;
	if (!path)
		return -1;
	f = fopen(path, "rb");
	g_free((void *)path);
	if (!f)
		return -1;
	if (fread(eh, 1, sizeof eh, f) != sizeof eh || elf_code_header(eh, sizeof eh, &h) ||
	    h.phoff > (uint64_t)LONG_MAX || fseek(f, (long)h.phoff, SEEK_SET) != 0 ||
	    fread(ph, ELF_CODE_PHDR, h.phnum, f) != h.phnum ||
	    elf_code_segments(&h, ph, sizeof ph, 0, seg, 0, &lowx) < 0 || lowx == UINT64_MAX)
		goto out;
	/* ET_DYN: loaded at a bias (QEMU's start_code is the lowest PF_X
	 * segment's address); ET_EXEC: where its headers say */
	n = elf_code_segments(&h, ph, sizeof ph, h.type == 3 ? qemu_plugin_start_code() - lowx : 0, seg,
			      ELF_CODE_MAX_PHNUM, NULL);
	add_segments(seg, n);
	rc = 0;
out:
	fclose(f);
	return rc;
}

int qg_guest_read(uint64_t ga, void *out, size_t n)
{
	GByteArray *d = g_byte_array_sized_new((guint)n);
	int ok = qemu_plugin_read_memory_vaddr(ga, d, n) && d->len >= n;

	if (ok)
		memcpy(out, d->data, n);
	g_byte_array_unref(d);
	return ok ? 0 : -1;
}

/* The program's first block is the interpreter's entry when the program
 * is dynamic: QEMU's loader mapped the interpreter (ld.so) as it did the
 * program, with no system call to see.  Its ELF header is at the start
 * of its first mapping, within 4 MiB below its entry, at a 4 KiB
 * boundary: the one whose load address plus e_entry is this block's
 * address (ET_DYN) gives its program headers, from guest memory. */
void qg_code_entry(uint64_t vaddr)
{
	uint8_t eh[ELF_CODE_EHDR], ph[ELF_CODE_PHDR * 32];
	struct elf_code_seg seg[32];
	struct elf_code_hdr h;

	if (qg_code_readonly(vaddr, vaddr + 1))
		return; /* the program's own entry (static, or no interpreter) */
	for (uint64_t base = vaddr & ~UINT64_C(0xfff), k = 0; k < 1024 && base; k++, base -= 0x1000) {
		int n;

		if (qg_guest_read(base, eh, sizeof eh) || elf_code_header(eh, sizeof eh, &h))
			continue;
		if (h.type != 3 || base + h.entry != vaddr || h.phnum > 32 ||
		    qg_guest_read(base + h.phoff, ph, (size_t)ELF_CODE_PHDR * h.phnum) ||
		    (n = elf_code_segments(&h, ph, (size_t)ELF_CODE_PHDR * h.phnum, base, seg, 32, NULL)) < 0)
			return;
		add_segments(seg, n);
		return;
	}
}

static uint64_t widen_hi(uint64_t addr, uint64_t len)
{
	uint64_t hi = addr + len;

	if (hi < addr || hi > UINT64_MAX - REMOVE_ALIGN)
		return UINT64_MAX;
	return (hi + REMOVE_ALIGN - 1) & ~(uint64_t)(REMOVE_ALIGN - 1);
}

int qg_code_syscall(unsigned vcpu_index, int64_t num, const uint64_t a[6])
{
	const struct hvpmu_isa_syscalls *sc;
	int hit = 0;

	if (!R_isa)
		return 0;
	sc = &R_isa->sc;
	if (num != sc->mmap && num != sc->mprotect && num != sc->munmap && num != sc->mremap)
		return 0;
	pthread_mutex_lock(&rlock);
	if (num == sc->munmap || num == sc->mprotect || num == sc->mremap ||
	    (num == sc->mmap && (a[3] & MAP_FIXED_)))
		hit = remove_range(a[0], widen_hi(a[0], a[1]));
	if (vcpu_index < MAX_PENDING)
		pend[vcpu_index] = (struct pending){ num, a[0], a[1], a[2] };
	pthread_mutex_unlock(&rlock);
	return hit;
}

void qg_code_syscall_ret(unsigned vcpu_index, int64_t num, int64_t ret)
{
	struct pending *p;

	if (!R_isa || vcpu_index >= MAX_PENDING)
		return;
	pthread_mutex_lock(&rlock);
	p = &pend[vcpu_index];
	/* a mapping with PROT_EXEC and without PROT_WRITE that was made:
	 * mmap returns its address, mprotect 0 (errors are -4095..-1) */
	if (p->num == num && (p->prot & (PROT_W | PROT_X)) == PROT_X && !(ret < 0 && ret >= -4095)) {
		if (num == R_isa->sc.mmap)
			add_range((uint64_t)ret, (uint64_t)ret + p->len);
		else if (num == R_isa->sc.mprotect && ret == 0)
			add_range(p->addr, p->addr + p->len);
	}
	p->num = -1;
	pthread_mutex_unlock(&rlock);
}

void qg_signals_to_guest(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2,
				    SIGIO, SIGPROF, SIGVTALRM, SIGPWR, SIGSTKFLT };
	struct sigaction q, o;

	if (sigaction(SIGSEGV, NULL, &q) || !(q.sa_flags & SA_SIGINFO) || !q.sa_sigaction)
		return; /* no handler of QEMU's to lend */
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		if (sigaction(sigs[i], NULL, &o) == 0 && !(o.sa_flags & SA_SIGINFO) && o.sa_handler == SIG_DFL)
			sigaction(sigs[i], &q, NULL);
}

/* ---- registers ---- */

static GArray *regs; /* qemu_plugin_reg_descriptor */

void qg_regs_init(void)
{
	if (!regs)
		regs = qemu_plugin_get_registers();
}

struct qemu_plugin_register *qg_reg(const char *name)
{
	for (guint i = 0; regs && i < regs->len; i++) {
		qemu_plugin_reg_descriptor *d = &g_array_index(regs, qemu_plugin_reg_descriptor, i);

		if (strcmp(d->name, name) == 0)
			return d->handle;
	}
	return NULL;
}

int qg_reg_read(struct qemu_plugin_register *reg, int big_endian, uint64_t *val)
{
	static __thread GByteArray *buf;
	int n;

	if (!buf && !(buf = g_byte_array_sized_new(16)))
		return -1;
	g_byte_array_set_size(buf, 0);
	n = qemu_plugin_read_register(reg, buf);
	if (n <= 0 || n > 8 || (guint)n > buf->len)
		return -1;
	*val = 0;
	for (int i = 0; i < n; i++)
		*val |= (uint64_t)buf->data[i] << (8 * (big_endian ? n - 1 - i : i));
	return 0;
}

int qg_cond_make(const struct hvpmu_isa *isa, uint32_t word, struct qg_cond *c)
{
	const char *names[HVPMU_ISA_COND_REGS];

	if (!isa->cond_regs || !isa->cond_taken || (c->nregs = isa->cond_regs(word, names)) < 0 ||
	    c->nregs > HVPMU_ISA_COND_REGS)
		return -1;
	c->word = word;
	for (int i = 0; i < c->nregs; i++)
		if (!(c->reg[i] = qg_reg(names[i])))
			return -1;
	return 0;
}

int qg_cond_read(const struct hvpmu_isa *isa, const struct qg_cond *c)
{
	uint64_t vals[HVPMU_ISA_COND_REGS] = { 0 };

	for (int i = 0; i < c->nregs; i++)
		if (qg_reg_read(c->reg[i], isa->big_endian, &vals[i]))
			return -1;
	return isa->cond_taken(c->word, vals);
}

/* ---- the source's start ---- */

int qemu_source_check(const struct qemu_info_t *info, const struct hvpmu_isa *isa)
{
	if (info->version.cur < HVPMU_QEMU_PLUGIN_VERSION || info->version.min > HVPMU_QEMU_PLUGIN_VERSION) {
		fprintf(stderr, "hvpmu plugin: needs plugin API version %d, QEMU offers %d..%d\n",
			HVPMU_QEMU_PLUGIN_VERSION, info->version.min, info->version.cur);
		return -1;
	}
	if (!info->target_name || strcmp(info->target_name, isa->qemu_target) != 0 || info->system_emulation) {
		fprintf(stderr, "hvpmu plugin: the machine's %s programs run only under %s user mode (got %s)\n",
			isa->name, isa->qemu_user, info->target_name ? info->target_name : "?");
		return -1;
	}
	return 0;
}

/* HVPMU_PLUGIN_WALL: the program's wall time (one per process, as QEMU) */
static struct timespec wall_t0;
static char wall_comm[64];

void qemu_source_wall_start(const char *comm)
{
	if (!getenv("HVPMU_PLUGIN_WALL"))
		return;
	clock_gettime(CLOCK_MONOTONIC, &wall_t0);
	snprintf(wall_comm, sizeof wall_comm, "%s", comm && comm[0] ? comm : "-");
}

void qemu_source_wall_end(void)
{
	const char *path = getenv("HVPMU_PLUGIN_WALL");
	struct timespec t;
	FILE *f;

	if (!path || !wall_comm[0] || !(f = fopen(path, "a")))
		return;
	clock_gettime(CLOCK_MONOTONIC, &t);
	fprintf(f, "%s %.6f\n", wall_comm,
		(double)(t.tv_sec - wall_t0.tv_sec) + (double)(t.tv_nsec - wall_t0.tv_nsec) / 1e9);
	fclose(f);
}
