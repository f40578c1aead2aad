/* string.find, match, gmatch and gsub for the sandbox, with Lua 5.4's pattern language and a
 * matcher that can be stopped.
 *
 * Stock Lua matches patterns in C, where the count hook never fires: a backtracking pattern
 * such as ("a-"):rep(4).."b" against 200 'a's runs for many seconds. This matcher is written
 * afresh for the sandbox: a backtracking matcher over the same syntax that counts its work
 * ("steps") and looks at the sandbox's deadline every STEP_CHECK steps, raising the same
 * timeout error as the hook. Its recursion depth is bounded as well, and patterns are capped
 * in length. Semantics follow the Lua 5.4 manual (§6.4.1); the specs compare it with stock Lua.
 */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include <lauxlib.h>

#include "sandbox_internal.h"

#define MAX_CAPTURES 32
#define MAX_DEPTH 200     /* nested matcher calls, as Lua's C-call limit */
#define MAX_PATTERN 65536 /* bytes */
#define STEP_CHECK 1024   /* steps between two looks at the clock */
#define CAP_OPEN (-1)     /* capture started, not closed */
#define CAP_POSITION (-2) /* a () capture */
#define ESC '%'
#define SPECIALS "^$*+?.([%-"

typedef struct matcher {
    const char *subject; /* the whole subject */
    const char *subject_end;
    const char *pattern_end;
    lua_State *L;
    size_t steps;
    size_t next_check;
    int depth;
    int level; /* captures in use */
    struct {
        const char *start;
        ptrdiff_t len;
    } cap[MAX_CAPTURES];
} matcher;

static void matcher_init(matcher *m, lua_State *L, const char *s, size_t ls, const char *p,
                         size_t lp) {
    m->L = L;
    m->subject = s;
    m->subject_end = s + ls;
    m->pattern_end = p + lp;
    m->steps = 0;
    m->next_check = STEP_CHECK;
    m->depth = 0;
    m->level = 0;
}

/* Adds `cost` to the work done and stops at the deadline. */
static void spend(matcher *m, size_t cost) {
    m->steps += cost;
    if (m->steps >= m->next_check) {
        m->next_check = m->steps + STEP_CHECK;
        clv_sandbox_check_deadline(m->L);
    }
}

static const char *checked_pattern(lua_State *L, int arg, size_t *len) {
    const char *p = luaL_checklstring(L, arg, len);
    if (*len > MAX_PATTERN) {
        luaL_error(L, "pattern too long (%d bytes at most in mods)", MAX_PATTERN);
    }
    return p;
}

/* Start of a subject position from a possibly negative Lua index (1-based result). */
static size_t start_index(lua_Integer pos, size_t len) {
    if (pos > 0) {
        return (size_t)pos;
    }
    if (pos == 0) {
        return 1;
    }
    if (pos < -(lua_Integer)len) {
        return 1;
    }
    return len + (size_t)pos + 1;
}

/* ---- Character classes ---- */

/* Does c belong to class letter cl (%a, %d, ... or their upper-case complements)? */
static bool in_class(int c, int cl) {
    bool r;
    switch (tolower(cl)) {
    case 'a':
        r = isalpha(c);
        break;
    case 'c':
        r = iscntrl(c);
        break;
    case 'd':
        r = isdigit(c);
        break;
    case 'g':
        r = isgraph(c);
        break;
    case 'l':
        r = islower(c);
        break;
    case 'p':
        r = ispunct(c);
        break;
    case 's':
        r = isspace(c);
        break;
    case 'u':
        r = isupper(c);
        break;
    case 'w':
        r = isalnum(c);
        break;
    case 'x':
        r = isxdigit(c);
        break;
    case 'z':
        r = c == 0;
        break; /* deprecated in the manual, still accepted by 5.4 */
    default:
        return cl == c; /* an escaped literal such as %% or %. */
    }
    return isupper(cl) ? !r : r;
}

