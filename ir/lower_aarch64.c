/* Lowering of AArch64 threads.  The frontend does not read AArch64
 * programs yet, so no thread reaches here. */
#include "ir/lower_int.h"

/* A thread the frontend could not have produced: refused at its start. */
bool lw_aarch64_thread(lw *w)
{
    return lw_error(w, w->ft_th->pos, "AArch64 programs are not supported yet");
}
