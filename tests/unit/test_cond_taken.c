/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cond_taken.c - unit tests for the ISA seam's conditional-CTI
 * outcomes from registers (hvpmu_isa.cond_regs / cond_taken;
 * src/source/isa_sparc.c, src/source/isa_ppc64.c;
 * docs/branch-prediction.md "Outcomes").
 *
 * Words from GNU as 2.40 (sparc64-linux-gnu-as -Av9v -64;
 * powerpc64-linux-gnu-as -a64 -mpower7), each a branch to pc+8 (SPARC)
 * or pc+4 (ppc64).  Register values as QEMU's plugin API gives them:
 * SPARC `state` = ccr << 32 | ..., icc in bits 35:32 and xcc in 39:36
 * (N Z V C from the high bit); `fsr` fcc0 in 11:10, fcc1 in 33:32 (0 =,
 * 1 <, 2 >, 3 unordered); ppc64 `cr` (CR0 in bits 31:28: LT GT EQ SO)
 * and `ctr`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hvpmu/isa.h"

#define ICC(nzvc) ((uint64_t)(nzvc) << 32)
#define XCC(nzvc) ((uint64_t)(nzvc) << 36)
#define N 8u
#define Z 4u
#define V 2u
#define C 1u

static int taken(const struct hvpmu_isa *isa, uint32_t w, uint64_t a, uint64_t b)
{
	const uint64_t vals[HVPMU_ISA_COND_REGS] = { a, b };

	return isa->cond_taken(w, vals);
}

static void test_sparc_regs(void **state)
{
	const struct hvpmu_isa *isa = &hvpmu_isa_sparcv9;
	const char *names[HVPMU_ISA_COND_REGS];

	(void)state;
	assert_int_equal(isa->cond_regs(0x02800002, names), 1); /* be */
	assert_string_equal(names[0], "state");
	assert_int_equal(isa->cond_regs(0x12680002, names), 1); /* bne %xcc */
	assert_string_equal(names[0], "state");
	assert_int_equal(isa->cond_regs(0x02ca0002, names), 1); /* brz %o0 */
	assert_string_equal(names[0], "o0");
	assert_int_equal(isa->cond_regs(0x13800002, names), 1); /* fbe */
	assert_string_equal(names[0], "fsr");
	assert_int_equal(isa->cond_regs(0x03580002, names), 1); /* fbne %fcc1 */
	assert_string_equal(names[0], "fsr");
	assert_int_equal(isa->cond_regs(0x90022001, names), -1); /* inc %o0: not a branch */
}

static void test_sparc_icc_xcc(void **state)
{
	const struct hvpmu_isa *isa = &hvpmu_isa_sparcv9;

	(void)state;
	/* be: Z */
	assert_int_equal(taken(isa, 0x02800002, ICC(Z), 0), 1);
	assert_int_equal(taken(isa, 0x02800002, ICC(0), 0), 0);
	assert_int_equal(taken(isa, 0x02800002, XCC(Z), 0), 0); /* Bicc tests icc only */
	/* bl: N xor V */
	assert_int_equal(taken(isa, 0x06800002, ICC(N), 0), 1);
	assert_int_equal(taken(isa, 0x06800002, ICC(N | V), 0), 0);
	assert_int_equal(taken(isa, 0x06800002, ICC(V), 0), 1);
	/* bne %xcc: not Z of xcc, whatever icc says */
	assert_int_equal(taken(isa, 0x12680002, XCC(Z) | ICC(0), 0), 0);
	assert_int_equal(taken(isa, 0x12680002, XCC(0) | ICC(Z), 0), 1);
}

static void test_sparc_bpr_fcc(void **state)
{
	const struct hvpmu_isa *isa = &hvpmu_isa_sparcv9;

	(void)state;
	/* brz, brlz: the register as a signed 64-bit value */
	assert_int_equal(taken(isa, 0x02ca0002, 0, 0), 1);
	assert_int_equal(taken(isa, 0x02ca0002, 5, 0), 0);
	assert_int_equal(taken(isa, 0x06ca0002, UINT64_MAX, 0), 1);
	assert_int_equal(taken(isa, 0x06ca0002, 0, 0), 0);
	/* fbe: fcc0 = 0 (=) */
	assert_int_equal(taken(isa, 0x13800002, 0u << 10, 0), 1);
	assert_int_equal(taken(isa, 0x13800002, 1u << 10, 0), 0);
	assert_int_equal(taken(isa, 0x13800002, 3u << 10, 0), 0);
	/* fbne %fcc1: fcc1 in 33:32 is <, > or unordered; fcc0 does not count */
	assert_int_equal(taken(isa, 0x03580002, (uint64_t)2 << 32, 0), 1);
	assert_int_equal(taken(isa, 0x03580002, (uint64_t)3 << 32, 0), 1);
	assert_int_equal(taken(isa, 0x03580002, 1u << 10, 0), 0);
}

static void test_ppc64_bc(void **state)
{
	const struct hvpmu_isa *isa = hvpmu_isa_by_name("ppc64");
	const char *names[HVPMU_ISA_COND_REGS];

	(void)state;
	assert_non_null(isa);
	assert_int_equal(isa->cond_regs(0x41820004, names), 2); /* beq */
	assert_string_equal(names[0], "cr");
	assert_string_equal(names[1], "ctr");
	assert_int_equal(isa->cond_regs(0x38600001, names), -1); /* li r3,1 */
	/* beq (cr0): BO = 12, BI = 2: CR bit 2 (EQ of CR0, 0x20000000) set */
	assert_int_equal(taken(isa, 0x41820004, 0x20000000, 7), 1);
	assert_int_equal(taken(isa, 0x41820004, 0x40000000, 7), 0);
	/* bne cr1: BO = 4, BI = 6: CR bit 6 (EQ of CR1, 0x02000000) clear */
	assert_int_equal(taken(isa, 0x40860004, 0x20000000, 0), 1);
	assert_int_equal(taken(isa, 0x40860004, 0x02000000, 0), 0);
	/* bdnz: BO = 16: CTR less one is not zero */
	assert_int_equal(taken(isa, 0x42000004, 0, 2), 1);
	assert_int_equal(taken(isa, 0x42000004, 0, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sparc_regs),
		cmocka_unit_test(test_sparc_icc_xcc),
		cmocka_unit_test(test_sparc_bpr_fcc),
		cmocka_unit_test(test_ppc64_bc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
