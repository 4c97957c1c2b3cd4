/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/irix.h - the IRIX kernel service of the SGI Origin platform (layer
 * 4): syssgi(SGI_EVENTCTR, MDPERF_*) over the Hub MD performance counters
 * (../shared/specs/irix-mdperf.2; ../shared/reference/hw-and-hypervisor.md
 * §5.1-5.4: hwperftypes.h rev 1.23, md_perf.c), and the kernel's clock
 * (HZ ticks, `lbolt`) whose tick path multiplexes the enabled sets.
 *
 * The service is the platform-services personality of platform origin
 * (hvpmu_hv_create() selects it): it reaches each node's Hub only over the
 * machine's register bus (hvpmu/origin_md.h registers).  Callers are
 * processes with an identity (uid, capabilities) and an address space:
 * every pointer argument is a caller address, copied in and out through
 * the caller's copyin/copyout (a failure is EFAULT, never a crash).
 * docs/irix-mdperf.md gives every choice where the sources are silent.
 *
 * Not thread-safe: serialise the calls on one hypervisor object, as for
 * the rest of hvpmu/sun4v.h's hvpmu_hv_* (the QEMU source does).
 */
#ifndef HVPMU_IRIX_H
#define HVPMU_IRIX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* syssgi.h: the request, and its commands (§5.1). */
#define HVPMU_IRIX_SGI_EVENTCTR 174
enum hvpmu_irix_eventctr_cmd {
	HVPMU_MDPERF_ENABLE = 259,          /* 259-263: obsolete, EINVAL ("obsolete") */
	HVPMU_MDPERF_GET_NODE_COUNT = 263,
	HVPMU_MDPERF_NODE_ENABLE = 264,
	HVPMU_MDPERF_NODE_DISABLE = 265,
	HVPMU_MDPERF_NODE_GET_CTRL = 266,
	HVPMU_MDPERF_NODE_GET_COUNT = 267,
};
#define HVPMU_IRIX_CNODEID_NONE (-1)  /* cnodeid_t (signed short) -1: the whole system */

/* IRIX errno values (sys/errno.h, the System V numbers). */
enum {
	HVPMU_IRIX_EPERM = 1,
	HVPMU_IRIX_EFAULT = 14,
	HVPMU_IRIX_EBUSY = 16,
	HVPMU_IRIX_EINVAL = 22,
};

/* Capabilities (sys/capability.h): the one the service checks; hvpmu's
 * bit, not IRIX's number.  uid 0 holds it without the bit (IRIX's
 * default superuser policy). */
#define HVPMU_IRIX_CAP_DEVICE_MGT (UINT64_C(1) << 20)

/* md_perf_control_t: { uint ctrl_bits; }, 4 bytes big-endian; bit i
 * selects set i (MD_PERF_SEL_ALL = 0x3f), higher bits ignored (§5.2). */
#define HVPMU_MD_PERF_CONTROL_BYTES 4
#define HVPMU_MD_PERF_SEL_ALL 0x3fu
/* md_perf_values_t: mpv_count[6][6] of md_perf_reg_t (64 bits big-endian:
 * mpr_overflow bit 63, mpr_value 62:0), then __int64_t mpv_timestamp[6]:
 * 336 bytes (§5.2). */
#define HVPMU_MD_PERF_VALUES_BYTES 336
#define HVPMU_MD_PERF_REG_OVERFLOW (UINT64_C(1) << 63)

/* The calling process. */
struct hvpmu_irix_caller {
	uint32_t uid;            /* 0: the superuser, who holds every capability */
	uint64_t caps;           /* HVPMU_IRIX_CAP_* it holds */
	/* Its address space: copy n bytes from / to caller address uaddr;
	 * 0, or -1 when any of them is not mapped (EFAULT).  Required. */
	int (*copyin)(void *ctx, uint64_t uaddr, void *dst, size_t n);
	int (*copyout)(void *ctx, uint64_t uaddr, const void *src, size_t n);
	void *ctx;
};

/* A caller address space of one mapped range: `len` bytes at caller
 * address `base`, held at `mem`.  hvpmu_irix_range_copyin/copyout are
 * copyin/copyout for it (ctx: the range): 0, or -1 when [ua, ua + n) is
 * not inside it.  Thread-safe for distinct ranges. */
struct hvpmu_irix_range {
	uint64_t base;
	uint8_t *mem;
	size_t len;
};
int hvpmu_irix_range_copyin(void *range, uint64_t ua, void *dst, size_t n);
int hvpmu_irix_range_copyout(void *range, uint64_t ua, const void *src, size_t n);

/* What the system call gives back, as IRIX's syscall layer does: on
 * success ret = 0 and rval the value the caller sees (the generation
 * number); on failure ret = -1 and err the errno -- an E* value, or -1
 * where md_perf.c returns a raw -1 instead of an errno (§5.4: DISABLE of
 * a node not enabled, system GET_COUNT with no system collection held). */
struct hvpmu_irix_ret {
	int64_t ret;
	int err;
	int64_t rval;
};

struct hvpmu_hv;

