# Does each X86_64 litmus file given stay within what herd7 7.57 reads and
# runs (doc/x86_64-dialect.md)?  A token-level check drawn from herdtools7
# 7.57's lib/X86_64Lexer.mll (mnemonics, numbers, names),
# lib/X86_64Parser.mly (operand shapes), lib/X86_64Base.ml (registers),
# lib/splitter.mll and lib/stateParser.mly (header, init, condition) and
# herd/X86_64Sem.ml (lock prefixes it runs; ret only with -variant
# telechat; jlt, js, jns, cmovc, setnb, whose flags differ from the
# hardware's there, are refused).  One line `FILE:LINE: why` per problem;
# exit 1 if any.
#   awk -f tests/cc/herd_x86_64.awk FILE...
function bad(why) { printf "%s:%d: %s: %s\n", FILENAME, FNR, why, $0; nbad++ }
function is_reg(s) { return s ~ /^%(r(ax|bx|cx|dx|si|di|bp|sp)|e(ax|bx|cx|dx|si|di|bp|sp)|(ax|bx|cx|dx|si|di|bp|sp)|(al|bl|cl|dl|sil|dil|bpl|spl)|(ah|bh|ch|dh)|r(8|9|1[0-5])[dwb]?)$/ }
function inner(s) { return substr(s, index(s, "(") + 1, length(s) - index(s, "(") - 1) }
function is_scaled(s,   p) { if (s !~ /^(-?[0-9]+)?\(%[a-z0-9]+,%[a-z0-9]+,[0-9]+\)$/) return 0; split(inner(s), p, ","); return is_reg(p[1]) && is_reg(p[2]) }
function is_mem(s) { return s ~ /^(-?[0-9]+)?\(%[a-z0-9]+\)$/ && is_reg(inner(s)) || is_scaled(s) || s ~ /^\([A-Za-z_][A-Za-z0-9_\/.-]*\)$/ || s ~ /^\[[0-9]+\]$/ }
# OPS split at the commas outside parentheses into O; the count.
function split_ops(ops, o,   n, i, c, depth, cur) {
    n = 0; depth = 0; cur = ""
    for (i = 1; i <= length(ops); i++) {
        c = substr(ops, i, 1)
        if (c == "(") depth++
        if (c == ")") depth--
        if (c == "," && depth == 0) { o[++n] = cur; cur = "" } else cur = cur c
    }
    if (ops != "") o[++n] = cur
    return n
}
function is_ea(s) { return is_reg(s) || is_mem(s) }
function is_imm(s) { return s ~ /^\$-?[0-9]+$/ }
function is_label(s) { return s ~ /^_?[A-Za-z][A-Za-z0-9_\/.-]*$/ }
# One instruction: CELL without its label.
function instr(cell,   m, ops, n, o, lock, i) {
    lock = 0
    if (cell ~ /^lock /) { lock = 1; cell = substr(cell, 6) }
    m = cell; ops = ""
    if (index(cell, " ")) { m = substr(cell, 1, index(cell, " ") - 1); ops = substr(cell, index(cell, " ") + 1) }
    gsub(/ /, "", ops)
    n = split_ops(ops, o)
    for (i = 1; i <= n; i++) if (o[i] == "") return "an empty operand"
    if (lock && m !~ /^(xchg|add|xor|inc|dec|cmpxchg)[bwlq]?$/) return "lock on " m " (herd7 runs it on xchg, add, xor, inc, dec, cmpxchg)"
    if (m ~ /^(add|xor|or|mov|cmp)[bwlq]?$/ || m == "and" || m == "shl")
        return n == 2 && (is_ea(o[1]) || is_imm(o[1])) && is_ea(o[2]) && !(is_mem(o[1]) && is_mem(o[2])) ? "" : "operands of " m
    if (m ~ /^(inc|dec)[bwlq]?$/) return n == 1 && is_ea(o[1]) ? "" : "operands of " m
    if (m ~ /^xchg[bwlq]?$/) return n == 2 && is_ea(o[1]) && is_ea(o[2]) ? "" : "operands of " m
    if (m ~ /^cmpxchg[bwlq]?$/) return n == 2 && is_ea(o[1]) && is_reg(o[2]) ? "" : "operands of " m " (memory first)"
    if (m ~ /^(jmp|je|jne|jle|jgt|jge)$/) return n == 1 && is_label(o[1]) ? "" : "operands of " m
    if (m ~ /^(mfence|lfence|sfence|nop)$/) return n == 0 ? "" : "operands of " m
    if (m == "ret") return telechat ? "" : "ret without -variant telechat"
    if (m ~ /^(jlt|js|jns|cmovc[bwlq]?|setnb)$/) return m " (herd7 7.57's flags for it are not the hardware's)"
    return "mnemonic " m " (not in herd7 7.57's X86_64Lexer)"
}
FNR == 1 {
    part = "head"; telechat = 0; nthreads = 0; split("", labels)   # labels are per file
    if ($0 !~ /^X86_64 [A-Za-z0-9_\/.+\[\]-]+$/) bad("first line")
    next
}
part == "head" {
    if ($0 ~ /^"[^"]*"$/ || $0 ~ /^\(\*.*\*\)$/ || $0 ~ /^[A-Za-z][A-Za-z0-9_]*=/) {
        if ($0 ~ /^Variant=.*telechat/ || $0 ~ /-variant telechat/) telechat = 1
        next
    }
    if ($0 == "{") { part = "init"; next }
    bad("header line"); next
}
part == "init" {
    if ($0 == "}") { part = "threads"; next }
    line = $0; sub(/^ +/, "", line)
    if (line !~ /^((u?int(8|16|32|64)_t|int|char|short|long) )?[A-Za-z_][A-Za-z0-9_]*=-?[0-9]+;$/ &&
        line !~ /^((u?int(8|16|32|64)_t) )?[0-9]+:%?[a-z0-9]+=(-?[0-9]+|[A-Za-z_][A-Za-z0-9_]*);$/)
        bad("init item")
    next
}
part == "threads" {
    n = split($0, c, "|")
    if (c[n] !~ /;$/) bad("thread row not ended by ;")
    for (i = 1; i <= n; i++) { cell = c[i]; sub(/;$/, "", cell); gsub(/^ +| +$/, "", cell); if (cell != "P" (i - 1)) bad("thread names") }
    nthreads = n; part = "code"; next
}
part == "code" && $0 ~ /^(locations|exists|~exists|forall|final)/ { part = "cond" }
part == "code" {
    if ($0 !~ / ;$/) { bad("row not ended by ;"); next }
    row = substr($0, 1, length($0) - 2)
    n = split(row, c, "|")
    if (n != nthreads) bad("cells per row")
    for (i = 1; i <= n; i++) {
        cell = c[i]; gsub(/^ +| +$/, "", cell)
        if (match(cell, /^_?[A-Za-z][A-Za-z0-9_\/.-]*:/)) {
            # herd's labels are the whole test's: one definition each
            lab = substr(cell, 1, RLENGTH - 1)
            if (lab in labels) bad("label " lab " defined twice")
            labels[lab] = 1
            cell = substr(cell, RLENGTH + 1); gsub(/^ +/, "", cell)
        }
        if (cell == "") continue
        why = instr(cell)
        if (why != "") bad(why)
    }
    next
}
part == "cond" {
    line = $0
    if (line ~ /^locations \[/) { if (line !~ /^locations \[([A-Za-z_][A-Za-z0-9_]*;)+\]$/) bad("locations"); next }
    if (line !~ /^(exists|~exists|forall) /) { bad("condition"); next }
    sub(/^[~a-z]+ /, "", line)
    gsub(/\/\\|\\\/|=>|[()=~]|not|true|false/, " ", line)
    if (line !~ /^[ A-Za-z0-9_-]*$/) bad("condition tokens")
    part = "end"; next
}
part == "end" && $0 != "" { bad("text after the condition") }
END { exit nbad ? 1 : 0 }
