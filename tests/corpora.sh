# Sourced by the end-to-end tests that read a corpus of litmus tests with
# herd7 verdicts.  The project's own corpus (tests/corpus, made by
# `litmusc gen`, see its README) is always there; the shared corpus
# (../shared/corpus beside the checkout) is an extra run when present.
# Both have the same layout: x86/ c11/ java/, NAME.litmus with
# NAME.MODEL.herd beside it.

corpora_root=$(cd "$(dirname "$0")/../.." && pwd)

# The corpus folders to run on, one per line.
corpora() {
    echo "$corpora_root/tests/corpus"
    if [ -d "$corpora_root/../shared/corpus" ]; then
        (cd "$corpora_root/../shared/corpus" && pwd)
    fi
}

# A short name for messages: tests/corpus or shared/corpus.
corpus_label() {
    case $1 in
    "$corpora_root/tests/corpus") echo tests/corpus ;;
    *) echo shared/corpus ;;
    esac
}

# The fewest tests a complete copy of corpus $1 holds (a sanity bound, so
# that a corpus that lost its files fails instead of passing on nothing).
corpus_min() {
    case $1 in
    "$corpora_root/tests/corpus") echo 400 ;;
    *) echo 800 ;;
    esac
}

# Tests of the project's own corpus that stand for the classic shapes.
corpus_sb="$corpora_root/tests/corpus/x86/classic/SB.litmus"
corpus_mp="$corpora_root/tests/corpus/x86/classic/MP.litmus"

# `litmusc model` output over many tests cut into one file per test, named
# after it, each its herd block without the Time line (which differs from
# run to run): herd_split_blocks OUTPUT DIR.
herd_split_blocks() {
    mkdir -p "$2"
    awk -v dir="$2" '
        /^Test / { file = dir "/" $2; printf "" > file }
        file != "" && !/^Time / { print >> file }
        /^$/ { if (file != "") close(file); file = "" }
    ' "$1"
}
