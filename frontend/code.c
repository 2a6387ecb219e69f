/* Statements and expressions of C and Java thread bodies.  The two
 * languages share the statement shapes (declarations, assignments,
 * if/else, blocks) and differ in their operators, precedence and access
 * syntax: C uses pointers and atomic_* builtins, Java VarHandle methods. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/mem.h"

enum { MAX_DEPTH = 200 };

void code_scope_add(code_scope *sc, const char *name, bool is_ptr)
{
    int i = code_scope_find(sc, name);
    if (i >= 0) {
        sc->is_ptr[i] = is_ptr;
        return;
    }
    if (sc->nnames == sc->cap) {
        sc->cap = sc->cap ? 2 * sc->cap : 8;
        sc->names = xrealloc(sc->names, (size_t)sc->cap * sizeof *sc->names);
        sc->is_ptr = xrealloc(sc->is_ptr, (size_t)sc->cap * sizeof *sc->is_ptr);
    }
    sc->names[sc->nnames] = xstrdup(name);
    sc->is_ptr[sc->nnames] = is_ptr;
    sc->nnames++;
}

int code_scope_find(const code_scope *sc, const char *name)
{
    for (int i = 0; i < sc->nnames; i++)
        if (!strcmp(sc->names[i], name))
            return i;
    return -1;
}

void code_scope_free(code_scope *sc)
{
    for (int i = 0; i < sc->nnames; i++)
        free(sc->names[i]);
    free(sc->names);
    free(sc->is_ptr);
    sc->names = NULL;
    sc->is_ptr = NULL;
    sc->nnames = sc->cap = 0;
}

static const char *const c_type_words[] = {
    "int", "char", "long", "short", "unsigned", "signed", "volatile", "const", "_Atomic",
    "atomic_int", "atomic_long", "atomic_t", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t",
    "uint32_t", "int64_t", "uint64_t", "__int128", "__int128_t", "__uint128_t", "__uint128",
    "int128_t", "uint128_t", "intptr_t", "uintptr_t", "mtx_t", "spinlock_t", NULL
};

bool c_is_type_word(const char *s, size_t len)
{
    for (int i = 0; c_type_words[i]; i++)
        if (strlen(c_type_words[i]) == len && !memcmp(c_type_words[i], s, len))
            return true;
    return false;
}

static fe_expr *new_expr(fe_expr_kind k, const tok *at)
{
    fe_expr *e = xcalloc(1, sizeof *e);
    e->kind = k;
    e->pos.line = at->line;
    e->pos.col = at->col;
    return e;
}

static fe_stmt *new_stmt(fe_stmt_kind k, int line, int col)
{
    fe_stmt *s = xcalloc(1, sizeof *s);
    s->kind = k;
    s->pos.line = line;
    s->pos.col = col;
    return s;
}

static void add_arg(fe_expr *call, fe_expr *a)
{
    call->args = xrealloc(call->args, (size_t)(call->nargs + 1) * sizeof *call->args);
    call->args[call->nargs++] = a;
}

/* Does this expression yield a pointer (a C parameter or pointer local)? */
static bool expr_is_ptr(const code_scope *sc, const fe_expr *e)
{
    if (e->kind == FE_E_REG) {
        int i = code_scope_find(sc, e->name);
        return i >= 0 && sc->is_ptr[i];
    }
    if (e->kind == FE_E_CAST)
        return e->type && strchr(e->type, '*');
    /* pointer arithmetic, as diy7 writes an address dependency: x + (r & 128) */
    if (e->kind == FE_E_BIN && (e->op == FE_ADD || e->op == FE_SUB))
        return expr_is_ptr(sc, e->l) || (e->op == FE_ADD && expr_is_ptr(sc, e->r));
    return false;
}

static fe_expr *parse_expr(lexer *lx, code_scope *sc, int depth);

/* Read a C type: type words and stars, as "volatile int*". */
static char *parse_c_type(lexer *lx)
{
    strbuf b = {0};
    int nwords = 0;
    for (;;) {
        if (lx->cur.kind == TK_IDENT && c_is_type_word(lx->cur.s, lx->cur.len)) {
            if (b.len && b.s[b.len - 1] != ' ')
                sb_addc(&b, ' ');
            sb_addn(&b, lx->cur.s, lx->cur.len);
            nwords++;
        } else if (lx_is(lx, "*") && nwords) {
            while (b.len && b.s[b.len - 1] == ' ')
                b.s[--b.len] = 0;
            sb_addc(&b, '*');
        } else {
            break;
        }
        if (!lx_next(lx)) {
            sb_free(&b);
            return NULL;
        }
    }
    if (!nwords) {
        sb_free(&b);
        lx_error(lx, "expected a type");
        return NULL;
    }
    return sb_take(&b);
}

