/* Run the user's compiler.  -fno-pic makes every global access a direct
 * x(%rip) operand with an R_X86_64_PC32 relocation (no GOT indirection to
 * follow); the user's flags come after so they can add, not undo, that. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lift/lift.h"
#include "util/mem.h"

bool lift_compile(const char *cc, const char *cflags, const char *src, const char *obj, diag *d)
{
    char *flags = xstrdup(cflags ? cflags : "");
    char *argv[64];
    int n = 0;
    argv[n++] = (char *)cc;
    argv[n++] = "-c";
    argv[n++] = "-fno-pic";
    for (char *s = strtok(flags, " \t"); s && n < 58; s = strtok(NULL, " \t"))
        argv[n++] = s;
    argv[n++] = (char *)src;
    argv[n++] = "-o";
    argv[n++] = (char *)obj;
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        execvp(cc, argv);
        _exit(127);
    }
    int st = 0;
    pid_t w = -1;
    /* a signal the caller handles (a campaign's SIGINT) interrupts the wait,
     * not the compiler: wait on, so its files are not removed under it */
    while (pid > 0 && (w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
        ;
    bool ok = pid > 0 && w == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (!ok)
        diag_error(d, src, 0, 0, "cc-check: '%s %s' failed to compile the test%s", cc, cflags ? cflags : "",
                   WIFEXITED(st) && WEXITSTATUS(st) == 127 ? " (compiler not found)" : "");
    free(flags);
    return ok;
}
