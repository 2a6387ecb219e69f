/* The init grammar (herd's stateParser), shared by every architecture:
 * init items `x=1; [y]=2; int z; 0:EAX=x; P1:r0=1;`, and the locations and
 * values the condition (frontend/cond.c) reads too. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/internal.h"
#include "isa/isa.h"
#include "util/mem.h"

/* Is the current token `P<digits>` or a number, followed by ':'?  That is
 * a thread prefix.  Sets *thread. */
bool fe_state_thread_prefix(lexer *lx, int *thread)
{
    const tok *t = &lx->cur;
    const char *digits = NULL;
    size_t nd = 0;
    if (t->kind == TK_NUM) {
        digits = t->s;
        nd = t->len;
    } else if (t->kind == TK_IDENT && t->len >= 2 && t->s[0] == 'P') {
        for (size_t i = 1; i < t->len; i++)
            if (!isdigit((unsigned char)t->s[i]))
                return false;
        digits = t->s + 1;
        nd = t->len - 1;
    } else {
        return false;
    }
    /* peek: the next byte after blanks must be ':' */
    const char *q = t->end;
    while (q < lx->end && (*q == ' ' || *q == '\t'))
        q++;
    if (q >= lx->end || *q != ':')
        return false;
    if (nd > 4 || (t->kind == TK_NUM && t->s[0] == '0' && t->len > 1 && (t->s[1] == 'x' || t->s[1] == 'X')))
        return false;
    int v = 0;
    for (size_t i = 0; i < nd; i++)
        v = v * 10 + (digits[i] - '0');
    *thread = v;
    return true;
}

/* Register name after `N:`: NAME, or %NAME.  Normalised per arch. */
static bool parse_reg_name(lexer *lx, const fe_test *t, fe_loc *loc)
{
    lx_accept(lx, "%");
    if (lx->failed)
        return false;
    if (lx->cur.kind != TK_IDENT)
        return lx_error(lx, "expected a register name");
    char *name = tok_str(&lx->cur);
    char *written = tok_str(&lx->cur);
    const fe_isa_hooks *h = fe_isa_hooks_of(t->arch);
    if (h) {
        bool narrow = false;
        const char *r = h->reg_canon(t, name, &narrow);
        if (r && narrow) {
            free(name);
            free(written);
            return lx_error(lx, "%s conditions and init name %d-bit registers (%s)", isa_of(t->arch)->name,
                            isa_of(t->arch)->wide ? 64 : 32, r);
        }
        if (r) {
            free(name);
            name = xstrdup(r);
        }
    }
    loc->name = name;
    if (strcmp(written, name))
        loc->text = written;
    else
        free(written);
    return lx_next(lx);
}

/* loc := N:reg | PN:reg | [x] | x | x[i] */
bool fe_state_parse_loc(lexer *lx, const fe_test *t, fe_loc *loc)
{
    memset(loc, 0, sizeof *loc);
    loc->index = -1;
    loc->pos.line = lx->cur.line;
    loc->pos.col = lx->cur.col;
    int th;
    if (fe_state_thread_prefix(lx, &th)) {
        loc->kind = FE_LOC_REG;
        loc->thread = th;
        if (!lx_next(lx) || !lx_expect(lx, ":"))
            return false;
        return parse_reg_name(lx, t, loc);
    }
    loc->kind = FE_LOC_MEM;
    if (lx_accept(lx, "[")) {
        if (lx->cur.kind != TK_IDENT)
            return lx_error(lx, "expected a location name inside '[ ]'");
        loc->name = tok_str(&lx->cur);
        if (!lx_next(lx))
            return false;
        return lx_expect(lx, "]");
    }
    if (lx->failed)
        return false;
    if (lx->cur.kind != TK_IDENT)
        return lx_error(lx, "expected a location or a register");
    loc->name = tok_str(&lx->cur);
    if (!lx_next(lx))
        return false;
    if (lx_accept(lx, "[")) {
        if (lx->cur.kind != TK_NUM || lx->cur.big || lx->cur.num > 1000000)
            return lx_error(lx, "expected an array index");
        loc->index = (int)lx->cur.num;
        if (!lx_next(lx))
            return false;
        return lx_expect(lx, "]");
    }
    return !lx->failed;
}

