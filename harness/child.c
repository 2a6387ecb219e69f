/* Running generated programs (and compilers) under supervision.  A stress
 * runner may hang -- a spin barrier with a descheduled partner, a bug in
 * generated code -- so every child runs in its own process group with a
 * time limit, and the whole group is killed when the limit passes.  The
 * group gets SIGTERM first so that a runner can still print its partial
 * histogram, then SIGKILL after a grace period. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "harness/harness.h"
#include "util/file.h"
#include "util/mem.h"

enum { ERR_KEEP = 64 * 1024, OUT_LIMIT = 64 * 1024 * 1024 };

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

void harness_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;    /* no SA_RESTART: a blocking wait must return */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

bool harness_interrupted(void)
{
    return got_signal != 0;
}

int harness_interrupt_signal(void)
{
    return (int)got_signal;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct sink {
    char *buf;
    size_t len, cap;
    size_t keep;        /* keep at most this much: the head (stdout) or the tail (stderr) */
    bool tail;
} sink;

static void sink_add(sink *s, const char *p, size_t n)
{
    if (s->tail && n >= s->keep) {
        p += n - s->keep;
        n = s->keep;
        s->len = 0;
    } else if (s->tail && s->len + n > s->keep) {
        size_t drop = s->len + n - s->keep;
        memmove(s->buf, s->buf + drop, s->len - drop);
        s->len -= drop;
    } else if (!s->tail && s->len + n > s->keep) {
        n = s->keep > s->len ? s->keep - s->len : 0;
    }
    if (s->len + n + 1 > s->cap) {
        s->cap = (s->len + n + 1) * 2;
        s->buf = xrealloc(s->buf, s->cap);
    }
    memcpy(s->buf + s->len, p, n);
    s->len += n;
    s->buf[s->len] = 0;
}

/* Drain fd into s; false at end of file. */
static bool drain(int fd, sink *s)
{
    char buf[65536];
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r > 0) {
            sink_add(s, buf, (size_t)r);
            continue;
        }
        if (r == 0)
            return false;
        if (errno == EINTR)
            continue;
        return errno == EAGAIN || errno == EWOULDBLOCK;
    }
}

/* In the child, between fork and exec: only async-signal-safe calls.
 * The child leads its own process group (so a timeout can kill all it
 * started), which also keeps it out of a kill of the parent's group: it
 * asks the kernel to kill it when the parent dies, and exits at once if
 * the parent died before that request was in place. */
static void exec_child(char *const argv[], int out, int err, int report, pid_t parent)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) {
        dup2(null, 0);
        close(null);
    }
    dup2(out, 1);
    dup2(err, 2);
    execvp(argv[0], argv);
    int e = errno;
    ssize_t w = write(report, &e, sizeof e);
    (void)w;
    _exit(127);
}

static void close_pipe(int p[2])
{
    if (p[0] >= 0)
        close(p[0]);
    if (p[1] >= 0)
        close(p[1]);
}

