/* litmusc's side of running a program (util/proc.h): pipes for its
 * stdout and stderr, the supervisor (util/proc_super.c) forked to start
 * it, and the wait, which passes on a time limit or an interrupt to the
 * program's whole group: SIGTERM first, so that a stress runner can still
 * print its partial histogram, then SIGKILL after the grace. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util/mem.h"
#include "util/proc.h"
#include "util/proc_internal.h"

extern char **environ;

enum { ERR_KEEP = 64 * 1024, OUT_LIMIT = 64 * 1024 * 1024 };

static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t waiting;       /* inside proc_run's wait, where the flag is acted on */
static const char *quit_message;            /* proc_signals_quit_idle's */

/* The first signal sets the flag for proc_run and the loops to act on; a
 * second, or one while nothing would look at the flag soon (a command
 * that asked for proc_signals_quit_idle, outside a child's wait), ends
 * litmusc now. */
static void on_signal(int sig)
{
    bool again = got_signal != 0;
    got_signal = sig;
    if (waiting && !again)
        return;
    if (quit_message && !again) {
        ssize_t w = write(2, quit_message, strlen(quit_message));
        (void)w;
        _exit(3);
    }
    if (again) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

void proc_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;    /* no SA_RESTART: a blocking wait must return */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void proc_signals_quit_idle(const char *message)
{
    quit_message = message;
}

bool proc_interrupted(void)
{
    return got_signal != 0;
}

int proc_interrupt_signal(void)
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

static void close_pair(int p[2])
{
    for (int i = 0; i < 2; i++)
        if (p[i] >= 0)
            close(p[i]);
}

/* litmusc's environment with TMPDIR replaced (malloc'd array, the new
 * entry at *OWN), or environ itself when TMPDIR is NULL. */
static char **environment(const char *tmpdir, char **own)
{
    *own = NULL;
    if (!tmpdir)
        return environ;
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = xcalloc(n + 2, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "TMPDIR=", 7))
            env[k++] = environ[i];
    env[k++] = *own = xasprintf("TMPDIR=%s", tmpdir);
    env[k] = NULL;
    return env;
}

/* What the wait learns from the supervisor. */
typedef struct watch {
    pid_t group;            /* the program's group, once known */
    int start_tag, start_errno;     /* it never ran: PROC_MSG_EXEC or PROC_MSG_CHDIR and why */
    bool ended;             /* its wait status came */
    int status;
    double ended_at;
} watch;

/* Read the supervisor's messages; false at end of file. */
static bool read_msgs(int fd, watch *w, double t)
{
    for (;;) {
        proc_msg m;
        ssize_t r = read(fd, &m, sizeof m);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK;
        if (r != (ssize_t)sizeof m)
            return false;
        if (m.tag == PROC_MSG_PID)
            w->group = (pid_t)m.value;
        else if (m.tag == PROC_MSG_WAIT) {
            w->ended = true;
            w->status = m.value;
            w->ended_at = t;
        } else {
            w->start_tag = m.tag;
            w->start_errno = m.value;
        }
    }
}

