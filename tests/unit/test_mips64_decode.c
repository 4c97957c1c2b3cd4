/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_mips64_decode.c - unit tests for the MIPS64 instruction set behind
 * the ISA seam: the decoder (src/source/mips64_decode.c,
 * include/hvpmu/mips64_decode.h), the descriptor hvpmu_isa_mips64 and its
 * software-prefetch rules (src/source/isa_mips64.c), with the classes and
 * choices of docs/mips64-isa.md.
 *
 * Instruction words in the vector tables were produced by GNU as 2.40
 * (`mips64-linux-gnuabi64-as -march=mips64r2 -mabi=64 -EB`) and read back
 * with `mips64-linux-gnuabi64-objdump -d -M gpr-names=numeric`, whose text
 * is given beside each word; entries in square brackets are encodings the
 * assembler refuses, built from their fields.  Branch targets are given
 * relative to the branch.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hvpmu/isa.h"
#include "hvpmu/mips64_decode.h"

#define X_LD HVPMU_IC_LOAD
#define X_ST HVPMU_IC_STORE
#define X_FP HVPMU_IC_FP
#define X_BR HVPMU_IC_BRANCH
#define X_SPR HVPMU_IC_SPR
#define X_OTH HVPMU_IC_OTHER
#define X_LL HVPMU_IC_LOAD_LINKED
#define X_SC HVPMU_IC_STORE_COND
#define X_PF HVPMU_IC_PREFETCH
#define X_NTC HVPMU_IC_NTC
#define X_ILL HVPMU_IC_ILLEGAL
#define X_SYS HVPMU_IC_SYSCALL
#define X_COND HVPMU_IC_CTI_COND
#define X_ALW HVPMU_IC_CTI_ALWAYS
#define X_CALL HVPMU_IC_CALL
#define X_RET HVPMU_IC_RET
#define X_IND HVPMU_IC_INDIRECT

/* Every flag the MIPS64 decoder may set. */
#define MIPS_FLAGS ((uint32_t)(HVPMU_IC_GROUPS | X_LL | X_SC | X_PF | X_NTC | X_ILL | X_SYS | \
	X_COND | X_ALW | X_CALL | X_RET | X_IND))

/* Address the vectors are decoded at: inside a 256 MB region, so that J and
 * JAL keep its top bits. */
#define TEST_PC UINT64_C(0x0000000120000100)

struct vec {
	uint32_t word;
	uint32_t flags;
	uint8_t annul;
	uint8_t has_target;
	int64_t delta; /* target - pc */
	const char *text;
};

static const struct vec vec_loads_stores[] = {
	{ 0x80820008, X_LD, 0, 0, 0, "lb $2,8($4)" },
	{ 0x9082fff8, X_LD, 0, 0, 0, "lbu $2,-8($4)" },
	{ 0x84820002, X_LD, 0, 0, 0, "lh $2,2($4)" },
	{ 0x94820002, X_LD, 0, 0, 0, "lhu $2,2($4)" },
	{ 0x8c820004, X_LD, 0, 0, 0, "lw $2,4($4)" },
	{ 0x9c820004, X_LD, 0, 0, 0, "lwu $2,4($4)" },
	{ 0xdc820010, X_LD, 0, 0, 0, "ld $2,16($4)" },
	{ 0x88820001, X_LD, 0, 0, 0, "lwl $2,1($4)" },
	{ 0x98820004, X_LD, 0, 0, 0, "lwr $2,4($4)" },
	{ 0x68820001, X_LD, 0, 0, 0, "ldl $2,1($4)" },
	{ 0x6c820008, X_LD, 0, 0, 0, "ldr $2,8($4)" },
	{ 0xc0820000, X_LD | X_LL, 0, 0, 0, "ll $2,0($4)" },
	{ 0xd0820000, X_LD | X_LL, 0, 0, 0, "lld $2,0($4)" },
	{ 0xc4820004, X_LD, 0, 0, 0, "lwc1 $f2,4($4)" },
	{ 0xd4820008, X_LD, 0, 0, 0, "ldc1 $f2,8($4)" },
	{ 0x4c850080, X_LD, 0, 0, 0, "lwxc1 $f2,$5($4)" },
	{ 0x4c850081, X_LD, 0, 0, 0, "ldxc1 $f2,$5($4)" },
	{ 0x4c850085, X_LD, 0, 0, 0, "luxc1 $f2,$5($4)" },
	{ 0xa0820000, X_ST, 0, 0, 0, "sb $2,0($4)" },
	{ 0xa4820000, X_ST, 0, 0, 0, "sh $2,0($4)" },
	{ 0xac820000, X_ST, 0, 0, 0, "sw $2,0($4)" },
	{ 0xfc820000, X_ST, 0, 0, 0, "sd $2,0($4)" },
	{ 0xa8820000, X_ST, 0, 0, 0, "swl $2,0($4)" },
	{ 0xb8820000, X_ST, 0, 0, 0, "swr $2,0($4)" },
	{ 0xb0820000, X_ST, 0, 0, 0, "sdl $2,0($4)" },
	{ 0xb4820000, X_ST, 0, 0, 0, "sdr $2,0($4)" },
	{ 0xe0820000, X_ST | X_SC, 0, 0, 0, "sc $2,0($4)" },
	{ 0xf0820000, X_ST | X_SC, 0, 0, 0, "scd $2,0($4)" },
	{ 0xe4820000, X_ST, 0, 0, 0, "swc1 $f2,0($4)" },
	{ 0xf4820000, X_ST, 0, 0, 0, "sdc1 $f2,0($4)" },
	{ 0x4c851008, X_ST, 0, 0, 0, "swxc1 $f2,$5($4)" },
	{ 0x4c851009, X_ST, 0, 0, 0, "sdxc1 $f2,$5($4)" },
	{ 0x4c85100d, X_ST, 0, 0, 0, "suxc1 $f2,$5($4)" },
	{ 0xcc800040, X_OTH | X_PF, 0, 0, 0, "pref 0x0,64($4)" },
	{ 0xcc81ffc0, X_OTH | X_PF, 0, 0, 0, "pref 0x1,-64($4)" },
	{ 0xcc040000, X_OTH | X_PF, 0, 0, 0, "pref 0x4,0($0)" },
	{ 0xcc9e0000, X_OTH | X_PF, 0, 0, 0, "pref 0x1e,0($4)" },
	{ 0x4c85000f, X_OTH | X_PF, 0, 0, 0, "prefx 0x0,$5($4)" },
	{ 0x4c85300f, X_OTH | X_PF, 0, 0, 0, "prefx 0x6,$5($4)" },
};

