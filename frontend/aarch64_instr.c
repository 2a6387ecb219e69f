/* One AArch64 instruction: its mnemonic decoded (family, size suffix,
 * acquire / release marks) and its operands checked against the shapes
 * the family takes.  Anything else is refused by name at its position. */
#include <stdlib.h>
#include <string.h>
#include "frontend/aarch64_lex.h"
#include "util/mem.h"

/* Operand shapes: R a register, W a 32-bit one, I an immediate, V a
 * register or an immediate, M an address, m a base-only address, L a
 * label, C a condition, O a barrier option. */
typedef struct plain_mnem {
    const char *name;
    fe_a64_op op;
    const char *shape;
} plain_mnem;

static const plain_mnem plains[] = {
    {"NOP", FE_A64_NOP, ""},       {"ISB", FE_A64_ISB, ""},         {"DMB", FE_A64_DMB, "O"},
    {"DSB", FE_A64_DSB, "O"},      {"MOV", FE_A64_MOV, "RV"},       {"ADD", FE_A64_ADD, "RRV"},
    {"SUB", FE_A64_SUB, "RRV"},    {"EOR", FE_A64_EOR, "RRV"},      {"AND", FE_A64_AND, "RRV"},
    {"ORR", FE_A64_ORR, "RRV"},    {"ADDS", FE_A64_ADDS, "RRV"},    {"SUBS", FE_A64_SUBS, "RRV"},
    {"CMP", FE_A64_CMP, "RV"},     {"CSET", FE_A64_CSET, "RC"},     {"CSEL", FE_A64_CSEL, "RRRC"},
    {"B", FE_A64_B, "L"},          {"CBZ", FE_A64_CBZ, "RL"},       {"CBNZ", FE_A64_CBNZ, "RL"},
    {"MOVZ", FE_A64_MOV, "RI"},    {"MVN", FE_A64_MVN, "RR"},       {"NEG", FE_A64_NEG, "RR"},
    {"CSINC", FE_A64_CSINC, "RRRC"}, {"CSINV", FE_A64_CSINV, "RRRC"}, {"CSNEG", FE_A64_CSNEG, "RRRC"},
    {"CSETM", FE_A64_CSETM, "RC"},
};

/* Loads and stores, each with an optional B or H size suffix. */
typedef struct ls_mnem {
    const char *name;
    fe_a64_op op;
    bool acq, acqpc, rel;
    const char *shape;
} ls_mnem;

static const ls_mnem lss[] = {
    {"LDR", FE_A64_LDR, false, false, false, "RM"},   {"STR", FE_A64_STR, false, false, false, "RM"},
    {"LDAR", FE_A64_LDR, true, false, false, "Rm"},   {"LDAPR", FE_A64_LDR, false, true, false, "Rm"},
    {"STLR", FE_A64_STR, false, false, true, "Rm"},   {"LDXR", FE_A64_LDXR, false, false, false, "Rm"},
    {"LDAXR", FE_A64_LDXR, true, false, false, "Rm"}, {"STXR", FE_A64_STXR, false, false, false, "WRm"},
    {"STLXR", FE_A64_STXR, false, false, true, "WRm"},
    {"LDUR", FE_A64_LDR, false, false, false, "RM"},  {"STUR", FE_A64_STR, false, false, false, "RM"},
};

/* LSE atomics: an ordering suffix (A, L, AL; the ST<op> aliases L only)
 * then a size suffix. */
typedef struct lse_mnem {
    const char *name;
    fe_a64_op op;
    bool noret;
} lse_mnem;

static const lse_mnem lses[] = {
    {"SWP", FE_A64_SWP, false},     {"CAS", FE_A64_CAS, false},     {"LDADD", FE_A64_LDADD, false},
    {"LDCLR", FE_A64_LDCLR, false}, {"LDEOR", FE_A64_LDEOR, false}, {"LDSET", FE_A64_LDSET, false},
    {"STADD", FE_A64_LDADD, true},  {"STCLR", FE_A64_LDCLR, true},  {"STEOR", FE_A64_LDEOR, true},
    {"STSET", FE_A64_LDSET, true},
};

