/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu TCG plugin for qemu-sparc64 (QEMU 7.2, plugin API v1): the event
 * source of layer 1.  It decodes each translated SPARC V9 instruction once
 * (hvpmu/sparc_decode.h) into an instruction class and counts retired
 * instructions per class with one inline add per instruction.  QEMU runs an
 * instruction's inline add before the instruction, so an instruction that
 * traps and is restarted (register-window spill/fill, page faults) would
 * count twice; hvpmu therefore places instruction i's add at instruction
 * i+1 and counts a block's last instruction at the next block entry if the
 * block reached it (a marker add at the last instruction) and the next block
 * does not restart it.  Counts are thus exact per retired
 * instruction, also for blocks left early.  It resolves
 * conditional branches at the next block entry, and hands the machine model
 * a cheap upper bound so it can sync exactly when a counter could wrap
 * (hvpmu/machine.h).  It hosts the machine, the hypervisor and the guest
 * OS driver of one run; `hvpmu stat` talks to it through the files of
 * stat_protocol.h.  Guest threads (vCPUs) map to strands: vCPU i runs on
 * strand i.  With more than one guest thread the plugin re-translates with
 * per-vCPU callbacks instead of inline adds (API v1 inline adds cannot
 * target per-vCPU slots; anchors.md §1.5).
 *
 * Arguments: cfg=REQUEST_FILE (required).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "qemu_plugin_api.h"
#include "stat_protocol.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = HVPMU_QEMU_PLUGIN_VERSION;

/* sparc64 Linux system call numbers (arch/sparc/include/uapi/asm/unistd.h). */
#define SPARC64_NR_EXIT 1
#define SPARC64_NR_EXIT_GROUP 188
#define SPARC_INSN_BYTES 4

struct tb_info {
	struct hvpmu_block blk;
	uint64_t last_pc;      /* address of the last instruction */
	uint64_t cond_target;  /* target of the conditional CTI */
	uint64_t cond_ds;      /* its delay slot address */
	struct tb_info *next_alloc;
	uint8_t cls[];
};

struct vcpu {
	int live;
	uint32_t strand;
	struct hvpmu_activity *act;
	const struct tb_info *prev;
	int last_pending;      /* prev's last instruction not counted yet */
	uint64_t mark_seen;    /* P.last_mark at prev's entry (inline mode) */
	int reached_last;      /* prev reached its last instruction (callback mode) */
	int pend;              /* a conditional CTI awaits its outcome */
	uint64_t pend_target, pend_ds;
};

static struct plugin {
	qemu_plugin_id_t id;
	pthread_mutex_t lock;
	int mt;                /* per-vCPU callback mode */
	struct stat_request rq;
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	struct hvpmu_sv *sv;
	FILE *ovf_log;
	uint32_t nvcpu;        /* == number of strands */
	struct vcpu *vcpu;
	struct tb_info *allocs;
	int fallback_class;
	uint64_t last_mark;    /* inline mode: +1 whenever a block's last instruction starts */
} P = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void lock(void) { pthread_mutex_lock(&P.lock); }
static void unlock(void) { pthread_mutex_unlock(&P.lock); }

static struct vcpu *vcpu_of(unsigned idx)
{
	return idx < P.nvcpu && P.vcpu[idx].live ? &P.vcpu[idx] : NULL;
}

static void resolve_pending(struct vcpu *v, uint64_t vaddr)
{
	if (!v->pend)
		return;
	if (vaddr == v->pend_ds) /* delay slot run as its own block: wait */
		return;
	if (vaddr == v->pend_target)
		v->act->taken_cond++;
	v->pend = 0;
}

/* The previous block's last instruction retired (or not, if `vaddr`
 * restarts it after a trap). */
