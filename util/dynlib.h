#ifndef LITMUSC_UTIL_DYNLIB_H
#define LITMUSC_UTIL_DYNLIB_H
/* A shared library loaded on first use rather than linked: the large
 * ones (LLVM, Capstone) cost every process their relocations at start-up,
 * though only cc-check and hunt call them. */
#include <stdbool.h>
#include <stddef.h>

/* Open PATH (dlopen keeps one copy however often it is asked) and set
 * FNS[i] to the function NAMES[i], for N names.  False when the library or one of
 * the names is missing, ERR then saying which (dlerror's words). */
bool dynlib_load(const char *path, const char *const *names, void (**fns)(void), int n,
                 char *err, size_t errlen);
#endif
