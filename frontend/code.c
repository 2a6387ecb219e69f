/* Statements of C and Java thread bodies.  The two languages share the
 * statement shapes (declarations, assignments, if/else, blocks) and differ
 * in their operators, precedence and access syntax: C uses pointers and atomic_* builtins, Java VarHandle
 * methods.  Expressions, where that difference lies, are in
 * frontend/code_expr.c; the scope of locals and C's type words, which both
 * need, in frontend/code_scope.c. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/mem.h"

bool code_open(lexer *lx, const section *s, const char *file, diag *d, const char *shape)
{
    lx_init(lx, s->p, s->end, s->line, s->col, LX_C_COMMENTS, file, d);
    if (lx->failed)
        return false;
    if (lx->cur.kind == TK_EOF)
        return lx_error(lx, "expected the program (threads '%s')", shape);
    return true;
}

static fe_stmt *new_stmt(fe_stmt_kind k, int line, int col)
{
    fe_stmt *s = xcalloc(1, sizeof *s);
    s->kind = k;
    s->pos = (fe_pos){line, col};
    return s;
}

static fe_stmt *parse_stmt(lexer *lx, code_scope *sc, int depth);

static fe_stmt *parse_block_body(lexer *lx, code_scope *sc, int depth)
{
    int line = lx->cur.line, col = lx->cur.col;
    if (!lx_expect(lx, "{"))
        return NULL;
    fe_stmt *b = new_stmt(FE_S_BLOCK, line, col);
    while (!lx_is(lx, "}")) {
        if (lx->failed)
            goto fail;
        if (lx->cur.kind == TK_EOF) {
            lx_error_at(lx, line, col, "unbalanced '{': the block is not closed");
            goto fail;
        }
        if (lx_accept(lx, ";"))
            continue;
        fe_stmt *s = parse_stmt(lx, sc, depth + 1);
        if (!s)
            goto fail;
        b->body = xrealloc(b->body, (size_t)(b->nbody + 1) * sizeof *b->body);
        b->body[b->nbody++] = s;
    }
    lx_next(lx);
    if (lx->failed)
        goto fail;
    return b;
fail:
    fe_stmt_free(b);
    return NULL;
}

fe_stmt *code_parse_block(lexer *lx, code_scope *sc)
{
    return parse_block_body(lx, sc, 0);
}

static bool expect_semi(lexer *lx)
{
    return lx_expect(lx, ";");
}

static fe_stmt *parse_decl(lexer *lx, code_scope *sc, int depth)
{
    int line = lx->cur.line, col = lx->cur.col;
    char *ty;
    if (sc->java) {
        if (!lx_is_ident(lx, "int")) {
            lx_error(lx, "expected 'int'");
            return NULL;
        }
        ty = xstrdup("int");
        if (!lx_next(lx)) {
            free(ty);
            return NULL;
        }
    } else {
        ty = code_parse_c_type(lx);
        if (!ty)
            return NULL;
    }
    if (lx->cur.kind != TK_IDENT || (!sc->java && code_is_c_type_word(lx->cur.s, lx->cur.len))) {
        lx_error(lx, "expected a variable name");
        free(ty);
        return NULL;
    }
    fe_stmt *s = new_stmt(FE_S_DECL, line, col);
    s->type = ty;
    s->name = tok_str(&lx->cur);
    if (sc->java && code_is_java_handle(&lx->cur)) {
        lx_error(lx, "Java locals start with a lower-case letter");
        fe_stmt_free(s);
        return NULL;
    }
    if (!lx_next(lx))
        goto fail;
    if (lx_accept(lx, "=")) {
        s->e = code_parse_value_expr(lx, sc, depth);
        if (!s->e)
            goto fail;
    }
    if (lx_is(lx, ","))  {
        lx_error(lx, "declare one variable per statement");
        goto fail;
    }
    if (!expect_semi(lx))
        goto fail;
    /* the name is visible after its initialiser, as in C */
    code_scope_add(sc, s->name, strchr(ty, '*') != NULL);
    return s;
fail:
    fe_stmt_free(s);
    return NULL;
}

/* `synchronized (M) { ... }`: M is a handle (the init binds it to the
 * monitor's location, fe_check sees to that); the body is a block, as Java
 * requires. */
