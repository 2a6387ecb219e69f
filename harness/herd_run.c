/* Running an external herd7 on one test text (check-scheme --herd): the
 * test goes to a private temporary folder, herd7 runs as a child with a
 * time limit like any runner, and the folder goes away whatever happens. */
#include <stdlib.h>
#include "harness/harness.h"
#include "util/file.h"
#include "util/mem.h"

char *harness_herd_run(const char *herd, const char *text, double timeout_s, diag *d)
{
    char *dir;
    char *path = harness_temp_input("litmusc-herd", "test.litmus", text, "herd7", &dir, d);
    if (!path)
        return NULL;
    char *out = NULL;
    char *argv[] = {(char *)herd, path, NULL};
    harness_child c;
    proc_opts o = {0};
    o.timeout_s = timeout_s;
    o.grace_s = 2.0;
    o.cleanup_dir = dir;    /* gone with herd7 if litmusc is killed */
    if (proc_run(argv, &o, &c, d)) {
        if (c.exit_status == 0 && !c.timed_out && !c.interrupted) {
            out = c.out;
            c.out = NULL;
        } else {
            char *what = xasprintf("herd7 (%s)", herd);
            harness_child_failed(d, &c, timeout_s, what);
            free(what);
        }
        harness_child_free(&c);
    }
    file_remove_tree(dir);
    free(path);
    free(dir);
    return out;
}