static const struct vec vec_fp[] = {
	{ 0x46041000, X_FP, 0, 0, 0, "add.s $f0,$f2,$f4" },
	{ 0x46241000, X_FP, 0, 0, 0, "add.d $f0,$f2,$f4" },
	{ 0x46c41000, X_FP, 0, 0, 0, "add.ps $f0,$f2,$f4" },
	{ 0x46241001, X_FP, 0, 0, 0, "sub.d $f0,$f2,$f4" },
	{ 0x46041002, X_FP, 0, 0, 0, "mul.s $f0,$f2,$f4" },
	{ 0x46241003, X_FP, 0, 0, 0, "div.d $f0,$f2,$f4" },
	{ 0x46201004, X_FP, 0, 0, 0, "sqrt.d $f0,$f2" },
	{ 0x46001005, X_FP, 0, 0, 0, "abs.s $f0,$f2" },
	{ 0x46201006, X_FP, 0, 0, 0, "mov.d $f0,$f2" },
	{ 0x46201007, X_FP, 0, 0, 0, "neg.d $f0,$f2" },
	{ 0x46201008, X_FP, 0, 0, 0, "round.l.d $f0,$f2" },
	{ 0x4600100d, X_FP, 0, 0, 0, "trunc.w.s $f0,$f2" },
	{ 0x4620100e, X_FP, 0, 0, 0, "ceil.w.d $f0,$f2" },
	{ 0x4600100b, X_FP, 0, 0, 0, "floor.l.s $f0,$f2" },
	{ 0x46201015, X_FP, 0, 0, 0, "recip.d $f0,$f2" },
	{ 0x46001016, X_FP, 0, 0, 0, "rsqrt.s $f0,$f2" },
	{ 0x46201020, X_FP, 0, 0, 0, "cvt.s.d $f0,$f2" },
	{ 0x46001021, X_FP, 0, 0, 0, "cvt.d.s $f0,$f2" },
	{ 0x46801021, X_FP, 0, 0, 0, "cvt.d.w $f0,$f2" },
	{ 0x46a01020, X_FP, 0, 0, 0, "cvt.s.l $f0,$f2" },
	{ 0x46201024, X_FP, 0, 0, 0, "cvt.w.d $f0,$f2" },
	{ 0x46001025, X_FP, 0, 0, 0, "cvt.l.s $f0,$f2" },
	{ 0x46041026, X_FP, 0, 0, 0, "cvt.ps.s $f0,$f2,$f4" },
	{ 0x46c01028, X_FP, 0, 0, 0, "cvt.s.pl $f0,$f2" },
	{ 0x46c01020, X_FP, 0, 0, 0, "cvt.s.pu $f0,$f2" },
	{ 0x46c4102c, X_FP, 0, 0, 0, "pll.ps $f0,$f2,$f4" },
	{ 0x46c4102f, X_FP, 0, 0, 0, "puu.ps $f0,$f2,$f4" },
	{ 0x46241032, X_FP, 0, 0, 0, "c.eq.d $f2,$f4" },
	{ 0x4604113c, X_FP, 0, 0, 0, "c.lt.s $fcc1,$f2,$f4" },
	{ 0x4624103f, X_FP, 0, 0, 0, "c.ngt.d $f2,$f4" },
	{ 0x46201011, X_FP, 0, 0, 0, "movf.d $f0,$f2,$fcc0" },
	{ 0x46091011, X_FP, 0, 0, 0, "movt.s $f0,$f2,$fcc2" },
	{ 0x46231012, X_FP, 0, 0, 0, "movz.d $f0,$f2,$3" },
	{ 0x46031013, X_FP, 0, 0, 0, "movn.s $f0,$f2,$3" },
	{ 0x4c462021, X_FP, 0, 0, 0, "madd.d $f0,$f2,$f4,$f6" },
	{ 0x4c462028, X_FP, 0, 0, 0, "msub.s $f0,$f2,$f4,$f6" },
	{ 0x4c462031, X_FP, 0, 0, 0, "nmadd.d $f0,$f2,$f4,$f6" },
	{ 0x4c46203e, X_FP, 0, 0, 0, "nmsub.ps $f0,$f2,$f4,$f6" },
	{ 0x4c64101e, X_FP, 0, 0, 0, "alnv.ps $f0,$f2,$f4,$3" },
	{ 0x44021000, X_FP, 0, 0, 0, "mfc1 $2,$f2" },
	{ 0x44221000, X_FP, 0, 0, 0, "dmfc1 $2,$f2" },
	{ 0x44821000, X_FP, 0, 0, 0, "mtc1 $2,$f2" },
	{ 0x44a21000, X_FP, 0, 0, 0, "dmtc1 $2,$f2" },
	{ 0x4442f800, X_FP, 0, 0, 0, "cfc1 $2,c1_fcsr" },
	{ 0x44c2f800, X_FP, 0, 0, 0, "ctc1 $2,c1_fcsr" },
	{ 0x44621000, X_FP, 0, 0, 0, "mfhc1 $2,$f2" },
	{ 0x44e21000, X_FP, 0, 0, 0, "mthc1 $2,$f2" },
};

