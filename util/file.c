/* Files and folders for every stage (file.h): reading whole, writing
 * atomically, making, removing and temporary folders. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/file.h"

bool file_read_all(const char *path, strbuf *out, bool *opened)
{
    FILE *f = fopen(path, "rb");
    *opened = f != NULL;
    if (!f)
        return false;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (out->len + n > (size_t)FILE_READ_MAX_MB << 20) {
            /* /dev/zero, or a file no test could be: stop before memory runs out */
            fclose(f);
            sb_free(out);
            errno = EFBIG;
            return false;
        }
        sb_addn(out, buf, n);
    }
    int bad = ferror(f);
    int why = errno;
    fclose(f);
    if (bad) {
        sb_free(out);
        errno = why ? why : EIO;
        return false;
    }
    return true;
}

const char *file_error(int err)
{
    static char msg[64];
    if (err == EFBIG) {
        snprintf(msg, sizeof msg, "input larger than %d MB", FILE_READ_MAX_MB);
        return msg;
    }
    return strerror(err);
}

/* Writes all of DATA to FD; false with errno set. */
static bool write_fd(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, data, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return false;
        }
        data += w;
        len -= (size_t)w;
    }
    return true;
}

/* Write DATA to FD and close it; on failure errno is the first reason
 * (the write's, else the close's: NFS reports a failed write at close). */
static bool write_close(int fd, const char *data, size_t len, int *why)
{
    bool ok = write_fd(fd, data, len);
    *why = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        *why = errno;
    }
    return ok;
}

/* Something that is no regular file (/dev/null, a FIFO, a terminal) is
 * written to in place: a rename would put a regular file in its stead.
 * FLAGS adds O_CREAT for a dangling link's target, or O_NOFOLLOW where
 * PATH was no link when looked at (so one put there since is not
 * followed). */
static bool write_through(const char *path, const char *data, size_t len, int flags)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | flags, 0666);
    if (fd < 0)
        return false;
    int why;
    bool ok = write_close(fd, data, len, &why);
    if (!ok)
        errno = why ? why : EIO;
    return ok;
}

/* A new temporary file beside PATH, PATH.tmp.PID.N, made with O_EXCL so
 * that it is never a file that was already there (a link, or another
 * process's temporary file, which is left alone); the new file gets the
 * mode of a new file (0666 less the umask).  Its descriptor, the name in
 * *TMP. */
static int open_temp(const char *path, char **tmp)
{
    static unsigned counter;
    for (int tries = 0; tries < 100; tries++) {
        *tmp = xasprintf("%s.tmp.%ld.%u", path, (long)getpid(), counter++);
        int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd >= 0)
            return fd;
        int why = errno;
        free(*tmp);
        *tmp = NULL;
        errno = why;
        if (why != EEXIST)
            return -1;
    }
    *tmp = NULL;
    errno = EEXIST;
    return -1;
}

static bool write_replace(const char *path, const char *data, size_t len)
{
    char *tmp;
    int fd = open_temp(path, &tmp);
    if (fd < 0)
        return false;
    /* a file that is replaced keeps its permissions: a private file stays
     * private (never set-user-ID bits, which belonged to its owner) */
    struct stat old;
    if (lstat(path, &old) == 0 && S_ISREG(old.st_mode))
        (void)fchmod(fd, old.st_mode & 0777);
    int why;
    bool ok = write_close(fd, data, len, &why);
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        why = errno;
    }
    if (!ok) {
        remove(tmp);
        errno = why ? why : EIO;
    }
    free(tmp);
    return ok;
}

/* Whether the link PATH (lstat'ed as LINK) may be followed: not when it
 * sits in a sticky folder that others may write (/tmp) and belongs to
 * someone else than the caller, who could point it at any file of the
 * caller's (the rule of the kernel's protected_symlinks, which careful
 * tools also follow where that is off). */
static bool may_follow(const char *path, const struct stat *link)
{
    if (link->st_uid == geteuid())
        return true;
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    struct stat st;
    bool shared = stat(dir, &st) == 0 && (st.st_mode & S_ISVTX) && (st.st_mode & S_IWOTH);
    free(dir);
    return !shared;
}

bool file_write_atomic(const char *path, const char *data, size_t len)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        if (!may_follow(path, &st)) {
            errno = EACCES;
            return false;
        }
        /* a link stays a link: replace what it points at, or create its
         * target through it when that does not exist yet */
        char *target = realpath(path, NULL);
        if (!target)
            return errno == ENOENT && write_through(path, data, len, O_CREAT | O_TRUNC);
        bool ok = file_write_atomic(target, data, len);
        int why = errno;
        free(target);
        errno = why;
        return ok;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            return false;
        }
        return write_through(path, data, len, O_NOFOLLOW);
    }
    return write_replace(path, data, len);
}

bool file_mkdirs(const char *dir, unsigned mode)
{
    char *p = xstrdup(dir);
    bool ok = true;
    for (char *q = p + 1; ok; q++) {
        if (*q != '/' && *q != '\0')
            continue;
        char c = *q;
        *q = '\0';
        if (mkdir(p, mode) != 0 && errno != EEXIST)
            ok = false;
        *q = c;
        if (!c)
            break;
    }
    int why = errno;
    struct stat st;
    if (ok && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        ok = false;
        why = ENOTDIR;
    }
    free(p);
    if (!ok)
        errno = why;
    return ok;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void file_remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

char *file_temp_dir(const char *prefix)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    char *path = xasprintf("%s/%s-XXXXXX", base, prefix);
    if (mkdtemp(path))
        return path;
    int why = errno;
    free(path);
    errno = why;
    return NULL;
}

char *file_stem(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 7 && !strcmp(b + n - 7, ".litmus"))
        n -= 7;
    return xstrndup(b, n);
}
