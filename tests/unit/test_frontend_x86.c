/* The X86 and X86_64 program parsers: the table layout, operand forms in
 * both syntaxes, prefixes, labels, and the errors for bad instructions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/frontend.h"

static diag d;

static fe_test *parse(const char *s)
{
    memset(&d, 0, sizeof d);
    return fe_parse(s, strlen(s), "t.litmus", &d);
}

/* Parsing must fail at LINE:COL with a message containing WHAT. */
static void expect_error(const char *s, int line, int col, const char *what)
{
    fe_test *t = parse(s);
    if (t || !d.set || d.line != line || d.col != col || !strstr(d.msg, what))
        fail_msg("expected %d:%d '%s', got %s %d:%d '%s'", line, col, what, t ? "success" : "error", d.line,
                 d.col, d.msg);
    assert_int_equal(d.status, 2);
    fe_test_free(t);
}

static const fe_x86_instr *cell(const fe_test *t, int th, int i)
{
    assert_true(th < t->nthreads);
    assert_true(i < t->threads[th].ncode);
    return &t->threads[th].code[i];
}

static void test_sb(void **st)
{
    (void)st;
    fe_test *t = parse("X86 SB\n\"Fre PodWR Fre PodWR\"\n{ x=0; y=0; }\n"
                       " P0          | P1          ;\n"
                       " MOV [x],$1  | MOV [y],$1  ;\n"
                       " MOV EAX,[y] | MOV EAX,[x] ;\n"
                       "exists (0:EAX=0 /\\ 1:EAX=0)\n");
    assert_non_null(t);
    assert_int_equal(t->arch, FE_ARCH_X86);
    assert_string_equal(t->name, "SB");
    assert_string_equal(t->doc, "Fre PodWR Fre PodWR");
    assert_int_equal(t->nthreads, 2);
    assert_int_equal(t->nrows, 2);
    const fe_x86_instr *a = cell(t, 0, 0);
    assert_int_equal(a->op, FE_X86_MOV);
    assert_int_equal(a->dst.kind, FE_XO_MEM);
    assert_string_equal(a->dst.name, "x");
    assert_int_equal(a->src.kind, FE_XO_IMM);
    assert_int_equal(a->src.imm, 1);
    const fe_x86_instr *b = cell(t, 1, 1);
    assert_int_equal(b->dst.kind, FE_XO_REG);
    assert_string_equal(b->dst.name, "EAX");
    assert_string_equal(b->src.name, "x");
    assert_int_equal(b->row, 1);
    assert_int_equal(b->pos.line, 6);
    assert_int_equal(b->pos.col, 16);
    fe_test_free(t);
}

static void test_operand_forms_and_case(void **st)
{
    (void)st;
    fe_test *t = parse("X86 T\n{ 0:EBX=x; }\n P0 ;\n mov eax,1 ;\n MOV [EBX],$-2 ;\n MOV ECX,(EBX) ;\n"
                       " MOV [5],EAX ;\n movl [x],$3 ;\nexists (0:EAX=1)\n");
    assert_non_null(t);
    assert_int_equal(cell(t, 0, 0)->src.kind, FE_XO_IMM);
    assert_string_equal(cell(t, 0, 0)->dst.name, "EAX");
    assert_int_equal(cell(t, 0, 1)->dst.kind, FE_XO_MEM_REG);
    assert_string_equal(cell(t, 0, 1)->dst.name, "EBX");
    assert_int_equal(cell(t, 0, 1)->src.imm, -2);
    assert_int_equal(cell(t, 0, 2)->src.kind, FE_XO_MEM_REG);
    assert_int_equal(cell(t, 0, 3)->dst.kind, FE_XO_MEM_ABS);
    assert_int_equal(cell(t, 0, 3)->dst.imm, 5);
    assert_int_equal(cell(t, 0, 4)->size, 4);
    fe_test_free(t);
}

