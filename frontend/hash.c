/* herd's test hash: hex(MD5(D_info ‖ D_init ‖ D_code ‖ D_obs)), where each
 * part is a raw 16-byte MD5 (D_info is empty unless memory-type info lines
 * are present).  litmus7 and herd compare tests by it, so it must match
 * herd byte for byte: the text each digest covers is rebuilt here exactly
 * as herd prints it (lib/testHash.ml, lib/CTestHash.ml, dumpCAst.ml and
 * the Java dumper). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/md5.h"
#include "util/mem.h"

/* Location order of herd's MiscParser.location_compare: registers first
 * (by thread, then name), then symbolic registers by name, then memory by
 * name. */
static int loc_rank(const fe_loc *l)
{
    return l->kind != FE_LOC_REG ? 2 : l->symbolic ? 1 : 0;
}

static int loc_cmp(const fe_loc *a, const fe_loc *b)
{
    if (loc_rank(a) != loc_rank(b))
        return loc_rank(a) - loc_rank(b);
    if (a->kind == FE_LOC_REG && a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    int c = strcmp(a->text ? a->text : a->name, b->text ? b->text : b->name);
    if (c)
        return c;
    return a->index - b->index;
}

static int init_cmp(const void *x, const void *y)
{
    const fe_init *a = *(const fe_init *const *)x, *b = *(const fe_init *const *)y;
    return loc_cmp(&a->loc, &b->loc);
}

/* Bottom-up merge sort of V[0..N): stable and O(n log n), where the
 * insertion sort it replaces took minutes on tests with 100k locations. */
static void stable_sort_init(const fe_init **v, int n)
{
    const fe_init **tmp = xcalloc((size_t)(n ? n : 1), sizeof *tmp);
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = init_cmp(&v[j], &v[i]) < 0 ? v[j++] : v[i++];
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
        }
        memcpy(v, tmp, (size_t)n * sizeof *v);
    }
    free(tmp);
}

static void dump_loc(strbuf *b, const fe_loc *l)
{
    if (l->kind == FE_LOC_REG && l->symbolic)
        sb_add(b, l->name);     /* herd's dump of a symbolic register: the bare name */
    else if (l->kind == FE_LOC_REG)
        sb_printf(b, "%d:%s", l->thread, l->text ? l->text : l->name);
    else if (l->index >= 0)
        sb_printf(b, "%s[%d]", l->name, l->index);
    else
        sb_add(b, l->name);
}

static void dump_init_value(strbuf *b, const fe_init *it)
{
    if (it->has_value)
        fe_print_value(b, &it->value);
    else
        sb_addc(b, '0');
}

static void digest_init(const fe_test *t, unsigned char out[16])
{
    int n = t->ninit;
    const fe_init **v = xcalloc((size_t)(n ? n : 1), sizeof *v);
    for (int i = 0; i < n; i++)
        v[i] = &t->init[i];
    /* herd's List.sort is stable; so is this merge sort */
    stable_sort_init(v, n);
    strbuf b = {0};
    sb_add(&b, "");
    bool first = true;
    for (int i = 0; i < n; i++) {
        const fe_init *it = v[i];
        if (i > 0 && loc_cmp(&v[i - 1]->loc, &it->loc) == 0)
            continue;
        if (!first)
            sb_add(&b, "; ");
        first = false;
        if (it->array_size) {
            sb_printf(&b, "%s ", it->type ? it->type : "int");
            dump_loc(&b, &it->loc);
            sb_printf(&b, "[%d]", it->array_size);
            continue;
        }
        if (it->type) {
            size_t tl = strlen(it->type);
            if (tl && it->type[tl - 1] == '*') {
                sb_printf(&b, "%.*s *", (int)(tl - 1), it->type);
            } else {
                sb_printf(&b, "%s ", it->type);
            }
        }
        dump_loc(&b, &it->loc);
        sb_addc(&b, '=');
        dump_init_value(&b, it);
    }
    md5(b.s, b.len, out);
    sb_free(&b);
    free(v);
}

/* One more line, owned by the column from now on. */
void fe_col_add(fe_column *c, char *s)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 8;
        c->lines = xrealloc(c->lines, (size_t)c->cap * sizeof *c->lines);
    }
    c->lines[c->n++] = s;
}

/* Misc.string_of_prog: each cell " %-*s " joined by '|', each line ended
 * by ";\n"; the columns' lines are freed. */
