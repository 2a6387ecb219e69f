/* The instruction sequence a scheme gives one access, as its file spells
 * it ("MOV; MFENCE"), for reports that set it beside a real compiler's. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "backends/x86/scheme_internal.h"

static const char *item_name(const scheme_item *it, char *buf, size_t n)
{
    static const char *const names[] = {[SI_MOV] = "MOV", [SI_XCHG] = "XCHG", [SI_LOCK_XADD] = "LOCK XADD",
                                        [SI_LOCK_CMPXCHG] = "LOCK CMPXCHG", [SI_MFENCE] = "MFENCE",
                                        [SI_LFENCE] = "LFENCE", [SI_SFENCE] = "SFENCE",
                                        [SI_LOCK_ADD_SCRATCH] = "LOCK ADD [scratch],0"};
    if (it->kind != SI_LOCK_OP)
        return names[it->kind];
    snprintf(buf, n, "LOCK %s", ir_rmw_name(it->op));
    for (char *p = buf; *p; p++)
        *p = (char)toupper((unsigned char)*p);
    return buf;
}

bool x86_scheme_describe(const x86_scheme *s, const ir_instr *in, char *buf, size_t n)
{
    scheme_kind k = in->op == IR_LOAD ? SK_LOAD : in->op == IR_STORE ? SK_STORE : in->op == IR_RMW ? SK_RMW : SK_FENCE;
    if (in->op != IR_LOAD && in->op != IR_STORE && in->op != IR_RMW && in->op != IR_FENCE)
        return false;
    const scheme_rule *r = scheme_match(s, k, in->op == IR_FENCE && in->fence != IR_FENCE_C ? IR_MODE_NONE : in->mode,
                                        in->rmw_op, in->fence);
    if (!r)
        return false;
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < r->nitems && len + 1 < n; i++) {
        char tmp[32];
        len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? "; " : "", item_name(&r->items[i], tmp, sizeof tmp));
    }
    if (!r->nitems)
        snprintf(buf, n, "(nothing)");
    return true;
}