/* Pointer just past the single-character item starting at p ('.', 'x', '%x', '[set]'). */
static const char *item_end(matcher *m, const char *p) {
    char c = *p++;
    if (c == ESC) {
        if (p >= m->pattern_end) {
            luaL_error(m->L, "malformed pattern (ends with '%%')");
        }
        return p + 1;
    }
    if (c == '[') {
        if (p < m->pattern_end && *p == '^') {
            p++;
        }
        do { /* the first character of a set may be a literal ']' */
            if (p >= m->pattern_end) {
                luaL_error(m->L, "malformed pattern (missing ']')");
            }
            c = *p++;
            if (c == ESC) {
                if (p >= m->pattern_end) {
                    luaL_error(m->L, "malformed pattern (missing ']')");
                }
                p++;
            }
        } while (p >= m->pattern_end || *p != ']');
        return p + 1;
    }
    return p;
}

/* c against the set [ ... ] spanning p (at '[') to last (at ']'). */
static bool in_set(matcher *m, int c, const char *p, const char *last) {
    bool want = true;
    p++;
    if (*p == '^') {
        want = false;
        p++;
    }
    spend(m, (size_t)(last - p) / 16);
    while (p < last) {
        if (*p == ESC) {
            p++;
            if (in_class(c, (unsigned char)*p)) {
                return want;
            }
            p++;
        } else if (p + 2 < last && p[1] == '-') {
            if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) {
                return want;
            }
            p += 3;
        } else {
            if ((unsigned char)*p == c) {
                return want;
            }
            p++;
        }
    }
    return !want;
}

/* Does the subject character at s match the item p..ep? */
static bool item_matches(matcher *m, const char *s, const char *p, const char *ep) {
    if (s >= m->subject_end) {
        return false;
    }
    int c = (unsigned char)*s;
    switch (*p) {
    case '.':
        return true;
    case ESC:
        return in_class(c, (unsigned char)p[1]);
    case '[':
        return in_set(m, c, p, ep - 1);
    default:
        return (unsigned char)*p == c;
    }
}

/* ---- The matcher ---- */

static const char *match_here(matcher *m, const char *s, const char *p);

static const char *match_balance(matcher *m, const char *s, const char *p) {
    if (p + 1 >= m->pattern_end) {
        luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
    }
    if (s >= m->subject_end || *s != p[0]) {
        return NULL;
    }
    int open = p[0], close = p[1], depth = 1;
    for (const char *q = s + 1; q < m->subject_end; q++) {
        if ((q - s) % 64 == 0) {
            spend(m, 4);
        }
        if (*q == close) {
            if (--depth == 0) {
                return q + 1;
            }
        } else if (*q == open) {
            depth++;
        }
    }
    return NULL;
}

/* Greedy repetition: take as many as possible, then give back one at a time. */
static const char *match_greedy(matcher *m, const char *s, const char *p, const char *ep) {
    ptrdiff_t n = 0;
    while (item_matches(m, s + n, p, ep)) {
        n++;
        spend(m, 1);
    }
    for (; n >= 0; n--) {
        const char *r = match_here(m, s + n, ep + 1);
        if (r != NULL) {
            return r;
        }
    }
    return NULL;
}

/* Lazy repetition: try the rest first, then take one more. */
static const char *match_lazy(matcher *m, const char *s, const char *p, const char *ep) {
    for (;;) {
        const char *r = match_here(m, s, ep + 1);
        if (r != NULL) {
            return r;
        }
        if (!item_matches(m, s, p, ep)) {
            return NULL;
        }
        s++;
    }
}

static const char *open_capture(matcher *m, const char *s, const char *p, ptrdiff_t what) {
    if (m->level >= MAX_CAPTURES) {
        luaL_error(m->L, "too many captures");
    }
    m->cap[m->level].start = s;
    m->cap[m->level].len = what;
    m->level++;
    const char *r = match_here(m, s, p);
    if (r == NULL) {
        m->level--;
    }
    return r;
}

