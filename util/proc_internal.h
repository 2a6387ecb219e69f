#ifndef LITMUSC_UTIL_PROC_INTERNAL_H
#define LITMUSC_UTIL_PROC_INTERNAL_H
/* Between util/proc.c (litmusc's side of a run) and util/proc_super.c
 * (the supervisor process between litmusc and the program). */
#include <sys/types.h>

/* What the supervisor writes to litmusc, one message per write (smaller
 * than PIPE_BUF, so whole). */
typedef struct proc_msg {
    int tag;                /* one of the PROC_MSG_* */
    int value;
} proc_msg;
enum {
    PROC_MSG_PID = 'P',     /* value: the program's pid, which is its process group too */
    PROC_MSG_EXEC = 'E',    /* value: errno of a failed exec (the program never ran) */
    PROC_MSG_CHDIR = 'C',   /* value: errno of a failed chdir to the working folder */
    PROC_MSG_WAIT = 'W',    /* value: the program's wait status */
};

typedef struct proc_spawn {
    char *const *argv;
    char *const *envp;      /* the program's environment */
    const char *cwd;        /* NULL: as litmusc */
    const char *cleanup_dir;    /* removed if litmusc dies; NULL: none */
    int out, err;           /* the write ends of the program's stdout and stderr */
    int msg;                /* the write end of the messages to litmusc */
    int life;               /* litmusc's end of a socket pair: a byte says the run is over,
                               end of file that litmusc died */
} proc_spawn;

/* In the child of fork(): start the program and watch it and litmusc
 * until the run is over.  Only async-signal-safe calls (litmusc may have
 * threads): no malloc, no stdio. */
void proc_supervise(const proc_spawn *s) __attribute__((noreturn));

#endif
