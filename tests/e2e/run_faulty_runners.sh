#!/bin/sh
# The harness against runners that misbehave.  A stand-in compiler (given
# with --cc) ignores the generated source and writes a small shell script as
# the runner: one that hangs and ignores SIGTERM, one that prints counts
# that do not add up, one that crashes, one that prints a partial histogram
# when stopped.  Each must be reported precisely, and the next test must
# still run.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
ex="$here/../../examples"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# fakecc BEHAVIOUR: a "compiler" whose output program runs runner_BEHAVIOUR.
mkfake() {
    cat >"$tmp/cc-$1" <<EOS
#!/bin/sh
[ "\$1" = --version ] && { echo "fakecc $1 1.0"; exit 0; }
out=
while [ \$# -gt 0 ]; do [ "\$1" = -o ] && out=\$2; shift; done
cp "$tmp/runner-$1" "\$out" && chmod +x "\$out"
EOS
    chmod +x "$tmp/cc-$1"
}
# Runners for SB (two observables).
cat >"$tmp/runner-hang" <<'EOS'
#!/bin/sh
trap '' TERM INT
while :; do :; done
EOS
cat >"$tmp/runner-badcount" <<'EOS'
#!/bin/sh
printf 'litmusc-histogram 1\noutcome 5 0 0\noutcome 5 1 1\niterations 11\nelapsed 0.1\ninterrupted 0\nend\n'
EOS
cat >"$tmp/runner-crash" <<'EOS'
#!/bin/sh
echo "litmusc-histogram 1"
echo "runner: something broke" >&2
kill -SEGV $$
EOS
cat >"$tmp/runner-slow" <<'EOS'
#!/bin/sh
trap 'printf "litmusc-histogram 1\nconfig size 10\noutcome 7 1 0\noutcome 3 0 0\niterations 10\nelapsed 0.5\ninterrupted 1\nend\n"; exit 0' TERM INT
while :; do sleep 0.05; done
EOS
for b in hang badcount crash slow; do mkfake $b; done
SB="$ex/x86/SB.litmus"
MP="$ex/x86/MP.litmus"

# Two hanging tests: each killed at the limit, the second still run.
start=$(date +%s)
"$L" run --cc "$tmp/cc-hang" --timeout 1 "$SB" "$MP" >"$tmp/out" 2>"$tmp/err"
rc=$?
took=$(( $(date +%s) - start ))
[ "$rc" -eq 3 ] || fail "hanging runners: exit $rc, want 3"
grep -q "SB: the runner hung and was killed after 1 s" "$tmp/err" || fail "hang of SB not reported: $(cat "$tmp/err")"
grep -q "MP: the runner hung and was killed after 1 s" "$tmp/err" || fail "the test after a hang did not run: $(cat "$tmp/err")"
[ "$took" -lt 15 ] || fail "two 1 s time limits took $took s"
[ -s "$tmp/out" ] && fail "a hung run printed a log"

# Counts that do not add up are refused (exit 3), not reported as a result.
"$L" run --cc "$tmp/cc-badcount" "$SB" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail "bad counts: exit $rc, want 3"
grep -q "counts do not add up: outcomes sum to 10 but iterations is 11" "$tmp/err" || fail "bad counts message: $(cat "$tmp/err")"
grep -q "^Test SB" "$tmp/out" && fail "a histogram whose counts do not add up was printed"

# A crash is reported with the signal and the runner's last words.
"$L" run --cc "$tmp/cc-crash" "$SB" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail "crash: exit $rc, want 3"
grep -q "SB: the runner was killed by signal 11 (Segmentation fault): runner: something broke" "$tmp/err" || fail "crash message: $(cat "$tmp/err")"

# A runner stopped at the time limit that prints its partial histogram:
# the log is printed, marked, and the state it saw that x86-TSO allows is
# counted; the exit status says the run did not finish (3).
"$L" run --cc "$tmp/cc-slow" --timeout 1 --xml "$tmp/r.xml" "$SB" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail "partial run: exit $rc, want 3"
grep -q "^Histogram (2 states)" "$tmp/out" || fail "partial histogram not printed: $(cat "$tmp/out")"
grep -q "^3     \*>0:EAX=0; 1:EAX=0;" "$tmp/out" || fail "partial histogram lacks the witness line"
grep -q "^Status SB timed out after 1 s: partial histogram" "$tmp/out" || fail "partial run not marked"
grep -q "^Status SB interrupted: partial histogram of 10 iterations" "$tmp/out" || fail "runner's interrupted flag not shown"
grep -q "<error message=\"timed out after 1 s: partial histogram\"" "$tmp/r.xml" || fail "XML report lacks the time-out error"

# SIGINT to litmusc: the running runner is stopped, its partial histogram
# printed, and no further test starts.
"$L" run --cc "$tmp/cc-slow" --timeout 30 "$SB" "$MP" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -eq 3 ] || fail "interrupted run: exit $rc, want 3"
grep -q "^Test SB Allowed" "$tmp/out" || fail "interrupted run printed no log: $(cat "$tmp/err")"
grep -q "^Test MP" "$tmp/out" && fail "a test started after the interrupt"
grep -q "SB: interrupted: partial histogram; stopping" "$tmp/err" || fail "interrupt not reported: $(cat "$tmp/err")"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "run_faulty_runners: ok"
