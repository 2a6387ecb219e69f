/* MD5 against RFC 1321's vectors, herd's test hash against the vectors
 * of herd7 7.57's Hash= and what changes it, and print/parse round trips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/frontend.h"
#include "util/md5.h"
#include "util/mem.h"

static diag d;

static fe_test *parse(const char *s)
{
    memset(&d, 0, sizeof d);
    fe_test *t = fe_parse(s, strlen(s), "t.litmus", &d);
    if (!t)
        fail_msg("parse failed: %d:%d %s", d.line, d.col, d.msg);
    return t;
}

static void test_md5_rfc1321(void **st)
{
    (void)st;
    static const struct { const char *in, *out; } v[] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"a", "0cc175b9c0f1b6a831c399e269772661"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
        {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "57edf4a22be3c955ac49da2e2107b67a"},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        unsigned char dg[16];
        char hex[33];
        md5(v[i].in, strlen(v[i].in), dg);
        md5_hex(dg, hex);
        assert_string_equal(hex, v[i].out);
    }
    /* incremental updates across block boundaries give the same digest */
    md5_ctx c;
    md5_init(&c);
    const char *s = v[5].in;
    for (size_t i = 0; s[i]; i++)
        md5_update(&c, s + i, 1);
    unsigned char dg[16];
    char hex[33];
    md5_final(&c, dg);
    md5_hex(dg, hex);
    assert_string_equal(hex, v[5].out);
}

static const char *sb_test(const char *init, const char *extra)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "X86 SB\n\"Fre PodWR Fre PodWR\"\n{ %s }\n"
             " P0          | P1          ;\n"
             " MOV [x],$1  | MOV [y],$1  ;\n"
             " MOV EAX,[y] | MOV EAX,[x] ;\n%sexists (0:EAX=0 /\\ 1:EAX=0)\n",
             init, extra);
    return buf;
}

static void expect_hash(const char *src, const char *want)
{
    fe_test *t = parse(src);
    assert_string_equal(t->hash, want);
    assert_false(t->hash_from_info);
    fe_test_free(t);
}

static void test_reference_vectors(void **st)
{
    (void)st;
    expect_hash(sb_test("", ""), "edd4722437d708675ed921e7607e77f0");
    expect_hash(sb_test("x=0; y=0;", ""), "7dbd6b8e6dd4abc2ef3d48b0376fb2e3");
    expect_hash(sb_test("x=0; y=0;", "locations [x;]\n"), "c0e601af19a6cee501d1a63f7dfad5a3");
    /* init order, mnemonic case and $1 vs 1 do not change it */
    expect_hash(sb_test("y=0; x=0;", ""), "7dbd6b8e6dd4abc2ef3d48b0376fb2e3");
    expect_hash("X86 Other \"doc\"\n{ x=0; y=0; }\n P0 | P1 ;\n mov [x],1 | MOV [y],$1 ;\n"
                " MOV EAX,[y] | mov eax,[x] ;\n~exists (0:EAX=0 /\\ 1:EAX=0)\n",
                "7dbd6b8e6dd4abc2ef3d48b0376fb2e3");
}

/* herd keeps numbers as written, and its init digest prints that text */
static void test_number_spelling(void **st)
{
    (void)st;
    fe_test *a = parse(sb_test("x=16; y=0;", ""));
    fe_test *b = parse(sb_test("x=0x10; y=0;", ""));
    assert_int_equal(a->init[0].value.i, b->init[0].value.i);
    assert_string_equal(b->init[0].value.text, "0x10");
    assert_string_not_equal(a->hash, b->hash);
    char *out = fe_print(b);
    assert_non_null(strstr(out, "x=0x10;"));
    free(out);
    fe_test_free(a);
    fe_test_free(b);
}

/* herd's location digests print registers as written (0:RAX, not 0:rax);
 * the tree keeps the canonical name for later stages */