static void test_lock_fences_rmw(void **st)
{
    (void)st;
    fe_test *t = parse("X86 L\n{ }\n P0 | P1 ;\n LOCK ADD [x],$1 | XCHG [y],EAX ;\n"
                       " LOCK; INC [y] | MFENCE ;\n lock xadd [x],EBX | LOCK CMPXCHG [x],ECX ;\n"
                       " | LFENCE ;\nexists (x=2)\n");
    assert_non_null(t);
    assert_true(cell(t, 0, 0)->lock);
    assert_int_equal(cell(t, 0, 0)->op, FE_X86_ADD);
    assert_true(cell(t, 0, 1)->lock);
    assert_int_equal(cell(t, 0, 1)->op, FE_X86_INC);
    assert_int_equal(cell(t, 0, 2)->op, FE_X86_XADD);
    assert_int_equal(cell(t, 0, 3)->op, FE_X86_EMPTY);
    assert_int_equal(cell(t, 1, 0)->op, FE_X86_XCHG);
    assert_false(cell(t, 1, 0)->lock);
    assert_int_equal(cell(t, 1, 1)->op, FE_X86_MFENCE);
    assert_int_equal(cell(t, 1, 2)->op, FE_X86_CMPXCHG);
    assert_int_equal(cell(t, 1, 3)->op, FE_X86_LFENCE);
    fe_test_free(t);
}

static void test_labels_and_jumps(void **st)
{
    (void)st;
    fe_test *t = parse("X86 J\n{ }\n P0 ;\n MOV EAX,[x] ;\n CMP EAX,$1 ;\n JNE L0 ;\n MOV [y],$1 ;\n"
                       " L0: ;\n MOV EBX,[y] ;\nexists (0:EAX=1)\n");
    assert_non_null(t);
    assert_int_equal(cell(t, 0, 2)->op, FE_X86_JNE);
    assert_string_equal(cell(t, 0, 2)->dst.name, "L0");
    assert_string_equal(cell(t, 0, 4)->label, "L0");
    assert_int_equal(cell(t, 0, 4)->op, FE_X86_EMPTY);
    fe_test_free(t);
    expect_error("X86 J\n{ }\n P0 ;\n JMP nowhere ;\nexists (x=0)\n", 4, 6, "unknown label 'nowhere'");
}

static void test_x86_64_att(void **st)
{
    (void)st;
    fe_test *t = parse("X86_64 A\n{ }\n P0 | P1 ;\n movl $1,(x) | movq %rbx,(y) ;\n"
                       " movl (y),%eax | lock cmpxchgl (x),%ebx ;\n mfence | xchgq %rcx,(x) ;\n"
                       "exists (0:rax=0)\n");
    assert_non_null(t);
    const fe_x86_instr *a = cell(t, 0, 0);
    assert_int_equal(a->dst.kind, FE_XO_MEM);
    assert_string_equal(a->dst.name, "x");
    assert_int_equal(a->src.imm, 1);
    assert_int_equal(a->size, 4);
    const fe_x86_instr *b = cell(t, 0, 1);
    assert_int_equal(b->dst.kind, FE_XO_REG);
    assert_string_equal(b->dst.name, "rax");
    assert_int_equal(b->dst.reg_size, 4);
    const fe_x86_instr *c = cell(t, 1, 1);
    assert_int_equal(c->op, FE_X86_CMPXCHG);
    assert_true(c->lock);
    assert_int_equal(c->dst.kind, FE_XO_MEM);   /* herd order: memory first */
    assert_string_equal(c->src.name, "rbx");
    assert_string_equal(cell(t, 1, 0)->src.name, "rbx");
    assert_int_equal(cell(t, 1, 0)->src.reg_size, 8);
    char *txt = fe_x86_instr_text(t, b);
    assert_string_equal(txt, "movl (y),%eax");
    free(txt);
    txt = fe_x86_instr_text(t, c);
    assert_string_equal(txt, "lock cmpxchgl (x),%ebx");
    free(txt);
    fe_test_free(t);
    /* the condition names 64-bit registers only */
    expect_error("X86_64 A\n{ }\n P0 ;\n movl $1,(x) ;\nexists (0:eax=0)\n", 5, 11, "64-bit");
    expect_error("X86_64 A\n{ }\n P0 ;\n movq $1,%eax ;\nexists (x=0)\n", 4, 10, "type mismatch");
}