/* "", "B" or "H": the access size it names (0: the register's). */
static bool size_suffix(const char *s, int *size)
{
    if (!*s) {
        *size = 0;
        return true;
    }
    if (s[1])
        return false;
    *size = s[0] == 'B' ? 1 : s[0] == 'H' ? 2 : -1;
    return *size > 0;
}

/* Decode mnemonic U into IN and its operand SHAPE; false if it is none
 * of the instructions read here. */
static bool decode(const char *u, fe_a64_instr *in, const char **shape)
{
    for (size_t i = 0; i < sizeof plains / sizeof *plains; i++)
        if (!strcmp(u, plains[i].name)) {
            in->op = plains[i].op;
            *shape = plains[i].shape;
            return true;
        }
    if (!strncmp(u, "B.", 2)) {
        int k = a64_cond_of(u + 2);
        if (k < 0)
            return false;
        in->op = FE_A64_BCOND;
        in->cond = (fe_a64_cond)k;
        *shape = "L";
        return true;
    }
    for (size_t i = 0; i < sizeof lss / sizeof *lss; i++) {
        size_t n = strlen(lss[i].name);
        if (!strncmp(u, lss[i].name, n) && size_suffix(u + n, &in->size)) {
            in->op = lss[i].op;
            in->acq = lss[i].acq;
            in->acqpc = lss[i].acqpc;
            in->rel = lss[i].rel;
            *shape = lss[i].shape;
            return true;
        }
    }
    static const char *const orders[] = {"", "A", "L", "AL"};
    for (size_t i = 0; i < sizeof lses / sizeof *lses; i++) {
        size_t n = strlen(lses[i].name);
        if (strncmp(u, lses[i].name, n))
            continue;
        for (int k = 0; k < 4; k++) {
            size_t m = strlen(orders[k]);
            if (strncmp(u + n, orders[k], m) || !size_suffix(u + n + m, &in->size))
                continue;
            if (lses[i].noret && (k == 1 || k == 3))
                return false;       /* STADDA does not exist: a store alias has no acquire */
            in->op = lses[i].op;
            in->noret = lses[i].noret;
            in->acq = k == 1 || k == 3;
            in->rel = k == 2 || k == 3;
            *shape = lses[i].noret ? "Rm" : "RRm";
            return true;
        }
    }
    return false;
}

/* The barrier options, in the order of ir.h's DMB and DSB rows. */
static const char *const options[] = {"SY", "ST", "LD", "ISH", "ISHST", "ISHLD", "OSH", "OSHST", "OSHLD"};

/* A DMB or DSB option; NSH and the numbered forms have no IR barrier. */
static bool barrier_option(a64_cell *c, fe_a64_instr *in)
{
    char u[16];
    a64_upper(&c->cur, u, sizeof u);
    for (int i = 0; c->cur.kind == A64_IDENT && i < (int)(sizeof options / sizeof *options); i++)
        if (!strcmp(u, options[i])) {
            in->barrier = i;
            in->option = xstrdup(u);
            return a64_next(c);
        }
    if (c->cur.kind == A64_EOF)
        return a64_error(c, "%s needs an option (SY, ISH, ISHLD, ...)", in->mnem);
    return a64_error(c, "unsupported %s option '%.*s'", in->mnem, c->cur.len, c->cur.s);
}