static void test_register_spelling(void **st)
{
    (void)st;
    fe_test *a = parse("X86_64 A\n{ 0:RAX=1 }\n P0 ;\n andl %eax,%eax ;\nforall 0:RAX=1\n");
    fe_test *b = parse("X86_64 A\n{ 0:rax=1 }\n P0 ;\n andl %eax,%eax ;\nforall 0:rax=1\n");
    assert_string_equal(a->init[0].loc.name, "rax");
    assert_string_equal(a->init[0].loc.text, "RAX");
    assert_null(b->init[0].loc.text);
    assert_string_equal(a->cond.prop->lhs.name, "rax");
    assert_string_not_equal(a->hash, b->hash);
    char why[128];
    assert_true(fe_test_equal(a, b, why, sizeof why));
    char *out = fe_print(a);
    assert_non_null(strstr(out, "0:RAX=1"));
    free(out);
    fe_test_free(a);
    fe_test_free(b);
}

/* herd renames labels L00, L01, ... (in name order) before hashing, and
 * 32-bit MOVL hashes as MOV */
static void test_labels_renamed(void **st)
{
    (void)st;
    const char *fmt = "X86 J\n{ }\n P0 ;\n MOV EAX,[x] ;\n CMP EAX,$1 ;\n JNE %s ;\n JMP %s ;\n %s: ;\n"
                      " MOVL [y],$1 ;\n %s: ;\nexists (0:EAX=1)\n";
    char a[512], b[512], c[512];
    snprintf(a, sizeof a, fmt, "L0", "L1", "L0", "L1");
    snprintf(b, sizeof b, fmt, "alpha", "beta", "alpha", "beta");
    snprintf(c, sizeof c, fmt, "beta", "alpha", "beta", "alpha");
    fe_test *ta = parse(a), *tb = parse(b), *tc = parse(c);
    assert_string_equal(ta->hash, tb->hash);
    assert_string_not_equal(ta->hash, tc->hash);
    char *mov = xasprintf(fmt, "L0", "L1", "L0", "L1");
    char *p = strstr(mov, "MOVL");
    memmove(p + 3, p + 4, strlen(p + 4) + 1);
    fe_test *td = parse(mov);
    assert_string_equal(ta->hash, td->hash);
    free(mov);
    fe_test_free(ta);
    fe_test_free(tb);
    fe_test_free(tc);
    fe_test_free(td);
}

static void test_hash_info_line_reused(void **st)
{
    (void)st;
    fe_test *t = parse("X86 SB\nHash=0123456789ABCDEF0123456789abcdef\n{ }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n");
    assert_true(t->hash_from_info);
    assert_string_equal(t->hash, "0123456789abcdef0123456789abcdef");
    char h[33];
    fe_compute_hash(t, h);
    assert_string_not_equal(h, t->hash);
    fe_test_free(t);
}

static void test_c_and_java_hash(void **st)
{
    (void)st;
    /* herd 7.57 on c11/diy/na2/2+2W+ponarel+porlxna (the .herd file's Hash=) */
    expect_hash("C 2+2W+ponarel+porlxna\n\"PodWWNaRel CoeRelRlx PodWWRlxNa Coe\"\n\n{}\n\n"
                "P0 (atomic_int* y,volatile int* x) {\n  *x = 2;\n  atomic_store_explicit(y,1,memory_order_release);\n}\n\n"
                "P1 (atomic_int* y,volatile int* x) {\n  atomic_store_explicit(y,2,memory_order_relaxed);\n  *x = 1;\n}\n\n"
                "exists ([x]=2 /\\ [y]=2)\n",
                "de6f6ae27b20fc3edea6adfa60cc7abd");
    /* the C hash covers the body text: whitespace inside it matters */
    fe_test *a = parse("C T\n{}\nP0 (atomic_int* x) { *x = 1; }\nexists (x=1)\n");
    fe_test *b = parse("C T\n{}\nP0 (atomic_int* x) {  *x = 1; }\nexists (x=1)\n");
    assert_string_not_equal(a->hash, b->hash);
    fe_test_free(a);
    fe_test_free(b);
}

