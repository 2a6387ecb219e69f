/* Expressions of C and Java thread bodies: constants, locals, casts and
 * dereferences, the binary operator levels of each language, and the
 * memory accesses, C's atomic_* builtins and Java's VarHandle methods.
 * Apart from the statements (frontend/code.c) because this is where the
 * two languages differ: operators, precedence and access syntax. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/mem.h"

static fe_expr *new_expr(fe_expr_kind k, const tok *at)
{
    fe_expr *e = xcalloc(1, sizeof *e);
    e->kind = k;
    e->pos = (fe_pos){at->line, at->col};
    return e;
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
    {"spin_lock", FE_C_SPIN_LOCK, true}, {"spin_unlock", FE_C_SPIN_UNLOCK, true},
    {"spin_trylock", FE_C_SPIN_TRYLOCK, true}, {"__lock", FE_C_SPIN_LOCK, false},
    {"__unlock", FE_C_SPIN_UNLOCK, false}, {"__trylock", FE_C_SPIN_TRYLOCK, false},
    {"mtx_lock", FE_C_MTX_LOCK, true}, {"mtx_unlock", FE_C_MTX_UNLOCK, true},
    {"mtx_trylock", FE_C_MTX_TRYLOCK, true}, {"lock", FE_C_MTX_LOCK, false}, {"unlock", FE_C_MTX_UNLOCK, false},
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
bool code_want_ptr(lexer *lx, const code_scope *sc, const fe_expr *e, const tok *at, const char *pre,
                   const char *post)
{
    if (expr_is_ptr(sc, e))
        return true;
    char what[64];
    lx_describe(at, what, sizeof what);
    lx_error_at(lx, at->line, at->col, "type mismatch: %s%s%s", pre, what, post);
    return false;
}

/* E once the ')' closing it is read, else NULL with E freed; a NULL E (an
 * operand that failed) is passed on. */
static fe_expr *closed(lexer *lx, fe_expr *e)
{
    if (e && !lx_expect(lx, ")")) {
        fe_expr_free(e);
        return NULL;
    }
    return e;
}

/* An address argument: an expression that must be a pointer. */
static fe_expr *parse_addr_arg(lexer *lx, code_scope *sc, int depth)
{
    tok at = lx->cur;
    fe_expr *e = code_parse_expr(lx, sc, depth + 1);
    if (e && !code_want_ptr(lx, sc, e, &at, "", " is not a pointer")) {
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
        return closed(lx, e);
    }
    fe_expr *a = parse_addr_arg(lx, sc, depth);
    if (!a)
        goto fail;
    add_arg(e, a);
    if (c >= FE_C_SPIN_LOCK)    /* a lock call takes the mutex alone */
        return closed(lx, e);
    int nvals = c == FE_C_LOAD ? 0 : (c == FE_C_CAS_STRONG || c == FE_C_CAS_WEAK) ? 2 : 1;
    for (int i = 0; i < nvals; i++) {
        if (!lx_expect(lx, ","))
            goto fail;
        fe_expr *v = (i == 0 && nvals == 2) ? parse_addr_arg(lx, sc, depth) : code_parse_expr(lx, sc, depth + 1);
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
    return closed(lx, e);
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
        fe_expr *a = code_parse_expr(lx, sc, depth + 1);
        if (!a)
            goto fail;
        add_arg(e, a);
    }
    return closed(lx, e);
fail:
    fe_expr_free(e);
    return NULL;
}

bool code_is_java_handle(const tok *t)
{
    return t->kind == TK_IDENT && (isupper((unsigned char)t->s[0]));
}

fe_expr *code_parse_unary(lexer *lx, code_scope *sc, int depth)
{
    if (!lx_node(lx, depth, CODE_MAX_DEPTH, "expression"))
        return NULL;
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
    if (sc->java && (lx_is_ident(lx, "true") || lx_is_ident(lx, "false"))) {
        /* Java's boolean literals, for conditions such as while (true) */
        fe_expr *e = new_expr(FE_E_CONST, &at);
        e->value = lx_is_ident(lx, "true");
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
        fe_expr *sub = code_parse_unary(lx, sc, depth + 1);
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
        fe_expr *sub = code_parse_unary(lx, sc, depth + 1);
        if (!sub)
            return NULL;
        if (!code_want_ptr(lx, sc, sub, &pt, "cannot dereference ", ", it is not a pointer")) {
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
        if (!sc->java && lx->cur.kind == TK_IDENT && code_is_c_type_word(lx->cur.s, lx->cur.len)) {
            char *ty = code_parse_c_type(lx);
            if (!ty)
                return NULL;
            if (!lx_expect(lx, ")")) {
                free(ty);
                return NULL;
            }
            fe_expr *sub = code_parse_unary(lx, sc, depth + 1);
            if (!sub) {
                free(ty);
                return NULL;
            }
            fe_expr *e = new_expr(FE_E_CAST, &at);
            e->type = ty;
            e->l = sub;
            return e;
        }
        return closed(lx, code_parse_expr(lx, sc, depth + 1));
    }
    if (lx->cur.kind == TK_IDENT) {
        const char *q = lx->cur.end;
        while (q < lx->end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
            q++;
        bool call = q < lx->end && *q == '(';
        bool dot = q < lx->end && *q == '.';
        if (sc->java) {
            if (dot && code_is_java_handle(&lx->cur))
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
 * Java (herd): || ^ && cmp +- * /, where || and && are bitwise: the same
 * levels, with the first and third spelled doubled (java_op). */
typedef struct binlvl { const char *ops[6]; fe_binop bops[6]; bool nonassoc; } binlvl;

static const binlvl levels[] = {
    {{"|"}, {FE_OR}, false},
    {{"^"}, {FE_XOR}, false},
    {{"&"}, {FE_AND}, false},
    {{"==", "!=", "<=", ">=", "<", ">"}, {FE_EQ, FE_NE, FE_LE, FE_GE, FE_LT, FE_GT}, true},
    {{"+", "-"}, {FE_ADD, FE_SUB}, false},
    {{"*", "/"}, {FE_MUL, FE_DIV}, false},
};
enum { NLEVELS = 6 };

static const char *java_op(const char *op)
{
    return !strcmp(op, "|") ? "||" : !strcmp(op, "&") ? "&&" : op;
}

static int match_op(const lexer *lx, const binlvl *lv, bool java)
{
    for (int i = 0; i < 6 && lv->ops[i]; i++)
        if (lx_is(lx, java ? java_op(lv->ops[i]) : lv->ops[i]))
            return i;
    return -1;
}

static fe_expr *parse_level(lexer *lx, code_scope *sc, int level, int depth)
{
    if (level == NLEVELS)
        return code_parse_unary(lx, sc, depth);
    const binlvl *lv = &levels[level];
    fe_expr *l = parse_level(lx, sc, level + 1, depth);
    if (!l)
        return NULL;
    for (;;) {
        int k = match_op(lx, lv, sc->java);
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
        if (lv->nonassoc && match_op(lx, lv, sc->java) >= 0) {
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

fe_expr *code_parse_expr(lexer *lx, code_scope *sc, int depth)
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

fe_expr *code_parse_value_expr(lexer *lx, code_scope *sc, int depth)
{
    fe_expr *e = code_parse_expr(lx, sc, depth);
    if (e && !check_has_value(lx, e)) {
        fe_expr_free(e);
        return NULL;
    }
    return e;
}
