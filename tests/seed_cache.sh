# Sourced by an end-to-end test after it sets LITMUSC_CACHE to a folder of
# its own: that folder starts as a copy of the runtime objects the suite
# built once (tests/run_all.sh's LITMUSC_SEED_CACHE), so the test compiles
# only its own harnesses.  Run alone, or with no seed, the cache starts
# empty as before.
if [ -n "${LITMUSC_SEED_CACHE:-}" ] && [ -d "$LITMUSC_SEED_CACHE" ] && [ ! -e "$LITMUSC_CACHE" ]; then
    cp -pR "$LITMUSC_SEED_CACHE" "$LITMUSC_CACHE"
fi
