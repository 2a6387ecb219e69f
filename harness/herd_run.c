/* Running an external herd7 on one test text (check-scheme --herd): the
 * test goes to a private temporary folder, herd7 runs as a child with a
 * time limit like any runner, and the folder goes away whatever happens. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/harness.h"
#include "util/file.h"
#include "util/mem.h"

char *harness_herd_run(const char *herd, const char *text, double timeout_s, diag *d)
{
    char *dir = file_temp_dir("litmusc-herd");
    if (!dir) {
        diag_fail(d, "cannot create a temporary folder for herd7: %s (set TMPDIR)", strerror(errno));
        return NULL;
    }
    char *path = xasprintf("%s/test.litmus", dir);
    char *out = NULL;
    if (!file_write_atomic(path, text, strlen(text))) {
        diag_fail(d, "cannot write %s: %s", path, strerror(errno));
    } else {
        char *argv[] = {(char *)herd, path, NULL};
        harness_child c;
        if (harness_child_run(argv, timeout_s, 2.0, &c, d)) {
            if (c.exit_status == 0 && !c.timed_out && !c.interrupted) {
                out = c.out;
                c.out = NULL;
            } else {
                char why[160];
                if (c.timed_out)
                    snprintf(why, sizeof why, "ran past the %g s time limit", timeout_s);
                else if (c.interrupted)
                    snprintf(why, sizeof why, "was interrupted");
                else
                    harness_child_describe(&c, why, sizeof why);
                const char *err = c.err ? c.err : "";
                size_t n = strcspn(err, "\n");
                diag_fail(d, "herd7 (%s) %s%s%.*s", herd, why, n ? ": " : "", (int)n, err);
            }
            harness_child_free(&c);
        }
    }
    file_remove_tree(dir);
    free(path);
    free(dir);
    return out;
}