static void count_last(struct vcpu *v, uint64_t vaddr)
{
	int reached = P.mt ? v->reached_last : P.last_mark != v->mark_seen;

	if (v->last_pending && reached && v->prev && vaddr != v->prev->last_pc)
		v->act->icount[v->prev->cls[v->prev->blk.n - 1]]++;
	v->last_pending = 0;
	v->reached_last = 0;
	v->mark_seen = P.last_mark;
}

static void block_entry(struct vcpu *v, const struct tb_info *ti)
{
	count_last(v, ti->blk.vaddr);
	resolve_pending(v, ti->blk.vaddr);
	if (ti->blk.cond_cti >= 0) {
		v->pend = 1;
		v->pend_target = ti->cond_target;
		v->pend_ds = ti->cond_ds;
	}
	v->act->bound += ti->blk.n;
	if (v->act->bound >= v->act->next_check) {
		lock();
		hvpmu_machine_sync(P.m, v->strand, v->prev ? &v->prev->blk : NULL, &ti->blk);
		unlock();
	}
	v->prev = ti;
	v->last_pending = ti->blk.n > 0;
}

static void tb_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);

	if (v)
		block_entry(v, udata);
}

/* Multi-threaded mode: count one retired instruction of class udata. */
static void insn_exec_mt(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);

	if (v)
		v->act->icount[(uintptr_t)udata]++;
}

/* Multi-threaded mode, last instruction of a block (udata: its tb_info). */
static void last_exec_mt(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);
	const struct tb_info *ti = udata;

	if (!v)
		return;
	if (ti->blk.n > 1)
		v->act->icount[ti->cls[ti->blk.n - 2]]++;
	v->reached_last = 1;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct tb_info *ti = calloc(1, sizeof *ti + n);
	struct hvpmu_activity *act0 = hvpmu_machine_activity(P.m, 0);

	(void)id;
	if (!ti)
		return;
	ti->blk.vaddr = qemu_plugin_tb_vaddr(tb);
	ti->blk.n = (uint32_t)n;
	ti->blk.cond_cti = -1;
	ti->blk.cls = ti->cls;
	ti->last_pc = ti->blk.vaddr + (n ? (n - 1) * SPARC_INSN_BYTES : 0);
	lock();
	ti->next_alloc = P.allocs;
	P.allocs = ti;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *b = qemu_plugin_insn_data(insn);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);
		struct hvpmu_sparc_insn d;
		uint32_t word = 0;
		int cls;

		if (qemu_plugin_insn_size(insn) == SPARC_INSN_BYTES)
			word = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
		hvpmu_sparc_decode(word, pc, &d);
		cls = hvpmu_machine_class(P.m, d.flags);
		if (cls < 0)
			cls = P.fallback_class;
		ti->cls[i] = (uint8_t)cls;
		if ((d.flags & HVPMU_SI_CTI_COND) && d.has_target) {
			ti->blk.cond_cti = (int32_t)i;
			ti->cond_target = d.target;
			ti->cond_ds = pc + SPARC_INSN_BYTES;
		}
		if (i + 1 == n) { /* the last instruction also sets the marker */
			if (P.mt) {
				qemu_plugin_register_vcpu_insn_exec_cb(insn, last_exec_mt, QEMU_PLUGIN_CB_NO_REGS, ti);
				continue;
			}
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &P.last_mark, 1);
		}
		if (i == 0) /* instruction i is counted when i+1 starts */
			continue;
		if (P.mt)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, insn_exec_mt, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)ti->cls[i - 1]);
		else
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &act0->icount[ti->cls[i - 1]], 1);
	}
	unlock();
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, ti);
}

static void stop_vcpu(struct vcpu *v)
{
	hvpmu_machine_sync(P.m, v->strand, v->prev ? &v->prev->blk : NULL, NULL);
	hvpmu_sv_stop_strand(P.sv, v->strand);
}