static fe_stmt *parse_sync(lexer *lx, code_scope *sc, int depth)
{
    fe_stmt *s = new_stmt(FE_S_SYNC, lx->cur.line, lx->cur.col);
    if (!lx_next(lx) || !lx_expect(lx, "("))
        goto fail;
    if (lx->cur.kind != TK_IDENT || !code_is_java_handle(&lx->cur)) {
        lx_error(lx, "synchronized takes a handle bound to the monitor in the init (%d:M=m)", sc->th->id);
        goto fail;
    }
    s->name = tok_str(&lx->cur);
    if (!lx_next(lx) || !lx_expect(lx, ")"))
        goto fail;
    if (!lx_is(lx, "{")) {
        lx_error(lx, "expected '{' (the body of synchronized)");
        goto fail;
    }
    s->then_s = parse_block_body(lx, sc, depth + 1);
    if (!s->then_s)
        goto fail;
    return s;
fail:
    fe_stmt_free(s);
    return NULL;
}

static fe_stmt *parse_stmt(lexer *lx, code_scope *sc, int depth);

/* `while (e) s` and `do s while (e);`, which the lowering unrolls (herd
 * unrolls C's while the same way). */
static fe_stmt *parse_loop(lexer *lx, code_scope *sc, int depth)
{
    bool is_do = lx_is_ident(lx, "do");
    fe_stmt *s = new_stmt(is_do ? FE_S_DO : FE_S_WHILE, lx->cur.line, lx->cur.col);
    if (!lx_next(lx))
        goto fail;
    if (is_do) {
        s->then_s = parse_stmt(lx, sc, depth + 1);
        if (!s->then_s)
            goto fail;
        if (!lx_is_ident(lx, "while")) {
            lx_error(lx, "expected 'while' after the body of do");
            goto fail;
        }
        if (!lx_next(lx))
            goto fail;
    }
    if (!lx_expect(lx, "("))
        goto fail;
    s->e = code_parse_value_expr(lx, sc, depth);
    if (!s->e || !lx_expect(lx, ")"))
        goto fail;
    if (is_do) {
        if (!expect_semi(lx))
            goto fail;
    } else {
        s->then_s = parse_stmt(lx, sc, depth + 1);
        if (!s->then_s)
            goto fail;
    }
    if (lx->failed)
        goto fail;
    return s;
fail:
    fe_stmt_free(s);
    return NULL;
}

/* Java `P2.join();`: an identifier, then `.join` (a handle never has a
 * method of that name, so the spelling is unambiguous). */
static bool is_join(const lexer *lx)
{
    if (lx->cur.kind != TK_IDENT)
        return false;
    const char *q = lx->cur.end;
    while (q < lx->end && (*q == ' ' || *q == '\t'))
        q++;
    if (q >= lx->end || *q != '.')
        return false;
    q++;
    while (q < lx->end && (*q == ' ' || *q == '\t'))
        q++;
    return lx->end - q >= 4 && !strncmp(q, "join", 4) &&
           (lx->end - q == 4 || !(isalnum((unsigned char)q[4]) || q[4] == '_'));
}

/* The thread is named as written; the lowering finds it (and refuses a
 * thread that is not in the test, the thread itself, or joins in a cycle). */
static fe_stmt *parse_join(lexer *lx)
{
    fe_stmt *s = new_stmt(FE_S_JOIN, lx->cur.line, lx->cur.col);
    s->name = tok_str(&lx->cur);
    if (!lx_next(lx) || !lx_expect(lx, ".") || !lx_next(lx) || !lx_expect(lx, "(") || !lx_expect(lx, ")") ||
        !expect_semi(lx)) {
        fe_stmt_free(s);
        return NULL;
    }
    return s;
}