/* value := [-] NUM | NAME | &NAME */
bool fe_state_parse_value(lexer *lx, fe_value *v)
{
    memset(v, 0, sizeof *v);
    v->pos.line = lx->cur.line;
    v->pos.col = lx->cur.col;
    bool neg = false;
    if (lx_accept(lx, "-"))
        neg = true;
    else if (lx_accept(lx, "&")) {
        if (lx->cur.kind != TK_IDENT)
            return lx_error(lx, "expected a location name after '&'");
    }
    if (lx->failed)
        return false;
    if (lx->cur.kind == TK_NUM) {
        uint64_t u = lx->cur.num;
        if (lx->cur.big || (!neg && u > (uint64_t)INT64_MAX && !(lx->cur.len > 2 && lx->cur.s[1] == 'x')) ||
            (neg && u > (uint64_t)INT64_MAX + 1))
            return lx_error(lx, "number out of range (values are 64-bit)");
        v->kind = FE_VAL_INT;
        v->i = neg ? (int64_t)(0 - u) : (int64_t)u;
        v->text = xasprintf("%s%.*s", neg ? "-" : "", (int)lx->cur.len, lx->cur.s);
        return lx_next(lx);
    }
    if (neg)
        return lx_error(lx, "expected a number after '-'");
    if (lx->cur.kind == TK_IDENT) {
        v->kind = FE_VAL_ADDR;
        v->sym = tok_str(&lx->cur);
        return lx_next(lx);
    }
    return lx_error(lx, "expected a value");
}

/* ---- init ---------------------------------------------------------------- */

static bool parse_init_item(lexer *lx, fe_test *t, fe_init *it)
{
    memset(it, 0, sizeof *it);
    int th;
    if (fe_state_thread_prefix(lx, &th) || lx_is(lx, "[")) {
        if (!fe_state_parse_loc(lx, t, &it->loc))
            return false;
    } else {
        /* [type words] [*...] name [ '[' N ']' ] */
        strbuf ty = {0};
        tok words[16];
        int nw = 0, stars = 0, star_after = -1;
        int line = lx->cur.line, col = lx->cur.col;
        if (lx_is(lx, "*")) {
            sb_free(&ty);
            return lx_error(lx, "'*x=v' init items are not supported; write 'T *x=v'");
        }
        while (lx->cur.kind == TK_IDENT || lx_is(lx, "*") || (nw > 0 && !stars && lx->cur.kind == TK_NUM) ||
               (nw > 0 && !stars && isa_of(t->arch) && isa_of(t->arch)->sym_init && lx_is(lx, "%"))) {
            if (lx_is(lx, "%")) {
                /* herd's symbolic register, `uint64_t %P1_x=x`: its thread
                 * is the one whose code uses it (fe_parse_x86 sets it) */
                for (int i = 0; i < nw; i++) {
                    if (i)
                        sb_addc(&ty, ' ');
                    sb_addn(&ty, words[i].s, words[i].len);
                }
                it->type = sb_take(&ty);
                it->loc.kind = FE_LOC_REG;
                it->loc.thread = -1;
                it->loc.index = -1;
                it->loc.symbolic = true;
                it->loc.pos.line = lx->cur.line;
                it->loc.pos.col = lx->cur.col;
                if (!lx_next(lx))
                    return false;
                if (lx->cur.kind != TK_IDENT)
                    return lx_error(lx, "expected a register name after '%%'");
                char *name = tok_str(&lx->cur);
                int size;
                if (x86_64_reg(name, &size)) {
                    lx_error_at(lx, lx->cur.line, lx->cur.col,
                                "register %%%s in the init needs its thread (0:%s); only a symbolic register "
                                "goes without one", name, name);
                    free(name);
                    return false;
                }
                it->loc.name = name;
                if (!lx_next(lx))
                    return false;
                goto value;
            }
            if (nw > 0 && !stars && fe_state_thread_prefix(lx, &th)) {
                /* a typed register, `uint64_t 1:rax=x` (herd's X86_64
                 * tests type the registers that hold addresses) */
                for (int i = 0; i < nw; i++) {
                    if (i)
                        sb_addc(&ty, ' ');
                    sb_addn(&ty, words[i].s, words[i].len);
                }
                it->type = sb_take(&ty);
                if (!fe_state_parse_loc(lx, t, &it->loc))
                    return false;
                if (it->loc.kind == FE_LOC_MEM)
                    return lx_error_at(lx, line, col, "expected a register after the type");
                goto value;
            }
            if (lx->cur.kind == TK_NUM)
                break;
            if (lx_is(lx, "*")) {
                if (nw == 0)
                    break;
                stars++;
                star_after = nw;
            } else {
                if (nw == 16) {
                    sb_free(&ty);
                    return lx_error(lx, "too many words in an init item");
                }
                if (stars && star_after != nw) {
                    sb_free(&ty);
                    return lx_error(lx, "unexpected name after the location");
                }
                words[nw++] = lx->cur;
            }
            if (!lx_next(lx)) {
                sb_free(&ty);
                return false;
            }
        }
        if (lx->failed)
            return false;
        if (nw == 0)
            return lx_error(lx, "expected an init item (x=0; 0:EAX=1; int x=2)");
        if (stars && star_after != nw - 1) {
            return lx_error_at(lx, line, col, "malformed pointer declaration");
        }
        for (int i = 0; i < nw - 1; i++) {
            if (i)
                sb_addc(&ty, ' ');
            sb_addn(&ty, words[i].s, words[i].len);
        }
        if (nw > 1 || stars) {
            if (nw == 1) {
                sb_free(&ty);
                return lx_error_at(lx, line, col, "a pointer needs a type ('int *p=x')");
            }
            for (int i = 0; i < stars; i++)
                sb_addc(&ty, '*');
            it->type = sb_take(&ty);
        }
        sb_free(&ty);
        it->loc.kind = FE_LOC_MEM;
        it->loc.name = tok_str(&words[nw - 1]);
        it->loc.index = -1;
        it->loc.pos.line = words[nw - 1].line;
        it->loc.pos.col = words[nw - 1].col;
        if (lx_accept(lx, "[")) {
            if (lx->cur.kind != TK_NUM || lx->cur.big || lx->cur.num == 0 || lx->cur.num > 4096)
                return lx_error(lx, "expected an array size");
            it->array_size = (int)lx->cur.num;
            if (!lx_next(lx) || !lx_expect(lx, "]"))
                return false;
            if (!it->type)
                return lx_error(lx, "an array needs a type ('int a[2]')");
        }
        if (lx->failed)
            return false;
    }
value:
    if (!lx_accept(lx, "=")) {
        if (lx->failed)
            return false;
        return true;    /* bare `x` or `int x`: zero */
    }
    it->has_value = true;
    if (it->array_size) {
        if (!lx_expect(lx, "{"))
            return false;
        size_t cap = 0, n = 0;
        for (;;) {
            fe_value v;
            if (!fe_state_parse_value(lx, &v))
                return false;
            VEC_PUSH(it->elems, n, cap, v);
            it->nelems = (int)n;
            if (!lx_accept(lx, ","))
                break;
        }
        if (!lx_expect(lx, "}"))
            return false;
        if (it->nelems != it->array_size)
            return lx_error(lx, "array %s has size %d but %d initial values", it->loc.name,
                            it->array_size, it->nelems);
        return true;
    }
    if (lx_is_ident(lx, "ATOMIC_INIT")) {
        if (!lx_next(lx) || !lx_expect(lx, "(") || !fe_state_parse_value(lx, &it->value))
            return false;
        return lx_expect(lx, ")");
    }
    return fe_state_parse_value(lx, &it->value);
}

