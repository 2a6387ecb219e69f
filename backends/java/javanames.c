/* Java names and literals for the generated sources (see javagen.h):
 * identifiers mangled from litmus names, keywords and reserved class
 * names avoided, packages checked, strings, comments and outcome ids. */
#include "backends/java/javagen.h"
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- names -------------------------------------------------------------- */

static const char *const java_keywords[] = {
    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char",
    "class", "const", "continue", "default", "do", "double", "else", "enum",
    "extends", "final", "finally", "float", "for", "goto", "if", "implements",
    "import", "instanceof", "int", "interface", "long", "native", "new",
    "package", "private", "protected", "public", "return", "short", "static",
    "strictfp", "super", "switch", "synchronized", "this", "throw", "throws",
    "transient", "try", "void", "volatile", "while", "true", "false", "null",
    "_", "var", "yield", "record", "sealed", "permits", "non-sealed", NULL,
};

bool javagen_is_keyword(const char *s)
{
    for (int i = 0; java_keywords[i]; i++)
        if (!strcmp(s, java_keywords[i]))
            return true;
    return false;
}

/* Letters, digits and '_' survive; everything else becomes '_'.  The
 * mapping loses information, so callers make the result unique. */
static char *mangle(const char *name, const char *lead_prefix)
{
    strbuf b = {0};
    if (!name || !*name) {
        sb_add(&b, lead_prefix);
        return sb_take(&b);
    }
    if (isdigit((unsigned char)name[0]))
        sb_add(&b, lead_prefix);
    for (const char *p = name; *p; p++) {
        unsigned char c = (unsigned char)*p;
        sb_addc(&b, (c < 128 && (isalnum(c) || c == '_')) ? (char)c : '_');
    }
    char *s = sb_take(&b);
    if (javagen_is_keyword(s)) {
        char *t = xasprintf("%s_", s);
        free(s);
        s = t;
    }
    return s;
}

char *javagen_ident(const char *name)
{
    return mangle(name, "_");
}

static bool in_list(const char *s, char *const *list, int n)
{
    for (int i = 0; i < n; i++)
        if (list[i] && !strcmp(list[i], s))
            return true;
    return false;
}


char *javagen_unique(char *base, char *const *list, int n)
{
    if (!in_list(base, list, n))
        return base;
    for (int k = 2;; k++) {
        char *s = xasprintf("%s_%d", base, k);
        if (!in_list(s, list, n)) {
            free(base);
            return s;
        }
        free(s);
    }
}

/* Type names the generated sources refer to unqualified: a test class of
 * the same name would shadow them. */
static const char *const reserved_types[] = {
    "Object", "String", "Integer", "Long", "Math", "System", "Thread", "Runnable",
    "VarHandle", "MethodHandles", "Override", "ReflectiveOperationException",
    "ExceptionInInitializerError", "JCStressTest", "State", "Actor", "Arbiter",
    "Outcome", "Expect", "Description", "Result", "Observed", "S", "LitmusCase",
    "Contended", NULL,
};

static bool is_result_class_name(const char *s)
{
    /* jcstress's shipped result classes: [ZBSCIJFDL]+_Result */
    size_t n = strspn(s, "ZBSCIJFDL");
    return n > 0 && !strcmp(s + n, "_Result");
}

char *javagen_class_name(const char *name, const char *const *taken, int ntaken)
{
    char *s = mangle(name, "T");
    bool reserved = is_result_class_name(s);
    for (int i = 0; reserved_types[i]; i++)
        if (!strcmp(s, reserved_types[i]))
            reserved = true;
    if (reserved) {
        char *t = xasprintf("%s_Test", s);
        free(s);
        s = t;
    }
    return javagen_unique(s, (char *const *)taken, ntaken);
}

bool javagen_valid_package(const char *p)
{
    if (!p || !*p)
        return false;
    const char *start = p;
    for (const char *q = p;; q++) {
        if (*q == '.' || *q == '\0') {
            size_t len = (size_t)(q - start);
            if (len == 0 || isdigit((unsigned char)*start))
                return false;
            char *part = xstrndup(start, len);
            bool kw = javagen_is_keyword(part);
            free(part);
            if (kw)
                return false;
            if (*q == '\0')
                return true;
            start = q + 1;
        } else if (!(isalnum((unsigned char)*q) || *q == '_') || (unsigned char)*q >= 128) {
            return false;
        }
    }
}

void javagen_string(strbuf *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        if (*p == '"' || *p == '\\') {
            sb_addc(out, '\\');
            sb_addc(out, (char)*p);
        } else if (*p >= 0x20 && *p < 0x7f) {
            sb_addc(out, (char)*p);
        } else {
            sb_printf(out, "\\%03o", *p);
        }
    }
}

void javagen_comment(strbuf *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        if (*p == '\\')
            sb_add(out, "\\\\");
        else if (*p >= 0x20 && *p < 0x7f)
            sb_addc(out, (char)*p);
        else
            sb_addc(out, ' ');
    }
}

void javagen_outcome_id(strbuf *out, const ir_val *vals, int n)
{
    for (int i = 0; i < n; i++)
        sb_printf(out, "%s%" PRId64, i ? ", " : "", vals[i]);
}

int javagen_thread_index(const ir_test *t, int id)
{
    for (int i = 0; i < t->nthreads; i++)
        if (t->threads[i].id == id)
            return i;
    return -1;
}

