/* Compilation schemes as data: the parser for .scheme files
 * (backends/schemes/README.md) and the look-up of shipped schemes, which
 * are compiled into the program (util/embed.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backends/x86/scheme_internal.h"
#include "util/embed.h"
#include "util/file.h"
#include "util/mem.h"

static const char *const builtin_names[] = {
    "java-x86-hotspot", "java-x86-leading", "c11-x86-xchg", "c11-x86-mfence",
    "broken-java-x86-nofence", "broken-c11-x86-plainsc", "x86-identity", NULL,
};

const char *const *x86_scheme_builtins(void) { return builtin_names; }

const char *scheme_kind_name(scheme_kind k)
{
    static const char *const names[SK_COUNT] = {"load", "store", "rmw", "fence"};
    return (unsigned)k < SK_COUNT ? names[k] : "?";
}

/* ---- a line cut into words, each with its column ------------------------ */
typedef struct word { const char *s; int len, col; } word;

/* Split [p, end) at blanks into at most MAX words. */
static int split_words(const char *line, const char *p, const char *end, word *w, int max)
{
    int n = 0;
    while (p < end) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p >= end)
            break;
        const char *q = p;
        while (q < end && !isspace((unsigned char)*q))
            q++;
        if (n < max)
            w[n] = (word){p, (int)(q - p), (int)(p - line) + 1};
        n++;
        p = q;
    }
    return n;
}

static bool word_is(const word *w, const char *s)
{
    return (int)strlen(s) == w->len && !strncmp(w->s, s, (size_t)w->len);
}

/* Parse a comma list of names from NAMES[0..n) (or "*") into a bit mask.
 * Returns false with the offending name's column in *badcol. */
static bool parse_list(const word *w, const char *(*name)(int), int n, uint32_t *mask, int *badcol,
                       char *bad, size_t badsize)
{
    *mask = 0;
    if (word_is(w, "*")) {
        *mask = (n >= 32) ? 0xffffffffu : ((1u << n) - 1);
        return true;
    }
    const char *p = w->s, *end = w->s + w->len;
    while (p <= end) {
        const char *q = p;
        while (q < end && *q != ',')
            q++;
        int found = -1;
        for (int i = 0; i < n; i++) {
            const char *nm = name(i);
            if ((size_t)(q - p) == strlen(nm) && !strncmp(p, nm, (size_t)(q - p)))
                found = i;
        }
        if (found < 0) {
            *badcol = w->col + (int)(p - w->s);
            snprintf(bad, badsize, "%.*s", (int)(q - p), p);
            return false;
        }
        *mask |= 1u << found;
        p = q + 1;
    }
    return true;
}

static const char *mode_at(int i) { return ir_mode_name((ir_mode)i); }
static const char *rmw_at(int i) { return ir_rmw_name((ir_rmw_op)i); }
static const char *fence_at(int i) { return ir_fence_name((ir_fence_kind)i); }

/* The modes a source language's tests use; a rule naming any other mode is
 * a mistake in the scheme. */
static uint32_t arch_modes(ir_arch a)
{
    uint32_t m = 0;
    int lo, hi;
    switch (a) {
    case IR_ARCH_C: lo = IR_MO_NA; hi = IR_MO_SC; break;
    case IR_ARCH_JAVA: lo = IR_JM_PLAIN; hi = IR_JM_VOLATILE; break;
    default: lo = IR_X86_PLAIN; hi = IR_X86_LOCKED; break;
    }
    for (int i = lo; i <= hi; i++)
        m |= 1u << i;
    return m;
}

/* Normalise one sequence item: upper case, single blanks, no blanks around
 * ',' and no '$' before an immediate. */
static void normalise_item(const char *p, const char *end, char *out, size_t size)
{
    size_t n = 0;
    bool blank = false;
    for (; p < end && n + 2 < size; p++) {
        char c = *p;
        if (isspace((unsigned char)c)) {
            blank = n > 0;
            continue;
        }
        if (c == '$')
            continue;
        if (blank && c != ',' && out[n - 1] != ',')
            out[n++] = ' ';
        blank = false;
        out[n++] = (char)toupper((unsigned char)c);
    }
    out[n] = 0;
}

