#ifndef LITMUSC_UTIL_FILE_H
#define LITMUSC_UTIL_FILE_H
/* Reading a whole file, for every loader (tests, IR text, cat models,
 * schemes); each words its own complaint. */
#include <stdbool.h>
#include "util/mem.h"

/* Appends the whole of PATH to OUT.  False when it cannot be opened
 * (*OPENED false) or read (*OPENED true), with errno saying why (EFBIG:
 * more than FILE_READ_MAX_MB, e.g. /dev/zero); OUT is then freed.
 * Binary-safe: OUT->len counts NUL bytes too. */
enum { FILE_READ_MAX_MB = 256 };
bool file_read_all(const char *path, strbuf *out, bool *opened);
/* The message for a failed read's errno: strerror, or "input larger than
 * 256 MB" for EFBIG. */
const char *file_error(int err);

/* Writes LEN bytes to PATH through a new temporary file beside it
 * (PATH.tmp.PID.N, never one that was there), renamed into place, so a
 * failure never leaves a partial file; a file replaced keeps its mode.
 * What is no regular file (/dev/null, a FIFO) is written to in place, and
 * a symlink is written through (its target replaced, the link kept),
 * except one of someone else's in a sticky folder others may write (/tmp):
 * EACCES, as the kernel's protected_symlinks.  False with errno saying why
 * (ENOSPC for /dev/full). */
bool file_write_atomic(const char *path, const char *data, size_t len);

/* Creates DIR and the folders above it that are missing (mkdir -p).
 * False with errno saying why (ENOTDIR when DIR exists but is no folder). */
bool file_mkdirs(const char *dir, unsigned mode);

/* PATH's last component without a ".litmus" ending ("a/SB.litmus" ->
 * "SB"), malloc'd. */
char *file_stem(const char *path);

/* Removes DIR and everything below it (rm -rf; links are not followed).
 * Best effort: what cannot be removed stays. */
void file_remove_tree(const char *dir);

/* A new private folder (mode 0700) under $TMPDIR, else /tmp, named
 * PREFIX-XXXXXX; NULL with errno saying why. */
char *file_temp_dir(const char *prefix);

#endif