bool harness_child_run(char *const argv[], double timeout_s, double grace_s,
                       harness_child *c, diag *d)
{
    memset(c, 0, sizeof *c);
    c->exit_status = -1;
    int po[2] = {-1, -1}, pe[2] = {-1, -1}, pr[2] = {-1, -1};
    if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC) || pipe2(pr, O_CLOEXEC)) {
        close_pipe(po);
        close_pipe(pe);
        close_pipe(pr);
        return diag_fail(d, "cannot create pipes: %s", strerror(errno));
    }
    /* Block the interrupt signals until ppoll, so none is lost between a
     * check of the flag and the wait. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigprocmask(SIG_BLOCK, &block, &old);
    double start = now_s();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        close_pipe(po);
        close_pipe(pe);
        close_pipe(pr);
        return diag_fail(d, "cannot fork: %s", strerror(errno));
    }
    if (pid == 0)
        exec_child(argv, po[1], pe[1], pr[1], parent);
    setpgid(pid, pid);  /* also here, so the group exists before any kill */
    close(po[1]);
    close(pe[1]);
    close(pr[1]);
    int e = 0;
    ssize_t got;
    do
        got = read(pr[0], &e, sizeof e);
    while (got < 0 && errno == EINTR);
    close(pr[0]);
    if (got == (ssize_t)sizeof e) {
        waitpid(pid, NULL, 0);
        sigprocmask(SIG_SETMASK, &old, NULL);
        close(po[0]);
        close(pe[0]);
        return diag_fail(d, "cannot run '%s': %s", argv[0], strerror(e));
    }
    fcntl(po[0], F_SETFL, O_NONBLOCK);
    fcntl(pe[0], F_SETFL, O_NONBLOCK);
    sink out = {NULL, 0, 0, OUT_LIMIT, false}, err = {NULL, 0, 0, ERR_KEEP, true};
    sink_add(&out, "", 0);
    sink_add(&err, "", 0);
    bool out_open = true, err_open = true;
    double kill_at = -1;    /* when SIGKILL is due, once SIGTERM was sent */
    int status = 0;
    bool reaped = false, orphans_killed = false;
    double reaped_at = 0;
    while (out_open || err_open || !reaped) {
        double t = now_s();
        if (kill_at < 0 && ((timeout_s > 0 && t - start >= timeout_s) || got_signal)) {
            if (got_signal)
                c->interrupted = true;
            else
                c->timed_out = true;
            kill(-pid, got_signal ? (int)got_signal : SIGTERM);
            kill_at = t + grace_s;
        }
        if (kill_at >= 0 && t >= kill_at) {
            kill(-pid, SIGKILL);
            kill_at = t + 3600;     /* sent; now wait for the pipes to close */
        }
        if (!reaped) {
            pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid) {
                reaped = true;
                reaped_at = t;
            }
        }
        /* The child is gone but something it started still holds the
         * pipes: give it a moment, then end the whole group. */
        if (reaped && t - reaped_at > 1.0 && !orphans_killed) {
            kill(-pid, SIGKILL);
            orphans_killed = true;
        }
        if (!out_open && !err_open && reaped)
            break;
        /* Wake at least every 50 ms to reap the child and check deadlines. */
        double wait = 0.05;
        if (kill_at < 0 && timeout_s > 0 && start + timeout_s - t < wait)
            wait = start + timeout_s - t;
        if (wait < 0)
            wait = 0;
        struct pollfd fds[2] = {{out_open ? po[0] : -1, POLLIN, 0}, {err_open ? pe[0] : -1, POLLIN, 0}};
        struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
        int r = ppoll(fds, 2, &ts, &old);
        if (r < 0 && errno != EINTR)
            break;
        if (out_open && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            out_open = drain(po[0], &out);
        if (err_open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            err_open = drain(pe[0], &err);
    }
    if (!reaped)
        waitpid(pid, &status, 0);
    /* Nothing of the group may outlive the run. */
    kill(-pid, SIGKILL);
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(po[0]);
    close(pe[0]);
    c->seconds = now_s() - start;
    if (WIFEXITED(status))
        c->exit_status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        c->term_signal = WTERMSIG(status);
    c->out = out.buf;
    c->outlen = out.len;
    c->err = err.buf;
    c->errlen = err.len;
    return true;
}

void harness_child_free(harness_child *c)
{
    free(c->out);
    free(c->err);
    memset(c, 0, sizeof *c);
}

void harness_child_describe(const harness_child *c, char *buf, size_t size)
{
    if (c->term_signal)
        snprintf(buf, size, "was killed by signal %d (%s)", c->term_signal, strsignal(c->term_signal));
    else
        snprintf(buf, size, "exited with status %d", c->exit_status);
}

bool harness_child_failed(diag *d, const harness_child *c, double timeout_s, const char *what)
{
    char why[160];
    if (c->timed_out)
        snprintf(why, sizeof why, "ran past the %g s time limit", timeout_s);
    else if (c->interrupted)
        snprintf(why, sizeof why, "was interrupted");
    else
        harness_child_describe(c, why, sizeof why);
    const char *err = c->err ? c->err : "";
    size_t n = strcspn(err, "\n");
    return diag_fail(d, "%s %s%s%.*s", what, why, n ? ": " : "", (int)n, err);
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
