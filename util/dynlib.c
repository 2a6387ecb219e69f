#include "util/dynlib.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

bool dynlib_load(const char *path, const char *const *names, void (**fns)(void), int n,
                 char *err, size_t errlen)
{
    /* RTLD_LOCAL: the library's own dependencies (LLVM's C++ runtime) stay
     * out of the program's symbol lookups; RTLD_NOW: a missing symbol of
     * the library fails here, not in the middle of a lift */
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(err, errlen, "%s", why ? why : path);
        return false;
    }
    for (int i = 0; i < n; i++) {
        void *f = dlsym(lib, names[i]);
        if (!f) {
            snprintf(err, errlen, "%s has no %s", path, names[i]);
            return false;
        }
        /* an object pointer to a function pointer, as POSIX's dlsym requires */
        memcpy(&fns[i], &f, sizeof f);
    }
    return true;
}