static bool same_loc(const fe_loc *a, const fe_loc *b)
{
    return a->kind == b->kind && a->thread == b->thread && a->index == b->index && !strcmp(a->name, b->name);
}

/* FNV-1a over what same_loc compares. */
static uint64_t loc_hash(const fe_loc *l)
{
    uint64_t h = 1469598103934665603u;
    int parts[3] = {(int)l->kind, l->thread, l->index};
    for (size_t i = 0; i < sizeof parts; i++)
        h = (h ^ ((const unsigned char *)parts)[i]) * 1099511628211u;
    for (const unsigned char *p = (const unsigned char *)l->name; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    return h;
}

/* The init locations seen so far, by hash (open addressing, slots hold
 * index + 1): the duplicate check stays linear in the number of items. */
typedef struct init_set {
    size_t *slot;
    size_t cap, n;
} init_set;

/* Adds item N of T; false when an equal location is already there. */
static bool init_set_add(init_set *h, const fe_test *t, size_t n)
{
    if (2 * (h->n + 1) > h->cap) {
        size_t ncap = h->cap ? 2 * h->cap : 64;
        size_t *ns = xcalloc(ncap, sizeof *ns);
        for (size_t i = 0; i < h->cap; i++)
            if (h->slot[i]) {
                size_t j = loc_hash(&t->init[h->slot[i] - 1].loc) & (ncap - 1);
                while (ns[j])
                    j = (j + 1) & (ncap - 1);
                ns[j] = h->slot[i];
            }
        free(h->slot);
        h->slot = ns;
        h->cap = ncap;
    }
    const fe_loc *l = &t->init[n].loc;
    size_t j = loc_hash(l) & (h->cap - 1);
    for (; h->slot[j]; j = (j + 1) & (h->cap - 1))
        if (same_loc(&t->init[h->slot[j] - 1].loc, l))
            return false;
    h->slot[j] = n + 1;
    h->n++;
    return true;
}

bool fe_parse_init(fe_test *t, const section *s, const char *file, diag *d)
{
    lexer lx;
    lx_init(&lx, s->p, s->end, s->line, s->col, LX_ML_COMMENTS, file, d);
    size_t cap = 0, n = 0;
    init_set seen = {0};
    bool ok = true;
    while (!lx.failed && lx.cur.kind != TK_EOF) {
        if (lx_accept(&lx, ";"))
            continue;
        fe_init it;
        ok = parse_init_item(&lx, t, &it);
        VEC_PUSH(t->init, n, cap, it);
        t->ninit = (int)n;
        if (!ok)
            break;
        if (!init_set_add(&seen, t, n - 1)) {
            ok = diag_error(d, file, it.loc.pos.line, it.loc.pos.col, "location %s is initialised twice",
                            it.loc.name);
            break;
        }
        if (lx.cur.kind == TK_EOF)
            break;
        if (!lx_expect(&lx, ";")) {
            ok = false;
            break;
        }
    }
    free(seen.slot);
    return ok && !lx.failed;
}

