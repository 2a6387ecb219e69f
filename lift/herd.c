/* A thread's lifted rows rewritten into the X86_64 grammar herd7 7.57
 * reads (doc/x86_64-dialect.md has the grammar and its sources): memory
 * `(x)` for `x(%rip)`, decimal immediates, herd's mnemonics, and what
 * herd has no instruction for rewritten into instructions it has, each
 * rewrite the same on hardware:
 *   jg -> jgt; jl -> jge over a jmp (herd's jlt tests ZF|~SF, that is <=)
 *   setCC d -> a branch storing 1 or 0 to d (one store on each path)
 *   cmovCC s,d -> a branch over a mov (32-bit: movl d,d first, the zero
 *     extension cmov makes whatever the condition)
 *   test r,r -> cmp $0,r (the same flags); sub $k -> add $-k; sub a,b ->
 *     xor $-1,b; add a,b; xor $-1,b (b - a = ~(~b + a))
 *   movz from another register or memory -> mov $0 then a narrow mov;
 *     movz of a register into itself -> and with the mask
 *   movs -> the zero extension, then cmp with the largest positive value
 *     and, past it, or with the upper bits
 *   not -> xor $-1; neg r -> xor $-1 then add $1
 *   andl/shll -> and/shl (herd has them without a suffix)
 *   ret before the end -> jmp to a label at the thread's end (herd7 runs
 *     ret only with -variant telechat); the last ret is dropped
 * A rewrite that writes flags the original leaves alone is made only
 * where no instruction reads them before they are written again.  Whatever
 * has no such form (xadd, lock or/and, unsigned conditions, ...) stays as
 * it is, litmusc reads it, and *WHY names it. */
#include <stdlib.h>
#include <string.h>
#include "lift/addr.h"
#include "lift/lift.h"
#include "util/mem.h"

typedef struct out {
    char **v;
    int n, cap;
    int labels;             /* fresh labels made so far: Lh0, Lh1, ... */
    bool ret;               /* a jmp to Lret was written */
} out;

static void put(out *o, char *row)
{
    if (o->n == o->cap)
        o->v = xrealloc(o->v, (size_t)(o->cap = o->cap ? 2 * o->cap : 32) * sizeof *o->v);
    o->v[o->n++] = row;
}

static char *fresh(out *o) { return xasprintf("Lh%d", o->labels++); }

/* Conditions by the letters after j/set/cmov. */
enum cond { C_NONE, C_E, C_NE, C_G, C_LE, C_GE, C_L, C_S, C_NS };

static enum cond cond_of(const char *s, size_t n)
{
    static const struct {
        const char *name;
        enum cond c;
    } tab[] = {{"e", C_E},   {"z", C_E},    {"ne", C_NE}, {"nz", C_NE}, {"g", C_G},   {"nle", C_G},
               {"le", C_LE}, {"ng", C_LE},  {"ge", C_GE}, {"nl", C_GE}, {"l", C_L},   {"nge", C_L},
               {"s", C_S},   {"ns", C_NS},  {NULL, C_NONE}};
    for (int i = 0; tab[i].name; i++)
        if (strlen(tab[i].name) == n && !strncmp(tab[i].name, s, n))
            return tab[i].c;
    return C_NONE;
}

static enum cond negate(enum cond c)
{
    switch (c) {
    case C_E: return C_NE;
    case C_NE: return C_E;
    case C_G: return C_LE;
    case C_LE: return C_G;
    case C_GE: return C_L;
    case C_L: return C_GE;
    case C_S: return C_NS;
    case C_NS: return C_S;
    default: return C_NONE;
    }
}

/* A jump to TARGET when C holds, in herd's mnemonics; S and NS are L and
 * GE (the caller checked the flags come from a comparison with 0 or a
 * logical operation, where they agree). */
