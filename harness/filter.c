/* Test-name filters for `run --filter`, with PCRE2 so that patterns mean
 * what they mean in every other tool (jcstress -t, grep -P). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include "harness/harness.h"

struct harness_filter {
    pcre2_code *code;
    pcre2_match_data *match;
};

harness_filter *harness_filter_new(const char *pattern, diag *d)
{
    int err;
    PCRE2_SIZE off;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &err,
                                     &off, NULL);
    if (!code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(err, msg, sizeof msg);
        diag_error(d, "--filter", 1, (int)off + 1, "bad pattern '%s': %s", pattern, (char *)msg);
        return NULL;
    }
    harness_filter *f = xcalloc(1, sizeof *f);
    f->code = code;
    f->match = pcre2_match_data_create_from_pattern(code, NULL);
    return f;
}

bool harness_filter_match(const harness_filter *f, const char *name)
{
    int r = pcre2_match(f->code, (PCRE2_SPTR)name, strlen(name), 0, 0, f->match, NULL);
    return r >= 0;
}

void harness_filter_free(harness_filter *f)
{
    if (!f)
        return;
    pcre2_match_data_free(f->match);
    pcre2_code_free(f->code);
    free(f);
}