static fe_stmt *parse_stmt(lexer *lx, code_scope *sc, int depth)
{
    int line = lx->cur.line, col = lx->cur.col;
    if (!lx_node(lx, depth, CODE_MAX_DEPTH, "statements"))
        return NULL;
    if (lx_is(lx, "{"))
        return parse_block_body(lx, sc, depth);
    if (lx_is_ident(lx, "for")) {
        lx_error_at(lx, line, col, "for loops are not supported: write the loop with while");
        return NULL;
    }
    if (lx_is_ident(lx, "while") || lx_is_ident(lx, "do"))
        return parse_loop(lx, sc, depth);
    if (sc->java && is_join(lx))
        return parse_join(lx);
    if (sc->java && lx_is_ident(lx, "synchronized"))
        return parse_sync(lx, sc, depth);
    if (lx_is_ident(lx, "if")) {
        fe_stmt *s = new_stmt(FE_S_IF, line, col);
        if (!lx_next(lx) || !lx_expect(lx, "("))
            goto fail_if;
        s->e = code_parse_value_expr(lx, sc, depth);
        if (!s->e || !lx_expect(lx, ")"))
            goto fail_if;
        s->then_s = parse_stmt(lx, sc, depth + 1);
        if (!s->then_s)
            goto fail_if;
        if (lx_is_ident(lx, "else")) {
            if (!lx_next(lx))
                goto fail_if;
            s->else_s = parse_stmt(lx, sc, depth + 1);
            if (!s->else_s)
                goto fail_if;
        }
        if (lx->failed)
            goto fail_if;
        return s;
    fail_if:
        fe_stmt_free(s);
        return NULL;
    }
    if (lx->cur.kind == TK_IDENT &&
        (sc->java ? lx_is_ident(lx, "int") : code_is_c_type_word(lx->cur.s, lx->cur.len)))
        return parse_decl(lx, sc, depth);
    if (!sc->java && lx_is(lx, "*")) {
        fe_stmt *s = new_stmt(FE_S_STORE, line, col);
        if (!lx_next(lx))
            goto fail_store;
        tok pt = lx->cur;
        /* the address: a primary, possibly parenthesised or cast */
        s->addr = code_parse_unary(lx, sc, depth + 1);
        if (!s->addr)
            goto fail_store;
        if (!code_want_ptr(lx, sc, s->addr, &pt, "cannot store through ", ", it is not a pointer"))
            goto fail_store;
        if (!lx_expect(lx, "="))
            goto fail_store;
        s->e = code_parse_value_expr(lx, sc, depth);
        if (!s->e || !expect_semi(lx))
            goto fail_store;
        return s;
    fail_store:
        fe_stmt_free(s);
        return NULL;
    }
    if (lx->cur.kind == TK_IDENT) {
        const char *q = lx->cur.end;
        while (q < lx->end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
            q++;
        bool assign = q < lx->end && *q == '=' && !(q + 1 < lx->end && q[1] == '=');
        if (assign) {
            char *name = tok_str(&lx->cur);
            int i = code_scope_find(sc, name);
            if (i < 0) {
                lx_error(lx, "assignment to an undeclared variable");
                free(name);
                return NULL;
            }
            if (!sc->java && sc->is_ptr[i] && sc->th->params) {
                for (int k = 0; k < sc->th->nparams; k++)
                    if (!strcmp(sc->th->params[k].name, name)) {
                        lx_error(lx, "type mismatch: cannot assign to parameter");
                        free(name);
                        return NULL;
                    }
            }
            fe_stmt *s = new_stmt(FE_S_ASSIGN, line, col);
            s->name = name;
            if (!lx_next(lx) || !lx_expect(lx, "=")) {
                fe_stmt_free(s);
                return NULL;
            }
            s->e = code_parse_value_expr(lx, sc, depth);
            if (!s->e || !expect_semi(lx)) {
                fe_stmt_free(s);
                return NULL;
            }
            return s;
        }
        bool callish = q < lx->end && (*q == '(' || (sc->java && *q == '.'));
        if (callish) {
            fe_stmt *s = new_stmt(FE_S_EXPR, line, col);
            s->e = code_parse_expr(lx, sc, depth);
            if (!s->e) {
                fe_stmt_free(s);
                return NULL;
            }
            if (s->e->kind != FE_E_CCALL && s->e->kind != FE_E_JCALL) {
                lx_error_at(lx, line, col, "expected a statement");
                fe_stmt_free(s);
                return NULL;
            }
            if (!expect_semi(lx)) {
                fe_stmt_free(s);
                return NULL;
            }
            return s;
        }
    }
    lx_error(lx, "expected a statement");
    return NULL;
}