bool proc_run(char *const argv[], const proc_opts *o, proc_result *r, diag *d)
{
    static const proc_opts none;
    if (!o)
        o = &none;
    double grace_s = o->grace_s > 0 ? o->grace_s : 1.0, timeout_s = o->timeout_s;
    memset(r, 0, sizeof *r);
    r->exit_status = -1;
    int po[2] = {-1, -1}, pe[2] = {-1, -1}, pm[2] = {-1, -1}, life[2] = {-1, -1};
    if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC) || pipe2(pm, O_CLOEXEC) ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, life)) {
        int e = errno;
        close_pair(po), close_pair(pe), close_pair(pm), close_pair(life);
        r->start_errno = e;
        return diag_fail(d, "cannot create pipes to run '%s': %s", argv[0], strerror(e));
    }
    char *own_env;
    char **envp = environment(o->tmpdir, &own_env);
    /* Block the interrupt signals until ppoll, so none is lost between a
     * check of the flag and the wait. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigprocmask(SIG_BLOCK, &block, &old);
    double start = now_s();
    pid_t super = fork();
    if (super == 0) {
        proc_spawn s = {argv, envp, o->cwd, o->cleanup_dir, po[1], pe[1], pm[1], life[1]};
        proc_supervise(&s);
    }
    int fork_errno = errno;
    if (envp != environ)
        free(envp);
    free(own_env);
    close(po[1]), close(pe[1]), close(pm[1]), close(life[1]);
    if (super < 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        close(po[0]), close(pe[0]), close(pm[0]), close(life[0]);
        r->start_errno = fork_errno;
        return diag_fail(d, "cannot fork to run '%s': %s", argv[0], strerror(fork_errno));
    }
    waiting = 1;
    fcntl(po[0], F_SETFL, O_NONBLOCK);
    fcntl(pe[0], F_SETFL, O_NONBLOCK);
    fcntl(pm[0], F_SETFL, O_NONBLOCK);
    sink out = {NULL, 0, 0, o->out_max ? o->out_max : OUT_LIMIT, false};
    sink err = {NULL, 0, 0, o->err_keep ? o->err_keep : ERR_KEEP, true};
    sink_add(&out, "", 0);
    sink_add(&err, "", 0);
    bool out_open = true, err_open = true, msg_open = true, over_sent = false, orphans_killed = false;
    watch w = {0};
    double kill_at = -1;    /* when SIGKILL is due, once SIGTERM was sent */
    while (msg_open) {
        double t = now_s();
        if (w.group && !w.ended && kill_at < 0 && ((timeout_s > 0 && t - start >= timeout_s) || got_signal)) {
            if (got_signal)
                r->interrupted = true;
            else
                r->timed_out = true;
            kill(-w.group, got_signal ? (int)got_signal : SIGTERM);
            kill_at = t + grace_s;
        }
        if (kill_at >= 0 && t >= kill_at) {
            kill(-w.group, SIGKILL);
            kill_at = t + 3600;     /* sent; now wait for the pipes to close */
        }
        /* The program is gone but something it started still holds the
         * pipes: give it a moment, then end the whole group. */
        if (w.ended && (out_open || err_open) && t - w.ended_at > 1.0 && !orphans_killed) {
            kill(-w.group, SIGKILL);
            orphans_killed = true;
        }
        if (w.ended && !out_open && !err_open && !over_sent) {
            /* the supervisor may go: nothing is left for it to clean */
            over_sent = send(life[0], "x", 1, MSG_NOSIGNAL) == 1;
        }
        /* Wake at least every 50 ms to check deadlines. */
        double wait = 0.05;
        if (kill_at < 0 && timeout_s > 0 && start + timeout_s - t < wait)
            wait = start + timeout_s - t;
        if (wait < 0)
            wait = 0;
        struct pollfd fds[3] = {{out_open ? po[0] : -1, POLLIN, 0},
                                {err_open ? pe[0] : -1, POLLIN, 0},
                                {pm[0], POLLIN, 0}};
        struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
        int n = ppoll(fds, 3, &ts, &old);
        if (n < 0 && errno != EINTR)
            break;
        if (out_open && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            out_open = drain(po[0], &out);
        if (err_open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            err_open = drain(pe[0], &err);
        if (fds[2].revents & (POLLIN | POLLHUP | POLLERR))
            msg_open = read_msgs(pm[0], &w, now_s());
    }
    waiting = 0;
    /* a supervisor that saw the run end without our byte (its program
     * failed to start, or it was killed) has nothing to remove either */
    if (!over_sent)
        send(life[0], "x", 1, MSG_NOSIGNAL);
    close(life[0]);
    int sst = 0;
    while (waitpid(super, &sst, 0) < 0 && errno == EINTR)
        ;
    /* Nothing of the group may outlive the run. */
    if (w.group)
        kill(-w.group, SIGKILL);
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(po[0]), close(pe[0]), close(pm[0]);
    r->seconds = now_s() - start;
    r->out = out.buf;
    r->outlen = out.len;
    r->err = err.buf;
    r->errlen = err.len;
    if (w.start_tag) {
        /* it never ran: nothing for the caller to free */
        free(r->out), free(r->err);
        r->out = r->err = NULL;
        r->outlen = r->errlen = 0;
        r->start_errno = w.start_errno;
        if (w.start_tag == PROC_MSG_CHDIR)
            return diag_fail(d, "cannot run '%s' in %s: %s", argv[0], o->cwd ? o->cwd : ".",
                             strerror(w.start_errno));
        return diag_fail(d, "cannot run '%s': %s", argv[0], strerror(w.start_errno));
    }
    int status = w.status;
    if (!w.ended)   /* the supervisor died first: its program went with it (PR_SET_PDEATHSIG) */
        status = WIFSIGNALED(sst) ? sst : SIGKILL;
    if (WIFEXITED(status))
        r->exit_status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r->term_signal = WTERMSIG(status);
    return true;
}

void proc_result_free(proc_result *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}

bool proc_ok(const proc_result *r)
{
    return r->exit_status == 0 && !r->timed_out && !r->interrupted;
}

void proc_describe(const proc_result *r, char *buf, size_t size)
{
    if (r->term_signal)
        snprintf(buf, size, "was killed by signal %d (%s)", r->term_signal, strsignal(r->term_signal));
    else
        snprintf(buf, size, "exited with status %d", r->exit_status);
}

bool proc_failed(diag *d, const proc_result *r, double timeout_s, const char *what)
{
    char why[160];
    if (r->timed_out)
        snprintf(why, sizeof why, "ran past the %g s time limit", timeout_s);
    else if (r->interrupted)
        snprintf(why, sizeof why, "was interrupted");
    else
        proc_describe(r, why, sizeof why);
    const char *err = r->err ? r->err : "";
    size_t n = strcspn(err, "\n");
    return diag_fail(d, "%s %s%s%.*s", what, why, n ? ": " : "", (int)n, err);
}

void proc_err_tail(const proc_result *r, char *buf, size_t size)
{
    if (!size)
        return;
    const char *s = r->err ? r->err : "";
    size_t len = strlen(s);
    while (len && (s[len - 1] == '\n' || s[len - 1] == ' ' || s[len - 1] == '\r'))
        len--;
    /* the last line, then the ones before it while they fit with " | " */
    size_t from = len;
    while (from && s[from - 1] != '\n')
        from--;
    size_t shown = len - from;
    for (int lines = 1; lines < 4 && from > 0; lines++) {
        size_t end = from - 1, b = end;
        while (b && s[b - 1] != '\n')
            b--;
        if (shown + 3 + (end - b) + 1 > size)
            break;
        shown += 3 + (end - b);
        from = b;
    }
    if (shown + 1 > size)
        from = len - (size - 1);    /* one long line: its end */
    size_t k = 0;
    for (size_t i = from; i < len && k + 1 < size; i++) {
        if (s[i] != '\n')
            buf[k++] = s[i];
        else if (k + 4 <= size) {
            memcpy(buf + k, " | ", 3);
            k += 3;
        } else
            break;
    }
    buf[k] = 0;
}
