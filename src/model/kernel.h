/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest kernel's system-call path (docs/kernel-model.md): kernel.c runs
 * it through the machine; machine.c offers it these hooks and nothing else
 * of its internals.  Not thread-safe (the machine's rules).
 */
#ifndef HVPMU_MODEL_KERNEL_H
#define HVPMU_MODEL_KERNEL_H

#include <stdint.h>
#include <hvpmu/machine.h>

/* kernel.c: 0 if md->kernel is usable (or disabled), else HVPMU_EINVAL. */
int kernel_check(const struct hvpmu_md *md);

/* machine.c hooks.  Strand indices are checked by the caller. */
/* MMU context the strand's instruction fetches and data references are
 * translated in from now on (0: the kernel). */
void machine_set_ctx(struct hvpmu_machine *m, uint32_t strand, uint32_t ctx);
uint32_t machine_user_ctx(const struct hvpmu_machine *m, uint32_t strand);
/* Declare a context-0 region of size code `code` (tlb_mmu_add_region). */
int machine_kernel_map(struct hvpmu_machine *m, uint64_t va, uint64_t len, unsigned code);
void machine_kernel_mapped(struct hvpmu_machine *m);
int machine_kernel_is_mapped(const struct hvpmu_machine *m);
/* Retire n instructions of decode flags si_flags on the strand, in its
 * current mode, at its next sync; they are not user-mode instructions
 * (hvpmu_machine_retired() leaves them out). */
int machine_retire(struct hvpmu_machine *m, uint32_t strand, uint32_t si_flags, uint64_t n);

#endif
