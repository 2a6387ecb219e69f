/* Spellings of x86 registers and mnemonics, what herd7 7.57 can run, and
 * the small accessors of an x86_prog. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "backends/x86/x86.h"

static const char *const reg_names[X86_NREGS] = {"EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP"};
static const char *const reg_names64[X86_NREGS] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp"};
static const char *const op_names[X86_OP_COUNT] = {
    "", "MOV", "XCHG", "ADD", "SUB", "AND", "OR", "XOR", "XADD", "CMPXCHG", "CMP",
    "MFENCE", "LFENCE", "SFENCE", "JMP", "JE", "JNE",
};

const char *x86_reg_name(x86_reg r)
{
    return r >= 0 && r < X86_NREGS ? reg_names[r] : "?";
}

const char *x86_reg_name64(x86_reg r)
{
    return r >= 0 && r < X86_NREGS ? reg_names64[r] : "?";
}

const char *x86_prog_reg_name(const x86_prog *p, x86_reg r)
{
    return p->x86_64 ? x86_reg_name64(r) : x86_reg_name(r);
}

x86_reg x86_reg_parse(const char *name)
{
    for (int i = 0; i < X86_NREGS; i++)
        if (!strcasecmp(name, reg_names[i]))
            return (x86_reg)i;
    return X86_NOREG;
}

const char *x86_op_name(x86_op op)
{
    return (unsigned)op < X86_OP_COUNT ? op_names[op] : "?";
}

/* herd7 7.57's X86 mode: CMPXCHG parses but is "not implemented"; its
 * lexer (lib/X86Lexer.mll) has no XADD, SUB, AND or OR; LOCK is legal
 * only on XCHG, ADD, XOR, INC and DEC (herd7 7.57's X86 parser). */
bool x86_instr_herd_ok(const x86_instr *in)
{
    switch (in->op) {
    case X86_XADD: case X86_CMPXCHG: case X86_SUB: case X86_AND: case X86_OR:
        return false;
    default:
        return true;
    }
}

bool x86_instr_herd64_ok(const x86_instr *in)
{
    switch (in->op) {
    case X86_XADD: case X86_SUB: case X86_AND: case X86_LFENCE: case X86_SFENCE:
        return false;
    case X86_OR:
        return !in->lock;
    default:
        return true;
    }
}

/* Words herd's X86 lexer gives a meaning of their own. */
static bool reserved(const char *name)
{
    static const char *const words[] = {"ZF", "SF", "CF", "LOCK", "MOVQ", "MOVSD", "INC", "DEC", "CMOVC", "READ",
                                        "SETNB", "exists", "forall", "final", "locations", "filter", "true",
                                        "false", "not", NULL};
    if (x86_reg_parse(name) != X86_NOREG)
        return true;
    /* herd's X86 lexer reads P<digits> as a thread name. */
    if (name[0] == 'P' && name[1] && strspn(name + 1, "0123456789") == strlen(name + 1))
        return true;
    for (int i = 0; words[i]; i++)
        if (!strcasecmp(name, words[i]))
            return true;
    for (int op = 1; op < X86_OP_COUNT; op++)
        if (!strcasecmp(name, op_names[op]))
            return true;
    return false;
}

bool x86_loc_name_ok(const char *name)
{
    /* herd's X86 names start with a letter. */
    if (!name || !isalpha((unsigned char)name[0]))
        return false;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return false;
    return strlen(name) < 64 && !reserved(name);
}

x86_reg x86_prog_lookup(const x86_prog *p, int thread, const char *src)
{
    for (int i = 0; i < p->nmap; i++)
        if (p->map[i].thread == thread && !strcmp(p->map[i].src, src))
            return p->map[i].reg;
    return X86_NOREG;
}

void x86_prog_free(x86_prog *p)
{
    if (!p)
        return;
    ir_test_free(p->target);
    for (int i = 0; i < p->nthreads; i++) {
        free(p->threads[i].code);
        free(p->threads[i].inits);
    }
    free(p->threads);
    for (int i = 0; i < p->nmap; i++)
        free(p->map[i].src);
    free(p->map);
    free(p->scheme);
    free(p->herd_note);
    free(p);
}
