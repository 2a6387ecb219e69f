/* Campaigns spread over processes and machines by the tools made for it:
 * GNU parallel runs the shards (here or on the hosts of --sshlogin) and
 * they are merged when all are done; for Slurm, a job-array script (one
 * shard per array task, each into its own database) and a merge job that
 * depends on it.  Every word that comes from the user or a file name is
 * quoted for the shell, and reaches parallel only as input data (a file of
 * NUL-ended command lines), never in its command template, where parallel
 * would rewrite {} and run the Perl of {=...=}. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "campaign/internal.h"
#include "util/file.h"
#include "harness/harness.h"

static char *quote1(const char *s)
{
    char *const w[] = {(char *)s, NULL};
    return campaign_shell_words(w);
}

/* The shard command with SHARD standing for the shard number (a shell
 * word of its own, e.g. {} for parallel or "$SLURM_ARRAY_TASK_ID"). */
static char *shard_command(const char *litmusc, const char *db, const char *shard, int nshards,
                           char *const *run_args)
{
    char *lq = quote1(litmusc);
    char *pre = xasprintf("%s.shard-", db), *post = xasprintf("-of-%d", nshards);
    char *preq = quote1(pre), *postq = quote1(post);
    char *args = campaign_shell_words(run_args);
    char *cmd = xasprintf("%s campaign run --quiet --db %s%s%s --shard %s/%d %s", lq, preq, shard, postq, shard,
                          nshards, args);
    free(lq);
    free(pre);
    free(post);
    free(preq);
    free(postq);
    free(args);
    return cmd;
}

/* Writes the shard commands, each a whole shell command line ended by a
 * NUL, to a new file in a private folder: parallel given no command runs
 * each input record as it is, with no replacement strings in it.  The
 * file's path (malloc'd) or NULL with a diag. */
static char *command_file(const char *litmusc, const char *db, int nshards, char *const *run_args,
                          char **dir, diag *d)
{
    *dir = file_temp_dir("litmusc-parallel");
    if (!*dir) {
        diag_fail(d, "cannot make a folder for parallel's commands: %s", strerror(errno));
        return NULL;
    }
    strbuf b = {0};
    for (int i = 1; i <= nshards; i++) {
        char shard[16];
        snprintf(shard, sizeof shard, "%d", i);
        char *cmd = shard_command(litmusc, db, shard, nshards, run_args);
        sb_add(&b, cmd);
        sb_addn(&b, "", 1);
        free(cmd);
    }
    char *path = xasprintf("%s/shards", *dir);
    bool ok = file_write_atomic(path, b.s ? b.s : "", b.len);
    int why = errno;
    sb_free(&b);
    if (!ok) {
        diag_fail(d, "cannot write %s: %s", path, strerror(why));
        free(path);
        return NULL;
    }
    return path;
}

bool campaign_parallel(campaign *c, const char *litmusc, int nshards, int jobs, const char *sshlogin,
                       char *const *run_args, campaign_merge_stats *st, diag *d)
{
    memset(st, 0, sizeof *st);
    char *dir = NULL;
    char *cmds = command_file(litmusc, campaign_path(c), nshards, run_args, &dir, d);
    if (!cmds) {
        if (dir) {
            file_remove_tree(dir);
            free(dir);
        }
        return false;
    }
    char *argv[16];
    int a = 0;
    argv[a++] = "parallel";
    argv[a++] = "--will-cite";
    argv[a++] = "--halt";
    argv[a++] = "never";
    char jobs_s[16];
    snprintf(jobs_s, sizeof jobs_s, "%d", jobs);
    argv[a++] = "--jobs";
    argv[a++] = jobs_s;
    if (sshlogin) {
        argv[a++] = "--sshlogin";
        argv[a++] = (char *)sshlogin;
    }
    argv[a++] = "--null";
    argv[a++] = "--arg-file";
    argv[a++] = cmds;
    argv[a] = NULL;
    harness_child ch = {0};
    bool ok = harness_child_run(argv, 0, 10, &ch, d);
    if (ok && (ch.exit_status != 0 || ch.term_signal)) {
        char how[160];
        harness_child_describe(&ch, how, sizeof how);
        diag_fail(d, "GNU parallel %s (%s)%s%s", how,
                  ch.exit_status > 0 && ch.exit_status < 101 ? "a shard failed" : "parallel itself failed",
                  ch.err && *ch.err ? ": " : "", ch.err ? ch.err : "");
        ok = false;
    }
    if (ch.out || ch.err)
        harness_child_free(&ch);
    /* merge what the shards wrote, also when one of them failed */
    bool merged = true;
    for (int i = 1; i <= nshards && merged; i++) {
        char *p = campaign_shard_path(campaign_path(c), i, nshards);
        FILE *f = fopen(p, "rb");
        if (f) {
            fclose(f);
            campaign_merge_stats ms;
            diag md = {0};
            merged = campaign_merge(c, p, &ms, ok ? d : &md);
            if (merged) {
                st->added += ms.added;
                st->already += ms.already;
                st->unfinished += ms.unfinished;
            } else if (!ok)
                ok = false;
        }
        free(p);
    }
    file_remove_tree(dir);
    free(dir);
    free(cmds);
    return ok && merged;
}

bool campaign_slurm_script(const char *litmusc, const char *db, int nshards, char *const *run_args,
                           const char *partition, strbuf *out, diag *d)
{
    (void)d;
    char *cmd = shard_command(litmusc, db, "\"$SLURM_ARRAY_TASK_ID\"", nshards, run_args);
    char *lq = quote1(litmusc), *dbq = quote1(db);
    char *log = xasprintf("%s.shard-%%a-of-%d.log", db, nshards), *logq = quote1(log);
    char *mlog = xasprintf("%s.merge.log", db), *mlogq = quote1(mlog);
    char *part = partition ? xasprintf("#SBATCH --partition=%s\n", partition) : xstrdup("");
    sb_add(out, "#!/bin/sh\n"
                "# A litmusc campaign on Slurm: `sh THIS_FILE` submits one array task per\n"
                "# shard, each into its own database, then the merge of the shards, which\n"
                "# waits for them (afterany: a failed shard's finished runs still count).\n"
                "set -eu\n");
    sb_printf(out, "array=$(sbatch --parsable <<'SBATCH'\n"
                   "#!/bin/sh\n"
                   "#SBATCH --job-name=litmusc-campaign\n"
                   "#SBATCH --array=1-%d\n"
                   "#SBATCH --ntasks=1\n"
                   "#SBATCH --output=%s\n"
                   "%s"
                   "exec %s\n"
                   "SBATCH\n)\n",
              nshards, logq, part, cmd);
    sb_printf(out, "merge=$(sbatch --parsable --dependency=afterany:\"$array\" <<'SBATCH'\n"
                   "#!/bin/sh\n"
                   "#SBATCH --job-name=litmusc-campaign-merge\n"
                   "#SBATCH --ntasks=1\n"
                   "#SBATCH --output=%s\n"
                   "%s"
                   "set -- \n"
                   "i=1\n"
                   "while [ \"$i\" -le %d ]; do\n"
                   "    set -- \"$@\" %s.shard-\"$i\"-of-%d\n"
                   "    i=$((i + 1))\n"
                   "done\n"
                   "exec %s campaign merge %s \"$@\"\n"
                   "SBATCH\n)\n"
                   "echo \"submitted shards $array and merge $merge\"\n",
              mlogq, part, nshards, dbq, nshards, lq, dbq);
    free(cmd);
    free(lq);
    free(dbq);
    free(log);
    free(logq);
    free(mlog);
    free(mlogq);
    free(part);
    return true;
}
