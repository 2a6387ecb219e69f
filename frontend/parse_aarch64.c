/* AArch64 programs: herd's table of threads `P0 | P1 ;` whose cells hold
 * one instruction each.  Not read yet: the test is refused at its program. */
#include "frontend/internal.h"
#include "isa/isa.h"

/* Refused by name at the program's first character, exit 2. */
bool fe_parse_aarch64(fe_test *t, const section *s, const char *file, diag *d)
{
    (void)t;
    return diag_error(d, file, s->line, s->col, "AArch64 programs are not supported yet");
}

/* The registers an init or condition may name: X0-X30 (and W0-W30). */
bool fe_reg_known_aarch64(const fe_test *t, const fe_loc *l)
{
    bool narrow;
    return fe_reg_canon_aarch64(t, l->name, &narrow) != NULL;
}

/* herd names a general register by its 64-bit spelling X<n> in a state;
 * W<n> is the same register's low half. */
const char *fe_reg_canon_aarch64(const fe_test *t, const char *name, bool *narrow)
{
    static const char *const xregs[31] = {
        "X0", "X1", "X2", "X3", "X4", "X5", "X6", "X7", "X8", "X9", "X10", "X11", "X12", "X13", "X14", "X15",
        "X16", "X17", "X18", "X19", "X20", "X21", "X22", "X23", "X24", "X25", "X26", "X27", "X28", "X29", "X30",
    };
    (void)t;
    *narrow = false;
    if ((name[0] != 'X' && name[0] != 'W') || name[1] < '0' || name[1] > '9')
        return NULL;
    int n = 0;
    for (const char *p = name + 1; *p; p++) {
        if (*p < '0' || *p > '9' || n > 30)
            return NULL;
        n = n * 10 + (*p - '0');
    }
    if (n > 30 || (name[1] == '0' && name[2]))
        return NULL;
    *narrow = name[0] == 'W';
    return xregs[n];
}

/* Nothing to print until the program is read. */
void fe_print_aarch64(strbuf *b, const fe_test *t)
{
    (void)b;
    (void)t;
}

/* Nothing to hash until the program is read. */
void fe_digest_aarch64(const fe_test *t, unsigned char out[16])
{
    (void)t;
    for (int i = 0; i < 16; i++)
        out[i] = 0;
}
