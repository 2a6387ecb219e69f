/* Freeing the tree, the spellings of its enums, lookups, and the x86
 * register tables the parsers and printers share. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/free_each.h"

void fe_loc_clear(fe_loc *l)
{
    free(l->name);
    l->name = NULL;
    free(l->text);
    l->text = NULL;
}

static void fe_value_clear(fe_value *v)
{
    free(v->sym);
    v->sym = NULL;
    free(v->text);
    v->text = NULL;
}

void fe_prop_free(fe_prop *p)
{
    if (!p)
        return;
    fe_prop_free(p->l);
    fe_prop_free(p->r);
    fe_loc_clear(&p->lhs);
    fe_loc_clear(&p->rhs_loc);
    fe_value_clear(&p->rhs);
    free(p);
}

void fe_expr_free(fe_expr *e)
{
    if (!e)
        return;
    fe_expr_free(e->l);
    fe_expr_free(e->r);
    for (int i = 0; i < e->nargs; i++)
        fe_expr_free(e->args[i]);
    free(e->args);
    free(e->name);
    free(e->type);
    free(e);
}

void fe_stmt_free(fe_stmt *s)
{
    if (!s)
        return;
    free(s->type);
    free(s->name);
    fe_expr_free(s->e);
    fe_expr_free(s->addr);
    fe_stmt_free(s->then_s);
    fe_stmt_free(s->else_s);
    for (int i = 0; i < s->nbody; i++)
        fe_stmt_free(s->body[i]);
    free(s->body);
    free(s);
}

static void info_clear(fe_info *i)
{
    free(i->key);
    free(i->value);
}

static void init_clear(fe_init *it)
{
    fe_loc_clear(&it->loc);
    free(it->type);
    fe_value_clear(&it->value);
    FREE_EACH(it->elems, it->nelems, fe_value_clear);
}

static void param_clear(fe_param *p)
{
    free(p->type);
    free(p->name);
}

/* A thread's code is its instruction set's to free (H, NULL for C and
 * Java); its parameters and body are the languages'. */
static void thread_clear(const fe_isa_hooks *h, fe_thread *th)
{
    free(th->name);
    if (h)
        h->code_clear(th);
    FREE_EACH(th->params, th->nparams, param_clear);
    fe_stmt_free(th->body);
    free(th->body_text);
}

void fe_test_free(fe_test *t)
{
    if (!t)
        return;
    free(t->arch_name);
    free(t->name);
    free(t->doc);
    FREE_EACH(t->info, t->ninfo, info_clear);
    FREE_EACH(t->init, t->ninit, init_clear);
    for (int i = 0; i < t->nthreads; i++)
        thread_clear(fe_isa_hooks_of(t->arch), &t->threads[i]);
    free(t->threads);
    fe_prop_free(t->cond.prop);
    fe_prop_free(t->cond.filter);
    FREE_EACH(t->cond.locations, t->cond.nlocations, fe_loc_clear);
    free(t->extra);
    free(t->file);
    free(t);
}

/* An instruction set's name is its row's; the languages' are herd's. */
const char *fe_arch_name(fe_arch a)
{
    const isa *i = isa_of((int)a);
    if (i)
        return i->name;
    switch (a) {
    case FE_ARCH_C: return "C";
    case FE_ARCH_JAVA: return "Java";
    default: return "?";
    }
}

