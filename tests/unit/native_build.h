#ifndef LITMUSC_TESTS_UNIT_NATIVE_BUILD_H
#define LITMUSC_TESTS_UNIT_NATIVE_BUILD_H
/* For unit tests: a generated native program built with the runtime under
 * a C compiler (-Wall -Wextra -Werror) and run.  The runtime's sources do
 * not depend on the program, so each compiler builds them once a process
 * (into a folder removed at exit) and every program links those objects:
 * a dozen runtime files compiled again for each program were most of the
 * generator tests' time.  Include after <cmocka.h>. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "backends/native.h"
#include "util/mem.h"

/* The runtime's objects per compiler name, and the folders to remove. */
static struct {
    char *cc;
    char *dir;
} unit_rt[4];
static int unit_nrt;

/* Is compiler CC on the PATH? */
static inline bool unit_have_cc(const char *cc)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", cc);
    return system(cmd) == 0;
}

/* Removes the runtime folders (atexit: they outlive every test). */
static inline void unit_rt_cleanup(void)
{
    for (int i = 0; i < unit_nrt; i++) {
        char *cmd = xasprintf("rm -rf %s", unit_rt[i].dir);
        (void)system(cmd);
        free(cmd);
        free(unit_rt[i].dir);
        free(unit_rt[i].cc);
    }
    unit_nrt = 0;
}

/* The folder holding the runtime's objects compiled by CC, built the first
 * time CC asks; the calling test fails if they do not compile. */
static inline const char *unit_rt_objects(const char *cc)
{
    for (int i = 0; i < unit_nrt; i++)
        if (!strcmp(unit_rt[i].cc, cc))
            return unit_rt[i].dir;
    if (unit_nrt == (int)(sizeof unit_rt / sizeof unit_rt[0]))
        fail_msg("more compilers than unit_rt has room for");
    char dir[] = "/tmp/litmusc-unitrt-XXXXXX";
    if (!mkdtemp(dir))
        fail_msg("mkdtemp failed");
    if (unit_nrt == 0)
        atexit(unit_rt_cleanup);
    unit_rt[unit_nrt].cc = xstrdup(cc);
    unit_rt[unit_nrt].dir = xstrdup(dir);
    unit_nrt++;
    diag d = {0};
    if (!native_write_runtime(dir, &d))
        fail_msg("write the runtime: %s", d.msg);
    char *cmd = xasprintf("cd %s && %s " NATIVE_CFLAGS " -Wall -Wextra -Werror -c lrt_*.c 2>err || "
                          "{ cat err >&2; exit 1; }", dir, cc);
    if (system(cmd) != 0)
        fail_msg("%s failed to compile the runtime", cc);
    free(cmd);
    return unit_rt[unit_nrt - 1].dir;
}

/* Build SRC (a generated program) with the runtime under CC and run it
 * with ARGS; returns its stdout (malloc'd); the calling test fails if it
 * does not compile or exits non-zero. */
static inline char *unit_build_run(const char *src, const char *cc, const char *args)
{
    const char *rt = unit_rt_objects(cc);
    char dir[] = "/tmp/litmusc-unitprog-XXXXXX";
    if (!mkdtemp(dir))
        fail_msg("mkdtemp failed");
    diag d = {0};
    char *path = xasprintf("%s/test.c", dir);
    if (!native_write_file(path, src, strlen(src), &d) || !native_write_runtime(dir, &d))
        fail_msg("write: %s", d.msg);
    char *cmd = xasprintf("%s " NATIVE_CFLAGS " -Wall -Wextra -Werror -o %s/t %s %s/lrt_*.o "
                          NATIVE_LDLIBS " 2>%s/err", cc, dir, path, rt, dir);
    if (system(cmd) != 0) {
        char *show = xasprintf("cat %s/err >&2", dir);
        (void)system(show);
        fail_msg("%s failed to compile the generated program:\n%s", cc, src);
    }
    free(cmd);
    cmd = xasprintf("%s/t %s", dir, args);
    FILE *p = popen(cmd, "r");
    strbuf out = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        sb_addn(&out, buf, n);
    assert_int_equal(pclose(p), 0);
    free(cmd);
    cmd = xasprintf("rm -rf %s", dir);
    (void)system(cmd);
    free(cmd);
    free(path);
    return sb_take(&out);
}

#endif
