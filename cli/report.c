/* What every subcommand prints alike: its diagnostics, its --json
 * document, the list of shipped schemes in its usage. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include "backends/x86/x86.h"
#include "cli/cli.h"
#include "harness/harness.h"

const char *cli_command = "litmusc";

/* The reason of the first failed flush of stdout: once a flush failed,
 * the stream's error flag stays but errno is long gone by exit. */
static int stdout_errno;

bool cli_flush_stdout(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return true;
    if (!stdout_errno)
        stdout_errno = errno ? errno : EIO;
    return false;
}

int cli_stdout_errno(void)
{
    return stdout_errno;
}

int cli_report(const diag *d)
{
    char buf[DIAG_MSG_MAX + 400];
    diag_format(d, buf, sizeof buf);
    fprintf(stderr, "%s: %s\n", cli_command, buf);
    return d->status ? d->status : EXIT_USAGE;
}

void cli_report_worst(const diag *d, int *status)
{
    int s = cli_report(d);
    if (s > *status)
        *status = s;
}

void cli_print_schemes(FILE *f)
{
    for (const char *const *n = x86_scheme_builtins(); *n; n++)
        fprintf(f, " %s", *n);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see '%s --help')\n", cmd);
    va_end(ap);
    return EXIT_USAGE;
}

void cli_json_flush(strbuf *b)
{
    if (b->len)
        fwrite(b->s, 1, b->len, stdout);
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

void cli_json_begin(cli_json_out *o, bool on, const char *command)
{
    o->on = on;
    o->buf = (strbuf){0};
    json_init(&o->js, &o->buf);
    if (on)
        harness_json_begin(&o->js, command);
}

void cli_json_end(cli_json_out *o)
{
    if (o->on) {
        harness_json_end(&o->js);
        sb_addc(&o->buf, '\n');
        cli_json_flush(&o->buf);
    }
    sb_free(&o->buf);
}