static const char *const x86_op_names[FE_X86_OP_COUNT] = {
    [FE_X86_EMPTY] = "", [FE_X86_MOV] = "MOV", [FE_X86_ADD] = "ADD", [FE_X86_SUB] = "SUB",
    [FE_X86_XOR] = "XOR", [FE_X86_OR] = "OR", [FE_X86_AND] = "AND", [FE_X86_INC] = "INC",
    [FE_X86_DEC] = "DEC", [FE_X86_CMP] = "CMP", [FE_X86_XCHG] = "XCHG", [FE_X86_XADD] = "XADD",
    [FE_X86_CMPXCHG] = "CMPXCHG", [FE_X86_MFENCE] = "MFENCE", [FE_X86_LFENCE] = "LFENCE",
    [FE_X86_SFENCE] = "SFENCE", [FE_X86_JMP] = "JMP", [FE_X86_JE] = "JE", [FE_X86_JNE] = "JNE",
    [FE_X86_SETNB] = "SETNB", [FE_X86_CMOVC] = "CMOVC", [FE_X86_NOP] = "NOP",
    [FE_X86_MOVNTI] = "MOVNTI", [FE_X86_CLFLUSH] = "CLFLUSH", [FE_X86_RET] = "RET", [FE_X86_TEST] = "TEST",
    [FE_X86_SETE] = "SETE", [FE_X86_SETNE] = "SETNE",
    [FE_X86_JL] = "JL", [FE_X86_JGE] = "JGE", [FE_X86_JLE] = "JLE", [FE_X86_JG] = "JG",
    [FE_X86_JB] = "JB", [FE_X86_JAE] = "JAE", [FE_X86_JBE] = "JBE", [FE_X86_JA] = "JA",
    [FE_X86_LEA] = "LEA", [FE_X86_NEG] = "NEG", [FE_X86_NOT] = "NOT", [FE_X86_CMOVE] = "CMOVE",
    [FE_X86_CMOVNE] = "CMOVNE",
    [FE_X86_SETL] = "SETL", [FE_X86_SETGE] = "SETGE", [FE_X86_SETLE] = "SETLE", [FE_X86_SETG] = "SETG",
    [FE_X86_SETB] = "SETB", [FE_X86_SETBE] = "SETBE", [FE_X86_SETA] = "SETA",
    [FE_X86_CMOVL] = "CMOVL", [FE_X86_CMOVGE] = "CMOVGE", [FE_X86_CMOVLE] = "CMOVLE", [FE_X86_CMOVG] = "CMOVG",
    [FE_X86_CMOVAE] = "CMOVAE", [FE_X86_CMOVBE] = "CMOVBE", [FE_X86_CMOVA] = "CMOVA",
    [FE_X86_SHL] = "SHL", [FE_X86_SHR] = "SHR", [FE_X86_SAR] = "SAR",
};

const char *fe_x86_op_name(fe_x86_op op)
{
    return (unsigned)op < FE_X86_OP_COUNT ? x86_op_names[op] : "?";
}

const char *fe_mo_name(fe_mo mo)
{
    switch (mo) {
    case FE_MO_NONE: return "";
    case FE_MO_RELAXED: return "memory_order_relaxed";
    case FE_MO_CONSUME: return "memory_order_consume";
    case FE_MO_ACQUIRE: return "memory_order_acquire";
    case FE_MO_RELEASE: return "memory_order_release";
    case FE_MO_ACQ_REL: return "memory_order_acq_rel";
    case FE_MO_SEQ_CST: return "memory_order_seq_cst";
    }
    return "?";
}

