/* Compiling generated runners, with a cache keyed by content.  Compiling a
 * runner costs far more than running a short one, and a corpus run compiles
 * hundreds, so an executable is reused whenever the exact same sources,
 * compiler and flags were built before.  Entries are written to a private
 * folder and renamed into place, so concurrent runs never see half a file.
 *
 * What the cache holds is executed, so it is trusted only as far as it is
 * private: the folder must belong to the user and be closed to others
 * (mode 0700), checked on its open descriptor and then reached only through
 * it (harness/cache.c), each entry must belong to the user and be writable
 * by no one else (checked on the open file), and each carries the digest
 * of its bytes (KEY.exe.md5), so a truncated or damaged entry is rebuilt
 * instead of run. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <time.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "harness/harness.h"
#include "util/file.h"
#include "util/md5.h"

/* Two independent 64-bit FNV-1a streams make a 128-bit key; each part is
 * length-prefixed so that moving bytes between parts changes the key. */
typedef struct hash128 { uint64_t a, b; } hash128;

static void hash_bytes(hash128 *h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h->a = (h->a ^ s[i]) * 0x100000001b3ULL;
        h->b = (h->b ^ s[i]) * 0x100000001b3ULL;
        h->b ^= h->b >> 29;
    }
}

static void hash_part(hash128 *h, const char *s, size_t n)
{
    uint64_t len = n;
    hash_bytes(h, &len, sizeof len);
    hash_bytes(h, s, n);
}

void harness_build_key(const harness_build *b, const harness_file *files, int nfiles,
                       char key[33])
{
    hash128 h = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL};
    /* the command line's shape: the compiler's own options follow the flags */
    hash_part(&h, "cc-options-last", 15);
    hash_part(&h, b->cc, strlen(b->cc));
    if (b->cc_version)
        hash_part(&h, b->cc_version, strlen(b->cc_version));
    for (const char *const *f = b->flags; f && *f; f++)
        hash_part(&h, *f, strlen(*f));
    for (int i = 0; i < nfiles; i++) {
        hash_part(&h, files[i].path, strlen(files[i].path));
        hash_part(&h, files[i].data, files[i].len);
        hash_part(&h, files[i].compile ? "c" : "h", 1);
    }
    snprintf(key, 33, "%016llx%016llx", (unsigned long long)h.a, (unsigned long long)h.b);
}

static bool mkdir_p(const char *path, diag *d)
{
    if (file_mkdirs(path, 0700))
        return true;
    return diag_fail(d, "cannot create %s: %s (set --cache-dir or LITMUSC_CACHE)", path, strerror(errno));
}

/* Reads all of FD into OUT (binary-safe); false with errno set. */
static bool read_fd(int fd, strbuf *out)
{
    char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return false;
        if (n == 0)
            return true;
        sb_addn(out, buf, (size_t)n);
    }
}

/* NAME in the cache folder DFD, opened without following a link, if it
 * is a regular file of the user's that no one else may write; its bytes
 * into OUT.  The checks are made on the open file, not on a name. */
static bool entry_read(int dfd, const char *name, strbuf *out)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 022) &&
              read_fd(fd, out);
    close(fd);
    return ok;
}

/* An entry is used only if it and its digest (NAME.md5) pass entry_read
 * and its bytes match the digest. */
static bool entry_ok(int dfd, const char *name)
{
    char *sum = xasprintf("%s.md5", name);
    strbuf want = {0}, data = {0};
    bool ok = false;
    if (entry_read(dfd, sum, &want) && want.len == 32 && entry_read(dfd, name, &data)) {
        unsigned char dg[16];
        char have[33];
        md5(data.s ? data.s : "", data.len, dg);
        md5_hex(dg, have);
        ok = !memcmp(have, want.s, 32);
    }
    sb_free(&want);
    sb_free(&data);
    free(sum);
    return ok;
}

/* The digest of the file at PATH, for a new entry. */
static bool entry_digest(const char *path, char hex[33])
{
    strbuf data = {0};
    bool opened;
    if (!file_read_all(path, &data, &opened))
        return false;
    unsigned char dg[16];
    md5(data.s ? data.s : "", data.len, dg);
    md5_hex(dg, hex);
    sb_free(&data);
    return true;
}

/* Moves the built file TMP to the entry FINAL, its digest first, so an
 * entry is never seen without the digest that vouches for it. */
