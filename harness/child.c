/* The harness's names for util/proc.h's runner (a stress runner may hang:
 * a spin barrier with a descheduled partner, a bug in generated code), and
 * a tool's input in a temporary folder. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "harness/harness.h"
#include "util/file.h"
#include "util/mem.h"

void harness_signals_install(void)
{
    proc_signals_install();
}

bool harness_interrupted(void)
{
    return proc_interrupted();
}

int harness_interrupt_signal(void)
{
    return proc_interrupt_signal();
}

bool harness_child_run(char *const argv[], double timeout_s, double grace_s, harness_child *c, diag *d)
{
    proc_opts o = {0};
    o.timeout_s = timeout_s;
    o.grace_s = grace_s;
    return proc_run(argv, &o, c, d);
}

void harness_child_free(harness_child *c)
{
    proc_result_free(c);
}

void harness_child_describe(const harness_child *c, char *buf, size_t size)
{
    proc_describe(c, buf, size);
}

bool harness_child_failed(diag *d, const harness_child *c, double timeout_s, const char *what)
{
    return proc_failed(d, c, timeout_s, what);
}

char *harness_temp_input(const char *prefix, const char *name, const char *text, const char *for_what,
                         char **dir, diag *d)
{
    *dir = file_temp_dir(prefix);
    if (!*dir) {
        diag_fail(d, "cannot create a temporary folder for %s: %s (set TMPDIR)", for_what, strerror(errno));
        return NULL;
    }
    char *path = xasprintf("%s/%s", *dir, name);
    if (file_write_atomic(path, text, strlen(text)))
        return path;
    diag_fail(d, "cannot write %s: %s", path, strerror(errno));
    file_remove_tree(*dir);
    free(path);
    free(*dir);
    *dir = NULL;
    return NULL;
}