static void test_errors(void **st)
{
    (void)st;
    expect_error("X86 E\n{ }\n P0 ;\n FOO [x],$1 ;\nexists (x=0)\n", 4, 2, "unknown instruction 'FOO'");
    expect_error("X86 E\n{ }\n P0 ;\n MOV EQX,$1 ;\nexists (x=0)\n", 4, 6, "unknown register 'EQX'");
    expect_error("X86 E\n{ }\n P0 | P0 ;\n MOV [x],$1 | MOV [x],$1 ;\nexists (x=0)\n", 3, 7,
                 "duplicate thread P0");
    expect_error("X86 E\n{ }\n P0 | P1 ;\n MOV [x],$1 ;\nexists (x=0)\n", 4, 13, "row has 1 cells");
    expect_error("X86 E\n{ }\n P0 ;\n MOV [x],[y] ;\nexists (x=0)\n", 4, 2, "two memory operands");
    expect_error("X86 E\n{ }\n P0 ;\n MOV $1,EAX ;\nexists (x=0)\n", 4, 6, "type mismatch");
    expect_error("X86 E\n{ }\n P0 ;\n LOCK MOV [x],$1 ;\nexists (x=0)\n", 4, 2, "LOCK prefix is not allowed on MOV");
    expect_error("X86 E\n{ }\n P0 ;\n MOV [x],$1 ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n", 5, 20, "unknown thread 1");
    expect_error("X86 E\n{ }\n P0 ;\n MOV [x],$1 ;\nexists (z=1)\n", 5, 9, "unknown location 'z'");
    expect_error("X86 E\n{ }\n P1 ;\n MOV [x],$1 ;\nexists (x=1)\n", 3, 2, "expected P0");
}

/* What compilers write: x(%rip), movz/movs, test/setcc, ordered jumps, lea. */
static void test_x86_64_compiler_forms(void **st)
{
    (void)st;
    fe_test *t = parse("X86_64 C\n{ }\n P0 ;\n movl $1,x(%rip) ;\n movzbl y(%rip),%eax ;\n"
                       " testl %eax,%eax ;\n sete %bl ;\n cmpl $2,%eax ;\n jbe LC00 ;\n"
                       " leaq x(%rip),%rdx ;\n movslq (%rdx),%rcx ;\n LC00: ;\n"
                       "exists (0:rax=0)\n");
    assert_non_null(t);
    const fe_x86_instr *a = cell(t, 0, 0);
    assert_int_equal(a->dst.kind, FE_XO_MEM);
    assert_string_equal(a->dst.name, "x");
    const fe_x86_instr *b = cell(t, 0, 1);
    assert_int_equal(b->op, FE_X86_MOV);
    assert_string_equal(b->ext, "movzbl");
    assert_int_equal(b->src.kind, FE_XO_MEM);
    assert_string_equal(b->src.name, "y");
    assert_int_equal(b->dst.reg_size, 4);
    assert_int_equal(cell(t, 0, 2)->op, FE_X86_TEST);
    assert_int_equal(cell(t, 0, 3)->op, FE_X86_SETE);
    assert_int_equal(cell(t, 0, 3)->dst.reg_size, 1);
    assert_int_equal(cell(t, 0, 5)->op, FE_X86_JBE);
    assert_string_equal(cell(t, 0, 5)->dst.name, "LC00");
    assert_int_equal(cell(t, 0, 6)->op, FE_X86_LEA);
    assert_int_equal(cell(t, 0, 6)->size, 8);
    assert_string_equal(cell(t, 0, 7)->ext, "movslq");
    assert_int_equal(cell(t, 0, 7)->src.kind, FE_XO_MEM_REG);
    fe_test_free(t);
    expect_error("X86_64 C\n{ }\n P0 ;\n movzwl (x),%ax ;\nexists (x=0)\n", 4, 13, "movzwl writes 4");
    expect_error("X86_64 C\n{ }\n P0 ;\n movl x(y),%eax ;\nexists (x=0)\n", 4, 9, "expected %rip or a register");
    /* x(%rbx): x's address plus %rbx; x(,%rdx,4) has no base */
    t = parse("X86_64 C\n{ }\n P0 ;\n movl x(%rbx),%eax ;\n movl $1,x(,%rdx,4) ;\nexists (x=0)\n");
    assert_non_null(t);
    assert_int_equal(cell(t, 0, 0)->src.kind, FE_XO_MEM_REG);
    assert_string_equal(cell(t, 0, 0)->src.sym, "x");
    assert_string_equal(cell(t, 0, 0)->src.name, "rbx");
    assert_null(cell(t, 0, 1)->dst.name);
    assert_string_equal(cell(t, 0, 1)->dst.index, "rdx");
    assert_int_equal(cell(t, 0, 1)->dst.scale, 4);
    fe_test_free(t);
    expect_error("X86_64 C\n{ }\n P0 ;\n leaq $1,%rax ;\nexists (x=0)\n", 4, 2, "LEA takes a location");
}

