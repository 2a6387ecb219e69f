/* The build cache: keys follow the content, a second build is a cache hit,
 * a missing compiler and a compile error fail with status 3 and no entry
 * left behind, and paths cannot escape the build folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "harness/harness.h"

static char cache[] = "/tmp/litmusc-build-test-XXXXXX";
static const char *const FLAGS[] = {"-O1", "-std=c11", NULL};

static const char MAIN_C[] = "#include \"lib/answer.h\"\n#include <stdio.h>\n"
                             "int main(void) { printf(\"%d\\n\", answer()); return 0; }\n";
static const char ANSWER_H[] = "int answer(void);\n";
static const char ANSWER_C[] = "#include \"lib/answer.h\"\nint answer(void) { return 42; }\n";

static harness_file files[3] = {
    {"main.c", MAIN_C, sizeof MAIN_C - 1, true},
    {"lib/answer.h", ANSWER_H, sizeof ANSWER_H - 1, false},
    {"lib/answer.c", ANSWER_C, sizeof ANSWER_C - 1, true},
};

/* Entries of DIR whose name ends in SUFFIX ("" for all). */
static int count_suffix(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    int n = 0;
    size_t sl = strlen(suffix);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        n += e->d_name[0] != '.' && l >= sl && !strcmp(e->d_name + l - sl, suffix);
    }
    if (d)
        closedir(d);
    return n;
}

static int count_entries(const char *dir)
{
    return count_suffix(dir, "");
}

static char **argv2(char *exe)
{
    static char *v[2];
    v[0] = exe;
    v[1] = NULL;
    return v;
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(cache) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char *cmd = xasprintf("rm -rf '%s'", cache);
    int r = system(cmd);
    free(cmd);
    return r;
}

static void key_follows_content(void **state)
{
    (void)state;
    harness_build b = {"cc", "cc (x) 1", FLAGS, cache, 60, NULL};
    char k1[33], k2[33], k3[33], k4[33];
    harness_build_key(&b, files, 3, k1);
    harness_build_key(&b, files, 3, k2);
    assert_string_equal(k1, k2);
    assert_int_equal(strlen(k1), 32);
    harness_file other[3] = {files[0], files[1], files[2]};
    other[2].data = "#include \"lib/answer.h\"\nint answer(void) { return 43; }\n";
    other[2].len = strlen(other[2].data);
    harness_build_key(&b, other, 3, k3);
    assert_string_not_equal(k1, k3);
    harness_build b2 = b;
    b2.cc_version = "cc (x) 2";
    harness_build_key(&b2, files, 3, k4);
    assert_string_not_equal(k1, k4);
    static const char *const flags2[] = {"-O2", "-std=c11", NULL};
    b2 = b;
    b2.flags = flags2;
    harness_build_key(&b2, files, 3, k4);
    assert_string_not_equal(k1, k4);
}

static void builds_then_reuses(void **state)
{
    (void)state;
    harness_build b = {"cc", NULL, FLAGS, cache, 60, NULL};
    char *exe = NULL;
    bool cached = true;
    diag d = {0};
    assert_true(harness_compile(&b, files, 3, &exe, &cached, &d));
    assert_false(cached);
    assert_int_equal(access(exe, X_OK), 0);
    harness_child c;
    char *argv[] = {exe, NULL};
    assert_true(harness_child_run(argv, 10, 1, &c, &d));
    assert_string_equal(c.out, "42\n");
    harness_child_free(&c);
    /* The runner and one object per source remain; the build folder is gone. */
    assert_int_equal(count_suffix(cache, ".exe"), 1);
    assert_int_equal(count_suffix(cache, ".o"), 2);
    assert_int_equal(count_entries(cache), 6);   /* and a digest for each */
    char *exe2 = NULL;
    assert_true(harness_compile(&b, files, 3, &exe2, &cached, &d));
    assert_true(cached);
    assert_string_equal(exe, exe2);
    free(exe);
    free(exe2);
    /* A changed main.c is rebuilt, but lib/answer.c's object is reused. */
    harness_file changed[3] = {files[0], files[1], files[2]};
    static const char MAIN2[] = "#include \"lib/answer.h\"\n#include <stdio.h>\n"
                                "int main(void) { printf(\"%d!\\n\", answer()); return 0; }\n";
    changed[0].data = MAIN2;
    changed[0].len = sizeof MAIN2 - 1;
    assert_true(harness_compile(&b, changed, 3, &exe, &cached, &d));
    assert_false(cached);
    assert_int_equal(count_suffix(cache, ".o"), 3);
    assert_true(harness_child_run(argv2(exe), 10, 1, &c, &d));
    assert_string_equal(c.out, "42!\n");
    harness_child_free(&c);
    free(exe);
}