static void roundtrip(const char *src)
{
    fe_test *t = parse(src);
    char *out = fe_print(t);
    fe_test *u = parse(out);
    char why[256];
    if (!fe_test_equal(t, u, why, sizeof why))
        fail_msg("round trip differs (%s):\n%s", why, out);
    char *out2 = fe_print(u);
    assert_string_equal(out, out2);
    free(out);
    free(out2);
    fe_test_free(t);
    fe_test_free(u);
}

static void test_roundtrip(void **st)
{
    (void)st;
    roundtrip(sb_test("x=0; 0:EBX=y;", "locations [x; 0:EAX;]\nfilter (~0:EAX=1 \\/ true)\n"));
    roundtrip("X86 L\n{ }\n P0 | P1 ;\n LOCK; ADD [x],$1 | L1: ;\n CMP EAX,$0 | JNE L1 ;\n"
              " L0: MOV EBX,[5] | LOCK XCHG [y],EAX ;\nforall (x=1 => (y=1 \\/ ~(x=2 /\\ y=3)))\n");
    roundtrip("X86_64 A\n{ }\n P0 | P1 ;\n movl $1,(x) | movq %rbx,(y) ;\n movl (y),%eax | lock cmpxchgl (x),%ebx ;\n"
              "exists (0:rax=0)\n");
    roundtrip("C T\n{ int a[2]={1,-2}; _Atomic int z=0; }\nP0 (atomic_int* x, volatile int* y) {\n"
              "  int r0 = 1;\n  r0 = (r0 ^ 1) * (2 - 3) - -4;\n  if (r0 != 0) if (r0) *y = 1; else *y = 2;\n"
              "  int r1 = atomic_fetch_or(x, r0 | 3 & 5);\n  __int128 r2 = (int)*y;\n}\nregions: x:PROP\n"
              "exists (0:r0=1)\n");
    roundtrip("C T\n{ }\nP0 (atomic_int* x) { int r0 = 0; if (r0) if (r0 == 2) *x = 2; else if (r0) *x = 1;"
              " else {} else *x = 3; if (r0) { if (r0) *x = 1; } else { { *x = 2; } } }\nexists (x=1)\n");
    roundtrip("Java T\n{ x=0; 0:X=x; }\nThread0 {\n  int a = X.getAndAddRelease(2 - 1 * 3);\n"
              "  int b; if (a == 1 && b != 2 || a < 3) { X.setVolatile(a ^ b); } else fullFence();\n}\n"
              "exists (0:a=0 /\\ [x]=1)\n");
}

static void test_equal_detects_differences(void **st)
{
    (void)st;
    fe_test *a = parse(sb_test("x=0;", ""));
    fe_test *b = parse(sb_test("x=1;", ""));
    char why[128];
    assert_false(fe_test_equal(a, b, why, sizeof why));
    assert_non_null(strstr(why, "init"));
    fe_test_free(b);
    b = parse(sb_test("x=0;", "locations [y;]\n"));
    assert_false(fe_test_equal(a, b, why, sizeof why));
    fe_test_free(b);
    b = parse(sb_test("x=0;", ""));
    assert_true(fe_test_equal(a, b, why, sizeof why));
    fe_test_free(a);
    fe_test_free(b);
    /* braces carry no meaning; statements and their order do */
    a = parse("C T\n{ }\nP0 (atomic_int* x) { *x = 1; if (1) { { *x = 2; } } }\nexists (x=1)\n");
    b = parse("C T\n{ }\nP0 (atomic_int* x) { { *x = 1; } if (1) *x = 2; }\nexists (x=1)\n");
    assert_true(fe_test_equal(a, b, why, sizeof why));
    fe_test_free(b);
    b = parse("C T\n{ }\nP0 (atomic_int* x) { if (1) *x = 2; *x = 1; }\nexists (x=1)\n");
    assert_false(fe_test_equal(a, b, why, sizeof why));
    fe_test_free(a);
    fe_test_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_md5_rfc1321),
        cmocka_unit_test(test_reference_vectors),
        cmocka_unit_test(test_number_spelling),
        cmocka_unit_test(test_register_spelling),
        cmocka_unit_test(test_labels_renamed),
        cmocka_unit_test(test_hash_info_line_reused),
        cmocka_unit_test(test_c_and_java_hash),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_equal_detects_differences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
