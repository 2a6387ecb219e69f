/* Graphviz's dot as a child, for pictures of executions: the graph goes
 * to a private temporary folder (a child's stdin is /dev/null), dot
 * renders it under a time limit like any child, its stdout is the
 * picture, and the folder goes away whatever happens. */
#include <stdlib.h>
#include "harness/harness.h"
#include "util/file.h"
#include "util/mem.h"

/* D says dot could not be started; say what to do about it. */
static bool no_dot(diag *d, const diag *why)
{
    return diag_fail(d, "%s: pictures in svg need Graphviz's dot: install graphviz "
                        "(apt-get install graphviz), or write dot text with --format dot", why->msg);
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
        harness_child_failed(d, &c, 30.0, "dot");
    harness_child_free(&c);
    return ok;
}

char *harness_dot_render(const char *text, const char *format, double timeout_s, size_t *len, diag *d)
{
    char *dir;
    char *path = harness_temp_input("litmusc-dot", "graph.dot", text, "dot", &dir, d);
    if (!path)
        return NULL;
    char *out = NULL;
    char *opt = xasprintf("-T%s", format);
    char *argv[] = {(char *)"dot", opt, path, NULL};
    harness_child c;
    diag why = {0};
    proc_opts o = {0};
    o.timeout_s = timeout_s;
    o.grace_s = 2.0;
    o.cleanup_dir = dir;    /* gone with dot if litmusc is killed */
    if (!proc_run(argv, &o, &c, &why)) {
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
            harness_child_failed(d, &c, timeout_s, "dot");
        }
        harness_child_free(&c);
    }
    free(opt);
    file_remove_tree(dir);
    free(path);
    free(dir);
    return out;
}
