/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SGI Origin's directory and the Hub's memory/directory (MD) unit
 * (layer 2, docs/origin-directory.md): first-touch placement of 16 KB
 * pages on the nodes, a directory entry per 128-byte line at its home
 * Hub (unowned, shared with a sharer vector, exclusive with an owner,
 * busy while an intervention is in flight), the messages of each
 * transaction as the events of the six Hub MD counter sets
 * (hvpmu/origin_md.h), and the MD unit's occupancy in Hub cycles (busy
 * per request kind, DRAM refresh; idle is the rest, regbus.c).  The
 * caches themselves (copies, invalidations, downgrades) are the
 * coherence model's (coherence.c); this part keeps what the Hubs know.
 * Private to src/model.  No allocation on the request path except when a
 * table grows (doubling).  Not thread-safe (the machine's lock).
 */
#ifndef HVPMU_MODEL_ORIGIN_DIR_H
#define HVPMU_MODEL_ORIGIN_DIR_H

#include <stdint.h>
#include <hvpmu/machine.h>
#include <hvpmu/origin_md.h>

/* What a CPU asks of the home Hub of a line. */
enum od_req {
	OD_READ = 0,    /* an L2 read miss: shared, or exclusive when unowned */
	OD_RDEX = 1,    /* an L2 store miss: read-exclusive */
	OD_UPGRADE = 2, /* a store to a clean line the CPU holds */
	OD_WB = 3,      /* a dirty line leaves the CPU's L2: writeback */
};

/* An open-addressing table (linear probing, load <= 1/2) of `size`-byte
 * slots whose first member is a uint64_t key, 0 in an empty slot. */
struct od_table {
	uint8_t *slot;
	uint64_t n, cap;
	size_t size;
};

/* Called with each directory event of a CPU (hvpmu/machine.h enum
 * hvpmu_dir_event): the requests the home sends to its secondary cache,
 * the state its stores find there. */
typedef void od_cpu_event_fn(void *ctx, uint32_t cpu, enum hvpmu_dir_event e);

/* One of a Hub MD's outgoing message queues (MD_MOQ_SIZE): the Hub cycles
 * at which the messages in it leave, in order. */
#define OD_MOQ_MAX 64 /* >= either queue's size (asserted in origin_dir.c) */
struct od_moq {
	uint64_t leave[OD_MOQ_MAX];
	uint32_t head, n;        /* ring: the oldest, how many */
	uint64_t last;           /* when the newest leaves: the link is busy until then */
};

struct origin_dir {
	uint32_t nodes, cpus_per_node;
	od_cpu_event_fn *cpu_event; /* NULL: not reported (set by the machine after od_init) */
	void *cpu_event_ctx;
	uint64_t cpu_hz, hub_hz;
	struct od_table pages;   /* first touch: 16 KB page -> node */
	struct od_table lines;   /* directory entries */
	struct od_table refs;    /* migration: requests per page and node */
	uint64_t mig_threshold;  /* migration: 0 off (the default), else the requests a node must make to a page
				    beyond its home node's for the page to migrate there (set by the machine) */
	int kernel_ref;          /* migration: the requests being made are the kernel's (a tablewalk's): its
				    pages neither count nor migrate (set by the machine around them) */
	uint64_t *md_free;       /* per node: Hub cycle at which its MD unit is next free */
	uint64_t *fop_cached;    /* per node: its fetch-and-op cache's variable + 1 (0: invalid) */
	struct od_moq *moq;      /* per node: [2n] its request queue, [2n + 1] its reply queue */
	uint32_t cur_node;       /* the request being served: its home (the node whose queues it uses) */
	uint64_t cur_at;         /* ... and the Hub cycle it arrived */
	uint64_t *refreshed;     /* per node: Hub cycles up to which refresh was counted */
};

/* Figures (docs/origin-directory.md): Hub cycles. */
#define OD_PAGE_SHIFT 14     /* IRIX pages: 16 KB, placed on first touch */
#define OD_LINE_SHIFT 7      /* the coherence unit: a 128-byte L2 line */
#define OD_T_MEMDIR 16       /* a line read or written in memory with its directory entry */
#define OD_T_DIR 4           /* a directory-only operation (upgrade, forwarding) */
#define OD_T_INTERV 40       /* an intervention in flight: the line is busy */
#define OD_REFRESH_PERIOD 1560 /* DRAM refresh: one burst per 15.6 us */
#define OD_REFRESH_CYCLES 8  /* the MD is busy refreshing that long */
#define OD_FOP_SHIFT MD_FANDOP_CAC_STAT_ADDR_SHIFT /* a fetch-and-op variable: 64 bytes (IRIX FETCHOP_VAR_SIZE) */
#define OD_T_FOP_HIT 4       /* a fetch-and-op on the cached variable (misc busy) */
/* MD_MOQ_SIZE at reset: 18 request queue entries, 50 reply queue entries */
#define OD_MOQ_RQ ((uint32_t)HVPMU_FEX(HVPMU_HUBMD_MOQ_SIZE_RESET, MD_MOQ_SIZE, RQ_SIZE))
#define OD_MOQ_RP ((uint32_t)HVPMU_FEX(HVPMU_HUBMD_MOQ_SIZE_RESET, MD_MOQ_SIZE, RP_SIZE))
#define OD_MSG_HDR 2         /* Hub cycles a message without data takes to leave (16 bytes at 8 per cycle) */
#define OD_MSG_DATA 16       /* ... a reply with a line (128 bytes; its header overlapped) */

/* nodes Hubs of cpus_per_node CPUs each; clocks in Hz.  0 or -1 (ENOMEM). */
int od_init(struct origin_dir *d, uint32_t nodes, uint32_t cpus_per_node, uint64_t cpu_hz, uint64_t hub_hz);
void od_fini(struct origin_dir *d);

/* Home node of physical address pa: the node of the first CPU that touched
 * its page (`cpu` touches it now if nobody did). */
uint32_t od_home(struct origin_dir *d, uint64_t pa, uint32_t cpu);

/*
 * Request `r` of CPU `cpu` for the line of pa at CPU cycle `now`: the
 * directory transition, the events at the home Hub into act[home] (act:
 * one per node), the MD occupancy, and each CPU's directory events
 * through d->cpu_event.  `holders`: bit c set when CPU c's secondary
 * cache held the line before this request (CPU % 64), which tells the
 * interventions and invalidations that hit from those the directory sent
 * to a CPU that had dropped the line.  Returns the CPU cycles the request
 * waited beyond the normal latency (a NACK's back-off while the line was
 * busy).
 */
uint64_t od_request(struct origin_dir *d, struct hvpmu_origin_md_activity *act, uint32_t cpu, uint64_t pa,
		    enum od_req r, uint64_t now, uint64_t holders);

/* What the I/O interface of a Hub asks of the home of a line it moves by
 * DMA (docs/origin-directory.md "I/O"). */
enum od_io {
	OD_IO_READ = 0, /* memory to device: a read shared uncached (no copy kept) */
	OD_IO_RDEX = 1, /* device to part of a line: read exclusive uncached, merge, write back */
	OD_IO_WINV = 2, /* device to a whole line: write-invalidate */
};

/*
 * Request `r` of the I/O interface of node `io` for the line of pa at CPU
 * cycle `now` (a page nobody touched is homed on node io): the directory
 * transition and the events at the home Hub into act[home], the MD
 * occupancy, each CPU's events through d->cpu_event (`holders` as in
 * od_request()).  Returns the CPUs (bit per CPU, CPU % 64) whose copies
 * of the line the request invalidates: the caller drops them from their
 * caches.
 */
uint64_t od_io_request(struct origin_dir *d, struct hvpmu_origin_md_activity *act, uint32_t io, uint64_t pa,
		       enum od_io r, uint64_t now, uint64_t holders);

/*
 * A fetch-and-op of CPU `cpu` on the 64-byte variable of pa (the Hub's
 * fetch-and-op region; a load, or a store when `store`) at CPU cycle
 * `now`: at its home Hub, a hit or a miss of the Hub's one-entry
 * fetch-and-op cache, the reply, the MD occupancy.  The region is
 * uncached: no directory entry is involved.
 */
void od_fetchop(struct origin_dir *d, struct hvpmu_origin_md_activity *act, uint32_t cpu, uint64_t pa, int store,
		uint64_t now);

/* Refresh up to Hub cycle hub_now on node n: its busy cycles into act. */
void od_refresh(struct origin_dir *d, uint32_t n, uint64_t hub_now, struct hvpmu_origin_md_activity *act);

#endif