/* Operand I of IN (at shape letter S), with the checks its letter asks. */
static bool operand(a64_cell *c, fe_a64_instr *in, char s)
{
    if (s == 'O')
        return barrier_option(c, in);
    if (s == 'C') {
        char u[8];
        a64_upper(&c->cur, u, sizeof u);
        int k = c->cur.kind == A64_IDENT && c->cur.len <= 2 ? a64_cond_of(u) : -1;
        if (k < 0)
            return a64_error(c, "unsupported condition '%.*s' (EQ, NE, LT, GE, GT, LE, MI, PL)", c->cur.len,
                             c->cur.s);
        in->cond = (fe_a64_cond)k;
        return a64_next(c);
    }
    fe_a64_opnd *o = &in->o[in->nops];
    if (!a64_parse_operand(c, o, s == 'L'))
        return false;
    in->nops++;
    bool ok = true;
    switch (s) {
    case 'R': ok = o->kind == FE_AO_REG; break;
    case 'W': ok = o->kind == FE_AO_REG && !o->wide; break;
    case 'V': ok = o->kind == FE_AO_REG || o->kind == FE_AO_IMM; break;
    case 'I': ok = o->kind == FE_AO_IMM; break;
    case 'M': ok = o->kind == FE_AO_MEM; break;
    case 'm': ok = o->kind == FE_AO_MEM && o->index < 0 && o->imm == 0; break;
    default: break;
    }
    if (ok)
        return true;
    c->cur.line = o->line;
    c->cur.col = o->col;
    const char *want = s == 'W' ? "a W register (the status)" : s == 'V' ? "a register or an immediate"
                     : s == 'I' ? "an immediate"
                     : s == 'M' ? "an address [Xn...]" : s == 'm' ? "an address [Xn] without offset"
                     : "a register";
    return a64_error(c, "%s: operand %d must be %s", in->mnem, in->nops, want);
}

/* What the operands say beyond their shapes: register widths. */
static bool check(a64_cell *c, fe_a64_instr *in)
{
    c->cur.line = in->line;
    c->cur.col = in->col;
    bool mem = in->op == FE_A64_LDR || in->op == FE_A64_STR || in->op == FE_A64_LDXR || in->op == FE_A64_STXR ||
               (in->op >= FE_A64_SWP && in->op <= FE_A64_LDSET);
    if (mem && in->size)
        for (int i = 0; i < in->nops; i++)
            if (in->o[i].kind == FE_AO_REG && in->o[i].wide && !(in->op == FE_A64_STXR && i == 0))
                return a64_error(c, "%s takes W registers", in->mnem);
    if (in->op >= FE_A64_SWP && in->op <= FE_A64_LDSET && in->nops == 3 && in->o[0].wide != in->o[1].wide)
        return a64_error(c, "%s: both registers must have the same width", in->mnem);
    return true;
}

/* The mnemonic, then the operands its shape names, then nothing: a
 * shifted or extended operand is refused rather than read wrong. */
bool a64_parse_instr(a64_cell *c, fe_a64_instr *in)
{
    in->line = c->cur.line;
    in->col = c->cur.col;
    if (c->cur.kind != A64_IDENT)
        return a64_error(c, "expected an instruction");
    char u[32];
    a64_upper(&c->cur, u, sizeof u);
    const char *shape = NULL;
    if (c->cur.len < (int)sizeof u && !strncmp(u, "B.", 2) && !decode(u, in, &shape))
        return a64_error(c, "unsupported condition '%s' in %s (EQ, NE, LT, GE, GT, LE, MI, PL)", u + 2, u);
    if (c->cur.len >= (int)sizeof u || !decode(u, in, &shape))
        return a64_error(c, "unsupported instruction '%.*s'", c->cur.len, c->cur.s);
    in->mnem = xstrdup(u);
    if (!a64_next(c))
        return false;
    for (int i = 0; shape[i]; i++) {
        if (i && !a64_expect(c, ',', "between operands"))
            return false;
        if (!operand(c, in, shape[i]))
            return false;
    }
    if (a64_is(c, ','))
        return a64_error(c, "%s: too many operands (shifted and extended operands are not supported)", in->mnem);
    if (c->cur.kind != A64_EOF)
        return a64_error(c, "expected the end of the instruction, found '%.*s'", c->cur.len, c->cur.s);
    return check(c, in);
}
