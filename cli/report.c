#include <stdio.h>
#include "cli/cli.h"

const char *cli_command = "litmusc";

int cli_report(const diag *d)
{
    char buf[DIAG_MSG_MAX + 400];
    diag_format(d, buf, sizeof buf);
    fprintf(stderr, "%s: %s\n", cli_command, buf);
    return d->status ? d->status : EXIT_USAGE;
}

void cli_json_flush(strbuf *b)
{
    if (b->len)
        fwrite(b->s, 1, b->len, stdout);
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}
