/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The instruction sets behind the ISA seam (hvpmu/isa.h), by name. */
#include <string.h>
#include <hvpmu/isa.h>
#include <hvpmu/mips64_decode.h>
#include <hvpmu/ppc64_decode.h>

static const struct hvpmu_isa *const isas[] = { &hvpmu_isa_sparcv9, &hvpmu_isa_mips64, &hvpmu_isa_ppc64 };

const struct hvpmu_isa *hvpmu_isa_by_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof isas / sizeof isas[0]; i++)
		if (strcmp(isas[i]->name, name) == 0)
			return isas[i];
	return NULL;
}
