# herd7's "States" block, one state a line with its fields sorted, so that a
# lifted test's states compare with its C source's as text: a register
# global [P<n>_<r>] is written n:r, and a run where a cut exclusive loop
# failed ([cc_unroll]=1) is left out, as cc-check leaves it out.
# Usage: herd7 FILE | awk -f herd_states.awk | sort -u
/^States / { on = 1; next }
# the block ends at herd's verdict line (Ok, No, Undef with a race, Loop)
on && !/=.*;/ { on = 0 }
on {
  n = split($0, f, ";"); s = ""; skip = 0; k = 0
  for (i = 1; i <= n; i++) {
    g = f[i]; gsub(/^ +| +$/, "", g)
    if (g == "") continue
    if (g ~ /^\[cc_unroll\]=/) { if (g !~ /=0$/) skip = 1; continue }
    if (g ~ /^\[P[0-9]+_/) { t = substr(g, 3); sub(/_/, ":", t); sub(/\]/, "", t); g = t }
    a[++k] = g
  }
  for (i = 1; i <= k; i++)
    for (j = i + 1; j <= k; j++)
      if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
  for (i = 1; i <= k; i++) s = s a[i] ";"
  if (!skip) print s
}
