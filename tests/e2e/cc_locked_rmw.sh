#!/bin/sh
# A locked RMW is whole in the model cc-check runs compiled code under:
# x86tso-rmw forbids an XCHG that reads a store and leaves it last in
# coherence (x86tso, like herd7's, allows it), and cc-check, whose lifted
# XCHG would otherwise show that state, reports no bug for an exchange.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cat >"$tmp/X.litmus" <<'T'
X86 XCHG+W
{ y=0; }
 P0             | P1          ;
 MOV EAX,$2     | MOV [y],$1  ;
 XCHG [y],EAX   |             ;
exists (0:EAX=1 /\ y=1)
T
"$L" model --model x86tso "$tmp/X.litmus" | grep -q '^0:EAX=1; \[y\]=1;$' ||
  { echo "FAIL: x86tso (as herd7 7.57) allows the XCHG to leave y=1"; fail=1; }
out=$("$L" model --model x86tso-rmw "$tmp/X.litmus")
echo "$out" | grep -q '^States 2$' && ! echo "$out" | grep -q '^0:EAX=1; \[y\]=1;$' ||
  { echo "FAIL: x86tso-rmw keeps the XCHG whole"; echo "$out"; fail=1; }
for cc in gcc clang; do
  command -v $cc >/dev/null 2>&1 || { echo "SKIP: no $cc for the cc-check part"; continue; }
  for lv in -O0 -O2; do
    out=$("$L" cc-check --cc $cc --cflags "$lv" "$here/../cc/XCHG+W.litmus" 2>&1)
    rc=$?
    [ $rc = 0 ] && echo "$out" | grep -q "^cc-check XCHG+W $cc $lv: same" ||
      { echo "FAIL: cc-check $cc $lv on XCHG+W (rc $rc)"; echo "$out"; fail=1; }
  done
done
exit $fail