static const char *close_capture(matcher *m, const char *s, const char *p) {
    int l = m->level - 1;
    while (l >= 0 && m->cap[l].len != CAP_OPEN) {
        l--;
    }
    if (l < 0) {
        luaL_error(m->L, "invalid pattern capture");
    }
    m->cap[l].len = s - m->cap[l].start;
    const char *r = match_here(m, s, p);
    if (r == NULL) {
        m->cap[l].len = CAP_OPEN;
    }
    return r;
}

static int capture_index(matcher *m, int digit) {
    int l = digit - '1';
    if (l < 0 || l >= m->level || m->cap[l].len == CAP_OPEN) {
        luaL_error(m->L, "invalid capture index %%%d", l + 1);
    }
    return l;
}

static const char *match_backref(matcher *m, const char *s, int digit) {
    int l = capture_index(m, digit);
    size_t len = (size_t)m->cap[l].len;
    spend(m, len / 16);
    if ((size_t)(m->subject_end - s) >= len && memcmp(m->cap[l].start, s, len) == 0) {
        return s + len;
    }
    return NULL;
}

/* Matches pattern p at subject position s; the end of the match, or NULL. Items that need no
 * backtracking are consumed in the loop; repetitions and captures recurse. */
static const char *match_here(matcher *m, const char *s, const char *p) {
    if (++m->depth > MAX_DEPTH) {
        luaL_error(m->L, "pattern too complex");
    }
    const char *r = NULL;
    for (;;) {
        spend(m, 1);
        if (p == m->pattern_end) {
            r = s;
            break;
        }
        if (*p == '(') {
            r = p + 1 < m->pattern_end && p[1] == ')' ? open_capture(m, s, p + 2, CAP_POSITION)
                                                      : open_capture(m, s, p + 1, CAP_OPEN);
            break;
        }
        if (*p == ')') {
            r = close_capture(m, s, p + 1);
            break;
        }
        if (*p == '$' && p + 1 == m->pattern_end) {
            r = s == m->subject_end ? s : NULL;
            break;
        }
        if (*p == ESC && p + 1 < m->pattern_end && p[1] == 'b') {
            s = match_balance(m, s, p + 2);
            if (s == NULL) {
                break;
            }
            p += 4;
            continue;
        }
        if (*p == ESC && p + 1 < m->pattern_end && p[1] == 'f') {
            p += 2;
            if (p >= m->pattern_end || *p != '[') {
                luaL_error(m->L, "missing '[' after '%%f' in pattern");
            }
            const char *ep = item_end(m, p);
            int prev = s == m->subject ? 0 : (unsigned char)s[-1];
            int cur = s < m->subject_end ? (unsigned char)*s : 0;
            if (in_set(m, prev, p, ep - 1) || !in_set(m, cur, p, ep - 1)) {
                break;
            }
            p = ep;
            continue;
        }
        if (*p == ESC && p + 1 < m->pattern_end && isdigit((unsigned char)p[1])) {
            s = match_backref(m, s, (unsigned char)p[1]);
            if (s == NULL) {
                break;
            }
            p += 2;
            continue;
        }
        const char *ep = item_end(m, p);
        char q = ep < m->pattern_end ? *ep : '\0';
        if (q == '?') {
            if (item_matches(m, s, p, ep)) {
                r = match_here(m, s + 1, ep + 1);
                if (r != NULL) {
                    break;
                }
            }
            p = ep + 1;
            continue;
        }
        if (q == '+') {
            r = item_matches(m, s, p, ep) ? match_greedy(m, s + 1, p, ep) : NULL;
            break;
        }
        if (q == '*') {
            r = match_greedy(m, s, p, ep);
            break;
        }
        if (q == '-') {
            r = match_lazy(m, s, p, ep);
            break;
        }
        if (!item_matches(m, s, p, ep)) {
            break;
        }
        s++;
        p = ep;
    }
    m->depth--;
    return r;
}

/* ---- Captures to Lua values ---- */

