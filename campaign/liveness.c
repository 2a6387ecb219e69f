/* Is the worker that claimed a run still alive?  Each worker holds a write
 * lock on one byte of the database's lock file (byte = its worker id) for
 * as long as it runs.  The lock file is named by the database file's
 * identity, not by the name it was opened under: .litmusc-workers.DEV.INO.lock
 * in the folder the database really is in, so a database opened through a
 * link and through its own name is one set of workers (two names would let
 * each take the other's runs for gone and run them again).  The lock is an open-file-description lock, so the kernel drops
 * it when the process dies, however it dies; a zombie not yet reaped or a
 * pid reused by another program cannot hold it, which is what made the
 * older kill(pid, 0) check leave killed runs `running` forever. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "campaign/internal.h"
#include "util/mem.h"

char *cworker_lock_path(const char *dbpath)
{
    char *real = realpath(dbpath, NULL);
    struct stat st;
    if (!real || stat(real, &st) != 0) {
        free(real);
        return NULL;
    }
    char *slash = strrchr(real, '/');
    *slash = '\0';
    char *p = xasprintf("%s/.litmusc-workers.%llu.%llu.lock", *real ? real : "", (unsigned long long)st.st_dev,
                        (unsigned long long)st.st_ino);
    free(real);
    return p;
}

int cworker_lock_open(const char *dbpath)
{
    char *p = cworker_lock_path(dbpath);
    if (!p)
        return -1;
    int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    int why = errno;
    free(p);
    errno = why;
    return fd;
}

static struct flock byte_of(int64_t worker, short type)
{
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
    fl.l_start = (off_t)worker;
    fl.l_len = 1;
    return fl;
}

bool cworker_lock_hold(int fd, int64_t worker)
{
    struct flock fl = byte_of(worker, F_WRLCK);
    return fd >= 0 && fcntl(fd, F_OFD_SETLK, &fl) == 0;
}

int cworker_alive(int fd, int64_t worker)
{
    if (fd < 0)
        return -1;
    struct flock fl = byte_of(worker, F_WRLCK);
    if (fcntl(fd, F_OFD_GETLK, &fl) != 0)
        return -1;
    return fl.l_type != F_UNLCK;
}