static bool parse_item(const char *text, scheme_item *it)
{
    static const struct { const char *s; scheme_item_kind k; ir_rmw_op op; } items[] = {
        {"MOV", SI_MOV, 0}, {"XCHG", SI_XCHG, 0},
        {"LOCK XADD", SI_LOCK_XADD, 0}, {"LOCK CMPXCHG", SI_LOCK_CMPXCHG, 0},
        {"LOCK ADD", SI_LOCK_OP, IR_RMW_ADD}, {"LOCK SUB", SI_LOCK_OP, IR_RMW_SUB},
        {"LOCK AND", SI_LOCK_OP, IR_RMW_AND}, {"LOCK OR", SI_LOCK_OP, IR_RMW_OR},
        {"LOCK XOR", SI_LOCK_OP, IR_RMW_XOR},
        {"MFENCE", SI_MFENCE, 0}, {"LFENCE", SI_LFENCE, 0}, {"SFENCE", SI_SFENCE, 0},
        {"LOCK ADD [SCRATCH],0", SI_LOCK_ADD_SCRATCH, 0},
    };
    char t[64];
    snprintf(t, sizeof t, "%s", text);
    /* "LOCK; ADD" is herd's spelling of the prefix. */
    if (!strncmp(t, "LOCK;", 5)) {
        memmove(t + 4, t + 5, strlen(t + 5) + 1);
        if (t[4] != ' ') {
            memmove(t + 5, t + 4, strlen(t + 4) + 1);
            t[4] = ' ';
        }
    }
    for (size_t i = 0; i < sizeof items / sizeof *items; i++)
        if (!strcmp(t, items[i].s)) {
            it->kind = items[i].k;
            it->op = items[i].op;
            return true;
        }
    return false;
}

static bool is_access(scheme_item_kind k) { return k <= SI_LOCK_OP; }

/* Is access item IT a correct way to compile a KIND access with RMW ops OPS? */
static const char *access_fits(scheme_kind kind, const scheme_item *it, uint32_t ops)
{
    switch (kind) {
    case SK_LOAD:
        return it->kind == SI_MOV || it->kind == SI_LOCK_XADD ? NULL
             : "a load compiles to MOV or LOCK XADD";
    case SK_STORE:
        return it->kind == SI_MOV || it->kind == SI_XCHG ? NULL
             : "a store compiles to MOV or XCHG";
    case SK_RMW:
        switch (it->kind) {
        case SI_XCHG:
            return ops & ~(1u << IR_RMW_XCHG) ? "XCHG only implements the xchg RMW" : NULL;
        case SI_LOCK_XADD:
            return ops & ~((1u << IR_RMW_ADD) | (1u << IR_RMW_SUB))
                 ? "LOCK XADD only implements the add and sub RMWs" : NULL;
        case SI_LOCK_CMPXCHG:
            return ops & (1u << IR_RMW_XCHG) ? "use XCHG for the xchg RMW" : NULL;
        case SI_LOCK_OP:
            return ops & ~(1u << it->op) ? "a LOCK OP instruction only implements that operation" : NULL;
        default:
            return "an RMW compiles to XCHG, LOCK XADD, LOCK CMPXCHG or LOCK OP";
        }
    default:
        return "a fence has no access to compile";
    }
}

static void free_rules(scheme_rule *r, int n)
{
    for (int i = 0; i < n; i++)
        free(r[i].items);
    free(r);
}

void x86_scheme_free(x86_scheme *s)
{
    if (!s)
        return;
    free(s->name);
    free(s->file);
    free_rules(s->rules, s->nrules);
    free(s);
}