typedef struct builtin {
    const char *name;
    fe_c_call call;
    bool explicit_form;
} builtin;

static const builtin c_builtins[] = {
    {"atomic_load_explicit", FE_C_LOAD, true}, {"atomic_load", FE_C_LOAD, false},
    {"atomic_store_explicit", FE_C_STORE, true}, {"atomic_store", FE_C_STORE, false},
    {"atomic_exchange_explicit", FE_C_EXCHANGE, true}, {"atomic_exchange", FE_C_EXCHANGE, false},
    {"atomic_fetch_add_explicit", FE_C_FETCH_ADD, true}, {"atomic_fetch_add", FE_C_FETCH_ADD, false},
    {"atomic_fetch_sub_explicit", FE_C_FETCH_SUB, true}, {"atomic_fetch_sub", FE_C_FETCH_SUB, false},
    {"atomic_fetch_and_explicit", FE_C_FETCH_AND, true}, {"atomic_fetch_and", FE_C_FETCH_AND, false},
    {"atomic_fetch_or_explicit", FE_C_FETCH_OR, true}, {"atomic_fetch_or", FE_C_FETCH_OR, false},
    {"atomic_fetch_xor_explicit", FE_C_FETCH_XOR, true}, {"atomic_fetch_xor", FE_C_FETCH_XOR, false},
    {"atomic_compare_exchange_strong_explicit", FE_C_CAS_STRONG, true},
    {"atomic_compare_exchange_strong", FE_C_CAS_STRONG, false},
    {"atomic_compare_exchange_weak_explicit", FE_C_CAS_WEAK, true},
    {"atomic_compare_exchange_weak", FE_C_CAS_WEAK, false},
    {"atomic_thread_fence", FE_C_THREAD_FENCE, true}, {"atomic_signal_fence", FE_C_SIGNAL_FENCE, true},
    {NULL, FE_C_LOAD, false},
};

static bool parse_mo(lexer *lx, fe_mo *mo)
{
    static const struct { const char *n; fe_mo mo; } mos[] = {
        {"memory_order_relaxed", FE_MO_RELAXED}, {"memory_order_consume", FE_MO_CONSUME},
        {"memory_order_acquire", FE_MO_ACQUIRE}, {"memory_order_release", FE_MO_RELEASE},
        {"memory_order_acq_rel", FE_MO_ACQ_REL}, {"memory_order_seq_cst", FE_MO_SEQ_CST},
    };
    for (size_t i = 0; i < sizeof mos / sizeof *mos; i++)
        if (lx_is_ident(lx, mos[i].n)) {
            *mo = mos[i].mo;
            return lx_next(lx);
        }
    return lx_error(lx, "expected a memory order (memory_order_relaxed, ...)");
}

/* True when E is a pointer; else the error "type mismatch: PRE<the text
 * at AT>POST" is reported at AT. */
static bool want_ptr(lexer *lx, const code_scope *sc, const fe_expr *e, const tok *at, const char *pre,
                     const char *post)
{
    if (expr_is_ptr(sc, e))
        return true;
    char what[64];
    lx_describe(at, what, sizeof what);
    lx_error_at(lx, at->line, at->col, "type mismatch: %s%s%s", pre, what, post);
    return false;
}

/* An address argument: an expression that must be a pointer. */
static fe_expr *parse_addr_arg(lexer *lx, code_scope *sc, int depth)
{
    tok at = lx->cur;
    fe_expr *e = parse_expr(lx, sc, depth + 1);
    if (e && !want_ptr(lx, sc, e, &at, "", " is not a pointer")) {
        fe_expr_free(e);
        return NULL;
    }
    return e;
}

