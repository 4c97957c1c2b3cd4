/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SPARC V9 instruction set behind the ISA seam (hvpmu/isa.h): the
 * decoder of hvpmu/sparc_decode.h, the software-prefetch rules of
 * hvpmu/prefetch.h, sparc64 Linux's system-call numbers
 * (arch/sparc/include/uapi/asm/unistd.h, 64-bit ABI), the ELF and QEMU
 * names of the format (System V gABI: EM_SPARCV9 = 43, ELFCLASS64,
 * ELFDATA2MSB).
 */
#include <hvpmu/isa.h>
#include <hvpmu/sparc_decode.h>

#define ELFCLASS64 2
#define ELFDATA2MSB 2
#define EM_SPARCV9 43
#define SPARC_INSN_BYTES 4

static uint32_t sparc_decode(uint32_t word, uint64_t pc, struct hvpmu_insn *out)
{
	struct hvpmu_sparc_insn d;

	hvpmu_sparc_decode(word, pc, &d);
	out->flags = d.flags;
	out->uops = d.uops;
	out->annul = d.annul;
	out->has_target = d.has_target;
	out->target = d.target;
	return d.flags;
}

/* A prefetch's function code (the rd field, SPARC V9 A.49) chooses its
 * destination. */
static enum hvpmu_pf_dest sparc_prefetch_dest(uint32_t word)
{
	struct hvpmu_sparc_operands o;

	hvpmu_sparc_operands(word, &o);
	return hvpmu_prefetch_dest(o.fcn);
}

/*
 * Conditional branches' outcomes from the registers (SPARC V9 A.3 BPr,
 * A.4 FBfcc, A.5 FBPfcc, A.6 Bicc, A.7 BPcc; op = 0, op2 in bits 24:22).
 * The names are those of GDB's sparc64 feature files (QEMU 10 with
 * scripts/qemu-patches/0001): `state` = ccr << 32 | asi << 24 | pstate << 8
 * | cwp, so icc = state[35:32] and xcc = state[39:36] (N Z V C from bit 3
 * down); `fsr` holds fcc0 in bits 11:10, fcc1 33:32, fcc2 35:34, fcc3
 * 37:36 (V9 5.1.7.4: 0 =, 1 <, 2 >, 3 unordered).
 */
enum { OP2_BPCC = 1, OP2_BICC = 2, OP2_BPR = 3, OP2_FBPFCC = 5, OP2_FBFCC = 6 };

static const char *const sparc_int_reg[32] = {
	"g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7", "o0", "o1", "o2", "o3", "o4", "o5", "sp", "o7",
	"l0", "l1", "l2", "l3", "l4", "l5", "l6", "l7", "i0", "i1", "i2", "i3", "i4", "i5", "fp", "i7",
};

static int sparc_cond_regs(uint32_t w, const char *names[])
{
	if (w >> 30 != 0)
		return -1;
	switch ((w >> 22) & 7) {
	case OP2_BICC: case OP2_BPCC:
		names[0] = "state";
		return 1;
	case OP2_FBFCC: case OP2_FBPFCC:
		names[0] = "fsr";
		return 1;
	case OP2_BPR:
		names[0] = sparc_int_reg[(w >> 14) & 31]; /* rs1 */
		return 1;
	default:
		return -1;
	}
}

/* Bicc / BPcc cond (V9 A.6, A.7) over the integer condition codes N Z V C. */
static int icc_holds(unsigned cond, unsigned nzvc)
{
	int n = (nzvc >> 3) & 1, z = (nzvc >> 2) & 1, v = (nzvc >> 1) & 1, c = nzvc & 1, r;

	switch (cond & 7) {
	case 0: r = 0; break;            /* n   (8: a) */
	case 1: r = z; break;            /* e   (9: ne) */
	case 2: r = z | (n ^ v); break;  /* le  (10: g) */
	case 3: r = n ^ v; break;        /* l   (11: ge) */
	case 4: r = c | z; break;        /* leu (12: gu) */
	case 5: r = c; break;            /* cs  (13: cc) */
	case 6: r = n; break;            /* neg (14: pos) */
	default: r = v; break;           /* vs  (15: vc) */
	}
	return cond & 8 ? !r : r;
}

/* FBfcc/FBPfcc cond over fcc (0 E, 1 L, 2 G, 3 U): the set of fcc values
 * for which the branch is taken, one bit per value (V9 A.4). */
