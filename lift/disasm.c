/* Capstone (CS_OPT_DETAIL for the group of each instruction, AT&T syntax
 * for the text herd's X86_64 dialect reads). */
#include <capstone.h>
#include <stdlib.h>
#include <string.h>
#include "lift/disasm.h"
#include "util/mem.h"

lift_insn *lift_disasm(const unsigned char *code, size_t size, int *n, size_t *decoded)
{
    csh h;
    *n = 0;
    *decoded = 0;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
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
