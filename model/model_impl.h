#ifndef LITMUSC_MODEL_MODEL_IMPL_H
#define LITMUSC_MODEL_MODEL_IMPL_H
/* What other model/ files need of a loaded model (model.c); internal. */
#include "model/cat/cat.h"
#include "model/model.h"

/* The cat model M evaluates. */
const cat_model *model_cat(const model *m);

#endif
