/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine's register bus (hvpmu/machine.h, hvpmu/pmu.h): each
 * platform's per-strand PMU behind one interface, register access routed
 * by space (SPARC ASI, ASR) with the device's privilege checks, and the
 * chip-wide devices numbered on the bus (T4: two MCUs per chip, §10.5; T1:
 * one JBUS + DRAM PerfRegs device, niagara-perf-api.txt).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>

static struct hvpmu_machine *machine(enum hvpmu_platform p, unsigned chips)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;

	assert_int_equal(hvpmu_md_default(p, &md), HVPMU_OK);
	if (chips > 1) {
		md.chips = chips;
		md.guests[0].nstrands = hvpmu_md_nstrands(&md);
	}
	assert_int_equal(hvpmu_machine_create(&md, &m), HVPMU_OK);
	return m;
}

/* T4-2: four MCUs, two per chip, each with the three registers of §10.5;
 * unknown devices and registers are ERANGE and change nothing. */
static void test_t4_devices(void **state)
{
	struct hvpmu_machine *m = machine(HVPMU_PLATFORM_T4, 2);
	struct hvpmu_device_info info;
	uint64_t v;

	(void)state;
	assert_ptr_equal(hvpmu_machine_pmu_ops(m), &hvpmu_t4_pmu_ops);
	assert_int_equal(hvpmu_machine_ndevices(m), 2 * HVPMU_T4_MCUS_PER_CHIP);
	assert_int_equal(hvpmu_machine_nmcu(m), 2 * HVPMU_T4_MCUS_PER_CHIP);
	for (unsigned d = 0; d < hvpmu_machine_ndevices(m); d++) {
		assert_int_equal(hvpmu_machine_device(m, d, &info), HVPMU_OK);
		assert_int_equal(info.kind, HVPMU_DEV_T4_MCU);
		assert_string_equal(info.name, "t4-mcu");
		assert_int_equal(info.unit, d);
		assert_int_equal(info.chip, d / HVPMU_T4_MCUS_PER_CHIP);
		assert_int_equal(info.nregs, HVPMU_T4_MCU_NREGS);
		assert_int_equal(hvpmu_machine_device_find(m, HVPMU_DEV_T4_MCU, d), (int)d);
		/* a write reads back (the CTL's implemented bits) */
		assert_int_equal(hvpmu_machine_bus_write(m, d, HVPMU_T4_MCU_CTL, 0x10 + d), HVPMU_OK);
		assert_int_equal(hvpmu_machine_bus_read(m, d, HVPMU_T4_MCU_CTL, &v), HVPMU_OK);
		assert_int_equal(v, 0x10 + d);
		v = 0x5555;
		assert_int_equal(hvpmu_machine_bus_read(m, d, HVPMU_T4_MCU_NREGS, &v), HVPMU_ERANGE);
		assert_int_equal(v, 0x5555);
		assert_int_equal(hvpmu_machine_bus_write(m, d, HVPMU_T4_MCU_NREGS, 1), HVPMU_ERANGE);
	}
	assert_int_equal(hvpmu_machine_device(m, 4, &info), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_device_find(m, HVPMU_DEV_T4_MCU, 4), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_device_find(m, HVPMU_DEV_T1_PERFREGS, 0), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_bus_read(m, 4, 0, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_bus_write(m, ~0u, 0, 0), HVPMU_ERANGE);
	assert_null(hvpmu_machine_device_state(m, 4));
	hvpmu_machine_destroy(m);
}

/* T1: one device holding PerfRegs 0..9, write masks applied by the device. */
static void test_t1_devices(void **state)
{
	struct hvpmu_machine *m = machine(HVPMU_PLATFORM_T1, 1);
	struct hvpmu_device_info info;
	uint64_t v;

	(void)state;
	assert_ptr_equal(hvpmu_machine_pmu_ops(m), &hvpmu_t1_pmu_ops);
	assert_int_equal(hvpmu_machine_ndevices(m), 1);
	assert_int_equal(hvpmu_machine_nmcu(m), 0);
	assert_int_equal(hvpmu_machine_device(m, 0, &info), HVPMU_OK);
	assert_int_equal(info.kind, HVPMU_DEV_T1_PERFREGS);
	assert_string_equal(info.name, "t1-perfregs");
	assert_int_equal(info.nregs, HVPMU_T1_NPERFREGS);
	assert_int_equal(hvpmu_machine_device_find(m, HVPMU_DEV_T1_PERFREGS, 0), 0);
	for (unsigned r = 0; r < HVPMU_T1_NPERFREGS; r++) {
		assert_int_equal(hvpmu_machine_bus_write(m, 0, r, ~UINT64_C(0)), HVPMU_OK);
		assert_int_equal(hvpmu_machine_bus_read(m, 0, r, &v), HVPMU_OK);
		assert_int_equal(v, hvpmu_t1_perfreg_write_mask(r));
	}
	assert_int_equal(hvpmu_machine_bus_read(m, 0, HVPMU_T1_NPERFREGS, &v), HVPMU_ERANGE);
	hvpmu_machine_destroy(m);
}

/* Register access by space: each PMU answers only its own instructions,
 * with its privilege checks (TABLE 10-1: PCRs hyperprivileged; T1 %pcr
 * privileged, §2.1). */
static void test_reg_spaces(void **state)
{
	struct hvpmu_machine *t4 = machine(HVPMU_PLATFORM_T4, 1), *t1 = machine(HVPMU_PLATFORM_T1, 1);
	uint64_t v;

	(void)state;
	/* T4: ASI 0x64 only in hyperprivileged mode; ASRs are not its registers */
	assert_int_equal(hvpmu_machine_set_mode(t4, 0, HVPMU_MODE_PRIV), HVPMU_OK);
	assert_int_equal(hvpmu_machine_reg_read(t4, 0, HVPMU_REG_ASI, HVPMU_T4_ASI_PCR, 0, &v), HVPMU_ETRAP);
	assert_int_equal(hvpmu_machine_reg_read(t4, 0, HVPMU_REG_ASI, HVPMU_T4_ASI_PIC, 8, &v), HVPMU_OK);
	assert_int_equal(hvpmu_machine_reg_read(t4, 0, HVPMU_REG_ASI, HVPMU_T4_ASI_PIC, 4, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_reg_read(t4, 0, HVPMU_REG_ASI, HVPMU_T4_ASI_PIC, 32, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_reg_read(t4, 0, HVPMU_REG_ASR, HVPMU_T1_ASR_PCR, 0, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_set_mode(t4, 0, HVPMU_MODE_HYPER), HVPMU_OK);
	/* ov can be cleared, never set, by software (§10.2) */
	assert_int_equal(hvpmu_machine_reg_write(t4, 0, HVPMU_REG_ASI, HVPMU_T4_ASI_PCR, 0x18, 0x7), HVPMU_OK);
	assert_int_equal(hvpmu_machine_ldxa(t4, 0, HVPMU_T4_ASI_PCR, 0x18, &v), HVPMU_OK);
	assert_int_equal(v, 0x6);
	assert_int_equal(hvpmu_machine_reg_read(t4, hvpmu_machine_nstrands(t4), HVPMU_REG_ASI, HVPMU_T4_ASI_PIC, 0,
						&v), HVPMU_ERANGE);
	/* T1: %pcr / %pic by RDASR, privileged_opcode for %pcr in user mode */
	assert_int_equal(hvpmu_machine_reg_read(t1, 0, HVPMU_REG_ASR, HVPMU_T1_ASR_PCR, 0, &v), HVPMU_ETRAP);
	assert_int_equal(hvpmu_machine_set_mode(t1, 0, HVPMU_MODE_PRIV), HVPMU_OK);
	assert_int_equal(hvpmu_machine_reg_write(t1, 0, HVPMU_REG_ASR, HVPMU_T1_ASR_PCR, 0, 0x6), HVPMU_OK);
	assert_int_equal(hvpmu_machine_rdasr(t1, 0, HVPMU_T1_ASR_PCR, &v), HVPMU_OK);
	assert_int_equal(v, 0x6);
	assert_int_equal(hvpmu_machine_reg_read(t1, 0, HVPMU_REG_ASI, HVPMU_T4_ASI_PIC, 0, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_reg_read(t1, 0, HVPMU_REG_ASR, 0x12, 0, &v), HVPMU_ERANGE);
	hvpmu_machine_destroy(t4);
	hvpmu_machine_destroy(t1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t4_devices),
		cmocka_unit_test(test_t1_devices),
		cmocka_unit_test(test_reg_spaces),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
