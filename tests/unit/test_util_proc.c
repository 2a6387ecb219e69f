/* util/proc.h, what harness_child's tests do not cover: the working
 * folder, TMPDIR, a program that is not there or cannot start in its
 * folder, the tail of stderr, and the supervisor: when the process that
 * called proc_run is killed with SIGKILL, the program's whole group dies
 * and the cleanup folder goes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "util/file.h"
#include "util/mem.h"
#include "util/proc.h"

static void sh(const char *script, const proc_opts *o, proc_result *r)
{
    char *argv[] = {"sh", "-c", (char *)script, NULL};
    diag d = {0};
    assert_true(proc_run(argv, o, r, &d));
    assert_false(d.set);
}

static void runs_in_the_folder_given(void **state)
{
    (void)state;
    proc_opts o = {0};
    o.cwd = "/";
    proc_result r;
    sh("pwd", &o, &r);
    assert_string_equal(r.out, "/\n");
    assert_true(proc_ok(&r));
    proc_result_free(&r);
}

static void tmpdir_is_set_for_the_child(void **state)
{
    (void)state;
    proc_opts o = {0};
    o.tmpdir = "/some/where";
    proc_result r;
    sh("echo \"$TMPDIR\"; env | grep -c '^TMPDIR='", &o, &r);
    assert_string_equal(r.out, "/some/where\n1\n");
    proc_result_free(&r);
    /* without it, litmusc's own */
    setenv("TMPDIR", "/from/litmusc", 1);
    sh("echo \"$TMPDIR\"", NULL, &r);
    assert_string_equal(r.out, "/from/litmusc\n");
    unsetenv("TMPDIR");
    proc_result_free(&r);
}

static void missing_program_says_why(void **state)
{
    (void)state;
    char *argv[] = {"litmusc-no-such-compiler", "-c", NULL};
    proc_result r;
    diag d = {0};
    assert_false(proc_run(argv, NULL, &r, &d));
    assert_int_equal(d.status, 3);
    assert_int_equal(r.start_errno, ENOENT);
    assert_string_equal(d.msg, "cannot run 'litmusc-no-such-compiler': No such file or directory");
    proc_result_free(&r);
}

static void missing_folder_says_why(void **state)
{
    (void)state;
    char *argv[] = {"true", NULL};
    proc_opts o = {0};
    o.cwd = "/litmusc-no-such-folder";
    proc_result r;
    diag d = {0};
    assert_false(proc_run(argv, &o, &r, &d));
    assert_int_equal(d.status, 3);
    assert_int_equal(r.start_errno, ENOENT);
    assert_non_null(strstr(d.msg, "/litmusc-no-such-folder: No such file or directory"));
    proc_result_free(&r);
}

static void stderr_tail_keeps_the_last_lines(void **state)
{
    (void)state;
    proc_result r;
    sh("echo one >&2; echo two >&2; echo three >&2; echo four >&2; echo five >&2; exit 1", NULL, &r);
    assert_false(proc_ok(&r));
    char buf[200];
    proc_err_tail(&r, buf, sizeof buf);
    assert_string_equal(buf, "two | three | four | five");
    proc_err_tail(&r, buf, 11);     /* what fits: the last line whole */
    assert_string_equal(buf, "five");
    proc_result_free(&r);
    sh("true", NULL, &r);
    proc_err_tail(&r, buf, sizeof buf);
    assert_string_equal(buf, "");
    proc_result_free(&r);
}

static bool alive(pid_t group)
{
    return kill(-group, 0) == 0 || errno != ESRCH;
}

/* A caller killed with SIGKILL mid-run: the program and what it started
 * (a group of two sleeps) die within a second or so, and the folder named
 * for cleanup is gone. */
static void killed_caller_leaves_nothing(void **state)
{
    (void)state;
    char *dir = file_temp_dir("litmusc-proc-test");
    assert_non_null(dir);
    char *pidfile = xasprintf("%s.pid", dir);
    char *inside = xasprintf("%s/sub", dir);
    assert_int_equal(mkdir(inside, 0700), 0);
    char *script = xasprintf("echo $$ > %s.tmp && mv %s.tmp %s; touch %s/a %s/b; sleep 30 & sleep 30", pidfile,
                             pidfile, pidfile, dir, inside);
    pid_t caller = fork();
    assert_true(caller >= 0);
    if (caller == 0) {
        char *argv[] = {"sh", "-c", script, NULL};
        proc_opts o = {0};
        o.cleanup_dir = dir;
        proc_result r;
        diag d = {0};
        proc_run(argv, &o, &r, &d);
        _exit(0);
    }
    long group = 0;
    for (int i = 0; i < 200 && !group; i++) {
        FILE *f = fopen(pidfile, "r");
        if (f) {
            if (fscanf(f, "%ld", &group) != 1)
                group = 0;
            fclose(f);
        }
        if (!group)
            usleep(25000);
    }
    assert_true(group > 0);
    usleep(100000);     /* the second sleep started */
    assert_true(alive((pid_t)group));
    kill(caller, SIGKILL);
    waitpid(caller, NULL, 0);
    bool gone = false;
    for (int i = 0; i < 100 && !gone; i++) {
        struct stat st;
        gone = !alive((pid_t)group) && stat(dir, &st) != 0;
        if (!gone)
            usleep(20000);
    }
    if (alive((pid_t)group))
        kill(-(pid_t)group, SIGKILL);
    unlink(pidfile);
    file_remove_tree(dir);
    assert_true(gone);
    free(script);
    free(inside);
    free(pidfile);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(runs_in_the_folder_given),
        cmocka_unit_test(tmpdir_is_set_for_the_child),
        cmocka_unit_test(missing_program_says_why),
        cmocka_unit_test(missing_folder_says_why),
        cmocka_unit_test(stderr_tail_keeps_the_last_lines),
        cmocka_unit_test(killed_caller_leaves_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