static fe_expr *parse_c_call(lexer *lx, code_scope *sc, const builtin *bi, int depth)
{
    fe_expr *e = new_expr(FE_E_CCALL, &lx->cur);
    e->ccall = bi->call;
    e->explicit_form = bi->explicit_form;
    if (!lx_next(lx) || !lx_expect(lx, "("))
        goto fail;
    fe_c_call c = bi->call;
    if (c == FE_C_THREAD_FENCE || c == FE_C_SIGNAL_FENCE) {
        if (!parse_mo(lx, &e->mo))
            goto fail;
        if (!lx_expect(lx, ")"))
            goto fail;
        return e;
    }
    fe_expr *a = parse_addr_arg(lx, sc, depth);
    if (!a)
        goto fail;
    add_arg(e, a);
    int nvals = c == FE_C_LOAD ? 0 : (c == FE_C_CAS_STRONG || c == FE_C_CAS_WEAK) ? 2 : 1;
    for (int i = 0; i < nvals; i++) {
        if (!lx_expect(lx, ","))
            goto fail;
        fe_expr *v = (i == 0 && nvals == 2) ? parse_addr_arg(lx, sc, depth) : parse_expr(lx, sc, depth + 1);
        if (!v)
            goto fail;
        add_arg(e, v);
    }
    if (bi->explicit_form) {
        if (!lx_expect(lx, ",") || !parse_mo(lx, &e->mo))
            goto fail;
        if (c == FE_C_CAS_STRONG || c == FE_C_CAS_WEAK) {
            if (!lx_expect(lx, ",") || !parse_mo(lx, &e->mo_fail))
                goto fail;
        }
    } else {
        e->mo = FE_MO_SEQ_CST;
        if (c == FE_C_CAS_STRONG || c == FE_C_CAS_WEAK)
            e->mo_fail = FE_MO_SEQ_CST;
    }
    if (!lx_expect(lx, ")"))
        goto fail;
    return e;
fail:
    fe_expr_free(e);
    return NULL;
}

typedef struct jm { const char *name; fe_jmethod m; fe_jmode mode; int nargs; } jm;
static const jm jmethods[] = {
    {"get", FE_J_GET, FE_JM_PLAIN, 0}, {"getPlain", FE_J_GET, FE_JM_PLAIN, 0},
    {"getOpaque", FE_J_GET, FE_JM_OPAQUE, 0}, {"getAcquire", FE_J_GET, FE_JM_ACQUIRE, 0},
    {"getVolatile", FE_J_GET, FE_JM_VOLATILE, 0},
    {"set", FE_J_SET, FE_JM_PLAIN, 1}, {"setPlain", FE_J_SET, FE_JM_PLAIN, 1},
    {"setOpaque", FE_J_SET, FE_JM_OPAQUE, 1}, {"setRelease", FE_J_SET, FE_JM_RELEASE, 1},
    {"setVolatile", FE_J_SET, FE_JM_VOLATILE, 1},
    {"compareAndExchange", FE_J_CAE, FE_JM_VOLATILE, 2},
    {"compareAndExchangeAcquire", FE_J_CAE, FE_JM_ACQUIRE, 2},
    {"compareAndExchangeRelease", FE_J_CAE, FE_JM_RELEASE, 2},
    {"compareAndSet", FE_J_CAS, FE_JM_VOLATILE, 2},
    {"weakCompareAndSet", FE_J_WEAK_CAS, FE_JM_VOLATILE, 2},
    {"weakCompareAndSetPlain", FE_J_WEAK_CAS, FE_JM_PLAIN, 2},
    {"weakCompareAndSetAcquire", FE_J_WEAK_CAS, FE_JM_ACQUIRE, 2},
    {"weakCompareAndSetRelease", FE_J_WEAK_CAS, FE_JM_RELEASE, 2},
    {"getAndSet", FE_J_GET_AND_SET, FE_JM_VOLATILE, 1},
    {"getAndSetAcquire", FE_J_GET_AND_SET, FE_JM_ACQUIRE, 1},
    {"getAndSetRelease", FE_J_GET_AND_SET, FE_JM_RELEASE, 1},
    {"getAndAdd", FE_J_GET_AND_ADD, FE_JM_VOLATILE, 1},
    {"getAndAddAcquire", FE_J_GET_AND_ADD, FE_JM_ACQUIRE, 1},
    {"getAndAddRelease", FE_J_GET_AND_ADD, FE_JM_RELEASE, 1},
    {"getAndBitwiseOr", FE_J_GET_AND_OR, FE_JM_VOLATILE, 1},
    {"getAndBitwiseOrAcquire", FE_J_GET_AND_OR, FE_JM_ACQUIRE, 1},
    {"getAndBitwiseOrRelease", FE_J_GET_AND_OR, FE_JM_RELEASE, 1},
    {"getAndBitwiseAnd", FE_J_GET_AND_AND, FE_JM_VOLATILE, 1},
    {"getAndBitwiseAndAcquire", FE_J_GET_AND_AND, FE_JM_ACQUIRE, 1},
    {"getAndBitwiseAndRelease", FE_J_GET_AND_AND, FE_JM_RELEASE, 1},
    {"getAndBitwiseXor", FE_J_GET_AND_XOR, FE_JM_VOLATILE, 1},
    {"getAndBitwiseXorAcquire", FE_J_GET_AND_XOR, FE_JM_ACQUIRE, 1},
    {"getAndBitwiseXorRelease", FE_J_GET_AND_XOR, FE_JM_RELEASE, 1},
    {NULL, FE_J_GET, FE_JM_PLAIN, 0},
};
static const jm jfences[] = {
    {"fullFence", FE_J_FENCE_FULL, FE_JM_VOLATILE, 0}, {"acquireFence", FE_J_FENCE_ACQUIRE, FE_JM_ACQUIRE, 0},
    {"releaseFence", FE_J_FENCE_RELEASE, FE_JM_RELEASE, 0},
    {"loadLoadFence", FE_J_FENCE_LOADLOAD, FE_JM_ACQUIRE, 0},
    {"storeStoreFence", FE_J_FENCE_STORESTORE, FE_JM_RELEASE, 0},
    {NULL, FE_J_GET, FE_JM_PLAIN, 0},
};