void fe_digest_columns(fe_column *cols, int ncols, unsigned char out[16])
{
    size_t *w = xcalloc((size_t)(ncols ? ncols : 1), sizeof *w);
    int nlines = 0;
    for (int j = 0; j < ncols; j++) {
        for (int i = 0; i < cols[j].n; i++) {
            size_t l = strlen(cols[j].lines[i]);
            if (l > w[j])
                w[j] = l;
        }
        if (cols[j].n > nlines)
            nlines = cols[j].n;
    }
    strbuf b = {0};
    sb_add(&b, "");
    for (int i = 0; i < nlines; i++) {
        for (int j = 0; j < ncols; j++) {
            const char *s = i < cols[j].n ? cols[j].lines[i] : "";
            sb_printf(&b, "%s %-*s ", j ? "|" : "", (int)w[j], s);
        }
        sb_add(&b, ";\n");
    }
    md5(b.s, b.len, out);
    sb_free(&b);
    free(w);
    for (int j = 0; j < ncols; j++) {
        for (int i = 0; i < cols[j].n; i++)
            free(cols[j].lines[i]);
        free(cols[j].lines);
    }
}

void fe_labels_add(fe_labels *l, const char *name)
{
    if (!name)
        return;
    for (size_t m = 0; m < l->n; m++)
        if (!strcmp(l->names[m], name))
            return;
    VEC_PUSH(l->names, l->n, l->cap, name);
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void fe_labels_sort(fe_labels *l)
{
    if (l->n)
        qsort(l->names, l->n, sizeof *l->names, str_cmp);
}

bool fe_labels_rename(const fe_labels *l, const char *name, const char *suffix, char out[16])
{
    for (size_t m = 0; name && m < l->n; m++)
        if (!strcmp(l->names[m], name)) {
            snprintf(out, 16, "L%02d%s", (int)m, suffix);
            return true;
        }
    return false;
}

/* herd's CType.dump of a C parameter's pointed-to type. */
static char *c_type_dump(const char *ty)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", ty);
    if (!strcmp(buf, "atomic_int"))
        return xstrdup("_Atomic int");
    if (!strncmp(buf, "const ", 6))
        return xasprintf("%s const", buf + 6);
    return xstrdup(buf);
}

/* C: one cell per thread, "P%i(T* x, ...) {\n<body text>\n}\n", the body
 * exactly as written between the braces. */
static void digest_code_c(const fe_test *t, unsigned char out[16])
{
    fe_column *cols = xcalloc((size_t)(t->nthreads ? t->nthreads : 1), sizeof *cols);
    for (int i = 0; i < t->nthreads; i++) {
        const fe_thread *th = &t->threads[i];
        strbuf b = {0};
        sb_printf(&b, "P%d(", th->id);
        for (int j = 0; j < th->nparams; j++) {
            char *ty = c_type_dump(th->params[j].type);
            sb_printf(&b, "%s%s* %s", j ? ", " : "", ty, th->params[j].name);
            free(ty);
        }
        sb_printf(&b, ") {\n%s\n}\n", th->body_text ? th->body_text : "");
        fe_col_add(&cols[i], sb_take(&b));
    }
    fe_digest_columns(cols, t->nthreads, out);
    free(cols);
}

/* Java: herd's JavaBase.dump_instruction over the parsed body. */
static void java_expr(strbuf *b, const fe_expr *e)
{
    static const char *const mode[] = {"Plain", "Opaque", "Acquire", "Release", "Volatile"};
    switch (e->kind) {
    case FE_E_CONST: sb_printf(b, "%" PRId64, e->value); break;
    case FE_E_REG: sb_add(b, e->name); break;
    case FE_E_BIN: {
        static const char *const ops[FE_BINOP_COUNT] = {
            [FE_ADD] = "+", [FE_SUB] = "-", [FE_MUL] = "*", [FE_DIV] = "/", [FE_AND] = "&", [FE_OR] = "|",
            [FE_XOR] = "^", [FE_EQ] = "==", [FE_NE] = "!=", [FE_LT] = "<", [FE_LE] = "<=", [FE_GT] = ">",
            [FE_GE] = ">=",
        };
        java_expr(b, e->l);
        sb_printf(b, " %s ", ops[e->op]);
        java_expr(b, e->r);
        break;
    }
    case FE_E_JCALL:
        if (e->jmethod == FE_J_GET) {
            sb_printf(b, "%s.get%s()", e->name, mode[e->jmode]);
        } else if (e->jmethod == FE_J_CAE && e->nargs == 2) {
            const char *sfx = e->jmode == FE_JM_ACQUIRE ? "Acquire" : e->jmode == FE_JM_RELEASE ? "Release" : "";
            sb_printf(b, "%s.compareAndExchange%s(", e->name, sfx);
            java_expr(b, e->args[0]);
            sb_add(b, ", ");
            java_expr(b, e->args[1]);
            sb_addc(b, ')');
        } else if (e->jmethod >= FE_J_GET_AND_ADD && e->jmethod <= FE_J_GET_AND_XOR && e->nargs == 1) {
            static const char *const base[] = {"Add", "BitwiseOr", "BitwiseAnd", "BitwiseXor"};
            const char *sfx = e->jmode == FE_JM_ACQUIRE ? "Acquire" : e->jmode == FE_JM_RELEASE ? "Release" : "";
            sb_printf(b, "%s.getAnd%s%s(", e->name, base[e->jmethod - FE_J_GET_AND_ADD], sfx);
            java_expr(b, e->args[0]);
            sb_addc(b, ')');
        } else {
            /* forms herd lacks: our own spelling keeps the hash deterministic */
            sb_printf(b, "%s.%s(", e->name ? e->name : "VarHandle", fe_jmethod_name(e->jmethod, e->jmode));
            for (int i = 0; i < e->nargs; i++) {
                if (i)
                    sb_add(b, ", ");
                java_expr(b, e->args[i]);
            }
            sb_addc(b, ')');
        }
        break;
    default:
        break;
    }
}