static void push_capture(matcher *m, int i, const char *s, const char *e) {
    if (i >= m->level) {
        if (i != 0) {
            luaL_error(m->L, "invalid capture index %%%d", i + 1);
        }
        lua_pushlstring(m->L, s, (size_t)(e - s)); /* no captures: the whole match */
        return;
    }
    ptrdiff_t len = m->cap[i].len;
    if (len == CAP_OPEN) {
        luaL_error(m->L, "unfinished capture");
    }
    if (len == CAP_POSITION) {
        lua_pushinteger(m->L, (lua_Integer)(m->cap[i].start - m->subject) + 1);
    } else {
        lua_pushlstring(m->L, m->cap[i].start, (size_t)len);
    }
}

/* Pushes the captures (or the whole match when there are none and s is given). */
static int push_captures(matcher *m, const char *s, const char *e) {
    int n = (m->level == 0 && s != NULL) ? 1 : m->level;
    luaL_checkstack(m->L, n, "too many captures");
    for (int i = 0; i < n; i++) {
        push_capture(m, i, s, e);
    }
    return n;
}

static bool has_specials(const char *p, size_t lp) {
    for (size_t i = 0; i < lp; i++) {
        if (strchr(SPECIALS, p[i]) != NULL && p[i] != '\0') {
            return true;
        }
    }
    return false;
}

/* Plain substring search, checking the deadline as it goes. */
static const char *find_plain(matcher *m, const char *s, size_t ls, const char *p, size_t lp) {
    if (lp == 0) {
        return s;
    }
    if (lp > ls) {
        return NULL;
    }
    const char *last = s + (ls - lp);
    for (const char *q = s; q <= last; q++) {
        spend(m, 1 + lp / 64);
        if (*q == *p && memcmp(q, p, lp) == 0) {
            return q;
        }
    }
    return NULL;
}

static int find_or_match(lua_State *L, bool find) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = checked_pattern(L, 2, &lp);
    size_t init = start_index(luaL_optinteger(L, 3, 1), ls);
    if (init > ls + 1) {
        luaL_pushfail(L);
        return 1;
    }
    matcher m;
    matcher_init(&m, L, s, ls, p, lp);
    if (find && (lua_toboolean(L, 4) || !has_specials(p, lp))) {
        const char *at = find_plain(&m, s + init - 1, ls - init + 1, p, lp);
        if (at != NULL) {
            lua_pushinteger(L, (lua_Integer)(at - s) + 1);
            lua_pushinteger(L, (lua_Integer)(at - s) + (lua_Integer)lp);
            return 2;
        }
        luaL_pushfail(L);
        return 1;
    }
    bool anchored = lp > 0 && *p == '^';
    if (anchored) {
        p++;
    }
    const char *start = s + init - 1;
    do {
        m.level = 0;
        m.depth = 0;
        const char *e = match_here(&m, start, p);
        if (e != NULL) {
            if (find) {
                lua_pushinteger(L, (lua_Integer)(start - s) + 1);
                lua_pushinteger(L, (lua_Integer)(e - s));
                return push_captures(&m, NULL, NULL) + 2;
            }
            return push_captures(&m, start, e);
        }
    } while (start++ < m.subject_end && !anchored);
    luaL_pushfail(L);
    return 1;
}

static int guarded_find(lua_State *L) { return find_or_match(L, true); }

static int guarded_match(lua_State *L) { return find_or_match(L, false); }

/* gmatch keeps its position in a userdata; the subject and pattern stay alive as upvalues. */
typedef struct gmatch_state {
    const char *next;     /* where to look next; NULL once the subject is used up */
    const char *last_end; /* end of the previous match, to skip an empty match there */
} gmatch_state;

static int gmatch_step(lua_State *L) {
    size_t ls, lp;
    const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
    const char *p = lua_tolstring(L, lua_upvalueindex(2), &lp);
    gmatch_state *g = lua_touserdata(L, lua_upvalueindex(3));
    matcher m;
    matcher_init(&m, L, s, ls, p, lp);
    if (g->next == NULL) {
        return 0;
    }
    for (const char *src = g->next; src <= m.subject_end; src++) {
        m.level = 0;
        m.depth = 0;
        const char *e = match_here(&m, src, p);
        if (e != NULL && e != g->last_end) {
            g->next = g->last_end = e;
            return push_captures(&m, src, e);
        }
    }
    g->next = NULL;
    return 0;
}