static const char *const c_call_names[FE_C_CALL_COUNT] = {
    [FE_C_LOAD] = "atomic_load", [FE_C_STORE] = "atomic_store", [FE_C_EXCHANGE] = "atomic_exchange",
    [FE_C_FETCH_ADD] = "atomic_fetch_add", [FE_C_FETCH_SUB] = "atomic_fetch_sub",
    [FE_C_FETCH_AND] = "atomic_fetch_and", [FE_C_FETCH_OR] = "atomic_fetch_or",
    [FE_C_FETCH_XOR] = "atomic_fetch_xor", [FE_C_CAS_STRONG] = "atomic_compare_exchange_strong",
    [FE_C_CAS_WEAK] = "atomic_compare_exchange_weak", [FE_C_THREAD_FENCE] = "atomic_thread_fence",
    [FE_C_SIGNAL_FENCE] = "atomic_signal_fence",
    [FE_C_SPIN_LOCK] = "__lock", [FE_C_SPIN_UNLOCK] = "__unlock", [FE_C_SPIN_TRYLOCK] = "__trylock",
    [FE_C_MTX_LOCK] = "lock", [FE_C_MTX_UNLOCK] = "unlock", [FE_C_MTX_TRYLOCK] = "mtx_trylock",
};
static const char *const c_call_names_explicit[FE_C_CALL_COUNT] = {
    [FE_C_LOAD] = "atomic_load_explicit", [FE_C_STORE] = "atomic_store_explicit",
    [FE_C_EXCHANGE] = "atomic_exchange_explicit", [FE_C_FETCH_ADD] = "atomic_fetch_add_explicit",
    [FE_C_FETCH_SUB] = "atomic_fetch_sub_explicit", [FE_C_FETCH_AND] = "atomic_fetch_and_explicit",
    [FE_C_FETCH_OR] = "atomic_fetch_or_explicit", [FE_C_FETCH_XOR] = "atomic_fetch_xor_explicit",
    [FE_C_CAS_STRONG] = "atomic_compare_exchange_strong_explicit",
    [FE_C_CAS_WEAK] = "atomic_compare_exchange_weak_explicit",
    [FE_C_THREAD_FENCE] = "atomic_thread_fence", [FE_C_SIGNAL_FENCE] = "atomic_signal_fence",
    [FE_C_SPIN_LOCK] = "spin_lock", [FE_C_SPIN_UNLOCK] = "spin_unlock", [FE_C_SPIN_TRYLOCK] = "spin_trylock",
    [FE_C_MTX_LOCK] = "mtx_lock", [FE_C_MTX_UNLOCK] = "mtx_unlock", [FE_C_MTX_TRYLOCK] = "mtx_trylock",
};

const char *fe_c_call_name(fe_c_call c, bool explicit_form)
{
    if ((unsigned)c >= FE_C_CALL_COUNT)
        return "?";
    return explicit_form ? c_call_names_explicit[c] : c_call_names[c];
}

const char *fe_jmethod_name(fe_jmethod m, fe_jmode mode)
{
    static const char *const gets[] = {"get", "getOpaque", "getAcquire", "getAcquire", "getVolatile"};
    static const char *const sets[] = {"set", "setOpaque", "setRelease", "setRelease", "setVolatile"};
    static const char *const cae[] = {"compareAndExchange", "compareAndExchange", "compareAndExchangeAcquire",
                                      "compareAndExchangeRelease", "compareAndExchange"};
    static const char *const wcas[] = {"weakCompareAndSetPlain", "weakCompareAndSetPlain",
                                       "weakCompareAndSetAcquire", "weakCompareAndSetRelease",
                                       "weakCompareAndSet"};
#define RMW3(base) { base, base, base "Acquire", base "Release", base }
    static const char *const gas[] = RMW3("getAndSet");
    static const char *const gaa[] = RMW3("getAndAdd");
    static const char *const gao[] = RMW3("getAndBitwiseOr");
    static const char *const gan[] = RMW3("getAndBitwiseAnd");
    static const char *const gax[] = RMW3("getAndBitwiseXor");
#undef RMW3
    if ((unsigned)mode > FE_JM_VOLATILE)
        return "?";
    switch (m) {
    case FE_J_GET: return gets[mode];
    case FE_J_SET: return sets[mode];
    case FE_J_CAE: return cae[mode];
    case FE_J_CAS: return "compareAndSet";
    case FE_J_WEAK_CAS: return wcas[mode];
    case FE_J_GET_AND_SET: return gas[mode];
    case FE_J_GET_AND_ADD: return gaa[mode];
    case FE_J_GET_AND_OR: return gao[mode];
    case FE_J_GET_AND_AND: return gan[mode];
    case FE_J_GET_AND_XOR: return gax[mode];
    case FE_J_FENCE_FULL: return "fullFence";
    case FE_J_FENCE_ACQUIRE: return "acquireFence";
    case FE_J_FENCE_RELEASE: return "releaseFence";
    case FE_J_FENCE_LOADLOAD: return "loadLoadFence";
    case FE_J_FENCE_STORESTORE: return "storeStoreFence";
    case FE_J_METHOD_COUNT: break;
    }
    return "?";
}