static const jm *find_jm(const jm *table, const tok *t)
{
    for (int i = 0; table[i].name; i++)
        if (strlen(table[i].name) == t->len && !memcmp(table[i].name, t->s, t->len))
            return &table[i];
    return NULL;
}

/* Is the handle bound to a location in this thread's init (`0:X=x`)? */
static bool handle_bound(const code_scope *sc, const char *name)
{
    for (int i = 0; i < sc->t->ninit; i++) {
        const fe_init *it = &sc->t->init[i];
        if (it->loc.kind == FE_LOC_REG && it->loc.thread == sc->th->id && !strcmp(it->loc.name, name))
            return true;
    }
    return false;
}

/* `fullFence()` at the current token (its name already matched). */
static fe_expr *parse_j_fence(lexer *lx, const jm *f)
{
    fe_expr *e = new_expr(FE_E_JCALL, &lx->cur);
    e->jmethod = f->m;
    e->jmode = f->mode;
    if (!lx_next(lx) || !lx_expect(lx, "(") || !lx_expect(lx, ")")) {
        fe_expr_free(e);
        return NULL;
    }
    return e;
}

static fe_expr *parse_j_call(lexer *lx, code_scope *sc, int depth)
{
    tok h = lx->cur;
    if (!lx_next(lx) || !lx_expect(lx, "."))
        return NULL;
    if (lx->cur.kind != TK_IDENT) {
        lx_error(lx, "expected a VarHandle method");
        return NULL;
    }
    if (h.len == 9 && !memcmp(h.s, "VarHandle", 9)) {
        const jm *f = find_jm(jfences, &lx->cur);
        if (!f) {
            lx_error(lx, "unknown VarHandle fence");
            return NULL;
        }
        return parse_j_fence(lx, f);
    }
    const jm *m = find_jm(jmethods, &lx->cur);
    if (!m) {
        char what[64];
        lx_describe(&lx->cur, what, sizeof what);
        lx_error_at(lx, lx->cur.line, lx->cur.col, "unknown VarHandle method %s", what);
        return NULL;
    }
    char *hname = tok_str(&h);
    if (!handle_bound(sc, hname)) {
        lx_error_at(lx, h.line, h.col, "unknown VarHandle '%s' (bind it in the init: %d:%s=x;)", hname,
                    sc->th->id, hname);
        free(hname);
        return NULL;
    }
    fe_expr *e = new_expr(FE_E_JCALL, &h);
    e->name = hname;
    e->jmethod = m->m;
    e->jmode = m->mode;
    if (!lx_next(lx) || !lx_expect(lx, "("))
        goto fail;
    for (int i = 0; i < m->nargs; i++) {
        if (i && !lx_expect(lx, ","))
            goto fail;
        fe_expr *a = parse_expr(lx, sc, depth + 1);
        if (!a)
            goto fail;
        add_arg(e, a);
    }
    if (!lx_expect(lx, ")"))
        goto fail;
    return e;
fail:
    fe_expr_free(e);
    return NULL;
}

