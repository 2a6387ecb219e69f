/* The step line: on a terminal, a long step (a first compilation, javac)
 * shows what it does while it runs, on one line of stderr that is erased
 * when it ends, so nothing is left in the output and nothing is shown when
 * stderr is a file or a pipe. */
#include <stdio.h>
#include <unistd.h>
#include "cli/cli.h"
#include "harness/harness.h"

static void show_step(const char *step)
{
    if (step)
        fprintf(stderr, "\r\033[K%s: %s ...", cli_command, step);
    else
        fputs("\r\033[K", stderr);
    fflush(stderr);
}

void cli_show_steps(void)
{
    if (isatty(STDERR_FILENO))
        harness_on_step(show_step);
}
