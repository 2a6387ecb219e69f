/* Where the build cache lives and how it is opened.  What the cache holds
 * is executed, so the folder is opened once, without following a symbolic
 * link (O_NOFOLLOW | O_DIRECTORY), its owner and mode are checked on the
 * open descriptor (and a folder of the user's that others may enter is
 * closed with fchmod on that descriptor, never chmod on a name), and every
 * later step goes through that descriptor: as /proc/PID/fd/N, a path that
 * names the folder that was checked however the names above it are
 * swapped, also for the compiler and the runners that litmusc starts.
 * There is no shared fallback in the temporary folder: another user could
 * make that name first, or swap it between two checks. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "harness/harness.h"
#include "util/file.h"

char *harness_cache_dir(const char *override)
{
    if (override && *override)
        return xstrdup(override);
    const char *env = getenv("LITMUSC_CACHE");
    if (env && *env)
        return xstrdup(env);
    env = getenv("XDG_CACHE_HOME");
    if (env && *env == '/')
        return xasprintf("%s/litmusc", env);
    env = getenv("HOME");
    if (env && *env)
        return xasprintf("%s/.cache/litmusc", env);
    /* no HOME (cron, services): the per-user runtime folder, else the
     * home the password database gives the user */
    env = getenv("XDG_RUNTIME_DIR");
    if (env && *env == '/')
        return xasprintf("%s/litmusc-cache", env);
    struct passwd *pw = getpwuid(geteuid());
    if (pw && pw->pw_dir && *pw->pw_dir == '/' && strcmp(pw->pw_dir, "/") != 0)
        return xasprintf("%s/.cache/litmusc", pw->pw_dir);
    return NULL;
}

/* The folders opened so far, by the name they were asked for: the
 * descriptor stays open for the life of the process, as the paths handed
 * out (runner executables) go through it. */
typedef struct pinned {
    char *dir;
    int fd;
} pinned;
static pinned *pins;
static size_t npins, cappins;
static pthread_mutex_t pins_lock = PTHREAD_MUTEX_INITIALIZER;

/* Opens DIR (made 0700 if missing) and checks it on the descriptor; the
 * descriptor or -1 with the reason in D. */
static int open_checked(const char *dir, diag *d)
{
    if (!file_mkdirs(dir, 0700)) {
        diag_fail(d, "cannot create %s: %s (set --cache-dir or LITMUSC_CACHE)", dir, strerror(errno));
        return -1;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int why = errno;
        struct stat st;
        if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
            diag_fail(d, "refusing the build cache %s: it is a symbolic link (owned by uid %ld), and what "
                      "it holds would be run; set --cache-dir or LITMUSC_CACHE to the folder itself",
                      dir, (long)st.st_uid);
        else
            diag_fail(d, "cannot use the build cache %s: %s", dir, strerror(why));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        diag_fail(d, "cannot use the build cache %s: %s", dir, strerror(errno));
        close(fd);
        return -1;
    }
    if (st.st_uid != geteuid()) {
        diag_fail(d, "refusing the build cache %s: it belongs to uid %ld, not to you (uid %ld), "
                  "and what it holds would be run; set --cache-dir or LITMUSC_CACHE",
                  dir, (long)st.st_uid, (long)geteuid());
        close(fd);
        return -1;
    }
    /* the user's own folder, opened to others: close it (only the owner
     * can); what others may have put there fails the entry checks */
    if ((st.st_mode & 077) && fchmod(fd, 0700) != 0) {
        diag_fail(d, "refusing the build cache %s: mode %04o lets others in and chmod failed: %s",
                  dir, (unsigned)(st.st_mode & 07777), strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* The open folder FD still is the one named DIR (not removed and made
 * anew, as a test's scratch folder may be). */
static bool same_folder(int fd, const char *dir)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && lstat(dir, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
           a.st_uid == geteuid() && !(a.st_mode & 077);
}

/* DIR's descriptor, opened and checked the first time. */
static int cache_fd(const char *dir, diag *d)
{
    pthread_mutex_lock(&pins_lock);
    int fd = -1;
    for (size_t i = 0; i < npins && fd < 0; i++)
        if (!strcmp(pins[i].dir, dir) && same_folder(pins[i].fd, dir))
            fd = pins[i].fd;
    if (fd < 0 && (fd = open_checked(dir, d)) >= 0) {
        pinned p = {xstrdup(dir), fd};
        VEC_PUSH(pins, npins, cappins, p);
    }
    pthread_mutex_unlock(&pins_lock);
    return fd;
}

char *harness_cache_open(const char *dir, int *dirfd, diag *d)
{
    if (!dir) {
        diag_fail(d, "no folder for the build cache: HOME is unset and the user has no home; "
                  "set --cache-dir or LITMUSC_CACHE");
        return NULL;
    }
    int fd = cache_fd(dir, d);
    if (fd < 0)
        return NULL;
    char *path = xasprintf("/proc/%ld/fd/%d", (long)getpid(), fd);
    struct stat a, b;
    if (stat(path, &a) != 0 || fstat(fd, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
        diag_fail(d, "cannot use the build cache %s through %s (is /proc mounted?): %s", dir, path,
                  strerror(errno ? errno : ENOENT));
        free(path);
        return NULL;
    }
    if (dirfd)
        *dirfd = fd;
    return path;
}

bool harness_cache_check(const char *dir, diag *d)
{
    return cache_fd(dir, d) >= 0;
}