static void java_stmt(strbuf *b, const fe_stmt *s, bool *emitted);

static void java_seq(strbuf *b, const fe_stmt *blk)
{
    for (int i = 0; i < blk->nbody; i++) {
        bool emitted = false;
        strbuf one = {0};
        java_stmt(&one, blk->body[i], &emitted);
        if (emitted) {
            sb_add(b, one.s ? one.s : "");
            sb_addc(b, '\n');
        }
        sb_free(&one);
    }
}

static void java_stmt(strbuf *b, const fe_stmt *s, bool *emitted)
{
    static const char *const mode[] = {"Plain", "Opaque", "Acquire", "Release", "Volatile"};
    *emitted = true;
    switch (s->kind) {
    case FE_S_DECL:
        if (!s->e) {
            *emitted = false;   /* herd drops `int r;` */
            return;
        }
        /* fall through */
    case FE_S_ASSIGN:
        sb_printf(b, "%s = ", s->name);
        java_expr(b, s->e);
        sb_addc(b, ';');
        break;
    case FE_S_EXPR: {
        const fe_expr *e = s->e;
        if (e->kind == FE_E_JCALL && e->jmethod == FE_J_SET && e->nargs == 1) {
            sb_printf(b, "%s.set%s(", e->name, mode[e->jmode]);
            java_expr(b, e->args[0]);
            sb_add(b, ");");
        } else if (e->kind == FE_E_JCALL && e->jmethod >= FE_J_FENCE_FULL) {
            static const char *const f[] = {"VarHandle.fullFence();", "VarHandle.acquireFence();",
                                            "VarHandle.releaseFence();", "VarHandle.acquireFence();",
                                            "VarHandle.releaseFence();"};
            sb_add(b, f[e->jmethod - FE_J_FENCE_FULL]);
        } else {
            java_expr(b, e);
            sb_addc(b, ';');
        }
        break;
    }
    case FE_S_IF: {
        bool dummy;
        sb_add(b, "if (");
        java_expr(b, s->e);
        sb_add(b, ") {\n ");
        java_stmt(b, s->then_s, &dummy);
        sb_add(b, " \n} ");
        if (s->else_s) {
            sb_add(b, "{\n");
            java_stmt(b, s->else_s, &dummy);
            sb_add(b, "\n}");
        }
        break;
    }
    case FE_S_BLOCK:
        java_seq(b, s);
        break;
    case FE_S_SYNC:
        /* herd's Java has no synchronized: the hash covers it in the
         * shape of its if blocks */
        sb_printf(b, "synchronized (%s) {\n", s->name);
        java_seq(b, s->then_s);
        sb_addc(b, '}');
        break;
    case FE_S_WHILE:
    case FE_S_DO: {
        /* nor has it loops or join: hashed in the same spirit */
        bool dummy;
        sb_add(b, s->kind == FE_S_WHILE ? "while (" : "do {\n");
        if (s->kind == FE_S_WHILE) {
            java_expr(b, s->e);
            sb_add(b, ") {\n");
        }
        java_stmt(b, s->then_s, &dummy);
        sb_add(b, "\n}");
        if (s->kind == FE_S_DO) {
            sb_add(b, " while (");
            java_expr(b, s->e);
            sb_add(b, ");");
        }
        break;
    }
    case FE_S_JOIN:
        sb_printf(b, "%s.join();", s->name);
        break;
    case FE_S_STORE:
        break;
    }
}