static const struct vec vec_other_spr[] = {
	{ 0x00641021, X_OTH, 0, 0, 0, "addu $2,$3,$4" },
	{ 0x0064102d, X_OTH, 0, 0, 0, "daddu $2,$3,$4" },
	{ 0x2462ffff, X_OTH, 0, 0, 0, "addiu $2,$3,-1" },
	{ 0x64620001, X_OTH, 0, 0, 0, "daddiu $2,$3,1" },
	{ 0x3c021234, X_OTH, 0, 0, 0, "lui $2,0x1234" },
	{ 0x346200ff, X_OTH, 0, 0, 0, "ori $2,$3,0xff" },
	{ 0x0064102a, X_OTH, 0, 0, 0, "slt $2,$3,$4" },
	{ 0x2c620005, X_OTH, 0, 0, 0, "sltiu $2,$3,5" },
	{ 0x00031100, X_OTH, 0, 0, 0, "sll $2,$3,0x4" },
	{ 0x00000000, X_OTH, 0, 0, 0, "nop" },
	{ 0x00000040, X_OTH, 0, 0, 0, "ssnop" },
	{ 0x000000c0, X_OTH, 0, 0, 0, "ehb" },
	{ 0x00000140, X_OTH, 0, 0, 0, "pause" },
	{ 0x00031102, X_OTH, 0, 0, 0, "srl $2,$3,0x4" },
	{ 0x00231102, X_OTH, 0, 0, 0, "ror $2,$3,0x4" },
	{ 0x00831006, X_OTH, 0, 0, 0, "srlv $2,$3,$4" },
	{ 0x00831046, X_OTH, 0, 0, 0, "rorv $2,$3,$4" },
	{ 0x0003113a, X_OTH, 0, 0, 0, "dsrl $2,$3,0x4" },
	{ 0x0023113a, X_OTH, 0, 0, 0, "dror $2,$3,0x4" },
	{ 0x0003113e, X_OTH, 0, 0, 0, "dsrl32 $2,$3,0x4" },
	{ 0x0023113e, X_OTH, 0, 0, 0, "dror32 $2,$3,0x4" },
	{ 0x00831016, X_OTH, 0, 0, 0, "dsrlv $2,$3,$4" },
	{ 0x00831056, X_OTH, 0, 0, 0, "drorv $2,$3,$4" },
	{ 0x0003107c, X_OTH, 0, 0, 0, "dsll32 $2,$3,0x1" },
	{ 0x0003107b, X_OTH, 0, 0, 0, "dsra $2,$3,0x1" },
	{ 0x00640018, X_OTH, 0, 0, 0, "mult $3,$4" },
	{ 0x0064001d, X_OTH, 0, 0, 0, "dmultu $3,$4" },
	{ 0x0064001e, X_OTH, 0, 0, 0, "ddiv $0,$3,$4" },
	{ 0x00001010, X_OTH, 0, 0, 0, "mfhi $2" },
	{ 0x00001012, X_OTH, 0, 0, 0, "mflo $2" },
	{ 0x00400011, X_OTH, 0, 0, 0, "mthi $2" },
	{ 0x0064100a, X_OTH, 0, 0, 0, "movz $2,$3,$4" },
	{ 0x0064100b, X_OTH, 0, 0, 0, "movn $2,$3,$4" },
	{ 0x00601001, X_OTH, 0, 0, 0, "movf $2,$3,$fcc0" },
	{ 0x00651001, X_OTH, 0, 0, 0, "movt $2,$3,$fcc1" },
	{ 0x70641002, X_OTH, 0, 0, 0, "mul $2,$3,$4" },
	{ 0x70640000, X_OTH, 0, 0, 0, "madd $3,$4" },
	{ 0x70621020, X_OTH, 0, 0, 0, "clz $2,$3" },
	{ 0x70621024, X_OTH, 0, 0, 0, "dclz $2,$3" },
	{ 0x7c623900, X_OTH, 0, 0, 0, "ext $2,$3,0x4,0x8" },
	{ 0x7c623903, X_OTH, 0, 0, 0, "dext $2,$3,0x4,0x8" },
	{ 0x7c625907, X_OTH, 0, 0, 0, "dins $2,$3,0x4,0x8" },
	{ 0x7c0310a0, X_OTH, 0, 0, 0, "wsbh $2,$3" },
	{ 0x7c031420, X_OTH, 0, 0, 0, "seb $2,$3" },
	{ 0x7c031620, X_OTH, 0, 0, 0, "seh $2,$3" },
	{ 0x7c0310a4, X_OTH, 0, 0, 0, "dsbh $2,$3" },
	{ 0x7c031164, X_OTH, 0, 0, 0, "dshd $2,$3" },
	{ 0x0000000c, X_OTH | X_SYS, 0, 0, 0, "syscall" },
	{ 0x0007000d, X_OTH, 0, 0, 0, "break 0x7" },
	{ 0x7000003f, X_OTH, 0, 0, 0, "sdbbp" },
	{ 0x0000000f, X_OTH | X_NTC, 0, 0, 0, "sync" },
	{ 0x0000040f, X_OTH | X_NTC, 0, 0, 0, "sync_mb" },
	{ 0x006001f4, X_OTH, 0, 0, 0, "teq $3,$0,0x7" },
	{ 0x00640036, X_OTH, 0, 0, 0, "tne $3,$4" },
	{ 0x04680005, X_OTH, 0, 0, 0, "tgei $3,5" },
	{ 0x049f0000, X_OTH, 0, 0, 0, "synci 0($4)" },
	{ 0x7c03e83b, X_SPR, 0, 0, 0, "rdhwr $3,$29" },
	{ 0x40026000, X_SPR, 0, 0, 0, "mfc0 $2,c0_status" },
	{ 0x40227000, X_SPR, 0, 0, 0, "dmfc0 $2,c0_epc" },
	{ 0x40826000, X_SPR, 0, 0, 0, "mtc0 $2,c0_status" },
	{ 0x40a27000, X_SPR, 0, 0, 0, "dmtc0 $2,c0_epc" },
	{ 0x42000001, X_SPR, 0, 0, 0, "tlbr" },
	{ 0x42000002, X_SPR, 0, 0, 0, "tlbwi" },
	{ 0x42000006, X_SPR, 0, 0, 0, "tlbwr" },
	{ 0x42000008, X_SPR, 0, 0, 0, "tlbp" },
	{ 0x42000018, X_SPR, 0, 0, 0, "eret" },
	{ 0x42000020, X_SPR, 0, 0, 0, "wait" },
	{ 0x41626000, X_SPR, 0, 0, 0, "di $2" },
	{ 0x41606020, X_SPR, 0, 0, 0, "ei" },
	{ 0xbc940000, X_SPR, 0, 0, 0, "cache 0x14,0($4)" },
};