/* Parse one rule line (already stripped of its comment). */
static bool parse_rule(x86_scheme *s, bool have_source, const char *file, int lineno,
                       const char *line, const char *eq, const char *end, scheme_rule *r, diag *d)
{
    word w[8];
    int nw = split_words(line, line, eq, w, 8);
    memset(r, 0, sizeof *r);
    r->line = lineno;
    if (!have_source)
        return diag_error(d, file, lineno, w[0].col, "rules must follow the 'source' line");
    int k;
    for (k = 0; k < SK_COUNT; k++)
        if (word_is(&w[0], scheme_kind_name((scheme_kind)k)))
            break;
    if (k == SK_COUNT)
        return diag_error(d, file, lineno, w[0].col,
                          "unknown rule '%.*s' (expected load, store, rmw or fence)", w[0].len, w[0].s);
    r->kind = (scheme_kind)k;
    int want_min = r->kind == SK_RMW ? 3 : 2, want_max = r->kind == SK_LOAD || r->kind == SK_STORE ? 2 : 3;
    if (nw < want_min || nw > want_max) {
        const char *shape = r->kind == SK_RMW ? "rmw OPS MODES = SEQUENCE"
                          : r->kind == SK_FENCE ? "fence KINDS [MODES] = SEQUENCE"
                          : "load|store MODES = SEQUENCE";
        int col = nw > want_max ? w[want_max].col : (int)(eq - line) + 1;
        return diag_error(d, file, lineno, col, "expected '%s'", shape);
    }
    int badcol = 0;
    char bad[64];
    int modew = 1;
    r->modes = 0xffffffffu;
    if (r->kind == SK_RMW) {
        if (!parse_list(&w[1], rmw_at, IR_RMW_COUNT, &r->ops, &badcol, bad, sizeof bad))
            return diag_error(d, file, lineno, badcol, "unknown RMW operation '%s'", bad);
        modew = 2;
    } else if (r->kind == SK_FENCE) {
        if (!parse_list(&w[1], fence_at, IR_FENCE_COUNT, &r->fences, &badcol, bad, sizeof bad))
            return diag_error(d, file, lineno, badcol, "unknown fence kind '%s'", bad);
        modew = nw == 3 ? 2 : -1;
    }
    if (modew > 0) {
        if (!parse_list(&w[modew], mode_at, IR_MODE_COUNT, &r->modes, &badcol, bad, sizeof bad))
            return diag_error(d, file, lineno, badcol, "unknown access mode '%s'", bad);
        if (!word_is(&w[modew], "*") && (r->modes & ~arch_modes(s->arch)))
            return diag_error(d, file, lineno, w[modew].col, "mode list '%.*s' has a mode that %s tests do not use",
                              w[modew].len, w[modew].s, ir_arch_name(s->arch));
    }
    /* The sequence: items separated by ';', possibly none. */
    const char *p = eq + 1;
    int naccess = 0;
    size_t cap = 0, n = 0;
    while (p <= end) {
        const char *q = p;
        while (q < end && *q != ';')
            q++;
        /* "LOCK; ADD" is one item: the ';' belongs to the prefix. */
        const char *t = p;
        while (t < q && isspace((unsigned char)*t))
            t++;
        if (q < end && q - t == 4 && !strncasecmp(t, "LOCK", 4)) {
            q++;
            while (q < end && *q != ';')
                q++;
        }
        char text[64];
        normalise_item(p, q, text, sizeof text);
        int col = (int)(t - line) + 1;
        if (text[0]) {
            scheme_item it;
            if (!parse_item(text, &it)) {
                free(r->items);
                r->items = NULL;
                return diag_error(d, file, lineno, col, "unknown instruction '%s' in a sequence", text);
            }
            if (is_access(it.kind)) {
                const char *why = access_fits(r->kind, &it, r->ops);
                if (!why && ++naccess > 1)
                    why = "a sequence has only one access";
                if (why) {
                    free(r->items);
                    r->items = NULL;
                    return diag_error(d, file, lineno, col, "'%s' here: %s", text, why);
                }
            }
            VEC_PUSH(r->items, n, cap, it);
        } else if (q < end) {
            free(r->items);
            r->items = NULL;
            return diag_error(d, file, lineno, col, "empty item in a sequence");
        }
        p = q + 1;
    }
    r->nitems = (int)n;
    if (r->kind != SK_FENCE && naccess == 0) {
        free(r->items);
        r->items = NULL;
        return diag_error(d, file, lineno, (int)(eq - line) + 2, "the sequence of a %s rule needs the access itself",
                          scheme_kind_name(r->kind));
    }
    return true;
}

