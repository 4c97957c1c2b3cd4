/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hypercalls.c - libhvpmu embedded: make sun4v hypercalls as a guest OS
 * would (Linux's arch/sparc/kernel/pcr.c on a SPARC T4), without QEMU.
 *
 * Builds the default T4 machine, puts strand 0 in privileged mode (only
 * the guest OS reaches the hypervisor), negotiates the VT_CPU API group
 * (0x20c) with API_SET_VERSION, programs PCR0 through
 * HV_FAST_VT_SET_PERFREG (0x185) to count retired instructions in user
 * mode (the T4 event Instr_all, looked up by name), and reads it back with HV_FAST_VT_GET_PERFREG (0x184).  Then it
 * shows the two refusals a driver must expect: a perfreg call from user
 * mode never reaches the hypervisor, and one on a group the guest gave up
 * answers EBADTRAP.  Prints one line per step; exits 0 when every status
 * is the one the sun4v spec gives.
 *
 *   cc hypercalls.c $(pkg-config --cflags --libs hvpmu) -o hypercalls
 */
#include <inttypes.h>
#include <stdio.h>

#include <hvpmu/hvpmu.h>

static int check(const char *what, uint64_t got, uint64_t want)
{
	printf("%-40s %s\n", what, hvpmu_hv_status_name(got));
	if (got != want) {
		fprintf(stderr, "hypercalls: %s: %s, expected %s\n", what, hvpmu_hv_status_name(got),
			hvpmu_hv_status_name(want));
		return 1;
	}
	return 0;
}

int main(void)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	const struct hvpmu_t4_event *ev = hvpmu_t4_event_by_name("Instr_all");
	uint64_t minor = 0, pcr, back = 0;
	int err, bad = 0;

	printf("libhvpmu %s\n", hvpmu_version());
	if ((err = hvpmu_md_default(HVPMU_PLATFORM_T4, &md)) || (err = hvpmu_machine_create(&md, &m))) {
		fprintf(stderr, "hypercalls: machine: %s\n", hvpmu_strerror(err));
		return 1;
	}
	if ((err = hvpmu_hv_create(m, &hv))) {
		fprintf(stderr, "hypercalls: hypervisor: %s\n", hvpmu_strerror(err));
		hvpmu_machine_destroy(m);
		return 1;
	}
	printf("machine: %s, %" PRIu32 " strands, hypervisor %s\n", hvpmu_platform_name(md.platform),
	       hvpmu_machine_nstrands(m), hvpmu_hv_personality(hv));

	hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV); /* the guest OS's code */
	bad |= check("API_SET_VERSION(VT_CPU, 1.0)", hvpmu_hv_set_version(hv, 0, HV_GRP_VT_CPU, 1, 0, &minor), HV_EOK);

	pcr = HVPMU_FDP(0, T4_PCR, SL, ev->sl);
	pcr = HVPMU_FDP(pcr, T4_PCR, MASK, ev->mask);
	pcr = HVPMU_FDP(pcr, T4_PCR, UT, 1);
	bad |= check("VT_SET_PERFREG(PCR0)", hvpmu_hv_vt_set_perfreg(hv, 0, 0, pcr), HV_EOK);
	bad |= check("VT_GET_PERFREG(PCR0)", hvpmu_hv_vt_get_perfreg(hv, 0, 0, &back), HV_EOK);
	printf("PCR0 = 0x%016" PRIx64 " (sl=%u mask=0x%02x ut=%u)\n", back, (unsigned)HVPMU_FEX(back, T4_PCR, SL),
	       (unsigned)HVPMU_FEX(back, T4_PCR, MASK), (unsigned)HVPMU_FEX(back, T4_PCR, UT));
	if (back != pcr) {
		fprintf(stderr, "hypercalls: PCR0 read back 0x%" PRIx64 ", wrote 0x%" PRIx64 "\n", back, pcr);
		bad = 1;
	}

	/* user mode: the trap is the guest OS's, not the hypervisor's */
	hvpmu_machine_set_mode(m, 0, HVPMU_MODE_USER);
	{
		uint64_t st = hvpmu_hv_vt_get_perfreg(hv, 0, 0, &back);

		printf("%-40s %s\n", "VT_GET_PERFREG from user mode", hvpmu_hv_serviced(st) ? "serviced" : "not serviced");
		bad |= hvpmu_hv_serviced(st);
	}
	hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV);

	/* major 0 gives the group up: its calls are bad traps again */
	bad |= check("API_SET_VERSION(VT_CPU, 0)", hvpmu_hv_set_version(hv, 0, HV_GRP_VT_CPU, 0, 0, &minor), HV_EOK);
	bad |= check("VT_GET_PERFREG(PCR0) after", hvpmu_hv_vt_get_perfreg(hv, 0, 0, &back), HV_EBADTRAP);

	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
	return bad;
}