static void compile_error_is_reported(void **state)
{
    (void)state;
    harness_build b = {"cc", NULL, FLAGS, cache, 60, NULL};
    harness_file bad[1] = {{"bad.c", "int main(void) { return nope; }\n", 32, true}};
    char *exe = NULL;
    bool cached;
    diag d = {0};
    int before = count_entries(cache);
    assert_false(harness_compile(&b, bad, 1, &exe, &cached, &d));
    assert_null(exe);
    assert_int_equal(d.status, 3);
    assert_non_null(strstr(d.msg, "compiling the runner with 'cc' failed"));
    assert_non_null(strstr(d.msg, "nope"));
    assert_int_equal(count_entries(cache), before);
}

static void missing_compiler_is_an_environment_error(void **state)
{
    (void)state;
    harness_build b = {"litmusc-no-such-cc", NULL, FLAGS, cache, 60, NULL};
    char *exe = NULL;
    bool cached;
    diag d = {0};
    assert_false(harness_compile(&b, files, 3, &exe, &cached, &d));
    assert_int_equal(d.status, 3);
    assert_non_null(strstr(d.msg, "compiler 'litmusc-no-such-cc' not found"));
    diag d2 = {0};
    assert_null(harness_cc_version("litmusc-no-such-cc", &d2));
    assert_int_equal(d2.status, 3);
    diag d3 = {0};
    char *v = harness_cc_version("cc", &d3);
    assert_non_null(v);
    assert_true(strlen(v) > 0 && !strchr(v, '\n'));
    free(v);
}

static void paths_stay_inside(void **state)
{
    (void)state;
    harness_build b = {"cc", NULL, FLAGS, cache, 60, NULL};
    const char *bad_paths[] = {"../evil.c", "/tmp/evil.c", "a/../../evil.c", ""};
    for (size_t i = 0; i < sizeof bad_paths / sizeof *bad_paths; i++) {
        harness_file f[1] = {{bad_paths[i], "int x;\n", 7, true}};
        char *exe = NULL;
        bool cached;
        diag d = {0};
        assert_false(harness_compile(&b, f, 1, &exe, &cached, &d));
        assert_non_null(strstr(d.msg, "refusing"));
    }
}

static void cache_dir_resolution(void **state)
{
    (void)state;
    char *old_l = getenv("LITMUSC_CACHE") ? xstrdup(getenv("LITMUSC_CACHE")) : NULL;
    char *old_x = getenv("XDG_CACHE_HOME") ? xstrdup(getenv("XDG_CACHE_HOME")) : NULL;
    char *old_h = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;
    setenv("LITMUSC_CACHE", "/a/b", 1);
    setenv("XDG_CACHE_HOME", "/x", 1);
    setenv("HOME", "/home/u", 1);
    char *s = harness_cache_dir("/over");
    assert_string_equal(s, "/over");
    free(s);
    s = harness_cache_dir(NULL);
    assert_string_equal(s, "/a/b");
    free(s);
    unsetenv("LITMUSC_CACHE");
    s = harness_cache_dir(NULL);
    assert_string_equal(s, "/x/litmusc");
    free(s);
    unsetenv("XDG_CACHE_HOME");
    s = harness_cache_dir(NULL);
    assert_string_equal(s, "/home/u/.cache/litmusc");
    free(s);
    char *old_r = getenv("XDG_RUNTIME_DIR") ? xstrdup(getenv("XDG_RUNTIME_DIR")) : NULL;
    unsetenv("HOME");
    setenv("XDG_RUNTIME_DIR", "/run/user/7", 1);
    s = harness_cache_dir(NULL);
    assert_string_equal(s, "/run/user/7/litmusc-cache");
    free(s);
    unsetenv("XDG_RUNTIME_DIR");
    /* no HOME: the home the password database gives, never a name in
     * /tmp that another user could make first or swap */
    s = harness_cache_dir(NULL);
    struct passwd *pw = getpwuid(geteuid());
    if (pw && pw->pw_dir && *pw->pw_dir == '/' && strcmp(pw->pw_dir, "/") != 0) {
        char *want = xasprintf("%s/.cache/litmusc", pw->pw_dir);
        assert_non_null(s);
        assert_string_equal(s, want);
        free(want);
    } else {
        assert_null(s);
    }
    free(s);
    if (old_r) setenv("XDG_RUNTIME_DIR", old_r, 1);
    free(old_r);
    if (old_l) setenv("LITMUSC_CACHE", old_l, 1);
    if (old_x) setenv("XDG_CACHE_HOME", old_x, 1);
    if (old_h) setenv("HOME", old_h, 1);
    free(old_l);
    free(old_x);
    free(old_h);
}

/* Runs FILES' runner and expects it to print 42. */
static void runs_42(const char *exe)
{
    harness_child c;
    diag d = {0};
    char *argv[] = {(char *)exe, NULL};
    assert_true(harness_child_run(argv, 10, 1, &c, &d));
    assert_int_equal(c.exit_status, 0);
    assert_string_equal(c.out, "42\n");
    harness_child_free(&c);
}

