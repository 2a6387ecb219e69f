/* The operands of LLVM's AArch64 text: split, registers, memory operands
 * and immediates, and their spelling in herd's AArch64 dialect (upper
 * case, immediates in decimal: herd7 7.57 reads no hexadecimal). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "lift/a64.h"

int a64_split(const char *ops, a64_ops out)
{
    int n = 0, depth = 0;
    size_t k = 0;
    if (!*ops)
        return 0;
    for (const char *p = ops;; p++) {
        if (*p == '[' || *p == '{')
            depth++;
        if (*p == ']' || *p == '}')
            depth--;
        if (!*p || (*p == ',' && depth == 0)) {
            if (n == A64_MAXOPS)
                return -1;
            out[n][k] = 0;
            n++;
            k = 0;
            if (!*p)
                return n;
            while (p[1] == ' ')
                p++;
            continue;
        }
        if (k + 1 < A64_OPLEN)
            out[n][k++] = *p;
    }
}

int a64_reg(const char *tok, char *w)
{
    *w = 'x';
    if (!strcmp(tok, "sp") || !strcmp(tok, "wsp"))
        return A64_SP;
    if (!strcmp(tok, "xzr") || !strcmp(tok, "wzr"))
        return *w = tok[0], A64_ZR;
    if (!strcmp(tok, "fp"))
        return 29;
    if (!strcmp(tok, "lr"))
        return 30;
    if ((tok[0] != 'w' && tok[0] != 'x') || !isdigit((unsigned char)tok[1]))
        return -1;
    char *end;
    long r = strtol(tok + 1, &end, 10);
    if (*end || r > 30)
        return -1;
    *w = tok[0];
    return (int)r;
}

bool a64_imm(const char *tok, long *v)
{
    if (tok[0] != '#')
        return false;
    char *end;
    *v = strtol(tok + 1, &end, 0);
    return end != tok + 1 && !*end;
}

bool a64_parse_mem(const char *tok, a64_mem *m)
{
    memset(m, 0, sizeof *m);
    size_t n = strlen(tok);
    if (tok[0] != '[')
        return false;
    m->pre = n > 1 && tok[n - 1] == '!';
    const char *close = strrchr(tok, ']');
    if (!close)
        return false;
    char in[A64_OPLEN];
    snprintf(in, sizeof in, "%.*s", (int)(close - tok - 1), tok + 1);
    char *comma = strchr(in, ',');
    if (comma)
        *comma = 0;
    char w;
    m->base = a64_reg(in, &w);
    if (m->base < 0 || m->base == A64_ZR)
        return false;
    if (!comma)
        return true;
    const char *rest = comma + 1;
    while (*rest == ' ')
        rest++;
    if (a64_imm(rest, &m->imm))
        return true;
    snprintf(m->index, sizeof m->index, "%s", rest);
    return true;
}

void a64_herd_op(strbuf *b, const char *tok)
{
    for (const char *p = tok; *p; p++) {
        /* #0x10 -> #16, #-0x10 -> #-16 */
        if (*p == '#' && (p[1] == '-' ? p[2] == '0' && p[3] == 'x' : p[1] == '0' && p[2] == 'x')) {
            char *end;
            long v = strtol(p + 1, &end, 0);
            sb_printf(b, "#%ld", v);
            p = end - 1;
            continue;
        }
        sb_addc(b, (char)toupper((unsigned char)*p));
    }
}
