#include <stdio.h>
#include "cli/cli.h"

int cli_report(const diag *d)
{
    char buf[DIAG_MSG_MAX + 400];
    diag_format(d, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    return d->status ? d->status : EXIT_USAGE;
}