/* A truncated or overwritten entry fails its digest: rebuilt, never run. */
static void damaged_entry_is_rebuilt(void **state)
{
    (void)state;
    harness_build b = {"cc", NULL, FLAGS, cache, 60, NULL};
    char *exe = NULL;
    bool cached = false;
    diag d = {0};
    assert_true(harness_compile(&b, files, 3, &exe, &cached, &d));
    FILE *f = fopen(exe, "wb");
    assert_non_null(f);
    fputs("\177ELF garbage", f);
    fclose(f);
    free(exe);
    assert_true(harness_compile(&b, files, 3, &exe, &cached, &d));
    assert_false(cached);
    runs_42(exe);
    /* an entry others may write is not trusted either */
    assert_int_equal(chmod(exe, 0777), 0);
    free(exe);
    assert_true(harness_compile(&b, files, 3, &exe, &cached, &d));
    assert_false(cached);
    struct stat st;
    assert_int_equal(stat(exe, &st), 0);
    assert_int_equal(st.st_mode & 022, 0);
    runs_42(exe);
    free(exe);
}

/* A build folder whose builder died (its lock free) is removed by the
 * next build; one whose lock is held (a build in progress) stays. */
static void stale_build_folders_are_removed(void **state)
{
    (void)state;
    char *dead = xasprintf("%s/build-dead01", cache), *live = xasprintf("%s/build-live01", cache);
    assert_int_equal(mkdir(dead, 0700), 0);
    assert_int_equal(mkdir(live, 0700), 0);
    char *dl = xasprintf("%s/.lock", dead), *ll = xasprintf("%s/.lock", live);
    close(open(dl, O_CREAT | O_WRONLY, 0600));
    int held = open(ll, O_CREAT | O_RDWR, 0600);
    assert_true(held >= 0);
    assert_int_equal(flock(held, LOCK_EX), 0);
    harness_build b = {"cc", NULL, FLAGS, cache, 60, NULL};
    static const char OTHER[] = "int main(void) { return 0; }\n";
    harness_file one = {"other.c", OTHER, sizeof OTHER - 1, true};
    char *exe = NULL;
    bool cached = false;
    diag d = {0};
    assert_true(harness_compile(&b, &one, 1, &exe, &cached, &d));
    assert_int_equal(access(dead, F_OK), -1);
    assert_int_equal(access(live, F_OK), 0);
    close(held);
    free(exe);
    free(dl);
    free(ll);
    free(dead);
    free(live);
}

/* A cache folder of someone else's is refused (exit 3, saying whose); one
 * of the user's that others may enter is closed to them. */
static void foreign_cache_is_refused(void **state)
{
    (void)state;
    char *dir = xasprintf("%s/open", cache);
    assert_int_equal(mkdir(dir, 0777), 0);
    assert_int_equal(chmod(dir, 0777), 0);
    diag d = {0};
    assert_true(harness_cache_check(dir, &d));
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_int_equal(st.st_mode & 077, 0);
    if (geteuid() == 0) {
        assert_int_equal(chown(dir, 65534, 65534), 0);
        assert_false(harness_cache_check(dir, &d));
        assert_int_equal(d.status, 3);
        assert_non_null(strstr(d.msg, "belongs to uid 65534"));
    } else {
        assert_false(harness_cache_check("/", &d));
        assert_int_equal(d.status, 3);
        assert_non_null(strstr(d.msg, "not to you"));
    }
    free(dir);
}

/* A link in place of the cache folder is refused, and the folder it
 * points at keeps its mode: the check is made on the folder opened without
 * following a link, and only that folder is ever closed (fchmod). */
static void linked_cache_is_refused(void **state)
{
    (void)state;
    char *target = xasprintf("%s/shared", cache), *link = xasprintf("%s/link", cache);
    assert_int_equal(mkdir(target, 0777), 0);
    assert_int_equal(chmod(target, 01777), 0);
    assert_int_equal(symlink(target, link), 0);
    diag d = {0};
    assert_false(harness_cache_check(link, &d));
    assert_int_equal(d.status, 3);
    assert_non_null(strstr(d.msg, "symbolic link"));
    struct stat st;
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_mode & 07777, 01777);
    /* and what is run goes through the checked folder's descriptor */
    harness_build b = {"cc", NULL, FLAGS, target, 60, NULL};
    char *exe = NULL;
    bool cached = false;
    diag d2 = {0};
    assert_true(harness_compile(&b, files, 3, &exe, &cached, &d2));
    assert_non_null(strstr(exe, "/proc/"));
    runs_42(exe);
    free(exe);
    free(target);
    free(link);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(key_follows_content),
        cmocka_unit_test(builds_then_reuses),
        cmocka_unit_test(compile_error_is_reported),
        cmocka_unit_test(missing_compiler_is_an_environment_error),
        cmocka_unit_test(paths_stay_inside),
        cmocka_unit_test(cache_dir_resolution),
        cmocka_unit_test(damaged_entry_is_rebuilt),
        cmocka_unit_test(stale_build_folders_are_removed),
        cmocka_unit_test(foreign_cache_is_refused),
        cmocka_unit_test(linked_cache_is_refused),
    };
    return cmocka_run_group_tests_name("harness_build", tests, setup, teardown);
}
