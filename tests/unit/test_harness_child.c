/* Child supervision: output capture, exit statuses, the time limit (with a
 * child that prints a partial result on SIGTERM, and one that ignores
 * SIGTERM and must be SIGKILLed), the whole process group being killed,
 * and a missing program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "harness/harness.h"

static void run_sh(const char *script, double timeout, double grace, harness_child *c)
{
    char *argv[] = {"sh", "-c", (char *)script, NULL};
    diag d = {0};
    assert_true(harness_child_run(argv, timeout, grace, c, &d));
    assert_false(d.set);
}

static void captures_stdout_stderr_and_status(void **state)
{
    (void)state;
    harness_child c;
    run_sh("echo out; echo err >&2; printf 'no newline'; exit 4", 10, 1, &c);
    assert_string_equal(c.out, "out\nno newline");
    assert_string_equal(c.err, "err\n");
    assert_int_equal(c.exit_status, 4);
    assert_int_equal(c.term_signal, 0);
    assert_false(c.timed_out);
    char buf[64];
    harness_child_describe(&c, buf, sizeof buf);
    assert_string_equal(buf, "exited with status 4");
    harness_child_free(&c);
}

static void reports_a_crash(void **state)
{
    (void)state;
    harness_child c;
    run_sh("kill -SEGV $$", 10, 1, &c);
    assert_int_equal(c.term_signal, SIGSEGV);
    assert_int_equal(c.exit_status, -1);
    char buf[64];
    harness_child_describe(&c, buf, sizeof buf);
    assert_non_null(strstr(buf, "signal 11"));
    harness_child_free(&c);
}

static void stdin_is_empty(void **state)
{
    (void)state;
    harness_child c;
    run_sh("cat; echo done", 10, 1, &c);
    assert_string_equal(c.out, "done\n");
    harness_child_free(&c);
}

/* A runner that traps SIGTERM prints its partial histogram and exits: the
 * output up to then is kept. */
static void timeout_sends_sigterm_first(void **state)
{
    (void)state;
    harness_child c;
    run_sh("trap 'echo partial; exit 0' TERM; echo started; while :; do sleep 0.05; done", 0.5, 5, &c);
    assert_true(c.timed_out);
    assert_string_equal(c.out, "started\npartial\n");
    assert_true(c.seconds >= 0.5 && c.seconds < 4.0);
    harness_child_free(&c);
}

/* A child that ignores SIGTERM and spins is killed after the grace time. */
static void hanging_child_is_killed(void **state)
{
    (void)state;
    harness_child c;
    run_sh("trap '' TERM; echo spinning; while :; do :; done", 0.3, 0.3, &c);
    assert_true(c.timed_out);
    assert_int_equal(c.term_signal, SIGKILL);
    assert_string_equal(c.out, "spinning\n");
    assert_true(c.seconds < 3.0);
    harness_child_free(&c);
}

/* Running (not gone, not a zombie waiting for a reaper). */
static bool process_alive(int pid)
{
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')');
    return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/* Grandchildren are in the group too: none survives, and one holding the
 * pipe open does not keep the harness waiting. */
static void the_whole_group_dies(void **state)
{
    (void)state;
    char pidfile[] = "/tmp/litmusc-child-test-XXXXXX";
    int fd = mkstemp(pidfile);
    assert_true(fd >= 0);
    close(fd);
    char script[256];
    snprintf(script, sizeof script, "trap '' TERM; (trap '' TERM; sleep 30) & echo $! > %s; wait",
             pidfile);
    harness_child c;
    run_sh(script, 0.3, 0.2, &c);
    assert_true(c.timed_out);
    assert_true(c.seconds < 3.0);
    FILE *f = fopen(pidfile, "r");
    assert_non_null(f);
    int gpid = 0;
    assert_int_equal(fscanf(f, "%d", &gpid), 1);
    fclose(f);
    unlink(pidfile);
    usleep(100 * 1000);
    assert_false(process_alive(gpid));
    harness_child_free(&c);
}

static void orphan_holding_the_pipe_does_not_block(void **state)
{
    (void)state;
    harness_child c;
    /* No time limit at all: only the orphan rule ends this. */
    run_sh("sleep 30 & echo parent-done", 0, 1, &c);
    assert_int_equal(c.exit_status, 0);
    assert_string_equal(c.out, "parent-done\n");
    assert_true(c.seconds < 5.0);
    harness_child_free(&c);
}

static void missing_program_fails_with_status_3(void **state)
{
    (void)state;
    char *argv[] = {"/nonexistent/litmusc-runner", NULL};
    harness_child c;
    diag d = {0};
    assert_false(harness_child_run(argv, 1, 1, &c, &d));
    assert_true(d.set);
    assert_int_equal(d.status, 3);
    assert_non_null(strstr(d.msg, "cannot run '/nonexistent/litmusc-runner'"));
}

static void large_output_is_kept_whole(void **state)
{
    (void)state;
    harness_child c;
    run_sh("i=0; while [ $i -lt 20000 ]; do echo \"outcome $i 1 2 3\"; i=$((i+1)); done", 30, 1, &c);
    size_t lines = 0;
    for (size_t i = 0; i < c.outlen; i++)
        lines += c.out[i] == '\n';
    assert_int_equal(lines, 20000);
    assert_non_null(strstr(c.out, "outcome 19999 1 2 3\n"));
    harness_child_free(&c);
}

/* SIGINT to litmusc is passed on to the child, which can still print;
 * litmusc itself survives.  (Last: the flag stays set.) */
static void interrupt_is_forwarded(void **state)
{
    (void)state;
    harness_signals_install();
    assert_false(harness_interrupted());
    harness_child c;
    /* this process by its pid: the shell's parent is the supervisor */
    char script[160];
    snprintf(script, sizeof script, "trap 'echo got-int; exit 0' INT; kill -INT %ld; while :; do sleep 0.05; done",
             (long)getpid());
    run_sh(script, 10, 2, &c);
    assert_true(harness_interrupted());
    assert_int_equal(harness_interrupt_signal(), SIGINT);
    assert_true(c.interrupted);
    assert_false(c.timed_out);
    assert_string_equal(c.out, "got-int\n");
    assert_true(c.seconds < 5.0);
    harness_child_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(captures_stdout_stderr_and_status),
        cmocka_unit_test(reports_a_crash),
        cmocka_unit_test(stdin_is_empty),
        cmocka_unit_test(timeout_sends_sigterm_first),
        cmocka_unit_test(hanging_child_is_killed),
        cmocka_unit_test(the_whole_group_dies),
        cmocka_unit_test(orphan_holding_the_pipe_does_not_block),
        cmocka_unit_test(missing_program_fails_with_status_3),
        cmocka_unit_test(large_output_is_kept_whole),
        cmocka_unit_test(interrupt_is_forwarded),
    };
    return cmocka_run_group_tests_name("harness_child", tests, NULL, NULL);
}
