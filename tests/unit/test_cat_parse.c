/* Unit tests of the cat lexer and parser: herd's operator precedence,
 * comments, names, headers, bindings and match forms. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "model/cat/cat_ast.h"
#include "util/mem.h"

/* The tree of an expression as a string: OP(kid,kid) or a name. */
static void show(strbuf *b, const cat_expr *e)
{
    static const char *const ops[] = {
        [CE_VAR] = "var", [CE_TAG] = "tag", [CE_ZERO] = "0", [CE_EMPTY] = "{}", [CE_UNIV] = "_",
        [CE_SET] = "SET", [CE_TUPLE] = "TUP", [CE_UNION] = "U", [CE_INTER] = "I", [CE_DIFF] = "D",
        [CE_SEQ] = "S", [CE_CART] = "X", [CE_ADD] = "ADD", [CE_STAR] = "STAR", [CE_PLUS] = "PLUS",
        [CE_OPT] = "OPT", [CE_INV] = "INV", [CE_COMP] = "COMP", [CE_TOID] = "ID", [CE_APP] = "APP",
        [CE_FUN] = "FUN", [CE_LET] = "LET", [CE_LETREC] = "LETREC", [CE_TRY] = "TRY", [CE_IF] = "IF",
        [CE_MATCH] = "MATCH", [CE_MATCHSET] = "MATCHSET",
    };
    if (e->op == CE_VAR) { sb_add(b, e->name); return; }
    if (e->op == CE_TAG) { sb_printf(b, "'%s", e->name); return; }
    sb_add(b, ops[e->op]);
    if (!e->nkids) return;
    sb_addc(b, '(');
    for (int k = 0; k < e->nkids; k++) {
        if (k) sb_addc(b, ',');
        if (e->kids[k]) show(b, e->kids[k]);
    }
    sb_addc(b, ')');
}

/* Parse `let r = TEXT` and return the tree of TEXT. */
static char *tree_of(const char *text)
{
    char *src = xasprintf("let r = %s\n", text);
    cat_file f;
    diag d = {0};
    bool ok = cat_parse(src, "t.cat", &f, &d);
    free(src);
    if (!ok) return xasprintf("ERROR %d:%d %s", d.line, d.col, d.msg);
    assert_int_equal(f.nins, 1);
    assert_int_equal(f.ins[0].op, CI_LET);
    strbuf b = {0};
    show(&b, f.ins[0].binds[0].e);
    cat_file_free(&f);
    return sb_take(&b);
}

#define TREE(text, expected)                 \
    do {                                     \
        char *got_ = tree_of(text);          \
        assert_string_equal(got_, expected); \
        free(got_);                          \
    } while (0)

static void test_precedence(void **state)
{
    (void)state;
    /* loosest first: | ++ ; \ & (* + ? ~) ^-1 application */
    TREE("a | b ; c", "U(a,S(b,c))");
    TREE("a ; b | c", "U(S(a,b),c)");
    TREE("a ; b \\ c", "S(a,D(b,c))");
    TREE("a \\ b & c", "D(a,I(b,c))");
    TREE("a & b * c", "I(a,X(b,c))");
    TREE("a \\ b \\ c", "D(D(a,b),c)");
    TREE("a ++ b | c", "U(ADD(a,b),c)");
    TREE("a ; b ++ c", "ADD(S(a,b),c)");
    TREE("~a & b", "I(COMP(a),b)");
    TREE("r^-1 ; s", "S(INV(r),s)");
    TREE("r^-1+", "PLUS(INV(r))");
    TREE("(r ; s)* ; t", "S(STAR(S(r,s)),t)");
    TREE("r? | s+", "U(OPT(r),PLUS(s))");
}

static void test_star_disambiguation(void **state)
{
    (void)state;
    /* `*` is a product when a base expression follows, a closure otherwise. */
    TREE("W * R", "X(W,R)");
    TREE("(W * _) & loc", "I(X(W,_),loc)");
    TREE("r* ; s", "S(STAR(r),s)");
    TREE("r* | s", "U(STAR(r),s)");
    TREE("W * ~R", "X(W,COMP(R))");
}

static void test_flattening_and_application(void **state)
{
    (void)state;
    TREE("a | b | c | d", "U(a,b,c,d)");
    TREE("a ; b ; c", "S(a,b,c)");
    TREE("f x y", "APP(APP(f,x),y)");
    TREE("domain(r) | range r", "U(APP(domain,r),APP(range,r))");
    TREE("fencerel(MFENCE) ; po", "S(APP(fencerel,MFENCE),po)");
    TREE("[W] ; po ; [R]", "S(ID(W),po,ID(R))");
    TREE("f(a, b)", "APP(f,TUP(a,b))");
    TREE("0 | {} | _", "U(0,{},_)");
    TREE("{a, b}", "SET(a,b)");
    TREE("()", "TUP");
}

static void test_expression_forms(void **state)
{
    (void)state;
    TREE("let x = po in x ; x", "LET(S(x,x))");
    TREE("fun x -> x | po", "FUN");
    TREE("try X with {}", "TRY(X,{})");
    TREE("if \"opt\" then po else rf", "IF(po,rf)");
    TREE("match s with {} -> 0 || e ++ t -> e end", "MATCHSET(s,0,e)");
    TREE("match s with e ++ t -> e || {} -> 0 end", "MATCHSET(s,0,e)");
}