/* Branches: assembled at offset 0 of a block; `delta` is target - pc. */
static const struct vec vec_branches[] = {
	{ 0x1000003f, X_BR | X_ALW, 0, 1, 0x100, "b 100 (beq $0,$0)" },
	{ 0x0411003d, X_BR | X_ALW | X_CALL, 0, 1, 0xf8, "bal 100 (bgezal $0)" },
	{ 0x1064003b, X_BR | X_COND, 0, 1, 0xf0, "beq $3,$4,100" },
	{ 0x14640039, X_BR | X_COND, 0, 1, 0xe8, "bne $3,$4,100" },
	{ 0x10630037, X_BR | X_ALW, 0, 1, 0xe0, "beq $3,$3,100" },
	{ 0x14630035, X_BR, 0, 1, 0xd8, "bne $3,$3,100 (never taken)" },
	{ 0x18600033, X_BR | X_COND, 0, 1, 0xd0, "blez $3,100" },
	{ 0x18000031, X_BR | X_ALW, 0, 1, 0xc8, "blez $0,100" },
	{ 0x1c60002f, X_BR | X_COND, 0, 1, 0xc0, "bgtz $3,100" },
	{ 0x1c00002d, X_BR, 0, 1, 0xb8, "bgtz $0,100 (never taken)" },
	{ 0x0460002b, X_BR | X_COND, 0, 1, 0xb0, "bltz $3,100" },
	{ 0x04000029, X_BR, 0, 1, 0xa8, "bltz $0,100 (never taken)" },
	{ 0x04610027, X_BR | X_COND, 0, 1, 0xa0, "bgez $3,100" },
	{ 0x04010025, X_BR | X_ALW, 0, 1, 0x98, "b 100 (bgez $0)" },
	{ 0x04700023, X_BR | X_COND | X_CALL, 0, 1, 0x90, "bltzal $3,100" },
	{ 0x04100021, X_BR | X_CALL, 0, 1, 0x88, "bltzal $0,100 (never taken, links)" },
	{ 0x0471001f, X_BR | X_COND | X_CALL, 0, 1, 0x80, "bgezal $3,100" },
	{ 0x5064001d, X_BR | X_COND, 1, 1, 0x78, "beql $3,$4,100" },
	{ 0x5000001b, X_BR | X_ALW, 1, 1, 0x70, "beqzl $0,100" },
	{ 0x54640019, X_BR | X_COND, 1, 1, 0x68, "bnel $3,$4,100" },
	{ 0x54630017, X_BR, 1, 1, 0x60, "bnel $3,$3,100 (never taken)" },
	{ 0x58600015, X_BR | X_COND, 1, 1, 0x58, "blezl $3,100" },
	{ 0x5c600013, X_BR | X_COND, 1, 1, 0x50, "bgtzl $3,100" },
	{ 0x04620011, X_BR | X_COND, 1, 1, 0x48, "bltzl $3,100" },
	{ 0x0463000f, X_BR | X_COND, 1, 1, 0x40, "bgezl $3,100" },
	{ 0x0472000d, X_BR | X_COND | X_CALL, 1, 1, 0x38, "bltzall $3,100" },
	{ 0x0473000b, X_BR | X_COND | X_CALL, 1, 1, 0x30, "bgezall $3,100" },
	{ 0x04130009, X_BR | X_ALW | X_CALL, 1, 1, 0x28, "bgezall $0,100" },
	{ 0x45000007, X_BR | X_COND, 0, 1, 0x20, "bc1f 100" },
	{ 0x450d0005, X_BR | X_COND, 0, 1, 0x18, "bc1t $fcc3,100" },
	{ 0x45020003, X_BR | X_COND, 1, 1, 0x10, "bc1fl 100" },
	{ 0x45030001, X_BR | X_COND, 1, 1, 0x08, "bc1tl 100" },
	{ 0x10640000, X_BR | X_COND, 0, 1, 0x04, "beq $3,$4,.+4" },
	{ 0x1060ffff, X_BR | X_COND, 0, 1, 0x00, "beqz $3,. (offset -1)" },
	{ 0x1460fff1, X_BR | X_COND, 0, 1, -0x38, "bnez $3,.+4-0x3c" },
	{ 0x10008000, X_BR | X_ALW, 0, 1, 4 - 0x20000, "b .+4-0x20000 (most negative)" },
	{ 0x10007fff, X_BR | X_ALW, 0, 1, 4 + 0x1fffc, "b .+4+0x1fffc (most positive)" },
	{ 0x03e00008, X_BR | X_ALW | X_RET | X_IND, 0, 0, 0, "jr $31" },
	{ 0x03200008, X_BR | X_ALW | X_IND, 0, 0, 0, "jr $25" },
	{ 0x03e00408, X_BR | X_ALW | X_RET | X_IND, 0, 0, 0, "jr.hb $31" },
	{ 0x0320f809, X_BR | X_ALW | X_CALL | X_IND, 0, 0, 0, "jalr $25" },
	{ 0x03201009, X_BR | X_ALW | X_IND, 0, 0, 0, "jalr $2,$25" },
	{ 0x03e00009, X_BR | X_ALW | X_IND, 0, 0, 0, "jalr $0,$31" },
	{ 0x0320fc09, X_BR | X_ALW | X_CALL | X_IND, 0, 0, 0, "jalr.hb $25" },
};

/* Encodings no instruction of MIPS IV / MIPS64 R2 has (built from fields). */
static const struct vec vec_undefined[] = {
	{ 0x48000000, X_OTH | X_ILL, 0, 0, 0, "[COP2 mfc2]" },
	{ 0xc8820000, X_OTH | X_ILL, 0, 0, 0, "[lwc2 $2,0($4)]" },
	{ 0xd8820000, X_OTH | X_ILL, 0, 0, 0, "[ldc2]" },
	{ 0xe8820000, X_OTH | X_ILL, 0, 0, 0, "[swc2]" },
	{ 0xf8820000, X_OTH | X_ILL, 0, 0, 0, "[sdc2]" },
	{ 0xec000000, X_OTH | X_ILL, 0, 0, 0, "[opcode 0x3b]" },
	{ 0x74000000, X_OTH | X_ILL, 0, 0, 0, "[jalx (MIPS16)]" },
	{ 0x78000000, X_OTH | X_ILL, 0, 0, 0, "[opcode 0x1e (MDMX/MSA)]" },
	{ 0x00000005, X_OTH | X_ILL, 0, 0, 0, "[SPECIAL 0x05 (R6 lsa)]" },
	{ 0x0000000e, X_OTH | X_ILL, 0, 0, 0, "[SPECIAL 0x0e]" },
	{ 0x00000028, X_OTH | X_ILL, 0, 0, 0, "[SPECIAL 0x28]" },
	{ 0x00000035, X_OTH | X_ILL, 0, 0, 0, "[SPECIAL 0x35]" },
	{ 0x00431102, X_OTH | X_ILL, 0, 0, 0, "[srl with rs = 2]" },
	{ 0x00831086, X_OTH | X_ILL, 0, 0, 0, "[srlv with sa = 2]" },
	{ 0x04040000, X_OTH | X_ILL, 0, 0, 0, "[REGIMM rt = 4]" },
	{ 0x041c0000, X_OTH | X_ILL, 0, 0, 0, "[REGIMM rt = 0x1c (DSP bposge32)]" },
	{ 0x40400000, X_OTH | X_ILL, 0, 0, 0, "[COP0 rs = 2]" },
	{ 0x42000003, X_OTH | X_ILL, 0, 0, 0, "[COP0 CO function 3]" },
	{ 0x45200000, X_OTH | X_ILL, 0, 0, 0, "[bc1any2f (MIPS-3D)]" },
	{ 0x46441000, X_OTH | X_ILL, 0, 0, 0, "[COP1 fmt 0x12]" },
	{ 0x46841000, X_OTH | X_ILL, 0, 0, 0, "[add.w: ADD for fmt W]" },
	{ 0x46c41003, X_OTH | X_ILL, 0, 0, 0, "[div.ps]" },
	{ 0x46001020, X_OTH | X_ILL, 0, 0, 0, "[cvt.s.s]" },
	{ 0x46041072, X_OTH | X_ILL, 0, 0, 0, "[cabs.eq.s (MIPS-3D)]" },
	{ 0x46001017, X_OTH | X_ILL, 0, 0, 0, "[COP1 S function 0x17]" },
	{ 0x4c000002, X_OTH | X_ILL, 0, 0, 0, "[COP1X function 2]" },
	{ 0x70000003, X_OTH | X_ILL, 0, 0, 0, "[SPECIAL2 function 3]" },
	{ 0x7c000008, X_OTH | X_ILL, 0, 0, 0, "[SPECIAL3 function 8 (MT)]" },
	{ 0x7c031060, X_OTH | X_ILL, 0, 0, 0, "[BSHFL sa = 1]" },
	{ 0x7c031124, X_OTH | X_ILL, 0, 0, 0, "[DBSHFL sa = 4]" },
};

