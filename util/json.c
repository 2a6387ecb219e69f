/* JSON writer (json.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include "util/json.h"
#include "util/utf8.h"

void json_init(json *j, strbuf *out)
{
    j->out = out;
    j->depth = 0;
    j->need_comma[0] = false;
    j->after_key = false;
}

/* Before any value or key: the comma that separates it from the last. */
static void before(json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->need_comma[j->depth])
        sb_addc(j->out, ',');
    j->need_comma[j->depth] = true;
}

static void open_level(json *j, char c)
{
    before(j);
    sb_addc(j->out, c);
    if (j->depth + 1 < JSON_MAX_DEPTH)
        j->depth++;
    j->need_comma[j->depth] = false;
}

static void close_level(json *j, char c)
{
    sb_addc(j->out, c);
    if (j->depth > 0)
        j->depth--;
}

void json_object(json *j) { open_level(j, '{'); }
void json_end_object(json *j) { close_level(j, '}'); }
void json_array(json *j) { open_level(j, '['); }
void json_end_array(json *j) { close_level(j, ']'); }

void json_quote(strbuf *out, const char *s)
{
    sb_addc(out, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_printf(out, "\\%c", *p);
        else if (*p == '\n')
            sb_add(out, "\\n");
        else if (*p == '\t')
            sb_add(out, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            sb_printf(out, "\\u%04x", *p);
        else if (*p < 0x80)
            sb_addc(out, (char)*p);
        else {
            /* a byte that is not part of valid UTF-8 (a path can hold
             * anything) becomes U+FFFD: the output stays valid JSON */
            size_t n = utf8_seq_len(p);
            if (n == 0) {
                sb_add(out, "\\ufffd");
                continue;
            }
            for (size_t i = 0; i < n; i++)
                sb_addc(out, (char)p[i]);
            p += n - 1;
        }
    }
    sb_addc(out, '"');
}

void json_key(json *j, const char *key)
{
    before(j);
    json_quote(j->out, key);
    sb_addc(j->out, ':');
    j->after_key = true;
}

void json_string(json *j, const char *s)
{
    before(j);
    if (s)
        json_quote(j->out, s);
    else
        sb_add(j->out, "null");
}

void json_int(json *j, int64_t v)
{
    before(j);
    sb_printf(j->out, "%" PRId64, v);
}

void json_uint(json *j, uint64_t v)
{
    before(j);
    sb_printf(j->out, "%" PRIu64, v);
}

void json_double(json *j, double v)
{
    before(j);
    if (isfinite(v))
        sb_printf(j->out, "%.9g", v);
    else
        sb_add(j->out, "null");
}

void json_bool(json *j, bool v)
{
    before(j);
    sb_add(j->out, v ? "true" : "false");
}

void json_null(json *j)
{
    before(j);
    sb_add(j->out, "null");
}

void json_raw(json *j, const char *text)
{
    before(j);
    sb_add(j->out, text);
}

void json_number_or_string(json *j, const char *s)
{
    char *end;
    errno = 0;
    long long i = strtoll(s, &end, 10);
    /* beyond 2^53 a reader that holds numbers as doubles would lose digits */
    if (*s && !*end && !errno && i > -(1LL << 53) && i < (1LL << 53)) {
        json_int(j, i);
        return;
    }
    if (*s && !*end)
        errno = ERANGE;     /* an integer too large: a string */
    double d = errno ? 0 : strtod(s, &end);
    if (*s && !*end && !errno && isfinite(d) && s[0] != ' ') {
        json_double(j, d);
        return;
    }
    json_string(j, s);
}

void json_kv_string(json *j, const char *key, const char *s) { json_key(j, key); json_string(j, s); }
void json_kv_int(json *j, const char *key, int64_t v) { json_key(j, key); json_int(j, v); }
void json_kv_uint(json *j, const char *key, uint64_t v) { json_key(j, key); json_uint(j, v); }
void json_kv_double(json *j, const char *key, double v) { json_key(j, key); json_double(j, v); }
void json_kv_bool(json *j, const char *key, bool v) { json_key(j, key); json_bool(j, v); }