/* What herd7 7.57 reads of its own X86_64 instruction tests: %rip and %cs
 * in the init, nopl/nopw with an operand (scale 0 included), the %cs:
 * override, an immediate without '$'; and herd's hash of a scaled operand,
 * `(%rax, %ebx,8)` with its blank (herd's A009.litmus.expected). */
static void test_x86_64_herd_forms(void **st)
{
    (void)st;
    fe_test *t = parse("X86_64 H\n{ 0:rip=0; 0:cs=1; }\n P0 ;\n nopl 0(%rax,%eax,0) ;\n"
                       " NOPW %cs:0(%rax,%eax,0) ;\n shl 2,%eax ;\n movl -3,(x) ;\n"
                       "forall (0:rip=0 /\\ 0:cs=1)\n");
    assert_non_null(t);
    assert_string_equal(t->init[0].loc.name, "rip");
    assert_string_equal(t->init[1].loc.name, "cs");
    assert_int_equal(cell(t, 0, 0)->op, FE_X86_NOP);
    assert_int_equal(cell(t, 0, 0)->size, 4);
    assert_int_equal(cell(t, 0, 0)->dst.kind, FE_XO_MEM_REG);
    assert_int_equal(cell(t, 0, 0)->dst.scale, 0);
    assert_int_equal(cell(t, 0, 1)->size, 2);
    assert_string_equal(cell(t, 0, 1)->dst.name, "rax");
    assert_string_equal(cell(t, 0, 1)->dst.index, "rax");
    assert_int_equal(cell(t, 0, 1)->dst.index_size, 4);
    assert_int_equal(cell(t, 0, 2)->src.kind, FE_XO_IMM);
    assert_int_equal(cell(t, 0, 2)->src.imm, 2);
    assert_int_equal(cell(t, 0, 3)->src.imm, -3);
    char *text = fe_print(t);
    assert_non_null(strstr(text, "nopw (%rax,%eax,0)"));
    assert_non_null(strstr(text, "shl $2,%eax"));
    free(text);
    fe_test_free(t);
    t = parse("X86_64 A009\n{\nint64_t t[2]={1,-1};\n0:rax=t;\n0:rbx=1;\nint64_t 0:rcx;\n}\n\n"
              "P0                        ;\nmovq 0(%rax,%ebx,8),%rcx  ;\nforall 0:rcx = -1\n");
    assert_non_null(t);
    assert_string_equal(t->hash, "a97bc3fd7318c7656902927df4f2aa4a");
    fe_test_free(t);
    expect_error("X86_64 H\n{ }\n P0 ;\n nopl $1 ;\nexists (0:rax=0)\n", 4, 7, "NOPL needs a register or memory");
    expect_error("X86_64 H\n{ }\n P0 ;\n nopq (%rax) ;\nexists (0:rax=0)\n", 4, 2, "unknown instruction");
    expect_error("X86_64 H\n{ }\n P0 ;\n movl %gs:0(%rax,%rax,1),%eax ;\nexists (0:rax=0)\n", 4, 7,
                 "segment override %gs: is not supported");
    expect_error("X86_64 H\n{ }\n P0 ;\n movl %cs:%eax,%ebx ;\nexists (0:rax=0)\n", 4, 7,
                 "a segment override needs a memory operand");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb),
        cmocka_unit_test(test_operand_forms_and_case),
        cmocka_unit_test(test_lock_fences_rmw),
        cmocka_unit_test(test_labels_and_jumps),
        cmocka_unit_test(test_x86_64_att),
        cmocka_unit_test(test_x86_64_compiler_forms),
        cmocka_unit_test(test_x86_64_herd_forms),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