static uint32_t decode(uint32_t w, uint64_t pc, struct hvpmu_insn *d)
{
	uint32_t f;

	memset(d, 0xa5, sizeof(*d));
	f = hvpmu_mips64_decode(w, pc, d);
	assert_int_equal(f, d->flags);
	return f;
}

static void check_vectors(const struct vec *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct hvpmu_insn d;
		uint32_t f = decode(v[i].word, TEST_PC, &d);

		if (f != v[i].flags || d.annul != v[i].annul || d.has_target != v[i].has_target ||
		    d.uops != 1 || (d.has_target && d.target != TEST_PC + (uint64_t)v[i].delta) ||
		    (!d.has_target && d.target != 0))
			fail_msg("%08x %s: flags %#x (want %#x) annul %u has_target %u target %#llx (want pc%+lld)",
				 v[i].word, v[i].text, f, v[i].flags, d.annul, d.has_target,
				 (unsigned long long)d.target, (long long)v[i].delta);
	}
}

#define N_OF(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))
#define CHECK(tab) check_vectors((tab), sizeof(tab) / sizeof((tab)[0]))

static void test_loads_stores(void **state)
{
	(void)state;
	CHECK(vec_loads_stores);
}

static void test_fp(void **state)
{
	(void)state;
	CHECK(vec_fp);
}

static void test_other_spr(void **state)
{
	(void)state;
	CHECK(vec_other_spr);
}

static void test_branches(void **state)
{
	(void)state;
	CHECK(vec_branches);
}

static void test_undefined(void **state)
{
	(void)state;
	CHECK(vec_undefined);
}

/* J / JAL: ((pc + 4) & ~0x0fffffff) | instr_index << 2 -- the region of the
 * delay slot, also when the jump is the last word of a region. */
static void test_region_jumps(void **state)
{
	struct hvpmu_insn d;

	(void)state;
	decode(0x08000400, UINT64_C(0x0000000120000108), &d); /* j 0x120001000 */
	assert_true(d.has_target);
	assert_int_equal(d.target, UINT64_C(0x0000000120001000));
	assert_int_equal(d.flags, X_BR | X_ALW);
	decode(0x0c000800, UINT64_C(0x0000000120000110), &d); /* jal 0x120002000 */
	assert_int_equal(d.target, UINT64_C(0x0000000120002000));
	assert_int_equal(d.flags, X_BR | X_ALW | X_CALL);
	/* the jump in the last slot of a region: its delay slot starts the next */
	decode(0x0bffffff, UINT64_C(0x000000012ffffffc), &d);
	assert_int_equal(d.target, UINT64_C(0x000000013ffffffc));
	/* 64-bit addresses keep their upper 36 bits */
	decode(0x08000001, UINT64_C(0xffffffff80000000), &d);
	assert_int_equal(d.target, UINT64_C(0xffffffff80000004));
	/* PC-relative branches wrap modulo 2^64 */
	decode(0x1000fffe, UINT64_C(0), &d); /* b .-4 at 0 */
	assert_int_equal(d.target, UINT64_MAX - 3);
}

/* Every branch-likely opcode has annul = 1, every other branch 0, whatever
 * the registers. */
static void test_annul_all_forms(void **state)
{
	static const uint32_t likely[] = {
		0x50000000, 0x54000000, 0x58000000, 0x5c000000, /* BEQL BNEL BLEZL BGTZL */
		0x04020000, 0x04030000, 0x04120000, 0x04130000, /* BLTZL BGEZL BLTZALL BGEZALL */
		0x45020000, 0x45030000,                         /* BC1FL BC1TL */
	};
	static const uint32_t plain[] = {
		0x10000000, 0x14000000, 0x18000000, 0x1c000000, /* BEQ BNE BLEZ BGTZ */
		0x04000000, 0x04010000, 0x04100000, 0x04110000, /* BLTZ BGEZ BLTZAL BGEZAL */
		0x45000000, 0x45010000,                         /* BC1F BC1T */
	};
	enum { N_FORMS = sizeof likely / sizeof likely[0] };
	struct hvpmu_insn d;

	(void)state;
	_Static_assert(sizeof plain == sizeof likely, "one plain form per likely form");
	for (uint32_t regs = 0; regs < 1024; regs++) { /* rs, rt in 0..31 */
		for (size_t i = 0; i < 2 * N_FORMS; i++) {
			uint32_t w = i < N_FORMS ? likely[i] : plain[i - N_FORMS];
			uint32_t op = w >> 26;

			if (op == 0x11) /* BC1: the condition code, bits 20:18 */
				w |= (regs & 7u) << 18;
			else if (op == 0x01) /* REGIMM: rs only */
				w |= (regs & 31u) << 21;
			else
				w |= regs << 16;
			decode(w | 0x8123u, TEST_PC, &d);
			assert_int_equal(d.annul, i < N_FORMS);
			assert_true(d.flags & X_BR);
			assert_true(d.has_target);
			assert_int_equal(d.target, TEST_PC + 4 - ((0x10000u - 0x8123u) << 2));
		}
	}
}