/*
 * syssgi(SGI_EVENTCTR, cmd, node, ptr) made by `caller` on CPU `strand`
 * (a strand of the guest the kernel runs).  `node` is taken as a
 * cnodeid_t (the low 16 bits, signed).  The errors of §5.4 in md_perf.c's
 * order, and irix-mdperf.2 where md_perf.c differs from it (the
 * differences: docs/irix-mdperf.md):
 *   ENABLE  node >= 0: EFAULT (ctrl copyin), EINVAL (node out of range or
 *           without a CPU of this kernel), EBUSY (node enabled), EINVAL
 *           (no set bit 0-5), EBUSY (system monitoring active) -- every
 *           check before any change: a failed ENABLE changes nothing;
 *           else the node's values and overflow flags are zeroed, ctrl
 *           stored, the node generation increments, rval = it, and the
 *           first selected set goes live.
 *           node -1: EPERM (no CAP_DEVICE_MGT), EBUSY (any monitoring),
 *           then every node's checks as above; else every node starts as
 *           above; rval = the incremented global generation.
 *   DISABLE node >= 0: not enabled (or out of range) -> raw -1; enabled as
 *           part of system mode -> EINVAL; else the counters stop, a last
 *           collection, the generation increments, rval = it (the man
 *           page's; md_perf.c returns 0).
 *           node -1: EPERM, EINVAL (not in system mode), else all nodes,
 *           and rval = the incremented global generation.
 *   GET_CTRL EINVAL (out of range or not enabled; node -1: not in system
 *           mode), EFAULT (copyout).
 *   GET_COUNT node >= 0: EINVAL (out of range), EFAULT (copyout); works
 *           when disabled too; values are cumulative, overflow flags are
 *           reported and cleared (read-to-clear).
 *           node -1: the sum of all nodes, flags ORed and cleared,
 *           timestamps those of the last node collected -- in system mode
 *           and after its DISABLE until a node's ENABLE; else raw -1 with
 *           rval -1.
 *   GET_CTRL and GET_COUNT: rval = the generation the ENABLE that started
 *           the collection returned (a node's own, or the system's for
 *           every node of a system collection), also after its DISABLE.
 *   259-263 and any other command: EINVAL.
 * Returns HVPMU_OK (the outcome in *r), or HVPMU_EINVAL when the machine
 * has no IRIX kernel (not platform origin) or an argument is NULL.
 */
int hvpmu_irix_eventctr(struct hvpmu_hv *hv, uint32_t strand, const struct hvpmu_irix_caller *caller, int64_t cmd,
			int64_t node, uint64_t ptr, struct hvpmu_irix_ret *r);

/*
 * The kernel's clock.  hvpmu_hv_create() arms every CPU of the kernel's
 * guest for the first tick (HZ = md.os_hz, default 100); at each tick
 * lbolt increments and, on every node being monitored, the tick path
 * (MULTIPLEX_MDPERF_COUNTERS, §5.4) stops the counters, adds them to the
 * live set's values (overflow when a counter read 0xFFFFF), stamps the
 * set with lbolt, makes the next selected set live and clears and
 * restarts the counters.  The model's CPUs advance only while they run a
 * thread, so the tick is the system's: the first CPU to reach the
 * deadline takes it for all nodes (docs/irix-mdperf.md).  After a tick the
 * guest trap handler (hvpmu_hv_set_guest_trap_handler) gets a trap of
 * type HVPMU_IRIX_TRAP_CLOCK on that CPU.
 */
#define HVPMU_IRIX_TRAP_CLOCK 0x10000u /* hvpmu's number: not a hardware trap type */
/*
 * The R10000's performance-counter interrupt (IP[7], R10000 User's Manual
 * §14.20; hvpmu/r10k_pmu.h): the machine's disrupting PMU trap of a CPU
 * of the kernel's guest goes to the guest trap handler as a trap of this
 * type on that CPU, pic_mask the counters whose bit 31 is set with IE
 * (precise 0, tpc the next PC).  The kernel's counter driver (the guest
 * driver, hvpmu/supervisor.h) takes it; it stays requested while a
 * counter's bit 31 and IE are set.
 */
#define HVPMU_IRIX_TRAP_PERF 0x10001u /* hvpmu's number: not a hardware trap type */

/* Ticks so far (lbolt), and the period of one tick in CPU cycles. */
uint64_t hvpmu_irix_lbolt(const struct hvpmu_hv *hv);
uint64_t hvpmu_irix_tick_cycles(const struct hvpmu_hv *hv);

/* Collection periods in which set `set` of node `node` was the live one
 * since the node was last enabled: one per tick, and one for the partial
 * period a DISABLE ends (the share the multiplexing gave it: hvpmu's
 * addition, not an IRIX interface).  0 out of range. */
uint64_t hvpmu_irix_live_ticks(const struct hvpmu_hv *hv, int node, unsigned set);

/* Decode a md_perf_values_t of HVPMU_MD_PERF_VALUES_BYTES bytes. */
struct hvpmu_md_perf_values {
	uint64_t value[6][6];  /* mpr_value */
	uint8_t overflow[6][6]; /* mpr_overflow */
	int64_t timestamp[6];  /* mpv_timestamp: lbolt */
};
void hvpmu_md_perf_values_decode(const uint8_t *buf, struct hvpmu_md_perf_values *out);

#ifdef __cplusplus
}
#endif
#endif