static void syscall_cb(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1,
		       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
	struct vcpu *v = vcpu_of(vcpu_index);

	(void)id; (void)a1; (void)a2; (void)a3; (void)a4; (void)a5; (void)a6; (void)a7; (void)a8;
	if (!v)
		return;
	lock();
	/* the trap instruction (last of its block) retired in user mode; the
	 * OS runs privileged */
	count_last(v, 0);
	resolve_pending(v, 0);
	hvpmu_machine_sync(P.m, v->strand, v->prev ? &v->prev->blk : NULL, NULL);
	hvpmu_machine_set_mode(P.m, v->strand, HVPMU_MODE_PRIV);
	hvpmu_machine_add_cycles(P.m, v->strand, HVPMU_MODE_PRIV, P.md.timing.syscall_cycles);
	if (num == SPARC64_NR_EXIT_GROUP) {
		for (uint32_t i = 0; i < P.nvcpu; i++)
			if (P.vcpu[i].live)
				stop_vcpu(&P.vcpu[i]);
	} else if (num == SPARC64_NR_EXIT) {
		stop_vcpu(v);
	}
	unlock();
}

static void syscall_ret_cb(qemu_plugin_id_t id, unsigned int vcpu_idx, int64_t num, int64_t ret)
{
	struct vcpu *v = vcpu_of(vcpu_idx);

	(void)id; (void)num; (void)ret;
	if (!v)
		return;
	lock();
	hvpmu_machine_set_mode(P.m, v->strand, HVPMU_MODE_USER);
	unlock();
}

static void register_callbacks(qemu_plugin_id_t id);

static void reset_done(qemu_plugin_id_t id)
{
	register_callbacks(id);
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	struct vcpu *v;
	int go_mt = 0;

	lock();
	if (vcpu_index >= P.nvcpu) {
		fprintf(stderr, "hvpmu: guest thread %u has no strand (machine has %u); not counted\n",
			vcpu_index, P.nvcpu);
		unlock();
		return;
	}
	v = &P.vcpu[vcpu_index];
	if (!v->live) {
		memset(v, 0, sizeof *v);
		v->live = 1;
		v->strand = vcpu_index;
		v->act = hvpmu_machine_activity(P.m, vcpu_index);
		hvpmu_machine_set_mode(P.m, v->strand, HVPMU_MODE_USER);
		hvpmu_sv_start_strand(P.sv, v->strand);
		if (vcpu_index > 0 && !P.mt) {
			P.mt = 1;
			go_mt = 1;
		}
	}
	unlock();
	if (go_mt) /* re-translate everything with per-vCPU callbacks */
		qemu_plugin_reset(id, reset_done);
}

static void vcpu_exit(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	struct vcpu *v = vcpu_of(vcpu_index);

	(void)id;
	if (!v)
		return;
	lock();
	stop_vcpu(v);
	unlock();
}

static void flush_cb(qemu_plugin_id_t id)
{
	(void)id;
	/* Translation blocks are gone: no block may be referenced any more.
	 * Their tb_info stay allocated until exit (bounded by translations). */
	lock();
	for (uint32_t i = 0; i < P.nvcpu; i++) {
		count_last(&P.vcpu[i], 0);
		P.vcpu[i].prev = NULL;
	}
	unlock();
}

static void on_overflow(void *ctx, unsigned event, const struct hvpmu_guest_trap *t)
{
	(void)ctx;
	if (!P.ovf_log)
		return;
	for (unsigned p = 0; p < HVPMU_T4_NPIC; p++)
		if (t->pic_mask & (1u << p))
			fprintf(P.ovf_log, "pic=%u event=%s tpc=0x%llx precise=%d\n", p, P.rq.ev[event].name,
				(unsigned long long)t->tpc, t->precise);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	struct stat_result rs = { 0 };
	char err[256];

	(void)id; (void)udata;
	lock();
	for (uint32_t i = 0; i < P.nvcpu; i++)
		if (P.vcpu[i].live) {
			stop_vcpu(&P.vcpu[i]);
			rs.retired += hvpmu_machine_retired(P.m, P.vcpu[i].strand);
		}
	rs.nevents = hvpmu_sv_nevents(P.sv);
	for (unsigned i = 0; i < rs.nevents; i++) {
		snprintf(rs.name[i], sizeof rs.name[i], "%s", P.rq.ev[i].name);
		hvpmu_sv_read(P.sv, i, &rs.count[i]);
	}
	rs.clock_hz = P.md.clock_hz;
	rs.hv_status = hvpmu_sv_last_status(P.sv);
	if (stat_result_write(P.rq.out, &rs, err, sizeof err))
		fprintf(stderr, "hvpmu: %s\n", err);
	if (P.ovf_log)
		fclose(P.ovf_log);
	P.ovf_log = NULL;
	unlock();
}

