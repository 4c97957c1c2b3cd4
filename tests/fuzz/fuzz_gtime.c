/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_gtime.c - libFuzzer target for the guest-time filter
 * (src/source/gtime.c): a guest's system calls and the memory they point
 * at are outside input.  Each input is a sequence of calls of the three
 * ISAs' clock, sleep and futex numbers (and others), their six arguments
 * and 256 bytes of guest memory at guest address 0x10000 (timespecs,
 * futex words, places to write).  The machine's time is far past every
 * deadline but the furthest (relative ones saturate), and the host's
 * wait is replaced by one that returns at once.  Invariants (abort on violation): a call the filter answers
 * returns 0, a clock's seconds, or a negative errno the target knows
 * (EFAULT, EINVAL, EAGAIN, EINTR, the ISA's ETIMEDOUT); nothing it
 * writes lies outside the guest memory it was given; every deadline
 * registered at a call's entry is gone after its filter.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang), with
 * turns.c and gtime.c and the QEMU calls they use stubbed here.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_input.h"
#include "source/gtime.h"
#include "source/qemu_glue.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define GBASE 0x10000u
static uint8_t guest[256];

int qg_guest_read(uint64_t ga, void *out, size_t n)
{
	if (ga < GBASE || ga - GBASE > sizeof guest || n > sizeof guest - (ga - GBASE))
		return -1;
	memcpy(out, guest + (ga - GBASE), n);
	return 0;
}

bool qemu_plugin_write_memory_vaddr(uint64_t addr, GByteArray *d)
{
	if (addr < GBASE || addr - GBASE > sizeof guest || d->len > sizeof guest - (addr - GBASE))
		return false;
	memcpy(guest + (addr - GBASE), d->data, d->len);
	return true;
}

bool qemu_plugin_read_memory_vaddr(uint64_t addr, GByteArray *d, size_t len)
{
	(void)addr;
	(void)d;
	(void)len;
	return false;
}

void *qemu_plugin_guest_host_address(uint64_t addr)
{
	return addr >= GBASE && addr - GBASE < sizeof guest ? guest + (addr - GBASE) : NULL;
}

static uint64_t far_now(void *ctx)
{
	(void)ctx;
	return UINT64_C(1) << 63;
}

/* A lagged time: some cycles behind far_now (gtime.lagged). */
static uint64_t lag_now(void *ctx)
{
	return far_now(ctx) - (UINT64_C(1) << 20);
}

/* A host wait that a fuzz run must not make: woken at once, as by another
 * thread (a deadline the machine's time has not reached). */
static long no_wait(uint32_t *word, int op, uint32_t val, uint32_t bitset)
{
	(void)word;
	(void)op;
	(void)val;
	(void)bitset;
	return 0;
}

static void arm(void *ctx, uint32_t i, uint64_t left)
{
	(void)ctx;
	(void)i;
	(void)left;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct hvpmu_isa *isas[3];
	struct in in = { data, size };
	struct turns T;
	struct gtime G;
	const struct hvpmu_isa *isa;

	if (!isas[0]) {
		isas[0] = hvpmu_isa_by_name("sparcv9");
		isas[1] = hvpmu_isa_by_name("mips64");
		isas[2] = hvpmu_isa_by_name("ppc64");
	}
	isa = isas[u8(&in) % 3];
	if (!isa)
		abort();
	setenv("HVPMU_QUANTUM", "10000", 1);
	if (turns_init(&T, isa, 2, arm, NULL) || gtime_init(&G, isa, &T, far_now, NULL, 1 + u16(&in) * 1000u))
		abort();
	G.wait = no_wait;
	G.lagged = u8(&in) & 1 ? lag_now : NULL;
	gtime_start(&G);
	for (size_t k = 0; k < sizeof guest; k++)
		guest[k] = u8(&in);
	for (unsigned n = 0; n < 32 && in.n; n++) {
		const struct hvpmu_isa_syscalls *sc = &isa->sc;
		const int64_t nums[] = { sc->clock_gettime, sc->gettimeofday, sc->time, sc->nanosleep,
					 sc->clock_nanosleep, sc->futex, sc->read };
		int64_t num = nums[u8(&in) % (sizeof nums / sizeof nums[0])];
		uint64_t a[6], ret = 0;
		int me = u8(&in) & 1;

		for (int i = 0; i < 6; i++) /* mostly addresses in the guest memory, sometimes anything */
			a[i] = u8(&in) & 1 ? GBASE + u8(&in) : u64(&in);
		gtime_entry(&G, me, num, a);
		/* a turn boundary's deadline check (lagged), or an idle machine's */
		pthread_mutex_lock(&T.mu);
		gtime_timers(&G, me, u8(&in) & 1);
		pthread_mutex_unlock(&T.mu);
		if (gtime_filter(&G, me, num, a, &ret)) {
			int64_t r = (int64_t)ret;

			if (num == sc->time && r < 0 && r != -14)
				abort(); /* (seconds: at most KTIME_MAX's, after the base) */
			if (num != sc->time && r < 0 && r != -14 && r != -22 && r != -11 && r != -4 && r != -isa->sc.etimedout)
				abort();
		}
		if (G.w[me].deadline || G.w[me].early || T.timed)
			abort(); /* (a deadline outlived its call) */
	}
	free(G.w);
	free(T.t);
	return 0;
}