static const uint8_t fcc_taken[16] = {
	0x0, /* fbn */   0xe, /* fbne: L G U */ 0x6, /* fblg */  0xa, /* fbul: L U */
	0x2, /* fbl */   0xc, /* fbug: G U */   0x4, /* fbg */   0x8, /* fbu */
	0xf, /* fba */   0x1, /* fbe */         0x9, /* fbue */  0x5, /* fbge */
	0xd, /* fbuge */ 0x3, /* fble */        0xb, /* fbule */ 0x7, /* fbo */
};

static int sparc_cond_taken(uint32_t w, const uint64_t vals[])
{
	unsigned cond = (w >> 25) & 15, cc = (w >> 20) & 3;
	int64_t r;

	switch ((w >> 22) & 7) {
	case OP2_BICC:
		return icc_holds(cond, (unsigned)(vals[0] >> 32) & 15);
	case OP2_BPCC: /* cc1 cc0: 00 icc, 10 xcc (01 and 11 reserved) */
		if (cc & 1)
			return -1;
		return icc_holds(cond, (unsigned)(vals[0] >> (cc ? 36 : 32)) & 15);
	case OP2_FBFCC:
		cc = 0;
		/* fall through */
	case OP2_FBPFCC: {
		unsigned fcc = cc == 0 ? (unsigned)(vals[0] >> 10) & 3 : (unsigned)(vals[0] >> (30 + 2 * cc)) & 3;

		return (fcc_taken[cond] >> fcc) & 1;
	}
	case OP2_BPR: /* rcond in bits 27:25 (V9 A.3) */
		r = (int64_t)vals[0];
		switch ((w >> 25) & 7) {
		case 1: return r == 0;
		case 2: return r <= 0;
		case 3: return r < 0;
		case 5: return r != 0;
		case 6: return r > 0;
		case 7: return r >= 0;
		default: return -1; /* reserved */
		}
	default:
		return -1;
	}
}

const struct hvpmu_isa hvpmu_isa_sparcv9 = {
	.name = "sparcv9",
	.elf_class = ELFCLASS64,
	.elf_data = ELFDATA2MSB,
	.elf_machine = EM_SPARCV9,
	.qemu_target = "sparc64",
	.qemu_user = "qemu-sparc64",
	.qemu_reserved_va = "0x10000000000", /* 1 TiB */
	.sysroot = "/usr/sparc64-linux-gnu",
	.insn_bytes = SPARC_INSN_BYTES,
	.big_endian = 1,
	.delay_slot = 1,
	.restarts = hvpmu_sparc_restarts,
	.cond_regs = sparc_cond_regs,
	.cond_taken = sparc_cond_taken,
	.sc = {
		.exit = 1, .exit_group = 188, .read = 3, .write = 4,
		.fork = 2, .vfork = 66, .clone = 217, .clone3 = 435,
		.mmap = 71, .madvise = 75,
		/* unistd_64.h: __NR_mprotect 74, __NR_munmap 73, __NR_mremap 250 */
		.mprotect = 74, .munmap = 73, .mremap = 250,
		.execve = 59, .execveat = 350,
		/* Debian's linux-libc-dev-sparc64-cross,
		 * /usr/sparc64-linux-gnu/include/asm/unistd_64.h __NR_*: futex 142;
		 * read 3, readv 120, wait4 7, poll 153, ppoll 298, select 93,
		 * pselect6 297, epoll_wait 195, epoll_pwait 309, epoll_pwait2 441,
		 * _newselect 230 (the select glibc calls) */
		.futex = 142,
		.waits = { 3, 120, 7, 153, 298, 93, 297, 195, 309, 441, 230 },
		/* unistd_64.h: clock_gettime 257, gettimeofday 116, time 231,
		 * nanosleep 249, clock_nanosleep 259; asm/errno.h ETIMEDOUT 60;
		 * asm/posix_types.h: __kernel_suseconds_t is int on sparc64 */
		.clock_gettime = 257, .gettimeofday = 116, .time = 231, .nanosleep = 249, .clock_nanosleep = 259,
		.etimedout = 60, .timeval_usec_4 = 1,
	},
	.decode = sparc_decode,
	.prefetch_dest = sparc_prefetch_dest,
	.prefetch_resolve = hvpmu_prefetch_resolve,
};