static void jump(out *o, enum cond c, const char *target)
{
    switch (c) {
    case C_E: put(o, xasprintf("je %s", target)); break;
    case C_NE: put(o, xasprintf("jne %s", target)); break;
    case C_G: put(o, xasprintf("jgt %s", target)); break;
    case C_LE: put(o, xasprintf("jle %s", target)); break;
    case C_GE: case C_NS: put(o, xasprintf("jge %s", target)); break;
    default: {
        char *skip = fresh(o);
        put(o, xasprintf("jge %s", skip));
        put(o, xasprintf("jmp %s", target));
        put(o, xasprintf("%s:", skip));
        free(skip);
    }
    }
}

static bool is_label(const char *r) { return r[0] == 'L' && r[strlen(r) - 1] == ':'; }

static const char *strip_lock(const char *r) { return strncmp(r, "lock ", 5) ? r : r + 5; }

static bool prefix(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* Does row R read the flags (a conditional jump, setcc, cmovcc, adc, sbb)? */
static bool reads_flags(const char *r)
{
    r = strip_lock(r);
    return (r[0] == 'j' && !prefix(r, "jmp ")) || prefix(r, "set") || prefix(r, "cmov") || prefix(r, "adc") ||
           prefix(r, "sbb");
}

/* Does row R set every flag the conditions read, whatever it computes? */
static bool writes_flags(const char *r)
{
    static const char *const w[] = {"cmp", "test", "add", "sub", "and", "or", "xor", "neg", "xadd", NULL};
    r = strip_lock(r);
    for (int i = 0; w[i]; i++)
        if (prefix(r, w[i]))
            return true;
    return false;
}

/* Are the flags read after row I of ROWS before being written again, on
 * the path that falls through or jumps forward from it? */
static bool flags_live(char **rows, int nr, int i)
{
    for (int j = i + 1, steps = 0; j < nr && steps < 100000; j++, steps++) {
        const char *r = rows[j];
        if (is_label(r))
            continue;
        if (!strcmp(r, "ret"))
            return false;
        if (prefix(r, "jmp ")) {
            size_t n = strlen(r + 4);
            int k = j + 1;
            while (k < nr && !(is_label(rows[k]) && strlen(rows[k]) == n + 1 && !strncmp(rows[k], r + 4, n)))
                k++;
            if (k == nr)
                return true;            /* backward: assume read */
            j = k;
            continue;
        }
        if (reads_flags(r))
            return true;
        if (writes_flags(r))
            return false;
    }
    return false;
}

/* The operands of OPS (AT&T, ", " between them), herd's way: x(%rip) ->
 * (x), hexadecimal immediates in decimal.  At most 3. */
static int operands(const char *ops, char toks[3][128])
{
    int n = 0;
    for (const char *p = ops; *p && n < 3;) {
        const char *e = strstr(p, ", ");
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char t[128];
        snprintf(t, sizeof t, "%.*s", (int)len, p);
        char *rip = strstr(t, "(%rip)");
        if (rip && rip > t) {
            *rip = 0;
            snprintf(toks[n], 128, "(%.120s)", t);
        } else if (t[0] == '$' && (!strncmp(t + 1, "0x", 2) || !strncmp(t + 1, "-0x", 3))) {
            bool neg = t[1] == '-';
            unsigned long long v = strtoull(t + (neg ? 4 : 3), NULL, 16);
            snprintf(toks[n], 128, "$%s%llu", neg ? "-" : "", v);
        } else {
            snprintf(toks[n], 128, "%s", t);
        }
        n++;
        p = e ? e + 2 : p + len;
    }
    return n;
}

static bool is_mem(const char *tok) { return strchr(tok, '(') != NULL; }

/* The name of register family F (lift_reg_family's numbering) at W bytes. */
static const char *reg_name(int f, int w)
{
    static const char *const q[] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"};
    static const char *const l[] = {"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi"};
    static const char *const x[] = {"ax", "cx", "dx", "bx", "sp", "bp", "si", "di"};
    static const char *const b[] = {"al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil"};
    static char buf[8][16];
    static int k;
    char *s = buf[k++ % 8];
    if (f < 8)
        snprintf(s, 16, "%%%s", (w == 8 ? q : w == 4 ? l : w == 2 ? x : b)[f]);
    else
        snprintf(s, 16, "%%r%d%s", f, w == 8 ? "" : w == 4 ? "d" : w == 2 ? "w" : "b");
    return s;
}

static int width_of(char c) { return c == 'b' ? 1 : c == 'w' ? 2 : c == 'l' ? 4 : c == 'q' ? 8 : 0; }
static char suffix_of(int w) { return w == 1 ? 'b' : w == 2 ? 'w' : w == 4 ? 'l' : 'q'; }

/* movz/movs SRC into register DST, FROM bytes to TO bytes.  NULL when it
 * rewrites, else the reason it stays. */
static const char *extend(out *o, bool sign, int from, int to, const char *src, const char *dst, bool live)
{
    int w, df = lift_reg_family(dst, &w), sw = 0, sf = is_mem(src) ? -1 : lift_reg_family(src, &sw);
    if (df < 0 || w != to || from >= to)
        return "an extension to memory";
    if (sf >= 0 && sw == 1 && src[2] == 'h')
        return "an extension of %ah, %bh, %ch or %dh";
    if (sf == df && live)
        return "an extension of a register into itself before a flag test";
    if (sign && live)
        return "a sign extension before a flag test";
    if (sf == df && from == 4)
        put(o, xasprintf("movl %s, %s", reg_name(df, 4), reg_name(df, 4)));
    else if (sf == df)
        put(o, xasprintf("and $%d, %s", from == 1 ? 255 : 65535, dst));
    else {
        put(o, xasprintf("mov%c $0, %s", suffix_of(to), dst));
        put(o, xasprintf("mov%c %s, %s", suffix_of(from), src, reg_name(df, from)));
    }
    if (sign) {
        char *pos = fresh(o);
        long long max = from == 1 ? 127 : from == 2 ? 32767 : 2147483647;
        put(o, xasprintf("cmp%c $%lld, %s", suffix_of(from), max, reg_name(df, from)));
        put(o, xasprintf("jle %s", pos));
        put(o, xasprintf("or%c $%lld, %s", suffix_of(to), -(max + 1) * 2, dst));
        put(o, xasprintf("%s:", pos));
        free(pos);
    }
    return NULL;
}

/* Is R `test r,r` (written cmp $0,r: the sign is the register's)? */
static bool test_rr(const char *r)
{
    char t[3][128];
    size_t ml = strcspn(r, " ");
    return prefix(r, "test") && r[ml] && operands(r + ml + 1, t) == 2 && !strcmp(t[0], t[1]) && !is_mem(t[0]);
}

/* Row I of ROWS into O; NULL when it is in herd's grammar, else why not. */
static const char *row(out *o, char **rows, int nr, int i)
{
    const char *r = rows[i];
    if (is_label(r) || !strcmp(r, "mfence") || !strcmp(r, "lfence") || !strcmp(r, "sfence")) {
        put(o, xstrdup(r));
        return NULL;
    }
    if (!strcmp(r, "ret")) {
        if (i + 1 < nr) {
            put(o, xstrdup("jmp Lret"));
            o->ret = true;
        }
        return NULL;
    }
    bool lock = prefix(r, "lock ");
    const char *m = strip_lock(r);
    size_t ml = strcspn(m, " ");
    char mn[32];
    snprintf(mn, sizeof mn, "%.*s", (int)(ml < 31 ? ml : 31), m);
    char t[3][128];
    int nt = operands(m[ml] ? m + ml + 1 : "", t);
    const char *lk = lock ? "lock " : "";
    char sfx = ml > 1 ? mn[ml - 1] : 0;
    if (mn[0] == 'j' && nt == 1) {
        enum cond c = strcmp(mn, "jmp") ? cond_of(mn + 1, ml - 1) : C_NONE;
        if (!strcmp(mn, "jmp"))
            put(o, xasprintf("jmp %s", t[0]));
        else if (c == C_NONE)
            return "an unsigned, parity or overflow condition";
        else if ((c == C_S || c == C_NS) && !(i > 0 && test_rr(rows[i - 1])))
            return "a sign test of a difference";
        else
            jump(o, c, t[0]);
        return NULL;
    }
    if (!strcmp(mn, "movabsq") && nt == 2) {    /* a 64-bit immediate: herd's movq takes any */
        put(o, xasprintf("movq %s, %s", t[0], t[1]));
        return NULL;
    }
    /* herd's own: mov, add, xor, or, cmp, inc, dec, xchg, cmpxchg, any suffix */
    static const char *const same[] = {"mov", "add", "xor", "or", "cmp", "inc", "dec", "xchg", "cmpxchg", NULL};
    for (int k = 0; same[k]; k++) {
        size_t n = strlen(same[k]);
        if (!strncmp(mn, same[k], n) && (ml == n || (ml == n + 1 && width_of(sfx)))) {
            if (lock && (!strcmp(same[k], "or") || !strcmp(same[k], "mov") || !strcmp(same[k], "cmp")))
                return "lock or (herd7 7.57 locks xchg, add, xor, inc, dec and cmpxchg only)";
            strbuf b = {0};
            sb_printf(&b, "%s%s", lk, mn);
            for (int a = 0; a < nt; a++)
                sb_printf(&b, "%s%s", a ? ", " : " ", t[a]);
            put(o, sb_take(&b));
            return NULL;
        }
    }
    bool live = flags_live(rows, nr, i);
    if ((prefix(mn, "shr") || prefix(mn, "sar")) && ml <= 4)
        return "shr/sar (herd7 7.57's X86_64 shifts left only)";
    bool sal = prefix(mn, "sal");
    if ((prefix(mn, "and") || prefix(mn, "shl") || sal) && ml <= 4 && nt >= 1 && nt <= 2) {
        if (lock)
            return "lock and (herd7 7.57 locks xchg, add, xor, inc, dec and cmpxchg only)";
        bool mem = is_mem(t[nt - 1]);
        if (mem && ml == 4 && sfx != 'l')
            return "a byte, word or quad and/shl on memory (herd7 7.57's has no suffix: 32 bits)";
        if (nt == 1)
            put(o, xasprintf("shl $1, %s", t[0]));
        else
            put(o, xasprintf("%s %s, %s", sal ? "shl" : mn[0] == 'a' ? "and" : "shl", t[0], t[1]));
        return NULL;
    }
    if (prefix(mn, "sub") && ml <= 4 && nt == 2) {
        if (t[0][0] != '$' && !lock && !live && !is_mem(t[1])) {
            /* b - a = ~(~b + a); the flags differ, and nothing reads them */
            put(o, xasprintf("xor%.*s $-1, %s", (int)(ml - 3), mn + 3, t[1]));
            put(o, xasprintf("add%.*s %s, %s", (int)(ml - 3), mn + 3, t[0], t[1]));
            put(o, xasprintf("xor%.*s $-1, %s", (int)(ml - 3), mn + 3, t[1]));
            return NULL;
        }
        if (t[0][0] != '$' || !strcmp(t[0], "$-2147483648"))
            return "sub of a register before a flag test";
        put(o, xasprintf("%sadd%.*s $%s%s, %s", lk, (int)(ml - 3), mn + 3, t[0][1] == '-' ? "" : "-",
                         t[0] + (t[0][1] == '-' ? 2 : 1), t[1]));
        return NULL;
    }
    if (prefix(mn, "test") && ml <= 5 && nt == 2) {
        if (strcmp(t[0], t[1]) || is_mem(t[0]))
            return "test of two different operands";
        put(o, xasprintf("cmp%.*s $0, %s", (int)(ml - 4), mn + 4, t[1]));
        return NULL;
    }
    if (prefix(mn, "set") && nt == 1) {
        enum cond c = cond_of(mn + 3, ml - 3);
        if (c == C_NONE || c == C_S || c == C_NS)
            return "a setcc on an unsigned, sign, parity or overflow condition";
        char *zero = fresh(o), *done = fresh(o);
        jump(o, negate(c), zero);
        put(o, xasprintf("movb $1, %s", t[0]));
        put(o, xasprintf("jmp %s", done));
        put(o, xasprintf("%s:", zero));
        put(o, xasprintf("movb $0, %s", t[0]));
        put(o, xasprintf("%s:", done));
        free(zero), free(done);
        return NULL;
    }
    if (prefix(mn, "cmov") && nt == 2) {
        int w, f = lift_reg_family(t[1], &w);
        size_t cl = ml - 4;
        enum cond c = cond_of(mn + 4, cl);
        if (c == C_NONE && cl > 1 && width_of(sfx))
            c = cond_of(mn + 4, cl - 1);
        if (c == C_NONE || c == C_S || c == C_NS || f < 0)
            return "a cmov on an unsigned, sign, parity or overflow condition";
        if (w == 4)
            put(o, xasprintf("movl %s, %s", t[1], t[1]));
        char *skip = fresh(o);
        jump(o, negate(c), skip);
        put(o, xasprintf("mov%c %s, %s", suffix_of(w), t[0], t[1]));
        put(o, xasprintf("%s:", skip));
        free(skip);
        return NULL;
    }
    if ((prefix(mn, "movz") || prefix(mn, "movs")) && ml == 6 && nt == 2 && width_of(mn[4]) && width_of(mn[5]))
        return extend(o, mn[3] == 's', width_of(mn[4]), width_of(mn[5]), t[0], t[1], live);
    if ((prefix(mn, "not") || prefix(mn, "neg")) && ml <= 4 && nt == 1) {
        const char *s = mn + 3;
        if (mn[2] == 't' && live)
            return "a not before a flag test";
        if (mn[2] == 'g' && is_mem(t[0]))
            return "a neg of memory";
        put(o, xasprintf("%sxor%s $-1, %s", lk, s, t[0]));
        if (mn[2] == 'g')
            put(o, xasprintf("add%s $1, %s", s, t[0]));
        return NULL;
    }
    if (prefix(mn, "xadd"))
        return "xadd (herd7 7.57's X86_64 has none)";
    return "an instruction outside herd7 7.57's X86_64";
}

char *lift_herd_rows(char ***rowsp, int *nrp)
{
    char **rows = *rowsp;
    int nr = *nrp;
    out o = {0};
    char *why = NULL;
    for (int i = 0; i < nr; i++) {          /* `mfence ` as the lifter prints an instruction without operands */
        size_t n = strlen(rows[i]);
        while (n && rows[i][n - 1] == ' ')
            rows[i][--n] = 0;
    }
    for (int i = 0; i < nr; i++) {
        int before = o.n;
        const char *w = row(&o, rows, nr, i);
        if (w) {
            /* kept for litmusc, its operands herd's way where they are */
            while (o.n > before)
                free(o.v[--o.n]);
            char t[3][128];
            const char *m = strip_lock(rows[i]);
            size_t ml = strcspn(m, " ");
            int nt = operands(m[ml] ? m + ml + 1 : "", t);
            strbuf b = {0};
            sb_printf(&b, "%.*s", (int)(m - rows[i] + ml), rows[i]);
            for (int a = 0; a < nt; a++)
                sb_printf(&b, "%s%s", a ? ", " : " ", t[a]);
            put(&o, sb_take(&b));
            if (!why)
                why = xasprintf("'%s': %s", rows[i], w);
        }
    }
    if (o.ret)
        put(&o, xstrdup("Lret:"));
    strv_free(rows, nr);
    *rowsp = o.v;
    *nrp = o.n;
    return why;
}