static void test_names_and_comments(void **state)
{
    (void)state;
    /* '-' and '.' belong to names; a final quote is allowed; comments nest. */
    TREE("po-loc | co-jam", "U(po-loc,co-jam)");
    TREE("a.b | x'", "U(a.b,x')");
    TREE("(* outer (* inner *) still *) po", "po");
    TREE("po // line comment\n | rf", "U(po,rf)");
    TREE("po # hash comment\n | rf", "U(po,rf)");
}

static void test_headers(void **state)
{
    (void)state;
    cat_file f;
    diag d = {0};
    assert_true(cat_parse("X86 TSO\nacyclic po\n", "t.cat", &f, &d));
    assert_string_equal(f.title, "X86 TSO");
    assert_int_equal(f.nins, 1);
    assert_int_equal(f.ins[0].op, CI_TEST);
    cat_file_free(&f);
    assert_true(cat_parse("\"Java Access Modes\"\nlet x = po\n", "t.cat", &f, &d));
    assert_string_equal(f.title, "Java Access Modes");
    cat_file_free(&f);
    assert_true(cat_parse("let x = po\n", "t.cat", &f, &d));
    assert_string_equal(f.title, "");
    cat_file_free(&f);
}

static void test_instructions(void **state)
{
    (void)state;
    const char *src =
        "M\n"
        "let f(a, b) = a | b and g x = x\n"
        "let rec r = po | r ; r\n"
        "undefined_unless empty rf as Dr\n"
        "flag ~empty co as Flagged\n"
        "~irreflexive po\n"
        "show po, rf\n"
        "with o from linearisations(W, po)\n"
        "procedure p(x) = acyclic x end\n"
        "call p(po) as named\n"
        "if \"v\" acyclic po else empty rf end\n";
    cat_file f;
    diag d = {0};
    assert_true(cat_parse(src, "t.cat", &f, &d));
    assert_int_equal(f.nins, 10);
    assert_int_equal(f.ins[0].op, CI_LET);
    assert_int_equal(f.ins[0].nbinds, 2);
    assert_int_equal(f.ins[0].binds[0].e->op, CE_FUN);
    assert_int_equal(f.ins[0].binds[0].e->fun->params.n, 2);
    assert_true(f.ins[0].binds[0].e->fun->params.tuple);
    assert_false(f.ins[0].binds[1].e->fun->params.tuple);
    assert_int_equal(f.ins[1].op, CI_LETREC);
    assert_int_equal(f.ins[2].ttype, CTT_UNDEF);
    assert_string_equal(f.ins[2].name, "Dr");
    assert_int_equal(f.ins[3].ttype, CTT_FLAG);
    assert_true(f.ins[3].negated);
    assert_int_equal(f.ins[4].test, CT_T_IRREFLEXIVE);
    assert_true(f.ins[4].negated);
    assert_int_equal(f.ins[5].op, CI_NOP);
    assert_int_equal(f.ins[6].op, CI_WITH);
    assert_string_equal(f.ins[6].name, "o");
    assert_int_equal(f.ins[7].op, CI_PROC);
    assert_int_equal(f.ins[8].op, CI_CALL);
    assert_int_equal(f.ins[9].op, CI_IFVARIANT);
    assert_false(f.ins[9].variant_value);
    cat_file_free(&f);
}

static void test_syntax_errors_have_positions(void **state)
{
    (void)state;
    char *t = tree_of("(po | rf");
    assert_string_equal(t, "ERROR 2:1 syntax error: expected ')', found end of file");
    free(t);
    t = tree_of("po |");
    assert_non_null(strstr(t, "ERROR 2:1"));
    free(t);
    t = tree_of("rf^2");
    assert_non_null(strstr(t, "ERROR 1:12 unexpected character '2'"));
    free(t);
}

static void test_lexer_tokens(void **state)
{
    (void)state;
    cat_token *toks;
    int n;
    diag d = {0};
    assert_true(cat_lex("rf^-1 ++ 'tag || && -> \"s\" _ 0", "t.cat", &toks, &n, &d));
    cat_tok want[] = {CT_VAR, CT_HAT, CT_INV, CT_PLUSPLUS, CT_TAG, CT_ALT, CT_LAND, CT_ARROW,
                      CT_STRING, CT_UNDERSCORE, CT_ZERO, CT_EOF};
    assert_int_equal(n, (int)(sizeof want / sizeof want[0]));
    for (int i = 0; i < n; i++) assert_int_equal(toks[i].kind, want[i]);
    assert_string_equal(toks[4].text, "tag");
    assert_string_equal(toks[8].text, "s");
    assert_int_equal(toks[4].col, 10);
    cat_tokens_free(toks, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_star_disambiguation),
        cmocka_unit_test(test_flattening_and_application),
        cmocka_unit_test(test_expression_forms),
        cmocka_unit_test(test_names_and_comments),
        cmocka_unit_test(test_headers),
        cmocka_unit_test(test_instructions),
        cmocka_unit_test(test_syntax_errors_have_positions),
        cmocka_unit_test(test_lexer_tokens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