static void register_callbacks(qemu_plugin_id_t id)
{
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_exit_cb(id, vcpu_exit);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_vcpu_syscall_cb(id, syscall_cb);
	qemu_plugin_register_vcpu_syscall_ret_cb(id, syscall_ret_cb);
	qemu_plugin_register_flush_cb(id, flush_cb);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
}

static int setup(const char *cfg)
{
	char err[256];
	struct hvpmu_sv_config svc = { 0 };
	struct hvpmu_sparc_insn nop;

	if (stat_request_read(cfg, &P.rq, err, sizeof err)) {
		fprintf(stderr, "hvpmu plugin: %s\n", err);
		return -1;
	}
	hvpmu_md_default(HVPMU_PLATFORM_T4, &P.md);
	if (hvpmu_machine_create(&P.md, &P.m) || hvpmu_hv_create(P.m, &P.hv))
		return -1;
	svc.pic_init = P.rq.pic_init;
	svc.rotate_cycles = P.rq.rotate_cycles;
	svc.on_overflow = on_overflow;
	if (hvpmu_sv_create(P.hv, 0, &svc, &P.sv))
		return -1;
	for (unsigned i = 0; i < P.rq.nevents; i++)
		if (hvpmu_sv_add_event(P.sv, &P.rq.ev[i]) < 0) {
			fprintf(stderr, "hvpmu plugin: bad event %s\n", P.rq.ev[i].name);
			return -1;
		}
	if (P.rq.overflow_log[0] && !(P.ovf_log = fopen(P.rq.overflow_log, "w"))) {
		fprintf(stderr, "hvpmu plugin: cannot open %s\n", P.rq.overflow_log);
		return -1;
	}
	/* class used if 64 distinct classes were ever exceeded: a NOP's */
	P.fallback_class = hvpmu_machine_class(P.m, hvpmu_sparc_decode(0x01000000u, 0, &nop));
	P.nvcpu = hvpmu_machine_nstrands(P.m);
	P.vcpu = calloc(P.nvcpu, sizeof *P.vcpu);
	return P.vcpu ? 0 : -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	const char *cfg = NULL;

	if (info->version.cur < HVPMU_QEMU_PLUGIN_VERSION || info->version.min > HVPMU_QEMU_PLUGIN_VERSION) {
		fprintf(stderr, "hvpmu plugin: needs plugin API version %d, QEMU offers %d..%d\n",
			HVPMU_QEMU_PLUGIN_VERSION, info->version.min, info->version.cur);
		return -1;
	}
	if (!info->target_name || strcmp(info->target_name, "sparc64") != 0 || info->system_emulation) {
		fprintf(stderr, "hvpmu plugin: runs only under qemu-sparc64 user mode (got %s)\n",
			info->target_name ? info->target_name : "?");
		return -1;
	}
	for (int i = 0; i < argc; i++)
		if (strncmp(argv[i], "cfg=", 4) == 0)
			cfg = argv[i] + 4;
	if (!cfg) {
		fprintf(stderr, "hvpmu plugin: missing argument cfg=FILE\n");
		return -1;
	}
	if (setup(cfg))
		return -1;
	P.id = id;
	register_callbacks(id);
	return 0;
}