static bool entry_store(const char *tmp, const char *final, diag *d)
{
    char hex[33];
    if (!entry_digest(tmp, hex))
        return diag_fail(d, "cannot read the built %s: %s", tmp, strerror(errno));
    char *sum = xasprintf("%s.md5", final);
    bool ok = file_write_atomic(sum, hex, 32);
    if (!ok)
        diag_fail(d, "cannot write %s: %s", sum, strerror(errno));
    else if (rename(tmp, final))
        ok = diag_fail(d, "cannot move %s into the cache: %s", final, strerror(errno));
    free(sum);
    return ok;
}

/* A build folder holds a lock file, locked by its builder while it
 * builds: the kernel drops the lock when the builder dies, however it
 * dies, and (unlike a stored pid) a reused pid cannot fool it.  A folder
 * whose lock can be taken, or that has none and is older than a builder
 * needs to create it, was left by a killed build: removed. */
enum { STALE_UNLOCKED_S = 600 };
static const char lock_name[] = ".lock";

static void clean_stale_builds(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (strncmp(e->d_name, "build-", 6) != 0)
            continue;
        char *sub = xasprintf("%s/%s", dir, e->d_name);
        char *lock = xasprintf("%s/%s", sub, lock_name);
        struct stat st;
        bool stale = false;
        int fd = open(lock, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
        if (fd >= 0) {
            stale = flock(fd, LOCK_EX | LOCK_NB) == 0;
            close(fd);
        } else if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
            stale = time(NULL) - st.st_mtime > STALE_UNLOCKED_S;
        }
        if (stale)
            file_remove_tree(sub);
        free(lock);
        free(sub);
    }
    closedir(dp);
}

/* Takes the lock of the new build folder TMP (held until closed). */
static int lock_build(const char *tmp)
{
    char *lock = xasprintf("%s/%s", tmp, lock_name);
    int fd = open(lock, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
        close(fd);
        fd = -1;
    }
    free(lock);
    return fd;
}

/* The first line `CMD --version` prints, or NULL with *WHY saying what
 * went wrong: the command is empty, does not run (the reason in RUN), or
 * exits non-zero. */
enum { VERSION_EMPTY = 1, VERSION_NOT_RUN, VERSION_FAILED };
static char *version_line(const char *cmd, int *why, diag *run)
{
    size_t n = 0, cap = 0;
    char **argv = NULL;
    char *words = xstrdup(cmd);
    for (char *w = strtok(words, " \t"); w; w = strtok(NULL, " \t"))
        VEC_PUSH(argv, n, cap, w);
    char ver[] = "--version";
    VEC_PUSH(argv, n, cap, ver);
    VEC_PUSH(argv, n, cap, NULL);
    harness_child c;
    char *line = NULL;
    if (n < 3) {
        *why = VERSION_EMPTY;
    } else if (!harness_child_run(argv, 30, 1, &c, run)) {
        *why = VERSION_NOT_RUN;
    } else {
        if (c.exit_status == 0)
            line = xstrndup(c.out, strcspn(c.out, "\n"));
        else
            *why = VERSION_FAILED;
        harness_child_free(&c);
    }
    free(argv);
    free(words);
    return line;
}

char *harness_cc_version(const char *cc, diag *d)
{
    int why = 0;
    diag run = {0};
    char *line = version_line(cc, &why, &run);
    if (why == VERSION_EMPTY)
        diag_fail(d, "empty compiler command");
    else if (why == VERSION_NOT_RUN)
        diag_fail(d, "compiler '%s' not found or not runnable (%s); use --cc", cc, run.msg);
    else if (why == VERSION_FAILED)
        diag_fail(d, "'%s --version' failed; is '%s' a C compiler? (use --cc)", cc, cc);
    return line;
}

char *harness_java_version(diag *d)
{
    int why = 0;
    diag run = {0};
    char *line = version_line("javac", &why, &run);
    if (!line)
        diag_fail(d, "the java target needs a JDK (javac and java in PATH): %s",
                  why == VERSION_NOT_RUN ? run.msg : "'javac --version' failed");
    return line;
}

/* A file path inside the build folder must stay inside it. */
static bool safe_relpath(const char *p)
{
    if (!*p || *p == '/')
        return false;
    for (const char *s = p; *s; s++)
        if ((s == p || s[-1] == '/') && s[0] == '.' && s[1] == '.' && (s[2] == '/' || !s[2]))
            return false;
    return true;
}