const char *fe_binop_name(fe_binop op, fe_arch arch)
{
    bool java = arch == FE_ARCH_JAVA;
    switch (op) {
    case FE_ADD: return "+";
    case FE_SUB: return "-";
    case FE_MUL: return "*";
    case FE_DIV: return "/";
    case FE_AND: return java ? "&&" : "&";
    case FE_OR: return java ? "||" : "|";
    case FE_XOR: return "^";
    case FE_EQ: return "==";
    case FE_NE: return "!=";
    case FE_LT: return "<";
    case FE_LE: return "<=";
    case FE_GT: return ">";
    case FE_GE: return ">=";
    case FE_BINOP_COUNT: break;
    }
    return "?";
}

/* ---- x86 registers ------------------------------------------------------------ */
static const char *const x86_regs[] = {
    "EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP", "ZF", "SF", "CF", NULL
};

const char *x86_reg(const char *name)
{
    for (int i = 0; x86_regs[i]; i++)
        if (!strcasecmp(name, x86_regs[i]))
            return x86_regs[i];
    return NULL;
}

/* 64-bit name, then 32, 16 and 8-bit spellings. */
static const char *const x64_regs[][4] = {
    {"rax", "eax", "ax", "al"}, {"rbx", "ebx", "bx", "bl"}, {"rcx", "ecx", "cx", "cl"},
    {"rdx", "edx", "dx", "dl"}, {"rsi", "esi", "si", "sil"}, {"rdi", "edi", "di", "dil"},
    {"rbp", "ebp", "bp", "bpl"}, {"rsp", "esp", "sp", "spl"}, {"r8", "r8d", "r8w", "r8b"},
    {"r9", "r9d", "r9w", "r9b"}, {"r10", "r10d", "r10w", "r10b"}, {"r11", "r11d", "r11w", "r11b"},
    {"r12", "r12d", "r12w", "r12b"}, {"r13", "r13d", "r13w", "r13b"}, {"r14", "r14d", "r14w", "r14b"},
    {"r15", "r15d", "r15w", "r15b"},
};

/* herd's two registers beside the integer ones (lib/X86_64Base.ml): the
 * instruction pointer and the code segment, 64-bit names only.  Here they
 * are registers like the others, which a test may set and observe; nothing
 * writes them behind its back (herd's `ret` under -variant telechat jumps
 * through %rip, litmusc's ends the thread either way). */
static const char *const x64_special[] = {"rip", "cs"};

const char *x86_64_reg(const char *name, int *size)
{
    static const int sizes[4] = {8, 4, 2, 1};
    for (size_t i = 0; i < sizeof x64_special / sizeof *x64_special; i++)
        if (!strcasecmp(name, x64_special[i])) {
            *size = 8;
            return x64_special[i];
        }
    for (size_t i = 0; i < sizeof x64_regs / sizeof *x64_regs; i++)
        for (int j = 0; j < 4; j++)
            if (!strcasecmp(name, x64_regs[i][j])) {
                *size = sizes[j];
                return x64_regs[i][0];
            }
    return NULL;
}

const char *x86_64_reg_sized(const char *full, int size)
{
    int j = size == 8 ? 0 : size == 4 ? 1 : size == 2 ? 2 : 3;
    for (size_t i = 0; i < sizeof x64_regs / sizeof *x64_regs; i++)
        if (!strcmp(full, x64_regs[i][0]))
            return x64_regs[i][j];
    return full;
}