static void digest_code_java(const fe_test *t, unsigned char out[16])
{
    fe_column *cols = xcalloc((size_t)(t->nthreads ? t->nthreads : 1), sizeof *cols);
    for (int i = 0; i < t->nthreads; i++) {
        const fe_thread *th = &t->threads[i];
        /* the top-level instructions are joined by "\n" (no trailing one) */
        strbuf body = {0};
        sb_add(&body, "");
        bool first = true;
        for (int j = 0; th->body && j < th->body->nbody; j++) {
            bool emitted = false;
            strbuf one = {0};
            java_stmt(&one, th->body->body[j], &emitted);
            if (emitted) {
                if (!first)
                    sb_addc(&body, '\n');
                sb_add(&body, one.s ? one.s : "");
                first = false;
            }
            sb_free(&one);
        }
        fe_col_add(&cols[i], xasprintf("Thread%d {\n%s\n}", th->id, body.s));
        sb_free(&body);
    }
    fe_digest_columns(cols, t->nthreads, out);
    free(cols);
}

static void add_obs(const fe_loc ***v, size_t *n, size_t *cap, const fe_loc *l)
{
    for (size_t i = 0; i < *n; i++)
        if (loc_cmp((*v)[i], l) == 0)
            return;
    VEC_PUSH(*v, *n, *cap, l);
}

static void obs_of_prop(const fe_prop *p, const fe_loc ***v, size_t *n, size_t *cap)
{
    if (!p)
        return;
    if (p->kind == FE_P_ATOM) {
        add_obs(v, n, cap, &p->lhs);
        if (p->rhs_is_loc)
            add_obs(v, n, cap, &p->rhs_loc);
    }
    obs_of_prop(p->l, v, n, cap);
    obs_of_prop(p->r, v, n, cap);
}

static int obs_cmp(const void *a, const void *b)
{
    return loc_cmp(*(const fe_loc *const *)a, *(const fe_loc *const *)b);
}

static void digest_observed(const fe_test *t, unsigned char out[16])
{
    const fe_loc **v = NULL;
    size_t n = 0, cap = 0;
    for (int i = 0; i < t->cond.nlocations; i++)
        add_obs(&v, &n, &cap, &t->cond.locations[i]);
    obs_of_prop(t->cond.prop, &v, &n, &cap);
    if (n)
        qsort(v, n, sizeof *v, obs_cmp);
    strbuf b = {0};
    sb_add(&b, "");
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_add(&b, "; ");
        dump_loc(&b, v[i]);
    }
    md5(b.s, b.len, out);
    sb_free(&b);
    free(v);
}

static int info_cmp(const void *a, const void *b)
{
    return strcmp((*(const fe_info *const *)a)->key, (*(const fe_info *const *)b)->key);
}

/* D_info: only memory-type keys count; with none it is empty. */
static bool digest_info(const fe_test *t, unsigned char out[16])
{
    const fe_info **v = NULL;
    size_t n = 0, cap = 0;
    for (int i = 0; i < t->ninfo; i++) {
        const char *k = t->info[i].key;
        if (!strcmp(k, "MemoryType") || !strcmp(k, "MT") || !strcmp(k, "CacheType"))
            VEC_PUSH(v, n, cap, &t->info[i]);
    }
    if (!n) {
        free(v);
        return false;
    }
    qsort(v, n, sizeof *v, info_cmp);
    strbuf b = {0};
    /* herd folds with cons, so the sorted items end up reversed */
    for (size_t i = n; i-- > 0;) {
        for (const char *k = v[i]->key; *k; k++)
            sb_addc(&b, (char)(*k >= 'A' && *k <= 'Z' ? *k - 'A' + 'a' : *k));
        sb_printf(&b, "=%s", v[i]->value);
    }
    md5(b.s, b.len, out);
    sb_free(&b);
    free(v);
    return true;
}

void fe_compute_hash(const fe_test *t, char out[33])
{
    unsigned char parts[64], *p = parts, d[16];
    if (digest_info(t, p))
        p += 16;
    digest_init(t, p);
    p += 16;
    const fe_isa_hooks *h = fe_isa_hooks_of(t->arch);
    if (h)
        h->digest(t, p);
    else if (t->arch == FE_ARCH_C)
        digest_code_c(t, p);
    else
        digest_code_java(t, p);
    p += 16;
    digest_observed(t, p);
    p += 16;
    md5(parts, (size_t)(p - parts), d);
    md5_hex(d, out);
}
