#ifndef LITMUSC_MODEL_PATHS_PATHS_IMPL_H
#define LITMUSC_MODEL_PATHS_PATHS_IMPL_H
/* What the files of model/paths/ share: the state of one path being run
 * (walk) and of the thread's run (walker), the primitives that grow a path
 * (walk.c), the instructions that make events (access.c, rmw.c, lock.c),
 * the walk itself (paths.c), and each instruction set's event shapes
 * (shapes.c).  Nothing outside model/paths/ includes it. */
#include <stdbool.h>
#include <stdint.h>
#include "model/paths/paths.h"

typedef struct walk {
    int *env;                   /* SSA value -> expression, -1 = undefined */
    tev *ev;
    size_t nev, cap;
    tcond *cond;
    size_t ncond, ccap;
    int nslots;
    uint64_t ctrl;              /* read slots the path's branches depend on */
    /* An access whose address is computed from a read: this path assumes
     * it touches forced_loc (one path per location, as herd's solver
     * would find by case analysis). */
    const ir_instr *forced_in;
    int forced_loc;
    /* AArch64: 1 + the index in ev of the load-exclusive whose
     * reservation is open, 0 when none (see paths_store_excl) */
    int resv;
    /* read slots that picked the value a CSEL chose, for the phi that
     * takes it (the select branch's join) */
    uint64_t sel_pick;
} walk;

typedef struct walker {
    const ir_test *t;
    const ir_thread *th;
    tpaths *out;
    size_t np, pcap;
    diag *d;
    bool failed;
    bool lock_events;       /* locks are herd's lock events (paths_thread) */
} walker;

/* ---- walk.c: a path's state and the primitives that grow it ---------------- */
/* DST becomes a copy of SRC (NVALS SSA values), to run one side of a fork. */
void paths_walk_clone(walk *dst, const walk *src, int nvals);
void paths_walk_free(walk *w);
/* The thread's run fails at IN with MSG (the first failure is reported). */
bool paths_fail(walker *k, const ir_instr *in, const char *msg);
/* The expression of operand O on W into *OUT. */
bool paths_operand(walker *k, walk *w, ir_operand o, const ir_instr *in, int *out);
/* The location IN touches, and the read slots its address depends on. */
bool paths_address(walker *k, walk *w, const ir_instr *in, int *loc, uint64_t *deps, uint64_t *pdeps);
void paths_add_event(walk *w, tev e);
/* W assumes expression E is nonzero (NONZERO) or zero. */
void paths_add_cond(walk *w, int e, bool nonzero);
/* An event of KIND (EV_R, EV_W, EV_F) made by IN, with nothing set yet. */
tev paths_new_event(unsigned kind, const ir_instr *in);
/* A new read slot on W into *SLOT. */
bool paths_new_slot(walker *k, walk *w, const ir_instr *in, int *slot);

/* ---- the instructions that make events --------------------------------------- */
/* access.c: a load or a store; a store-exclusive's reservation and run. */
bool paths_access(walker *k, walk *w, const ir_instr *in);
bool paths_excl_reserved(walker *k, walk *w, const ir_instr *in, bool *can);
bool paths_store_excl(walker *k, walk *w, const ir_instr *in, bool success);
/* rmw.c: an RMW; SUCCESS a CAS's side, FORM which of herd's two forms of
 * an AArch64 CAS (0 or 1). */
bool paths_rmw(walker *k, walk *w, const ir_instr *in, bool success, int form);
/* lock.c: a lock, trylock (SUCCESS: it took the mutex) or unlock. */
bool paths_lock(walker *k, walk *w, const ir_instr *in, bool success);

/* ---- paths.c: the walk -------------------------------------------------------- */
/* Run W from instruction FROM of BLOCK (entered from PREV) to the end of
 * the thread, recording each finished path. */
void paths_run_from(walker *k, walk *w, int block, int prev, int from);

/* ---- shapes.c: each instruction set's event shapes ---------------------------
 * One row per ISA_LIST entry of isa/isa.h: an instruction set whose stem is
 * S gives paths_shape_S.  A language (C, Java) has none: its RMW is one
 * event that reads and writes. */
typedef struct paths_shape {
    /* An RMW of mode M is a read of mode *R and a write of mode *W, linked
     * by rmw (a locked x86 instruction, an AArch64 atomic). */
    void (*rmw_modes)(ir_mode m, ir_mode *r, ir_mode *w);
    /* A CAS runs in herd's two forms, its write picked by the compare
     * (AArch64's CAS, see rmw.c). */
    bool cas_forms;
} paths_shape;

/* The shapes of test architecture ARCH; NULL for C and Java. */
const paths_shape *paths_shape_of(ir_arch arch);
extern const paths_shape paths_shape_x86, paths_shape_aarch64;

#endif