static bool is_java_handle(const tok *t)
{
    return t->kind == TK_IDENT && (isupper((unsigned char)t->s[0]));
}

static fe_expr *parse_unary(lexer *lx, code_scope *sc, int depth)
{
    if (!lx_node(lx))
        return NULL;
    if (depth > MAX_DEPTH) {
        lx_error(lx, "expression nested too deeply");
        return NULL;
    }
    tok at = lx->cur;
    if (lx->cur.kind == TK_NUM) {
        if (lx->cur.big || lx->cur.num > (uint64_t)INT64_MAX) {
            lx_error(lx, "number out of range (values are 64-bit)");
            return NULL;
        }
        fe_expr *e = new_expr(FE_E_CONST, &at);
        e->value = (int64_t)lx->cur.num;
        if (!lx_next(lx)) {
            fe_expr_free(e);
            return NULL;
        }
        return e;
    }
    if (lx_is(lx, "-")) {
        if (!lx_next(lx))
            return NULL;
        if (lx->cur.kind == TK_NUM) {
            if (lx->cur.big || lx->cur.num > (uint64_t)INT64_MAX + 1) {
                lx_error(lx, "number out of range (values are 64-bit)");
                return NULL;
            }
            fe_expr *e = new_expr(FE_E_CONST, &at);
            e->value = (int64_t)(0 - lx->cur.num);
            if (!lx_next(lx)) {
                fe_expr_free(e);
                return NULL;
            }
            return e;
        }
        fe_expr *sub = parse_unary(lx, sc, depth + 1);
        if (!sub)
            return NULL;
        fe_expr *e = new_expr(FE_E_BIN, &at);
        e->op = FE_SUB;
        e->l = new_expr(FE_E_CONST, &at);
        e->r = sub;
        return e;
    }
    if (lx_is(lx, "!") || lx_is(lx, "&") || lx_is(lx, "~")) {
        char what[64];
        lx_describe(&lx->cur, what, sizeof what);
        lx_error_at(lx, at.line, at.col, "unary operator %s is not supported", what);
        return NULL;
    }
    if (!sc->java && lx_is(lx, "*")) {
        if (!lx_next(lx))
            return NULL;
        tok pt = lx->cur;
        fe_expr *sub = parse_unary(lx, sc, depth + 1);
        if (!sub)
            return NULL;
        if (!want_ptr(lx, sc, sub, &pt, "cannot dereference ", ", it is not a pointer")) {
            fe_expr_free(sub);
            return NULL;
        }
        fe_expr *e = new_expr(FE_E_DEREF, &at);
        e->l = sub;
        return e;
    }
    if (lx_is(lx, "(")) {
        if (!lx_next(lx))
            return NULL;
        if (!sc->java && lx->cur.kind == TK_IDENT && c_is_type_word(lx->cur.s, lx->cur.len)) {
            char *ty = parse_c_type(lx);
            if (!ty)
                return NULL;
            if (!lx_expect(lx, ")")) {
                free(ty);
                return NULL;
            }
            fe_expr *sub = parse_unary(lx, sc, depth + 1);
            if (!sub) {
                free(ty);
                return NULL;
            }
            fe_expr *e = new_expr(FE_E_CAST, &at);
            e->type = ty;
            e->l = sub;
            return e;
        }
        fe_expr *e = parse_expr(lx, sc, depth + 1);
        if (!e)
            return NULL;
        if (!lx_expect(lx, ")")) {
            fe_expr_free(e);
            return NULL;
        }
        return e;
    }
    if (lx->cur.kind == TK_IDENT) {
        const char *q = lx->cur.end;
        while (q < lx->end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
            q++;
        bool call = q < lx->end && *q == '(';
        bool dot = q < lx->end && *q == '.';
        if (sc->java) {
            if (dot && is_java_handle(&lx->cur))
                return parse_j_call(lx, sc, depth);
            const jm *f = call ? find_jm(jfences, &lx->cur) : NULL;
            if (f)
                return parse_j_fence(lx, f);
        } else if (call) {
            for (int i = 0; c_builtins[i].name; i++)
                if (lx_is_ident(lx, c_builtins[i].name))
                    return parse_c_call(lx, sc, &c_builtins[i], depth);
        }
        if (call) {
            char what[64];
            lx_describe(&lx->cur, what, sizeof what);
            lx_error_at(lx, at.line, at.col, "unknown function %s", what);
            return NULL;
        }
        if ((lx_is_ident(lx, "while") || lx_is_ident(lx, "for") || lx_is_ident(lx, "do"))) {
            lx_error(lx, "unexpected keyword");
            return NULL;
        }
        char *name = tok_str(&lx->cur);
        if (code_scope_find(sc, name) < 0) {
            lx_error_at(lx, at.line, at.col, "unknown variable '%s' in %s", name, sc->th->name);
            free(name);
            return NULL;
        }
        fe_expr *e = new_expr(FE_E_REG, &at);
        e->name = name;
        if (!lx_next(lx)) {
            fe_expr_free(e);
            return NULL;
        }
        return e;
    }
    lx_error(lx, "expected an expression");
    return NULL;
}

/* Binary operator levels, loosest first.  C: | ^ & cmp +- * /.
 * Java (herd): || ^ && cmp +- * /, where || and && are bitwise. */
typedef struct binlvl { const char *ops[6]; fe_binop bops[6]; bool nonassoc; } binlvl;

static const binlvl c_levels[] = {
    {{"|"}, {FE_OR}, false},
    {{"^"}, {FE_XOR}, false},
    {{"&"}, {FE_AND}, false},
    {{"==", "!=", "<=", ">=", "<", ">"}, {FE_EQ, FE_NE, FE_LE, FE_GE, FE_LT, FE_GT}, true},
    {{"+", "-"}, {FE_ADD, FE_SUB}, false},
    {{"*", "/"}, {FE_MUL, FE_DIV}, false},
};
static const binlvl java_levels[] = {
    {{"||"}, {FE_OR}, false},
    {{"^"}, {FE_XOR}, false},
    {{"&&"}, {FE_AND}, false},
    {{"==", "!=", "<=", ">=", "<", ">"}, {FE_EQ, FE_NE, FE_LE, FE_GE, FE_LT, FE_GT}, true},
    {{"+", "-"}, {FE_ADD, FE_SUB}, false},
    {{"*", "/"}, {FE_MUL, FE_DIV}, false},
};
enum { NLEVELS = 6 };

static int match_op(const lexer *lx, const binlvl *lv)
{
    for (int i = 0; i < 6 && lv->ops[i]; i++)
        if (lx_is(lx, lv->ops[i]))
            return i;
    return -1;
}

static fe_expr *parse_level(lexer *lx, code_scope *sc, int level, int depth)
{
    if (level == NLEVELS)
        return parse_unary(lx, sc, depth);
    const binlvl *lv = sc->java ? &java_levels[level] : &c_levels[level];
    fe_expr *l = parse_level(lx, sc, level + 1, depth);
    if (!l)
        return NULL;
    for (;;) {
        int k = match_op(lx, lv);
        if (k < 0)
            break;
        tok at = lx->cur;
        if (!lx_next(lx)) {
            fe_expr_free(l);
            return NULL;
        }
        fe_expr *r = parse_level(lx, sc, level + 1, depth);
        if (!r) {
            fe_expr_free(l);
            return NULL;
        }
        fe_expr *e = new_expr(FE_E_BIN, &at);
        e->op = lv->bops[k];
        e->l = l;
        e->r = r;
        l = e;
        if (lv->nonassoc && match_op(lx, lv) >= 0) {
            lx_error(lx, "comparisons do not chain; add parentheses");
            fe_expr_free(l);
            return NULL;
        }
    }
    /* Operators of the other language, or that herd lacks: say so. */
    static const char *const foreign[] = {"&&", "||", "%", "&", "|", NULL};
    for (int i = 0; level == 0 && foreign[i]; i++)
        if (lx_is(lx, foreign[i])) {
            lx_error(lx, "operator not supported in %s tests", sc->java ? "Java" : "C");
            fe_expr_free(l);
            return NULL;
        }
    if (level == 0 && lx->cur.kind == TK_PUNCT && lx->cur.len == 1 && lx->cur.s[0] == '%') {
        lx_error(lx, "operator not supported");
        fe_expr_free(l);
        return NULL;
    }
    return l;
}

static fe_expr *parse_expr(lexer *lx, code_scope *sc, int depth)
{
    if (lx->failed)
        return NULL;
    return parse_level(lx, sc, 0, depth);
}

/* An expression used for its value: stores and fences have none. */
static bool check_has_value(lexer *lx, const fe_expr *e)
{
    if (e->kind == FE_E_CCALL &&
        (e->ccall == FE_C_STORE || e->ccall == FE_C_THREAD_FENCE || e->ccall == FE_C_SIGNAL_FENCE))
        return lx_error_at(lx, e->pos.line, e->pos.col, "type mismatch: %s has no value",
                           fe_c_call_name(e->ccall, e->explicit_form));
    if (e->kind == FE_E_JCALL && (e->jmethod == FE_J_SET || e->jmethod >= FE_J_FENCE_FULL))
        return lx_error_at(lx, e->pos.line, e->pos.col, "type mismatch: %s has no value",
                           fe_jmethod_name(e->jmethod, e->jmode));
    for (int i = 0; i < e->nargs; i++)
        if (!check_has_value(lx, e->args[i]))
            return false;
    if (e->l && !check_has_value(lx, e->l))
        return false;
    if (e->r && !check_has_value(lx, e->r))
        return false;
    return true;
}

static fe_expr *parse_value_expr(lexer *lx, code_scope *sc, int depth)
{
    fe_expr *e = parse_expr(lx, sc, depth);
    if (e && !check_has_value(lx, e)) {
        fe_expr_free(e);
        return NULL;
    }
    return e;
}

static fe_stmt *parse_stmt(lexer *lx, code_scope *sc, int depth);

static fe_stmt *parse_block_body(lexer *lx, code_scope *sc, int depth)
{
    int line = lx->cur.line, col = lx->cur.col;
    if (!lx_expect(lx, "{"))
        return NULL;
    fe_stmt *b = new_stmt(FE_S_BLOCK, line, col);
    while (!lx_is(lx, "}")) {
        if (lx->failed)
            goto fail;
        if (lx->cur.kind == TK_EOF) {
            lx_error_at(lx, line, col, "unbalanced '{': the block is not closed");
            goto fail;
        }
        if (lx_accept(lx, ";"))
            continue;
        fe_stmt *s = parse_stmt(lx, sc, depth + 1);
        if (!s)
            goto fail;
        b->body = xrealloc(b->body, (size_t)(b->nbody + 1) * sizeof *b->body);
        b->body[b->nbody++] = s;
    }
    lx_next(lx);
    if (lx->failed)
        goto fail;
    return b;
fail:
    fe_stmt_free(b);
    return NULL;
}

fe_stmt *code_parse_block(lexer *lx, code_scope *sc)
{
    return parse_block_body(lx, sc, 0);
}

static bool expect_semi(lexer *lx)
{
    return lx_expect(lx, ";");
}

static fe_stmt *parse_decl(lexer *lx, code_scope *sc, int depth)
{
    int line = lx->cur.line, col = lx->cur.col;
    char *ty;
    if (sc->java) {
        if (!lx_is_ident(lx, "int")) {
            lx_error(lx, "expected 'int'");
            return NULL;
        }
        ty = xstrdup("int");
        if (!lx_next(lx)) {
            free(ty);
            return NULL;
        }
    } else {
        ty = parse_c_type(lx);
        if (!ty)
            return NULL;
    }
    if (lx->cur.kind != TK_IDENT || (!sc->java && c_is_type_word(lx->cur.s, lx->cur.len))) {
        lx_error(lx, "expected a variable name");
        free(ty);
        return NULL;
    }
    fe_stmt *s = new_stmt(FE_S_DECL, line, col);
    s->type = ty;
    s->name = tok_str(&lx->cur);
    if (sc->java && is_java_handle(&lx->cur)) {
        lx_error(lx, "Java locals start with a lower-case letter");
        fe_stmt_free(s);
        return NULL;
    }
    if (!lx_next(lx))
        goto fail;
    if (lx_accept(lx, "=")) {
        s->e = parse_value_expr(lx, sc, depth);
        if (!s->e)
            goto fail;
    }
    if (lx_is(lx, ","))  {
        lx_error(lx, "declare one variable per statement");
        goto fail;
    }
    if (!expect_semi(lx))
        goto fail;
    /* the name is visible after its initialiser, as in C */
    code_scope_add(sc, s->name, strchr(ty, '*') != NULL);
    return s;
fail:
    fe_stmt_free(s);
    return NULL;
}

static fe_stmt *parse_stmt(lexer *lx, code_scope *sc, int depth)
{
    int line = lx->cur.line, col = lx->cur.col;
    if (!lx_node(lx))
        return NULL;
    if (depth > MAX_DEPTH) {
        lx_error(lx, "statements nested too deeply");
        return NULL;
    }
    if (lx_is(lx, "{"))
        return parse_block_body(lx, sc, depth);
    if (lx_is_ident(lx, "while") || lx_is_ident(lx, "for") || lx_is_ident(lx, "do")) {
        char what[64];
        lx_describe(&lx->cur, what, sizeof what);
        lx_error_at(lx, line, col, "loops are not supported (%s): litmus tests must be loop-free", what);
        return NULL;
    }
    if (lx_is_ident(lx, "if")) {
        fe_stmt *s = new_stmt(FE_S_IF, line, col);
        if (!lx_next(lx) || !lx_expect(lx, "("))
            goto fail_if;
        s->e = parse_value_expr(lx, sc, depth);
        if (!s->e || !lx_expect(lx, ")"))
            goto fail_if;
        s->then_s = parse_stmt(lx, sc, depth + 1);
        if (!s->then_s)
            goto fail_if;
        if (lx_is_ident(lx, "else")) {
            if (!lx_next(lx))
                goto fail_if;
            s->else_s = parse_stmt(lx, sc, depth + 1);
            if (!s->else_s)
                goto fail_if;
        }
        if (lx->failed)
            goto fail_if;
        return s;
    fail_if:
        fe_stmt_free(s);
        return NULL;
    }
    if (lx->cur.kind == TK_IDENT &&
        (sc->java ? lx_is_ident(lx, "int") : c_is_type_word(lx->cur.s, lx->cur.len)))
        return parse_decl(lx, sc, depth);
    if (!sc->java && lx_is(lx, "*")) {
        fe_stmt *s = new_stmt(FE_S_STORE, line, col);
        if (!lx_next(lx))
            goto fail_store;
        tok pt = lx->cur;
        /* the address: a primary, possibly parenthesised or cast */
        s->addr = parse_unary(lx, sc, depth + 1);
        if (!s->addr)
            goto fail_store;
        if (!want_ptr(lx, sc, s->addr, &pt, "cannot store through ", ", it is not a pointer"))
            goto fail_store;
        if (!lx_expect(lx, "="))
            goto fail_store;
        s->e = parse_value_expr(lx, sc, depth);
        if (!s->e || !expect_semi(lx))
            goto fail_store;
        return s;
    fail_store:
        fe_stmt_free(s);
        return NULL;
    }
    if (lx->cur.kind == TK_IDENT) {
        const char *q = lx->cur.end;
        while (q < lx->end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
            q++;
        bool assign = q < lx->end && *q == '=' && !(q + 1 < lx->end && q[1] == '=');
        if (assign) {
            char *name = tok_str(&lx->cur);
            int i = code_scope_find(sc, name);
            if (i < 0) {
                lx_error(lx, "assignment to an undeclared variable");
                free(name);
                return NULL;
            }
            if (!sc->java && sc->is_ptr[i] && sc->th->params) {
                for (int k = 0; k < sc->th->nparams; k++)
                    if (!strcmp(sc->th->params[k].name, name)) {
                        lx_error(lx, "type mismatch: cannot assign to parameter");
                        free(name);
                        return NULL;
                    }
            }
            fe_stmt *s = new_stmt(FE_S_ASSIGN, line, col);
            s->name = name;
            if (!lx_next(lx) || !lx_expect(lx, "=")) {
                fe_stmt_free(s);
                return NULL;
            }
            s->e = parse_value_expr(lx, sc, depth);
            if (!s->e || !expect_semi(lx)) {
                fe_stmt_free(s);
                return NULL;
            }
            return s;
        }
        bool callish = q < lx->end && (*q == '(' || (sc->java && *q == '.'));
        if (callish) {
            fe_stmt *s = new_stmt(FE_S_EXPR, line, col);
            s->e = parse_expr(lx, sc, depth);
            if (!s->e) {
                fe_stmt_free(s);
                return NULL;
            }
            if (s->e->kind != FE_E_CCALL && s->e->kind != FE_E_JCALL) {
                lx_error_at(lx, line, col, "expected a statement");
                fe_stmt_free(s);
                return NULL;
            }
            if (!expect_semi(lx)) {
                fe_stmt_free(s);
                return NULL;
            }
            return s;
        }
    }
    lx_error(lx, "expected a statement");
    return NULL;
}