x86_scheme *x86_scheme_parse(const char *text, const char *file, diag *d)
{
    x86_scheme *s = xcalloc(1, sizeof *s);
    s->file = xstrdup(file);
    size_t cap = 0, n = 0;
    bool have_source = false;
    int lineno = 0;
    const char *p = text;
    while (*p) {
        lineno++;
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        const char *end = memchr(p, '#', (size_t)(eol - p));
        if (!end)
            end = eol;
        while (end > p && isspace((unsigned char)end[-1]))
            end--;
        const char *eq = memchr(p, '=', (size_t)(end - p));
        word w[4];
        int nw = split_words(p, p, eq ? eq : end, w, 4);
        if (nw == 0 && !eq) {
            /* blank or comment line */
        } else if (nw == 0) {
            diag_error(d, file, lineno, (int)(eq - p) + 1, "a rule needs a kind before '='");
            goto fail;
        } else if (!eq && word_is(&w[0], "scheme")) {
            if (nw != 2) {
                diag_error(d, file, lineno, w[0].col, "expected 'scheme NAME'");
                goto fail;
            }
            if (s->name) {
                diag_error(d, file, lineno, w[0].col, "the scheme is already named '%s'", s->name);
                goto fail;
            }
            s->name = xstrndup(w[1].s, (size_t)w[1].len);
        } else if (!eq && word_is(&w[0], "source")) {
            if (nw != 2 || !(word_is(&w[1], "c") || word_is(&w[1], "java") || word_is(&w[1], "x86"))) {
                diag_error(d, file, lineno, nw >= 2 ? w[1].col : w[0].col, "expected 'source c|java|x86'");
                goto fail;
            }
            if (have_source) {
                diag_error(d, file, lineno, w[0].col, "'source' given twice");
                goto fail;
            }
            s->arch = word_is(&w[1], "c") ? IR_ARCH_C : word_is(&w[1], "java") ? IR_ARCH_JAVA : IR_ARCH_X86;
            have_source = true;
        } else if (!eq) {
            diag_error(d, file, lineno, w[0].col, "expected 'scheme NAME', 'source LANG' or a rule 'KIND ... = SEQUENCE'");
            goto fail;
        } else {
            scheme_rule r;
            if (!parse_rule(s, have_source, file, lineno, p, eq, end, &r, d))
                goto fail;
            VEC_PUSH(s->rules, n, cap, r);
            s->nrules = (int)n;
        }
        p = *eol ? eol + 1 : eol;
    }
    if (!s->name) {
        diag_error(d, file, lineno ? lineno : 1, 1, "the scheme has no 'scheme NAME' line");
        goto fail;
    }
    if (!have_source) {
        diag_error(d, file, lineno ? lineno : 1, 1, "the scheme has no 'source c|java|x86' line");
        goto fail;
    }
    return s;
fail:
    x86_scheme_free(s);
    return NULL;
}

static char *read_file(const char *path, diag *d)
{
    strbuf b = {0};
    bool opened;
    if (!file_read_all(path, &b, &opened)) {
        diag_error(d, path, 0, 0, "%s scheme file: %s", opened ? "cannot read" : "cannot open", file_error(errno));
        return NULL;
    }
    if (memchr(b.s ? b.s : "", 0, b.len)) {
        sb_free(&b);
        diag_error(d, path, 1, 1, "scheme file contains a NUL byte");
        return NULL;
    }
    return sb_take(&b);
}

x86_scheme *x86_scheme_load(const char *name_or_path, diag *d)
{
    size_t len = strlen(name_or_path);
    bool is_path = strchr(name_or_path, '/') || (len > 7 && !strcmp(name_or_path + len - 7, ".scheme"));
    if (!is_path) {
        char path[256];
        snprintf(path, sizeof path, "backends/schemes/%s.scheme", name_or_path);
        const embed_file *e = embed_find(path);
        if (!e) {
            strbuf b = {0};
            for (int i = 0; builtin_names[i]; i++)
                sb_printf(&b, "%s%s", i ? ", " : "", builtin_names[i]);
            diag_error(d, NULL, 0, 0, "unknown scheme '%s' (shipped: %s; or give a file path)",
                       name_or_path, b.s ? b.s : "");
            sb_free(&b);
            return NULL;
        }
        return x86_scheme_parse(e->data, path, d);
    }
    char *text = read_file(name_or_path, d);
    if (!text)
        return NULL;
    x86_scheme *s = x86_scheme_parse(text, name_or_path, d);
    free(text);
    return s;
}

const char *x86_scheme_name(const x86_scheme *s) { return s->name; }
ir_arch x86_scheme_arch(const x86_scheme *s) { return s->arch; }

const scheme_rule *scheme_match(const x86_scheme *s, scheme_kind kind, ir_mode mode,
                                ir_rmw_op op, ir_fence_kind fence)
{
    for (int i = 0; i < s->nrules; i++) {
        const scheme_rule *r = &s->rules[i];
        if (r->kind != kind || !(r->modes & (1u << mode)))
            continue;
        if (kind == SK_RMW && !(r->ops & (1u << op)))
            continue;
        if (kind == SK_FENCE && !(r->fences & (1u << fence)))
            continue;
        return r;
    }
    return NULL;
}

int scheme_rule_access(const scheme_rule *r)
{
    for (int i = 0; i < r->nitems; i++)
        if (is_access(r->items[i].kind))
            return i;
    return -1;
}
