/* Graphviz's dot as a child, for pictures of executions: the graph goes
 * to a private temporary folder (a child's stdin is /dev/null), dot
 * renders it under a time limit like any child, its stdout is the
 * picture, and the folder goes away whatever happens. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/harness.h"
#include "util/file.h"
#include "util/mem.h"

/* D says dot could not be started; say what to do about it. */
static bool no_dot(diag *d, const diag *why)
{
    return diag_fail(d, "%s: pictures in svg need Graphviz's dot: install graphviz "
                        "(apt-get install graphviz), or write dot text with --format dot", why->msg);
}

/* Why a child that ran did not succeed, in a few words and its first
 * line of stderr. */
static bool dot_failed(diag *d, const harness_child *c, double timeout_s)
{
    char why[160];
    if (c->timed_out)
        snprintf(why, sizeof why, "ran past the %g s time limit", timeout_s);
    else if (c->interrupted)
        snprintf(why, sizeof why, "was interrupted");
    else
        harness_child_describe(c, why, sizeof why);
    const char *err = c->err ? c->err : "";
    size_t n = strcspn(err, "\n");
    return diag_fail(d, "dot %s%s%.*s", why, n ? ": " : "", (int)n, err);
}

bool harness_dot_check(diag *d)
{
    char *argv[] = {(char *)"dot", (char *)"-V", NULL};
    harness_child c;
    diag why = {0};
    if (!harness_child_run(argv, 30.0, 2.0, &c, &why))
        return no_dot(d, &why);
    bool ok = c.exit_status == 0 && !c.timed_out && !c.interrupted;
    if (!ok)
        dot_failed(d, &c, 30.0);
    harness_child_free(&c);
    return ok;
}

char *harness_dot_render(const char *text, const char *format, double timeout_s, size_t *len, diag *d)
{
    char *dir = file_temp_dir("litmusc-dot");
    if (!dir) {
        diag_fail(d, "cannot create a temporary folder for dot: %s (set TMPDIR)", strerror(errno));
        return NULL;
    }
    char *path = xasprintf("%s/graph.dot", dir);
    char *out = NULL;
    if (!file_write_atomic(path, text, strlen(text))) {
        diag_fail(d, "cannot write %s: %s", path, strerror(errno));
    } else {
        char *opt = xasprintf("-T%s", format);
        char *argv[] = {(char *)"dot", opt, path, NULL};
        harness_child c;
        diag why = {0};
        if (!harness_child_run(argv, timeout_s, 2.0, &c, &why)) {
            no_dot(d, &why);
        } else {
            bool ran = c.exit_status == 0 && !c.timed_out && !c.interrupted;
            if (ran && c.outlen > 0) {
                out = c.out;
                *len = c.outlen;
                c.out = NULL;
            } else if (ran) {
                diag_fail(d, "dot -T%s printed nothing", format);
            } else {
                dot_failed(d, &c, timeout_s);
            }
            harness_child_free(&c);
        }
        free(opt);
    }
    file_remove_tree(dir);
    free(path);
    free(dir);
    return out;
}