/* Deterministic generator for the samples (xorshift32). */
static uint32_t next_random(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

/* The invariants of hvpmu/insn.h and hvpmu/mips64_decode.h for one word. */
static void check_invariants(uint32_t w, uint64_t pc)
{
	struct hvpmu_insn d;
	uint32_t f = decode(w, pc, &d), g = f & HVPMU_IC_GROUPS;

	if (g == 0 || (g & (g - 1)) != 0 || (f & ~MIPS_FLAGS) != 0)
		fail_msg("%08x: flags %#x: not exactly one group", w, f);
	if (d.uops != 1)
		fail_msg("%08x: uops %u", w, d.uops);
	if ((f & X_ILL) && f != (X_OTH | X_ILL))
		fail_msg("%08x: undefined but %#x", w, f);
	if ((f & (X_COND | X_ALW | X_CALL | X_RET | X_IND)) && !(f & X_BR))
		fail_msg("%08x: CTI flags %#x outside BRANCH", w, f);
	if ((f & X_COND) && (f & X_ALW))
		fail_msg("%08x: both COND and ALWAYS", w);
	if ((f & (X_RET | X_IND)) && !(f & X_ALW))
		fail_msg("%08x: indirect but not always taken", w);
	if ((f & X_RET) && (f & X_CALL))
		fail_msg("%08x: call and return", w);
	if (d.has_target > 1 || (d.has_target && !(f & X_BR)) || (!d.has_target && d.target != 0))
		fail_msg("%08x: target %u %#llx", w, d.has_target, (unsigned long long)d.target);
	if (d.annul > 1 || (d.annul && !d.has_target))
		fail_msg("%08x: annul %u", w, d.annul);
	if ((f & X_BR) && !(f & X_IND) && !d.has_target)
		fail_msg("%08x: direct branch without a target", w);
	if (((f & (X_LL | X_SC | X_PF | X_SYS | X_NTC)) != 0) &&
	    !((f & X_LL) ? (f & X_LD) : (f & X_SC) ? (f & X_ST) : (f & X_OTH)))
		fail_msg("%08x: property %#x in the wrong group", w, f);
}

/* Every major opcode x function x rs x rt (the fields that select an
 * instruction), with random remaining fields, and a random sample. */
static void test_partition(void **state)
{
	uint32_t seed = 0x2545f491u;
	uint32_t groups = 0;

	(void)state;
	for (uint32_t op = 0; op < 64; op++)
		for (uint32_t fn = 0; fn < 64; fn++)
			for (uint32_t rsrt = 0; rsrt < 1024; rsrt++) {
				uint32_t w = op << 26 | rsrt << 16 | (next_random(&seed) & 0xffc0u) | fn;
				struct hvpmu_insn d;

				check_invariants(w, (uint64_t)next_random(&seed) << 2);
				groups |= decode(w, 0, &d) & HVPMU_IC_GROUPS;
			}
	for (uint32_t k = 0; k < (1u << 20); k++)
		check_invariants(next_random(&seed), (uint64_t)next_random(&seed) << 32 | next_random(&seed));
	assert_int_equal(groups, HVPMU_IC_GROUPS); /* every group occurs */
}

/* Operands: the address forms, donors and register writes of the prefetch
 * recovery rule. */
static void test_operands(void **state)
{
	struct hvpmu_mips64_operands o;

	(void)state;
	hvpmu_mips64_operands(0xdc820010, &o); /* ld $2,16($4) */
	assert_int_equal(o.form, HVPMU_MA_IMM);
	assert_int_equal(o.base, 4);
	assert_int_equal(o.offset, 16);
	assert_true(o.donor);
	assert_int_equal(o.writes, 1u << 2);
	hvpmu_mips64_operands(0x9082fff8, &o); /* lbu $2,-8($4) */
	assert_int_equal(o.offset, -8);
	hvpmu_mips64_operands(0xcc81ffc0, &o); /* pref 0x1,-64($4) */
	assert_true(o.prefetch);
	assert_int_equal(o.hint, 1);
	assert_int_equal(o.offset, -64);
	assert_false(o.donor);
	assert_int_equal(o.writes, 0);
	hvpmu_mips64_operands(0x4c85300f, &o); /* prefx 0x6,$5($4) */
	assert_int_equal(o.form, HVPMU_MA_REG);
	assert_int_equal(o.base, 4);
	assert_int_equal(o.index, 5);
	assert_int_equal(o.hint, 6);
	hvpmu_mips64_operands(0x4cc50081, &o); /* ldxc1 $f2,$5($6) */
	assert_int_equal(o.form, HVPMU_MA_REG);
	assert_true(o.donor);
	assert_int_equal(o.writes, 0);
	/* not donors: QEMU reports another address, or none */
	hvpmu_mips64_operands(0x88820001, &o); /* lwl */
	assert_false(o.donor);
	hvpmu_mips64_operands(0xe0820000, &o); /* sc writes rt */
	assert_false(o.donor);
	assert_int_equal(o.writes, 1u << 2);
	hvpmu_mips64_operands(0x4c850085, &o); /* luxc1 */
	assert_false(o.donor);
	/* writes */
	hvpmu_mips64_operands(0x0c000800, &o); /* jal */
	assert_int_equal(o.writes, 1u << 31);
	assert_true(o.cti);
	assert_false(o.likely);
	hvpmu_mips64_operands(0x03201009, &o); /* jalr $2,$25 */
	assert_int_equal(o.writes, 1u << 2);
	hvpmu_mips64_operands(0x04100021, &o); /* bltzal $0: never taken, still links */
	assert_int_equal(o.writes, 1u << 31);
	assert_false(o.cti);
	hvpmu_mips64_operands(0x5064001d, &o); /* beql */
	assert_true(o.cti);
	assert_true(o.likely);
	hvpmu_mips64_operands(0x0000000c, &o); /* syscall */
	assert_int_equal(o.writes, ~1u);
	hvpmu_mips64_operands(0x48000000, &o); /* undefined */
	assert_int_equal(o.writes, ~1u);
	hvpmu_mips64_operands(0x00640018, &o); /* mult: HI/LO only */
	assert_int_equal(o.writes, 0);
	hvpmu_mips64_operands(0x00001010, &o); /* mfhi $2 */
	assert_int_equal(o.writes, 1u << 2);
	hvpmu_mips64_operands(0x7c03e83b, &o); /* rdhwr $3,$29 */
	assert_int_equal(o.writes, 1u << 3);
	hvpmu_mips64_operands(0x44021000, &o); /* mfc1 $2 */
	assert_int_equal(o.writes, 1u << 2);
	hvpmu_mips64_operands(0x00000000, &o); /* nop writes $0: nothing */
	assert_int_equal(o.writes, 0);
}

static void test_descriptor(void **state)
{
	const struct hvpmu_isa *isa = hvpmu_isa_by_name("mips64");

	(void)state;
	assert_ptr_equal(isa, &hvpmu_isa_mips64);
	assert_string_equal(isa->name, "mips64");
	assert_int_equal(isa->elf_class, 2);
	assert_int_equal(isa->elf_data, 2);
	assert_int_equal(isa->elf_machine, 8);
	assert_string_equal(isa->qemu_target, "mips64");
	assert_string_equal(isa->qemu_user, "qemu-mips64");
	assert_string_equal(isa->sysroot, "/usr/mips64-linux-gnuabi64");
	assert_int_equal(isa->insn_bytes, 4);
	assert_int_equal(isa->big_endian, 1);
	assert_int_equal(isa->delay_slot, 1);
	/* syscall_n64.tbl, base 5000 */
	assert_int_equal(isa->sc.read, 5000);
	assert_int_equal(isa->sc.write, 5001);
	assert_int_equal(isa->sc.mmap, 5009);
	assert_int_equal(isa->sc.madvise, 5027);
	assert_int_equal(isa->sc.clone, 5055);
	assert_int_equal(isa->sc.fork, 5056);
	assert_int_equal(isa->sc.exit, 5058);
	assert_int_equal(isa->sc.exit_group, 5205);
	assert_int_equal(isa->sc.clone3, 5435);
	assert_int_equal(isa->sc.vfork, -1);
	assert_ptr_equal(isa->decode, hvpmu_mips64_decode);
	assert_non_null(isa->prefetch_dest);
	assert_non_null(isa->prefetch_resolve);
	/* the word order of the seam: big-endian */
	static const uint8_t code[4] = { 0x03, 0xe0, 0x00, 0x08 }; /* jr $ra */
	assert_int_equal(hvpmu_isa_word(isa, code), 0x03e00008u);
	assert_ptr_equal(hvpmu_isa_by_name("sparcv9"), &hvpmu_isa_sparcv9);
}

/* PREF / PREFX hints: the MIPS IV hints to the L1 (R10000: primary and
 * secondary caches), the rest no memory effect. */
static void test_prefetch_dest(void **state)
{
	const struct hvpmu_isa *isa = &hvpmu_isa_mips64;

	(void)state;
	for (uint32_t hint = 0; hint < 32; hint++) {
		enum hvpmu_pf_dest want = (hint <= 1 || (hint >= 4 && hint <= 7)) ? HVPMU_PF_L1 : HVPMU_PF_NONE;

		assert_int_equal(isa->prefetch_dest(0xcc800000u | hint << 16), want); /* pref hint,0($4) */
		assert_int_equal(isa->prefetch_dest(0x4c85000fu | hint << 11), want); /* prefx hint,$5($4) */
	}
	assert_int_equal(isa->prefetch_dest(0xdc820010), HVPMU_PF_NONE); /* ld: no prefetch */
}

/* Words of one translation block for the recovery rule (objdump of
 * `mips64-linux-gnuabi64-as -march=mips64r2`, offsets in the comments). */
#define LD_2_0_4 0xdc820000u     /* ld $2,0($4) */
#define PREF_0_256_4 0xcc800100u /* pref 0,256($4) */
#define DADDIU_4_4_8 0x64840008u /* daddiu $4,$4,8 */
#define LD_2_16_4 0xdc820010u    /* ld $2,16($4) */
#define LD_4_0_4 0xdc840000u     /* ld $4,0($4) */
#define PREF_1_64_5 0xcca10040u  /* pref 1,64($5) */
#define SD_2_32_5 0xfca20020u    /* sd $2,32($5) */
#define PREFX_6_5 0x4ca6000fu    /* prefx 0,$6($5) */
#define LDXC1_5_6 0x4cc50081u    /* ldxc1 $f2,$5($6) */
#define PREF_0_128_0 0xcc000080u /* pref 0,128($0) */
#define PREFX_0_0 0x4c00200fu    /* prefx 4,$0($0) */
#define PREFX_0_5 0x4ca0000fu    /* prefx 0,$0($5) */
#define LW_3_8_5 0x8ca30008u     /* lw $3,8($5) */
#define BNEZ_3 0x1460fff1u       /* bnez $3,... */
#define LW_3_4_7 0x8ce30004u     /* lw $3,4($7) */
#define PREF_0_64_7 0xcce00040u  /* pref 0,64($7) */
#define BEQZL_3 0x5060ffeeu      /* beqzl $3,... */
#define PREF_0_64_8 0xcd000040u  /* pref 0,64($8) */
#define LW_3_4_8 0x8d030004u     /* lw $3,4($8) */
#define JAL_0 0x0c000000u        /* jal ... */
#define PREF_0_64_31 0xcfe00040u /* pref 0,64($31) */
#define LWL_2_0_9 0x89220000u    /* lwl $2,0($9) */
#define SC_2_0_9 0xe1220000u     /* sc $2,0($9) */
#define LWU_2_0_9 0x9d220000u    /* lwu $2,0($9) */
#define PREF_0_0_9 0xcd200000u   /* pref 0,0($9) */
#define SYSCALL 0x0000000cu
#define NOP 0x00000000u

static struct hvpmu_pf_link resolve(const uint32_t *w, uint32_t n, uint32_t i)
{
	struct hvpmu_pf_link l;
	enum hvpmu_pf_how how = hvpmu_isa_mips64.prefetch_resolve(w, n, i, &l);

	assert_int_equal(how, l.how);
	return l;
}

static void test_prefetch_resolve(void **state)
{
	struct hvpmu_pf_link l;

	(void)state;
	{ /* earlier donor, same base: delta = 256 - 0 */
		const uint32_t b[] = { LD_2_0_4, PREF_0_256_4 };
		l = resolve(b, N_OF(b), 1);
		assert_int_equal(l.how, HVPMU_PF_BEFORE);
		assert_int_equal(l.donor, 0);
		assert_int_equal(l.delta, 256);
	}
	{ /* the base changes in between: the later donor, delta 256 - 16 */
		const uint32_t b[] = { LD_2_0_4, DADDIU_4_4_8, PREF_0_256_4, LD_2_16_4 };
		l = resolve(b, N_OF(b), 2);
		assert_int_equal(l.how, HVPMU_PF_AFTER);
		assert_int_equal(l.donor, 3);
		assert_int_equal(l.delta, 240);
	}
	{ /* a donor that writes its own base is no earlier donor */
		const uint32_t b[] = { LD_4_0_4, PREF_0_256_4 };
		l = resolve(b, N_OF(b), 1);
		assert_int_equal(l.how, HVPMU_PF_UNRESOLVED);
	}
	{ /* nor a later one past a write to the base */
		const uint32_t b[] = { PREF_0_256_4, DADDIU_4_4_8, LD_2_16_4 };
		l = resolve(b, N_OF(b), 0);
		assert_int_equal(l.how, HVPMU_PF_UNRESOLVED);
	}
	{ /* a store donates too; the nearest earlier wins over a later one */
		const uint32_t b[] = { SD_2_32_5, LD_2_0_4, PREF_1_64_5, SD_2_32_5 };
		l = resolve(b, N_OF(b), 2);
		assert_int_equal(l.how, HVPMU_PF_BEFORE);
		assert_int_equal(l.donor, 0);
		assert_int_equal(l.delta, 32);
	}
	{ /* PREFX [$5 + $6] and LDXC1 [$6 + $5]: the same register pair */
		const uint32_t b[] = { PREFX_6_5, LDXC1_5_6 };
		l = resolve(b, N_OF(b), 0);
		assert_int_equal(l.how, HVPMU_PF_AFTER);
		assert_int_equal(l.donor, 1);
		assert_int_equal(l.delta, 0);
	}
	{ /* [$0 + 128] and [$0 + $0] need no donor */
		const uint32_t b[] = { PREF_0_128_0, PREFX_0_0 };
		l = resolve(b, N_OF(b), 0);
		assert_int_equal(l.how, HVPMU_PF_ABSOLUTE);
		assert_int_equal(l.delta, 128);
		l = resolve(b, N_OF(b), 1);
		assert_int_equal(l.how, HVPMU_PF_ABSOLUTE);
		assert_int_equal(l.delta, 0);
	}
	{ /* PREFX [$5 + $0] is [$5 + 0]: LW 8($5) donates with delta -8 */
		const uint32_t b[] = { PREFX_0_5, LW_3_8_5 };
		l = resolve(b, N_OF(b), 0);
		assert_int_equal(l.how, HVPMU_PF_AFTER);
		assert_int_equal(l.delta, -8);
	}
	{ /* the delay slot of an ordinary branch always runs: it donates */
		const uint32_t b[] = { PREF_0_64_7, BNEZ_3, LW_3_4_7 };
		l = resolve(b, N_OF(b), 0);
		assert_int_equal(l.how, HVPMU_PF_AFTER);
		assert_int_equal(l.donor, 2);
		assert_int_equal(l.delta, 60);
	}
	{ /* but nothing after the delay slot */
		const uint32_t b[] = { PREF_0_64_7, BNEZ_3, NOP, LW_3_4_7 };
		l = resolve(b, N_OF(b), 0);
		assert_int_equal(l.how, HVPMU_PF_UNRESOLVED);
	}
	{ /* a branch-likely's delay slot may not run: no later donor there */
		const uint32_t b[] = { PREF_0_64_8, BEQZL_3, LW_3_4_8 };
		l = resolve(b, N_OF(b), 0);
		assert_int_equal(l.how, HVPMU_PF_UNRESOLVED);
	}
	{ /* a prefetch in a delay slot: earlier donors only */
		const uint32_t b[] = { LW_3_4_8, BEQZL_3, PREF_0_64_8, LW_3_4_8 };
		l = resolve(b, N_OF(b), 2);
		assert_int_equal(l.how, HVPMU_PF_BEFORE);
		assert_int_equal(l.donor, 0);
		const uint32_t c[] = { NOP, BEQZL_3, PREF_0_64_8, LW_3_4_8 };
		l = resolve(c, N_OF(c), 2);
		assert_int_equal(l.how, HVPMU_PF_UNRESOLVED);
	}
	{ /* JAL writes $31 before its delay slot runs */
		const uint32_t b[] = { JAL_0, PREF_0_64_31 };
		l = resolve(b, N_OF(b), 1);
		assert_int_equal(l.how, HVPMU_PF_UNRESOLVED);
	}
	{ /* LWL and SC are no donors (QEMU reports the aligned word, or no
	   access): the walk passes them to LWU */
		const uint32_t b[] = { LWU_2_0_9, LWL_2_0_9, SC_2_0_9, PREF_0_0_9 };
		l = resolve(b, N_OF(b), 3);
		assert_int_equal(l.how, HVPMU_PF_BEFORE);
		assert_int_equal(l.donor, 0);
		assert_int_equal(l.delta, 0);
		const uint32_t c[] = { LWL_2_0_9, SC_2_0_9, PREF_0_0_9 };
		l = resolve(c, N_OF(c), 2);
		assert_int_equal(l.how, HVPMU_PF_UNRESOLVED);
	}
	{ /* a system call may change every register */
		const uint32_t b[] = { LWU_2_0_9, SYSCALL, PREF_0_0_9 };
		l = resolve(b, N_OF(b), 2);
		assert_int_equal(l.how, HVPMU_PF_UNRESOLVED);
	}
	{ /* not a prefetch, out of range, no block */
		const uint32_t b[] = { LD_2_0_4, PREF_0_256_4 };
		l = resolve(b, N_OF(b), 0);
		assert_int_equal(l.how, HVPMU_PF_UNRESOLVED);
		l = resolve(b, N_OF(b), 2);
		assert_int_equal(l.how, HVPMU_PF_UNRESOLVED);
		l = resolve(NULL, 0, 0);
		assert_int_equal(l.how, HVPMU_PF_UNRESOLVED);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loads_stores),
		cmocka_unit_test(test_fp),
		cmocka_unit_test(test_other_spr),
		cmocka_unit_test(test_branches),
		cmocka_unit_test(test_undefined),
		cmocka_unit_test(test_region_jumps),
		cmocka_unit_test(test_annul_all_forms),
		cmocka_unit_test(test_partition),
		cmocka_unit_test(test_operands),
		cmocka_unit_test(test_descriptor),
		cmocka_unit_test(test_prefetch_dest),
		cmocka_unit_test(test_prefetch_resolve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
