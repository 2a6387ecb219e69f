#ifndef LITMUSC_UTIL_ARENA_H
#define LITMUSC_UTIL_ARENA_H
/* Region allocation: many small blocks carved out of big chunks and given
 * back all at once (reset) or back to a saved point (mark).  The cat
 * evaluator allocates every value of a candidate here; chunks are kept
 * across resets and reused, so candidate after candidate mostly runs
 * without calling malloc. */
#include <stddef.h>

typedef struct arena_chunk {
    struct arena_chunk *next;
    size_t size, used;
    max_align_t data[];
} arena_chunk;

typedef struct arena {
    arena_chunk *head;          /* current chunk (list of all chunks) */
    arena_chunk *first;
} arena;

/* N bytes aligned for any type; never NULL (aborts on exhaustion). */
void *arena_alloc(arena *a, size_t n);
/* Marks let a caller give back what it allocated since the mark. */
typedef struct arena_mark { arena_chunk *chunk; size_t used; } arena_mark;
arena_mark arena_save(const arena *a);
void arena_restore(arena *a, arena_mark mk);
/* Give back everything; the chunks are kept for reuse. */
void arena_reset(arena *a);
void arena_free(arena *a);

#endif