static int guarded_gmatch(lua_State *L) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    checked_pattern(L, 2, &lp);
    size_t init = start_index(luaL_optinteger(L, 3, 1), ls);
    lua_settop(L, 2);
    gmatch_state *g = lua_newuserdatauv(L, sizeof *g, 0);
    /* a start past the end matches nothing, not even the empty string there */
    g->next = init > ls + 1 ? NULL : s + init - 1;
    g->last_end = NULL;
    lua_pushcclosure(L, gmatch_step, 3);
    return 1;
}

/* Appends the replacement string (with %0..%9 and %%) for the match s..e. */
static void add_template(matcher *m, luaL_Buffer *b, const char *s, const char *e) {
    size_t l;
    const char *t = lua_tolstring(m->L, 3, &l);
    const char *end = t + l;
    while (t < end) {
        const char *pct = memchr(t, ESC, (size_t)(end - t));
        if (pct == NULL) {
            luaL_addlstring(b, t, (size_t)(end - t));
            break;
        }
        luaL_addlstring(b, t, (size_t)(pct - t));
        t = pct + 1;
        if (t >= end) {
            luaL_error(m->L, "invalid use of '%c' in replacement string", ESC);
        }
        if (*t == ESC) {
            luaL_addchar(b, ESC);
        } else if (*t == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (isdigit((unsigned char)*t)) {
            push_capture(m, *t - '1', s, e);
            luaL_tolstring(m->L, -1, NULL); /* a position capture is a number */
            lua_remove(m->L, -2);
            luaL_addvalue(b);
        } else {
            luaL_error(m->L, "invalid use of '%c' in replacement string", ESC);
        }
        t++;
    }
}

/* Appends the replacement for the match s..e; true when the match was replaced. */
static bool add_replacement(matcher *m, luaL_Buffer *b, const char *s, const char *e, int kind) {
    lua_State *L = m->L;
    if (kind == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int n = push_captures(m, s, e);
        lua_call(L, n, 1);
    } else if (kind == LUA_TTABLE) {
        push_capture(m, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_template(m, b, s, e);
        return true;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s)); /* nil or false: keep the original */
        return false;
    }
    if (!lua_isstring(L, -1)) {
        return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    }
    luaL_addvalue(b);
    return true;
}

static int guarded_gsub(lua_State *L) {
    size_t ls, lp;
    const char *src = luaL_checklstring(L, 1, &ls);
    const char *p = checked_pattern(L, 2, &lp);
    int kind = lua_type(L, 3);
    lua_Integer max_n = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
    luaL_argexpected(L,
                     kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION ||
                         kind == LUA_TTABLE,
                     3, "string/function/table");
    bool anchored = lp > 0 && *p == '^';
    if (anchored) {
        p++;
        lp--;
    }
    matcher m;
    matcher_init(&m, L, src, ls, p, lp);
    const char *last_end = NULL;
    lua_Integer n = 0;
    bool changed = false;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    while (n < max_n) {
        m.level = 0;
        m.depth = 0;
        const char *e = match_here(&m, src, p);
        if (e != NULL && e != last_end) {
            n++;
            changed = add_replacement(&m, &b, src, e, kind) || changed;
            src = last_end = e;
        } else if (src < m.subject_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchored) {
            break;
        }
    }
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, src, (size_t)(m.subject_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

void clv_sandbox_open_patterns(lua_State *L) {
    static const luaL_Reg funcs[] = {{"find", guarded_find},
                                     {"match", guarded_match},
                                     {"gmatch", guarded_gmatch},
                                     {"gsub", guarded_gsub},
                                     {NULL, NULL}};
    luaL_setfuncs(L, funcs, 0);
}
