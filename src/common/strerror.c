/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The library's error codes as text (hvpmu/hvpmu.h): shared by every layer. */
#include <hvpmu/hvpmu.h>

const char *hvpmu_strerror(int err)
{
	switch (err) {
	case HVPMU_OK: return "success";
	case HVPMU_EINVAL: return "invalid argument";
	case HVPMU_ENOMEM: return "out of memory";
	case HVPMU_ERANGE: return "index out of range";
	case HVPMU_ENOTSUP: return "not supported by the model";
	case HVPMU_EHV: return "hypercall failed";
	case HVPMU_EFULL: return "table full";
	case HVPMU_ETRAP: return "access trapped (privileged_action)";
	default: return "unknown error";
	}
}