static bool write_file(const char *dir, const harness_file *f, diag *d)
{
    if (!safe_relpath(f->path))
        return diag_fail(d, "refusing to write the build file '%s'", f->path);
    char *path = xasprintf("%s/%s", dir, f->path);
    char *slash = strrchr(path, '/');
    *slash = 0;
    bool ok = mkdir_p(path, d);
    *slash = '/';
    FILE *out = ok ? fopen(path, "wb") : NULL;
    if (ok && !out)
        ok = diag_fail(d, "cannot write %s: %s", path, strerror(errno));
    if (out) {
        if (fwrite(f->data, 1, f->len, out) != f->len)
            ok = diag_fail(d, "cannot write %s: %s", path, strerror(errno));
        if (fclose(out))
            ok = ok && diag_fail(d, "cannot write %s: %s", path, strerror(errno));
    }
    free(path);
    return ok;
}

/* The compiler command may carry words of its own: a wrapper ("ccache
 * gcc") comes first, then the built-in flags, then the command's own
 * options ("clang -O3"), so that those win over the defaults; then EXTRA. */
static char **cc_argv(const harness_build *b, char *const *extra, size_t nextra)
{
    size_t n = 0, cap = 0;
    char **argv = NULL;
    char *cc = xstrdup(b->cc);
    for (char *w = strtok(cc, " \t"); w; w = strtok(NULL, " \t"))
        if (w[0] != '-')
            VEC_PUSH(argv, n, cap, xstrdup(w));
    for (const char *const *f = b->flags; f && *f; f++)
        VEC_PUSH(argv, n, cap, xstrdup(*f));
    strcpy(cc, b->cc);
    for (char *w = strtok(cc, " \t"); w; w = strtok(NULL, " \t"))
        if (w[0] == '-')
            VEC_PUSH(argv, n, cap, xstrdup(w));
    free(cc);
    for (size_t i = 0; i < nextra; i++)
        VEC_PUSH(argv, n, cap, xstrdup(extra[i]));
    VEC_PUSH(argv, n, cap, NULL);
    return argv;
}

char *harness_compiler_line(const char *cc, const char *flags)
{
    harness_build b = {.cc = cc};
    char **fl = NULL;
    size_t nf = 0, capf = 0;
    char *copy = xstrdup(flags);
    for (char *w = strtok(copy, " \t"); w; w = strtok(NULL, " \t"))
        VEC_PUSH(fl, nf, capf, w);
    VEC_PUSH(fl, nf, capf, NULL);
    b.flags = (const char *const *)fl;
    char **argv = cc_argv(&b, NULL, 0);
    strbuf line = {0};
    for (char **a = argv; *a; a++)
        sb_printf(&line, "%s%s", a == argv ? "" : " ", *a);
    for (char **a = argv; *a; a++)
        free(*a);
    free(argv);
    free(fl);
    free(copy);
    return sb_take(&line);
}

static void free_argv(char **argv)
{
    for (char **a = argv; *a; a++)
        free(*a);
    free(argv);
}

/* The first few lines of the compiler's complaint, on one line each. */
static void first_lines(const char *s, char *buf, size_t size, int lines)
{
    size_t k = 0;
    for (; *s && lines > 0 && k + 1 < size; s++) {
        if (*s == '\n') {
            if (--lines == 0)
                break;
            buf[k++] = ';';
            if (k + 1 < size)
                buf[k++] = ' ';
            continue;
        }
        buf[k++] = *s;
    }
    buf[k] = 0;
}

/* Run the compiler (consumes ARGV); a failure names the compiler and its
 * first complaints. */
static bool run_compiler(const harness_build *b, char **argv, diag *d)
{
    harness_child c;
    diag cd = {0};
    bool ok = harness_child_run(argv, b->timeout_s, 1.0, &c, &cd);
    if (!ok) {
        diag_fail(d, "compiler '%s' not found or not runnable (%s); use --cc", argv[0], cd.msg);
        free_argv(argv);
        return false;
    }
    if (c.timed_out || c.interrupted || c.exit_status != 0) {
        char what[64], first[400];
        harness_child_describe(&c, what, sizeof what);
        first_lines(c.err, first, sizeof first, 3);
        if (c.timed_out)
            ok = diag_fail(d, "compiling the runner with '%s' took longer than %.0f s", b->cc,
                           b->timeout_s);
        else if (c.interrupted)
            ok = diag_fail(d, "compilation interrupted");
        else
            ok = diag_fail(d, "compiling the runner with '%s' failed (%s): %s", b->cc, what, first);
    }
    harness_child_free(&c);
    free_argv(argv);
    return ok;
}

/* An object's key: compiler, version, flags, its source and every header
 * (any of which it may include).  The runtime's objects are shared by all
 * tests, so only the test's own source is compiled for a new test. */
