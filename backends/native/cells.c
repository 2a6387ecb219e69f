/* Cell types: every location is one cell of at most LRT_CELL_SIZE (8)
 * bytes.  x86 tests are 32-bit code and Java ints are 32 bits; C tests get
 * the width of their declared type. */
#include <string.h>
#include "backends/native/native_internal.h"
#include "isa/isa.h"

/* Does the type text contain WORD as a whole word? */
static bool has_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = s; (p = strstr(p, word)) != NULL; p++) {
        bool left = p == s || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                                (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9'));
        char r = p[n];
        bool right = !(r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'));
        if (left && right)
            return true;
    }
    return false;
}

static const char *c_cell_type(const char *ct)
{
    static const struct { const char *word, *type; } fixed[] = {
        {"int8_t", "int8_t"}, {"uint8_t", "uint8_t"}, {"atomic_schar", "int8_t"},
        {"atomic_uchar", "uint8_t"}, {"atomic_char", "int8_t"}, {"atomic_bool", "uint8_t"},
        {"int16_t", "int16_t"}, {"uint16_t", "uint16_t"}, {"atomic_short", "int16_t"},
        {"atomic_ushort", "uint16_t"},
        {"int32_t", "int32_t"}, {"uint32_t", "uint32_t"}, {"atomic_int", "int32_t"},
        {"atomic_uint", "uint32_t"},
        {"int64_t", "int64_t"}, {"uint64_t", "uint64_t"}, {"intptr_t", "int64_t"},
        {"uintptr_t", "uint64_t"}, {"size_t", "uint64_t"}, {"atomic_long", "int64_t"},
        {"atomic_ulong", "uint64_t"}, {"atomic_llong", "int64_t"}, {"atomic_ullong", "uint64_t"},
        {"atomic_intptr_t", "int64_t"},
    };
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        if (has_word(ct, fixed[i].word))
            return fixed[i].type;
    bool uns = has_word(ct, "unsigned");
    if (has_word(ct, "char") || has_word(ct, "_Bool") || has_word(ct, "bool"))
        return uns ? "uint8_t" : "int8_t";
    if (has_word(ct, "short"))
        return uns ? "uint16_t" : "int16_t";
    if (has_word(ct, "long"))
        return uns ? "uint64_t" : "int64_t";
    return uns ? "uint32_t" : "int32_t";
}

int nat_cell_size(const ir_test *t, int loc)
{
    const char *ty = nat_cell_type(t, loc);
    return strstr(ty, "8_t") ? 1 : strstr(ty, "16_t") ? 2 : strstr(ty, "32_t") ? 4 : 8;
}

const char *nat_cell_type(const ir_test *t, int loc)
{
    const ir_loc *l = &t->locs[loc];
    if (l->type == IR_T_PTR || l->type == IR_T_INT128)
        return "int64_t";
    if (isa_of(t->arch) && isa_of(t->arch)->wide)
        return "int64_t";
    if (t->arch == IR_ARCH_C && l->ctype)
        return c_cell_type(l->ctype);
    return "int32_t";
}
