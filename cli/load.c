/* cli_load_test: a litmus file to verified IR (frontend, then lowering),
 * and the settings of the lowering and the model a command line gives:
 * --unroll, and the model's budget (--max-candidates, --model-timeout). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "cli/args.h"
#include "cli/cli.h"
#include "frontend/frontend.h"
#include "ir/lower.h"
#include "model/bset.h"
#include "model/model.h"

ir_test *cli_load_test(const char *path, diag *d)
{
    fe_test *ft = fe_parse_file(path, d);
    if (!ft)
        return NULL;
    ir_test *t = ir_lower(ft, d);
    fe_test_free(ft);
    return t;
}

bool cli_set_unroll(const char *cmd, const char *v)
{
    if (!v)
        return true;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || end == v || *end || n < 1 || n > 1000) {
        cli_usage_error(cmd, "--unroll takes a number from 1 to 1000, not '%s'", v);
        return false;
    }
    ir_lower_unroll = (int)n;
    return true;
}

bool cli_set_budget(const char *cmd, const char *max_candidates, const char *timeout)
{
    model_budget b = model_get_budget();
    if (max_candidates) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(max_candidates, &end, 10);
        if (errno || end == max_candidates || *end || *max_candidates == '-') {
            cli_usage_error(cmd, "--max-candidates takes a whole number (0: no limit), not '%s'", max_candidates);
            return false;
        }
        b.max_candidates = n;
    }
    if (timeout) {
        double s = 0;
        if (strcmp(timeout, "0") && !cli_parse_seconds(timeout, &s)) {
            cli_usage_error(cmd, "--model-timeout takes a number of seconds (0: no limit), not '%s'", timeout);
            return false;
        }
        b.timeout = s;
    }
    model_set_budget(&b);
    return true;
}

void cli_warn_cut_loop(const char *file, const bset *b)
{
    if (!b->lossy_line)
        return;
    fprintf(stderr,
            "%s:%d:%d: warning: the loop runs past its bound of %d iteration%s in an execution the model allows; "
            "such executions are dropped (\"Loop\"), so outcomes may be missing\n",
            file, b->lossy_line, b->lossy_col, b->lossy_bound, b->lossy_bound == 1 ? "" : "s");
}
