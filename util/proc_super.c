/* The supervisor: the process between litmusc and the program it runs.
 * The program leads a process group of its own (so a time limit kills all
 * it started, and a Ctrl-C at the terminal reaches litmusc alone, which
 * passes it on); but a group of its own also means nothing kills it when
 * litmusc dies, and PR_SET_PDEATHSIG reaches the program alone, not the
 * cc1 and as a compiler driver starts.  So the supervisor, a plain child
 * of litmusc that ignores the interrupt signals, waits for both: the
 * program's end (reported to litmusc) and litmusc's (the end of a socket
 * only litmusc holds), on which it kills the program's whole group and
 * removes the run's temporary folder.
 *
 * Everything here runs between fork and exit in a copy of a process that
 * may have threads: only system calls, no malloc, no stdio. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util/proc_internal.h"

static void on_child(int sig)
{
    (void)sig;      /* only to end ppoll */
}

static void send_msg(int fd, int tag, int value)
{
    proc_msg m = {tag, value};
    ssize_t w;
    do
        w = write(fd, &m, sizeof m);
    while (w < 0 && errno == EINTR);
}

static void set_handler(int sig, void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

/* Close every descriptor above 2 but the N of KEEP: another run's
 * socket kept open here would hide litmusc's death from that run's
 * supervisor. */
static void close_others(int *keep, int n)
{
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && keep[k - 1] > keep[k]; k--) {
            int t = keep[k];
            keep[k] = keep[k - 1];
            keep[k - 1] = t;
        }
    unsigned lo = 3;
    for (int i = 0; i <= n; i++) {
        unsigned hi = i < n ? (unsigned)keep[i] : UINT_MAX;
        if (hi > lo && syscall(SYS_close_range, lo, hi - 1, 0) != 0)
            for (unsigned fd = lo; fd < hi && fd < 4096; fd++)
                close((int)fd);
        if (i < n && (unsigned)keep[i] + 1 > lo)
            lo = (unsigned)keep[i] + 1;
    }
}

struct dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* Remove what folder DFD holds (links are not followed); true when a
 * pass removed something, so that the caller reads it again (removing
 * while reading may skip entries). */
static bool remove_in(int dfd, int depth)
{
    char buf[2048];
    bool removed = false;
    long n;
    while ((n = syscall(SYS_getdents64, dfd, buf, sizeof buf)) > 0)
        for (long off = 0; off < n;) {
            struct dirent64 *e = (struct dirent64 *)(void *)(buf + off);
            off += e->d_reclen;
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            if (unlinkat(dfd, e->d_name, 0) == 0) {
                removed = true;
                continue;
            }
            if (errno != EISDIR || depth >= 16)
                continue;
            int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) {
                for (int pass = 0; pass < 8 && remove_in(sub, depth + 1); pass++)
                    lseek(sub, 0, SEEK_SET);
                close(sub);
            }
            removed |= unlinkat(dfd, e->d_name, AT_REMOVEDIR) == 0;
        }
    return removed;
}

static void remove_tree(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    for (int pass = 0; pass < 8 && remove_in(fd, 0); pass++)
        lseek(fd, 0, SEEK_SET);
    close(fd);
    rmdir(dir);
}

/* The program's side of the second fork: its own group, killed if the
 * supervisor dies, default signal handling, stdin from /dev/null.  What
 * fails before it runs goes to REPORT (closed by a successful exec). */
static void start_program(const proc_spawn *s, int report, pid_t super)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != super)
        _exit(127);
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        set_handler(sigs[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int null = open("/dev/null", O_RDONLY);
    if (null > 0) {
        dup2(null, 0);
        close(null);
    }
    dup2(s->out, 1);
    dup2(s->err, 2);
    if (s->cwd && chdir(s->cwd) != 0) {
        send_msg(report, PROC_MSG_CHDIR, errno);
        _exit(127);
    }
    execvpe(s->argv[0], s->argv, s->envp);
    send_msg(report, PROC_MSG_EXEC, errno);
    _exit(127);
}

void proc_supervise(const proc_spawn *s)
{
    /* litmusc decides what an interrupt does to the program; this process
     * ends only when the run is over or litmusc is gone */
    static const int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
        set_handler(ignored[i], SIG_IGN);
    set_handler(SIGCHLD, on_child);
    sigset_t chld, open_mask;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_SETMASK, &chld, NULL);
    sigemptyset(&open_mask);
    int keep[] = {s->out, s->err, s->msg, s->life};
    close_others(keep, 4);
    int rep[2];
    if (pipe2(rep, O_CLOEXEC) != 0) {
        send_msg(s->msg, PROC_MSG_EXEC, errno);
        _exit(0);
    }
    pid_t self = getpid(), pid = fork();
    if (pid < 0) {
        send_msg(s->msg, PROC_MSG_EXEC, errno);
        _exit(0);
    }
    if (pid == 0)
        start_program(s, rep[1], self);
    setpgid(pid, pid);      /* also here, so the group exists before litmusc learns of it */
    close(rep[1]);
    close(s->out);
    close(s->err);
    send_msg(s->msg, PROC_MSG_PID, pid);
    proc_msg m;
    ssize_t got;
    do
        got = read(rep[0], &m, sizeof m);
    while (got < 0 && errno == EINTR);
    close(rep[0]);
    if (got == (ssize_t)sizeof m) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        send_msg(s->msg, m.tag, m.value);
        _exit(0);
    }
    bool ended = false;
    for (;;) {
        int status = 0;
        if (!ended && waitpid(pid, &status, WNOHANG) == pid) {
            ended = true;
            send_msg(s->msg, PROC_MSG_WAIT, status);
        }
        struct pollfd p = {s->life, POLLIN, 0};
        if (ppoll(&p, 1, NULL, &open_mask) <= 0 || !p.revents)
            continue;
        char b;
        ssize_t r = read(s->life, &b, 1);
        if (r == 1)
            _exit(0);       /* the run is over and litmusc lives on */
        if (r < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        /* litmusc is gone: so is everything it started, and its folder */
        kill(-pid, SIGKILL);
        if (!ended)
            while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
        if (s->cleanup_dir)
            remove_tree(s->cleanup_dir);
        _exit(0);
    }
}
