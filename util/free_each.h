#ifndef LITMUSC_UTIL_FREE_EACH_H
#define LITMUSC_UTIL_FREE_EACH_H
/* Freeing an array whose elements own memory: the destructors of trees
 * that hold arrays of structs (tests, threads, blocks) all do this. */
#include <stdlib.h>

/* Calls CLEAR on the address of each of the N elements of V, then frees V. */
#define FREE_EACH(v, n, clear)                                                  \
    do {                                                                        \
        for (int free_each_i_ = 0; free_each_i_ < (n); free_each_i_++)          \
            clear(&(v)[free_each_i_]);                                          \
        free(v);                                                                \
    } while (0)

#endif
