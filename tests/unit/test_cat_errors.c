/* Every malformed model in tests/bad_cat is rejected with the position and
 * message its second line announces: (* expect LINE:COL MESSAGE-PART *). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "model/cat/cat.h"
#include "util/mem.h"

/* tests/bad_cat from the source root (make runs tests there), else from
 * this file's own location. */
static char *bad_dir(void)
{
    if (access("tests/bad_cat", R_OK) == 0) return xstrdup("tests/bad_cat");
    const char *me = __FILE__;
    const char *slash = strrchr(me, '/');
    return xasprintf("%.*s/../bad_cat", slash ? (int)(slash - me) : 1, slash ? me : ".");
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void check_one(const char *dir, const char *name)
{
    char *path = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line1[512], line2[512];
    assert_non_null(fgets(line1, sizeof line1, f));
    assert_non_null(fgets(line2, sizeof line2, f));
    fclose(f);
    int line = 0, col = 0, used = 0;
    if (sscanf(line2, "(* expect %d:%d %n", &line, &col, &used) < 2) fail_msg("%s: no expect line", name);
    char want[512];
    snprintf(want, sizeof want, "%s", line2 + used);
    char *end = strstr(want, " *)");
    if (end) *end = 0;
    diag d = {0};
    cat_model *m = cat_load(path, &d);
    if (m) {
        cat_free(m);
        fail_msg("%s: accepted", name);
    }
    assert_true(d.set);
    assert_int_equal(d.status, 2);
    if (d.line != line || d.col != col)
        fail_msg("%s: error at %d:%d, expected %d:%d (%s)", name, d.line, d.col, line, col, d.msg);
    if (!strstr(d.msg, want)) fail_msg("%s: message '%s' lacks '%s'", name, d.msg, want);
    /* The error names the file the fault is in. */
    assert_non_null(strstr(d.file, name));
    free(path);
}

static void test_bad_models(void **state)
{
    (void)state;
    char *dir = bad_dir();
    DIR *dh = opendir(dir);
    assert_non_null(dh);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dh))) {
        size_t len = strlen(de->d_name);
        if (len > 4 && !strcmp(de->d_name + len - 4, ".cat")) {
            char *s = xstrdup(de->d_name);
            VEC_PUSH(names, n, cap, s);
        }
    }
    closedir(dh);
    assert_true(n >= 15);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        check_one(dir, names[i]);
        free(names[i]);
    }
    free(names);
    free(dir);
}

static void test_unknown_builtin(void **state)
{
    (void)state;
    diag d = {0};
    assert_null(cat_load("no-such-model", &d));
    assert_true(d.set);
    assert_non_null(strstr(d.msg, "unknown model 'no-such-model'"));
    diag d2 = {0};
    assert_null(cat_load("/nonexistent/dir/m.cat", &d2));
    assert_non_null(strstr(d2.msg, "cannot read model"));
}

static void test_error_in_included_file(void **state)
{
    (void)state;
    /* An include found among the built-in files is named by its path there. */
    diag d = {0};
    assert_null(cat_load_text("M\ninclude \"cos.cat\"\nacyclic co ; W\n", "inline.cat", &d));
    assert_string_equal(d.file, "inline.cat");
    assert_int_equal(d.line, 3);
    assert_int_equal(d.col, 14);
}

/* herd's top-level bindings are lazy: an unbound name in a binding nothing
 * uses is no error (herd's c11_cos.cat has `coi = coi` beside names its
 * models use); tests/bad_cat/unbound_lazy_used.cat is the case where a use
 * reaches it. */
static void test_unbound_unused(void **state)
{
    (void)state;
    diag d = {0};
    cat_model *m = cat_load_text("M\nlet a = po and b = nothere\nlet c = b\nacyclic a as x\n", "lazy.cat", &d);
    assert_non_null(m);
    assert_false(d.set);
    cat_free(m);
    /* a function whose body names it is an error where it is called */
    diag d2 = {0};
    assert_null(cat_load_text("M\nlet f(x) = let b = nothere in x\nacyclic f(po) as x\n", "local.cat", &d2));
    assert_non_null(strstr(d2.msg, "unbound name 'nothere'"));
    assert_int_equal(d2.line, 2);
    assert_int_equal(d2.col, 20);
    /* and in a procedure body, at once */
    diag d3 = {0};
    assert_null(cat_load_text("M\nprocedure p(r) =\n  acyclic nothere as y\nend\nacyclic po as x\n", "proc.cat", &d3));
    assert_non_null(strstr(d3.msg, "unbound name 'nothere'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_models),
        cmocka_unit_test(test_unknown_builtin),
        cmocka_unit_test(test_error_in_included_file),
        cmocka_unit_test(test_unbound_unused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
