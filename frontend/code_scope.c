/* The scope of a thread body's locals and C's type words: what both the
 * statements (code.c) and the expressions (code_expr.c) of C and Java
 * thread bodies ask, below them both. */
#include <stdlib.h>
#include <string.h>
#include "frontend/internal.h"
#include "util/mem.h"

void code_scope_add(code_scope *sc, const char *name, bool is_ptr)
{
    int i = code_scope_find(sc, name);
    if (i >= 0) {
        sc->is_ptr[i] = is_ptr;
        return;
    }
    if (sc->nnames == sc->cap) {
        sc->cap = sc->cap ? 2 * sc->cap : 8;
        sc->names = xrealloc(sc->names, (size_t)sc->cap * sizeof *sc->names);
        sc->is_ptr = xrealloc(sc->is_ptr, (size_t)sc->cap * sizeof *sc->is_ptr);
    }
    sc->names[sc->nnames] = xstrdup(name);
    sc->is_ptr[sc->nnames] = is_ptr;
    sc->nnames++;
}

int code_scope_find(const code_scope *sc, const char *name)
{
    for (int i = 0; i < sc->nnames; i++)
        if (!strcmp(sc->names[i], name))
            return i;
    return -1;
}

void code_scope_free(code_scope *sc)
{
    for (int i = 0; i < sc->nnames; i++)
        free(sc->names[i]);
    free(sc->names);
    free(sc->is_ptr);
    sc->names = NULL;
    sc->is_ptr = NULL;
    sc->nnames = sc->cap = 0;
}

static const char *const c_type_words[] = {
    "int", "char", "long", "short", "unsigned", "signed", "volatile", "const", "_Atomic",
    "atomic_int", "atomic_long", "atomic_t", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t",
    "uint32_t", "int64_t", "uint64_t", "__int128", "__int128_t", "__uint128_t", "__uint128",
    "int128_t", "uint128_t", "intptr_t", "uintptr_t", "mtx_t", "spinlock_t", NULL
};

bool code_is_c_type_word(const char *s, size_t len)
{
    for (int i = 0; c_type_words[i]; i++)
        if (strlen(c_type_words[i]) == len && !memcmp(c_type_words[i], s, len))
            return true;
    return false;
}

/* Read a C type: type words and stars, as "volatile int*". */
char *code_parse_c_type(lexer *lx)
{
    strbuf b = {0};
    int nwords = 0;
    for (;;) {
        if (lx->cur.kind == TK_IDENT && code_is_c_type_word(lx->cur.s, lx->cur.len)) {
            if (b.len && b.s[b.len - 1] != ' ')
                sb_addc(&b, ' ');
            sb_addn(&b, lx->cur.s, lx->cur.len);
            nwords++;
        } else if (lx_is(lx, "*") && nwords) {
            while (b.len && b.s[b.len - 1] == ' ')
                b.s[--b.len] = 0;
            sb_addc(&b, '*');
        } else {
            break;
        }
        if (!lx_next(lx)) {
            sb_free(&b);
            return NULL;
        }
    }
    if (!nwords) {
        sb_free(&b);
        lx_error(lx, "expected a type");
        return NULL;
    }
    return sb_take(&b);
}
