#!/bin/sh
# cc-check's compiler runs through litmusc's one process runner: a compiler
# that hangs (a fake --cc that sleeps, with a child of its own as gcc has
# cc1) is killed with its whole group at --timeout, for cc-check (exit 3)
# and for a campaign's cc-check runs (recorded as failed, not left
# running); kill -9 of litmusc mid-compile leaves no compiler and no
# litmusc-cc-* folder; the folder is under $TMPDIR and is the compiler's
# TMPDIR; a compiler not found is exit 3 with the system's reason; one
# that fails shows the end of its stderr.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
command -v setsid >/dev/null 2>&1 || { echo "SKIP: no setsid"; exit 77; }
sb="$here/../corpus/c11/classic/SB+poscscs.litmus"
tmp=$(mktemp -d)
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
mkdir "$tmp/tmp" "$tmp/pids" "$tmp/tests"
export TMPDIR="$tmp/tmp" PIDS="$tmp/pids"
cp "$sb" "$tmp/tests/"
# alive FILE: the process whose pid FILE holds still runs
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
cleanup() {
    for f in "$tmp"/pids/*.pid; do alive "$f" && kill -KILL "$(cat "$f")"; done
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

hang="$tmp/hang-cc.sh"
cat >"$hang" <<'EOF'
#!/bin/sh
echo "$TMPDIR" >"$PIDS/tmpdir"
touch "$TMPDIR/cc-own-temp"
sleep 30 &
echo $! >"$PIDS/child.pid"
echo $$ >"$PIDS/cc.pid.tmp" && mv "$PIDS/cc.pid.tmp" "$PIDS/cc.pid"
wait
EOF
chmod +x "$hang"

# gone: neither the fake compiler nor its child runs, within 2 s
gone() {
    i=0
    while { alive "$PIDS/cc.pid" || alive "$PIDS/child.pid"; } && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
    ! alive "$PIDS/cc.pid" && ! alive "$PIDS/child.pid"
}
no_folders() { ! ls -d "$TMPDIR"/litmusc-cc-* >/dev/null 2>&1; }

# cc-check --timeout: exit 3 naming the limit, the whole group gone
start=$(date +%s)
timeout 60 "$L" cc-check --cc "$hang" --timeout 1 "$sb" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 3 ] || fail "hanging compiler, --timeout 1: exit $rc, not 3: $(cat "$tmp/err")"
[ $(($(date +%s) - start)) -le 10 ] || fail "hanging compiler, --timeout 1: took $(($(date +%s) - start)) s"
grep -q "did not finish compiling the test in 1 s (timed out)" "$tmp/err" ||
    fail "hanging compiler: no timeout message: $(cat "$tmp/err")"
gone || fail "hanging compiler: the compiler or its child outlived --timeout"
no_folders || fail "hanging compiler: a folder was left: $(ls "$TMPDIR")"
case $(cat "$PIDS/tmpdir" 2>/dev/null) in
"$TMPDIR"/litmusc-cc-*) ;;
*) fail "the compiler's TMPDIR is not the run's folder under \$TMPDIR: '$(cat "$PIDS/tmpdir" 2>/dev/null)'" ;;
esac
"$L" cc-check --help | grep -q -- "--timeout SEC" || fail "cc-check --help has no --timeout"
"$L" cc-check --timeout 0 "$sb" >/dev/null 2>&1
[ $? = 2 ] || fail "--timeout 0 is not a usage error"

# a campaign's cc-check run with the run option --timeout: failed, not running
rm -f "$PIDS"/*
start=$(date +%s)
timeout 60 "$L" campaign run --db "$tmp/c.db" --quiet --targets cc-check --cc "$hang" --timeout 1 "$tmp/tests" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 3 ] || fail "campaign with a hanging compiler: exit $rc, not 3: $(cat "$tmp/err")"
[ $(($(date +%s) - start)) -le 20 ] || fail "campaign with a hanging compiler: took $(($(date +%s) - start)) s"
gone || fail "campaign: the compiler or its child outlived --timeout"
"$L" campaign report --db "$tmp/c.db" >"$tmp/rep" 2>&1
grep -q "0 finished, 1 failed, 0 not run" "$tmp/rep" || fail "campaign: the run is not marked failed: $(cat "$tmp/rep")"
"$L" campaign report --db "$tmp/c.db" --json | grep -q "timed out" || fail "campaign: the message does not say timed out"

# kill -9 of cc-check mid-compile: no compiler, no child, no folder
rm -f "$PIDS"/*
setsid "$L" cc-check --cc "$hang" "$sb" >/dev/null 2>&1 &
pid=$!
i=0
while ! [ -s "$PIDS/cc.pid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ -s "$PIDS/cc.pid" ] || fail "kill -9: the compiler never started"
kill -KILL $pid
wait $pid 2>/dev/null
gone || fail "kill -9: the compiler or its child outlived litmusc"
i=0
while ! no_folders && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
no_folders || fail "kill -9: a litmusc-cc-* folder was left: $(ls "$TMPDIR")"

# the same with the real gcc, its cc1 held back by a -wrapper that sleeps:
# after kill -9 of litmusc neither the driver's cc1 nor its sleep lives on
if command -v gcc >/dev/null 2>&1; then
    rm -f "$PIDS"/*
    slow="$tmp/slow-cc1.sh"
    printf '#!/bin/sh\nsleep 30 &\necho $! >"$PIDS/child.pid"\necho $$ >"$PIDS/cc.pid"\nwait\nexec "$@"\n' >"$slow"
    chmod +x "$slow"
    setsid "$L" cc-check --cc gcc --cflags "-O2 -wrapper $slow" "$sb" >/dev/null 2>&1 &
    pid=$!
    i=0
    while ! [ -s "$PIDS/cc.pid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    if [ -s "$PIDS/cc.pid" ]; then
        kill -KILL $pid
        wait $pid 2>/dev/null
        gone || fail "kill -9 of a real gcc's run: its cc1 or the cc1's child outlived litmusc"
        i=0
        while ! no_folders && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
        no_folders || fail "kill -9 of a real gcc's run: a folder was left: $(ls "$TMPDIR")"
    else
        echo "SKIP: gcc -wrapper did not start its cc1 through the wrapper"
        kill -KILL $pid 2>/dev/null
        wait $pid 2>/dev/null
    fi
fi

# a compiler that is not there: exit 3 with the system's reason
"$L" cc-check --cc litmusc-no-such-cc "$sb" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && grep -q "cannot run 'litmusc-no-such-cc': No such file or directory" "$tmp/err" ||
    fail "compiler not found: exit $rc: $(cat "$tmp/err")"

# a compiler that fails: exit 2, the end of its stderr and its status
bad="$tmp/bad-cc.sh"
printf '#!/bin/sh\necho "t.c:1: error: first" >&2\necho "t.c:2: error: second" >&2\nexit 1\n' >"$bad"
chmod +x "$bad"
"$L" cc-check --cc "$bad" "$sb" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "its stderr ending 't.c:1: error: first | t.c:2: error: second' (exited with status 1)" "$tmp/err" ||
    fail "failing compiler: exit $rc: $(cat "$tmp/err")"
no_folders || fail "a folder was left: $(ls "$TMPDIR")"

[ "$fails" -eq 0 ] || exit 1
echo "cc_runner: ok"
