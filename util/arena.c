/* Region allocator (util/arena.h).  Kept apart from its first user, the
 * cat evaluator, because nothing in it knows about cat: it is a plain
 * chunk list with marks. */
#include "util/arena.h"
#include <stdlib.h>
#include "util/mem.h"

void *arena_alloc(arena *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!n) n = sizeof(max_align_t);
    arena_chunk *c = a->head;
    while (c && c->used + n > c->size) {
        c = c->next;
        if (c) c->used = 0;
    }
    if (!c) {
        size_t size = n > (1u << 16) ? n : (1u << 16);
        c = xmalloc(sizeof *c + size);
        c->size = size;
        c->used = 0;
        c->next = NULL;
        if (a->head) {
            /* Keep later chunks (they are reused after a reset): insert. */
            c->next = a->head->next;
            a->head->next = c;
        } else {
            a->first = c;
        }
    }
    a->head = c;
    void *p = (char *)c->data + c->used;
    c->used += n;
    return p;
}

arena_mark arena_save(const arena *a)
{
    arena_mark mk = {a->head, a->head ? a->head->used : 0};
    return mk;
}

void arena_restore(arena *a, arena_mark mk)
{
    if (!mk.chunk) { arena_reset(a); return; }
    a->head = mk.chunk;
    mk.chunk->used = mk.used;
}

void arena_reset(arena *a)
{
    a->head = a->first;
    if (a->head) a->head->used = 0;
}

void arena_free(arena *a)
{
    for (arena_chunk *c = a->first, *nx; c; c = nx) {
        nx = c->next;
        free(c);
    }
    a->head = a->first = NULL;
}
