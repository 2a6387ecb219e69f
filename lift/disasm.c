/* Capstone (CS_OPT_DETAIL for the group of each instruction, AT&T syntax
 * for the text herd's X86_64 dialect reads). */
#include <capstone.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "lift/disasm.h"
#include "util/dynlib.h"
#include "util/mem.h"

/* Capstone is loaded on the first object, not linked: its tables'
 * relocations cost every litmusc process several milliseconds at start-up,
 * and only cc-check and hunt decode x86.  LITMUSC_CAPSTONE_LIB is the
 * library pkg-config named at build time. */
enum { OPEN, OPTION, DISASM, GROUP, FREE, CLOSE, NFNS };
static const char *const cs_names[NFNS] = {"cs_open", "cs_option", "cs_disasm", "cs_insn_group",
                                           "cs_free", "cs_close"};
static void (*cs_fns[NFNS])(void);
static char cs_error[400];
static pthread_once_t cs_once = PTHREAD_ONCE_INIT;

static void cs_load(void)
{
    dynlib_load(LITMUSC_CAPSTONE_LIB, cs_names, cs_fns, NFNS, cs_error, sizeof cs_error);
}

/* Capstone's own entry points, through the loaded library. */
#define cs_open(...) ((cs_err(*)(cs_arch, cs_mode, csh *))cs_fns[OPEN])(__VA_ARGS__)
#define cs_option(...) ((cs_err(*)(csh, cs_opt_type, size_t))cs_fns[OPTION])(__VA_ARGS__)
#define cs_disasm(...) \
    ((size_t(*)(csh, const uint8_t *, size_t, uint64_t, size_t, cs_insn **))cs_fns[DISASM])(__VA_ARGS__)
#define cs_insn_group(...) ((bool (*)(csh, const cs_insn *, unsigned int))cs_fns[GROUP])(__VA_ARGS__)
#define cs_free(...) ((void (*)(cs_insn *, size_t))cs_fns[FREE])(__VA_ARGS__)
#define cs_close(...) ((cs_err(*)(csh *))cs_fns[CLOSE])(__VA_ARGS__)

const char *lift_disasm_error(void)
{
    return cs_error[0] ? cs_error : NULL;
}

lift_insn *lift_disasm(const unsigned char *code, size_t size, int *n, size_t *decoded)
{
    csh h;
    *n = 0;
    *decoded = 0;
    pthread_once(&cs_once, cs_load);
    if (cs_error[0] || cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
        return NULL;
    cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
    cs_option(h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
    cs_insn *ci = NULL;
    size_t cnt = cs_disasm(h, code, size, 0, 0, &ci);
    lift_insn *v = xcalloc(cnt ? cnt : 1, sizeof *v);
    for (size_t i = 0; i < cnt; i++) {
        lift_insn *o = &v[i];
        o->addr = ci[i].address;
        o->size = ci[i].size;
        snprintf(o->mnem, sizeof o->mnem, "%s", ci[i].mnemonic);
        snprintf(o->ops, sizeof o->ops, "%s", ci[i].op_str);
        const cs_detail *dt = ci[i].detail;
        bool jump = cs_insn_group(h, &ci[i], CS_GRP_JUMP), call = cs_insn_group(h, &ci[i], CS_GRP_CALL);
        bool imm = dt->x86.op_count == 1 && dt->x86.operands[0].type == X86_OP_IMM;
        o->kind = cs_insn_group(h, &ci[i], CS_GRP_RET) ? LK_RET
                : call ? LK_CALL
                : jump && imm ? LK_JUMP
                : jump ? LK_INDIRECT : LK_PLAIN;
        if (o->kind == LK_JUMP)
            o->target = (uint64_t)dt->x86.operands[0].imm;
    }
    *n = (int)cnt;
    if (cnt)
        *decoded = (size_t)(ci[cnt - 1].address + ci[cnt - 1].size);
    if (cnt)
        cs_free(ci, cnt);
    cs_close(&h);
    return v;
}
