/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_remote.c - libFuzzer target for what a guest process hands the
 * service (src/source/remote.c, docs/service.md "Protocol"): its hello
 * message and everything it writes into its shared area -- the block
 * table, the instruction words and the records of its rings.  The guest
 * is not trusted: whatever it writes, the service must neither crash nor
 * hang, and a malformed area only detaches that image.
 *
 * Input (big-endian fields, fuzz_input.h; past the end everything is 0):
 *   u8  flags: bit 0 the hello is raw input bytes (else a valid one),
 *       bit 1 the hello's pid is not the caller's, bit 2 fork of the
 *       previous image, bit 3 force the quantum's barrier, bit 4 a machine
 *       of instruction classes only (the service grants block counts:
 *       R_CNT, C_FAST) instead of one with every model on, and bit 5 with
 *       it taken branches (REMOTE_F_TAKEN)
 *   [raw hello: sizeof(struct remote_hello) bytes]
 *   u8  blocks: then per block u64 vaddr, u16 word, u16 n
 *   u16 words: then that many u32 instruction words
 *   u8  rings used (0..3): per ring u16 records, then per record u64 w0,
 *       u64 w1, and u64 head (the published head, as the guest wrote it)
 * Then the service runs what was published (hvpmu_remote_run, without
 * and with the barrier forced) and the image's connection ends
 * (hvpmu_remote_detach).
 * Invariant: no crash, no sanitizer report, and hvpmu_remote_run returns.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/remote.h>
#include "fuzz_input.h"
#include "source/remote_proto.h"
#include "source/remote_shm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct hvpmu_remote *R;
static struct hvpmu_machine *M;
static uint32_t last; /* the previous input's image */
static int counts;    /* R's machine models instruction classes only (1; 2: and taken branches) */

/* A fresh machine and source (the images' MMU contexts run out after
 * HVPMU_CTX_MAX of them); `insn_only`: instruction classes only (1), and
 * taken branches (2). */
static void setup(int insn_only)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m;

	if (R) {
		hvpmu_remote_destroy(R);
		hvpmu_machine_destroy(M);
		R = NULL;
		last = 0;
	}
	if (hvpmu_md_default(HVPMU_PLATFORM_T4, &md) || hvpmu_machine_create(&md, &m))
		abort();
	M = m;
	counts = insn_only;
	if (insn_only == 2)
		hvpmu_machine_set_features(m, HVPMU_FEAT_TAKEN);
	if (!insn_only) {
		hvpmu_machine_set_features(m, HVPMU_FEAT_MEMORY | HVPMU_FEAT_BRANCHES | HVPMU_FEAT_TAKEN);
		hvpmu_machine_enable_memory(m, 1);
	}
	if (hvpmu_remote_create(m, &hvpmu_isa_sparcv9, 1000, &R))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct remote_hello h = { .magic = REMOTE_HELLO_MAGIC, .version = REMOTE_PROTO_VERSION, .how = REMOTE_ROOT,
				  .pid = (int32_t)getpid(), .isa = "sparcv9", .comm = "fuzz" };
	char welcome[256];
	size_t wlen;
	uint32_t process, nb, nw, nr;
	int fd, flags;
	struct remote_area *a;

	flags = u8(&in);
	if (!R || hvpmu_remote_images(R) >= 4000 || counts != ((flags & 16) ? 1 + ((flags & 32) != 0) : 0))
		setup((flags & 16) ? 1 + ((flags & 32) != 0) : 0);
	if (flags & 1) {
		for (size_t k = 0; k < sizeof h; k++)
			((uint8_t *)&h)[k] = u8(&in);
	} else if (flags & 4 && last) {
		h.how = REMOTE_FORK;
		h.parent = last;
		h.base = u16(&in);
	}
	if (hvpmu_remote_attach(R, &h, sizeof h, (flags & 2) ? -1 : (int)getpid(), &process, welcome, sizeof welcome,
				&wlen, &fd))
		return 0;
	if (wlen > sizeof welcome)
		abort();
	a = mmap(NULL, sizeof *a, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (a == MAP_FAILED)
		abort();
	nb = u8(&in);
	for (uint32_t k = 0; k < nb && k < REMOTE_MAX_BLOCKS; k++) {
		a->block[k].vaddr = u64(&in);
		a->block[k].word = u16(&in);
		a->block[k].n = u16(&in);
	}
	nw = u16(&in);
	for (uint32_t k = 0; k < nw; k++)
		a->words[k] = (uint32_t)u16(&in) << 16 | u16(&in);
	atomic_store(&a->nblocks, nb);
	nr = u8(&in) & 3u;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t n = u16(&in) & (REMOTE_RING_SLOTS - 1u);

		for (uint32_t k = 0; k < n; k++) {
			a->ring[i].slot[k].w0 = u64(&in);
			a->ring[i].slot[k].w1 = u64(&in);
		}
		atomic_store(&a->ring[i].head, u64(&in));
	}
	hvpmu_remote_run(R, 0);
	hvpmu_remote_run(R, (flags & 8) != 0);
	hvpmu_remote_detach(R, process);
	hvpmu_remote_run(R, 1);
	munmap(a, sizeof *a);
	last = process;
	return 0;
}