static void object_key(const harness_build *b, const harness_file *files, int nfiles, int i,
                       char key[33])
{
    harness_file *sel = xcalloc((size_t)nfiles + 1, sizeof *sel);
    int n = 0;
    sel[n++] = files[i];
    for (int j = 0; j < nfiles; j++)
        if (!files[j].compile)
            sel[n++] = files[j];
    harness_build_key(b, sel, n, key);
    key[0] = 'o';   /* never equal to an executable's key */
    free(sel);
}

static bool build_object(const harness_build *b, const char *dir, int dfd, const char *tmp,
                         const harness_file *files, int nfiles, int i, char **obj, diag *d)
{
    char key[33], name[40];
    object_key(b, files, nfiles, i, key);
    snprintf(name, sizeof name, "%s.o", key);
    *obj = xasprintf("%s/%s", dir, name);
    if (entry_ok(dfd, name))
        return true;
    char *out = xasprintf("%s/obj%d.o", tmp, i);
    char *inc = xasprintf("-I%s", tmp);
    char *src = xasprintf("%s/%s", tmp, files[i].path);
    char *extra[] = {inc, "-c", src, "-o", out};
    bool ok = run_compiler(b, cc_argv(b, extra, 5), d);
    if (ok)
        ok = entry_store(out, *obj, d);
    free(out);
    free(inc);
    free(src);
    return ok;
}

/* Compile every source (objects from the cache where possible), then link. */
static bool build_runner(const harness_build *b, const char *dir, int dfd, const char *tmp,
                         const harness_file *files, int nfiles, const char *out, diag *d)
{
    size_t n = 0, cap = 0;
    char **extra = NULL;
    VEC_PUSH(extra, n, cap, xstrdup("-o"));
    VEC_PUSH(extra, n, cap, xstrdup(out));
    bool ok = true;
    for (int i = 0; ok && i < nfiles; i++) {
        if (!files[i].compile)
            continue;
        char *obj = NULL;
        ok = build_object(b, dir, dfd, tmp, files, nfiles, i, &obj, d);
        VEC_PUSH(extra, n, cap, obj);
    }
    VEC_PUSH(extra, n, cap, xstrdup("-lpthread"));
    if (ok)
        ok = run_compiler(b, cc_argv(b, extra, n), d);
    for (size_t i = 0; i < n; i++)
        free(extra[i]);
    free(extra);
    return ok;
}

bool harness_compile(const harness_build *b, const harness_file *files, int nfiles,
                     char **exe, bool *cached, diag *d)
{
    *exe = NULL;
    *cached = false;
    char key[33];
    harness_build_key(b, files, nfiles, key);
    /* DIR names the checked folder through its descriptor, so no name
     * above it can be swapped between the checks and the exec */
    char *named = harness_cache_dir(b->cache_dir);
    int dfd = -1;
    char *dir = harness_cache_open(named, &dfd, d);
    free(named);
    if (!dir)
        return false;
    char name[40];
    snprintf(name, sizeof name, "%s.exe", key);
    char *final = xasprintf("%s/%s", dir, name);
    bool ok = true;
    if (entry_ok(dfd, name)) {
        *exe = final;
        *cached = true;
        free(dir);
        return true;
    }
    if (ok)
        clean_stale_builds(dir);
    char *tmp = xasprintf("%s/build-XXXXXX", dir);
    bool have_tmp = false;
    int lock = -1;
    if (ok) {
        have_tmp = mkdtemp(tmp) != NULL;
        if (!have_tmp)
            ok = diag_fail(d, "cannot create a build folder in %s: %s", dir, strerror(errno));
        else if ((lock = lock_build(tmp)) < 0)
            ok = diag_fail(d, "cannot lock the build folder %s: %s", tmp, strerror(errno));
    }
    for (int i = 0; ok && i < nfiles; i++)
        ok = write_file(tmp, &files[i], d);
    char *out = xasprintf("%s/runner", tmp);
    if (ok) {
        harness_step_begin("compiling %s with %s", b->label ? b->label : "a runner", b->cc);
        ok = build_runner(b, dir, dfd, tmp, files, nfiles, out, d);
        harness_step_end();
    }
    if (ok)
        ok = entry_store(out, final, d);
    if (have_tmp)
        file_remove_tree(tmp);
    if (lock >= 0)
        close(lock);
    free(out);
    free(tmp);
    free(dir);
    if (ok)
        *exe = final;
    else
        free(final);
    return ok;
}
