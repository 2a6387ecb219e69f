#!/bin/sh
# Pruning must not change herd's counts: on the folders with RMWs, CAS,
# non-atomics and many writes per location, build every candidate
# (--no-prune) and still agree with herd7 exactly.  No time budget: c11popl15's
# fig6 without pruning takes seconds of CPU time under the sanitizers.
set -u
here=$(cd "$(dirname "$0")" && pwd)
MODEL_CORPUS_ONLY='^(shared/corpus/(x86/diy/(rmw|locked4)|c11/catalogue/(herd-tests-C|c11popl15)|c11/diy/na2|java/ecoop/c11/opt-invalid)|tests/corpus/(x86/(rmw|locked)|c11/(na2|plaindep)|java/plain))$' \
MODEL_CORPUS_FLAGS='--no-prune --timeout 0' MODEL_CORPUS_QUIET=0 exec sh "$here/model_corpus.sh"
