#ifndef LITMUSC_UTIL_JSON_H
#define LITMUSC_UTIL_JSON_H
/* Writing JSON into a strbuf: the writer puts the commas and quotes, so
 * every producer of JSON (model, run, races, campaign reports) spells
 * values one way.  Strings are escaped (control bytes as \u00XX); numbers
 * are written as numbers, a double that is not finite as null. */
#include <stdbool.h>
#include <stdint.h>
#include "util/mem.h"

enum { JSON_MAX_DEPTH = 32 };

typedef struct json {
    strbuf *out;
    int depth;
    bool need_comma[JSON_MAX_DEPTH];
    bool after_key;
} json;

void json_init(json *j, strbuf *out);
void json_object(json *j);      /* { */
void json_end_object(json *j);  /* } */
void json_array(json *j);       /* [ */
void json_end_array(json *j);   /* ] */
void json_key(json *j, const char *key);
void json_string(json *j, const char *s);   /* NULL writes null */
void json_int(json *j, int64_t v);
void json_uint(json *j, uint64_t v);
void json_double(json *j, double v);
void json_bool(json *j, bool v);
void json_null(json *j);
/* A value written elsewhere (already JSON text), as it is. */
void json_raw(json *j, const char *text);
/* A value that is an integer or a decimal number when the whole of S
 * reads as one, else a string: for key=value text from elsewhere. */
void json_number_or_string(json *j, const char *s);

/* Key and value at once. */
void json_kv_string(json *j, const char *key, const char *s);
void json_kv_int(json *j, const char *key, int64_t v);
void json_kv_uint(json *j, const char *key, uint64_t v);
void json_kv_double(json *j, const char *key, double v);
void json_kv_bool(json *j, const char *key, bool v);

/* S as a JSON string literal, appended to OUT. */
void json_quote(strbuf *out, const char *s);

#endif
