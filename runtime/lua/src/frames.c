/* cleave.frames "swing": an attack kept as data in the mod's frames/swing.lua.
 *
 * The file is data only, so a designer's tool (cleave bake, the demo's editor, the Aseprite
 * import) can write it and a reviewer can read it without reading code: it is checked token by
 * token before it is compiled (one `return` of a table; no function call, definition, method,
 * local or loop can be written), loaded as text only, and run in an empty environment whose
 * every name is an error, so it can neither call a function nor read one. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Names a file of frames/ may have: a word of letters, digits, '_', '-' and '.', that does not
 * start with '.' and holds no "..", so that it names a file in that folder and nothing else. */
static const char *name_refusal(const char *name, size_t len) {
    if (len == 0 || len >= CLV_HIT_NAME_MAX) {
        return "must be 1 to 31 bytes long";
    }
    if (name[0] == '.' || strstr(name, "..") != NULL) {
        return "must not start with '.' or hold '..'";
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)name[i];
        if (!isalnum(ch) && ch != '_' && ch != '-' && ch != '.') {
            return "may hold only letters, digits, '_', '-' and '.' (no '/')";
        }
    }
    return NULL;
}

/* ---- the token check ---- */

/* Keywords a value can be written with; every other one makes code. */
static bool data_keyword(const char *w, size_t n) {
    static const char *const ok[] = {"return", "true", "false", "nil", "and", "or", "not", NULL};
    for (const char *const *k = ok; *k; k++) {
        if (strlen(*k) == n && memcmp(*k, w, n) == 0) {
            return true;
        }
    }
    static const char *const code[] = {"function", "local", "for",  "while", "repeat", "until",
                                       "goto",     "if",    "then", "else",  "elseif", "do",
                                       "end",      "break", "in",   NULL};
    for (const char *const *k = code; *k; k++) {
        if (strlen(*k) == n && memcmp(*k, w, n) == 0) {
            return false;
        }
    }
    return true; /* a field name */
}

/* Length of the long bracket opening at s ("[[", "[==["), or 0. *level gets its '=' count. */
static size_t long_open(const char *s, const char *end, size_t *level) {
    const char *p = s + 1;
    while (p < end && *p == '=') {
        p++;
    }
    if (s[0] != '[' || p >= end || *p != '[') {
        return 0;
    }
    *level = (size_t)(p - s - 1);
    return (size_t)(p - s + 1);
}

/* Skips a long string or comment opened at s; returns its end or NULL when unterminated. */
static const char *long_skip(const char *s, const char *end, size_t level, int *line) {
    for (const char *p = s; p < end; p++) {
        if (*p == '\n') {
            (*line)++;
        } else if (*p == ']' && (size_t)(end - p) > level + 1 && p[level + 1] == ']') {
            size_t k = 1;
            while (k <= level && p[k] == '=') {
                k++;
            }
            if (k == level + 1) {
                return p + level + 2;
            }
        }
    }
    return NULL;
}

/* Skips a quoted string opened at s (its quote); returns its end or NULL when unterminated. */
static const char *quoted_skip(const char *s, const char *end, int *line) {
    for (const char *p = s + 1; p < end; p++) {
        if (*p == '\\' && p + 1 < end) {
            *line += p[1] == '\n';
            p++;
        } else if (*p == s[0]) {
            return p + 1;
        } else if (*p == '\n') {
            return NULL;
        }
    }
    return NULL;
}

typedef struct scan {
    const char *p, *end;
    int line;
    int return_line; /* where `return` is, 0 before it */
} scan;

/* Skips a comment, string or word at s->p; false with *why set when it is code. */
static bool scan_token(scan *s, const char **why) {
    const char *p = s->p;
    size_t level, open;
    if (p[0] == '-' && p + 1 < s->end && p[1] == '-') {
        open = long_open(p + 2, s->end, &level);
        if (open > 0) {
            s->p = long_skip(p + 2 + open, s->end, level, &s->line);
        } else {
            s->p = memchr(p, '\n', (size_t)(s->end - p));
            s->p = s->p != NULL ? s->p : s->end;
        }
    } else if (*p == '"' || *p == '\'') {
        s->p = quoted_skip(p, s->end, &s->line);
    } else if ((open = long_open(p, s->end, &level)) > 0) {
        s->p = long_skip(p + open, s->end, level, &s->line);
    } else if (isalpha((unsigned char)*p) || *p == '_') {
        while (p < s->end && (isalnum((unsigned char)*p) || *p == '_')) {
            p++;
        }
        if (!data_keyword(s->p, (size_t)(p - s->p))) {
            *why = "holds code: a frames file is one `return` of a table of values";
            return false;
        }
        if (s->return_line == 0 && (size_t)(p - s->p) == 6 && memcmp(s->p, "return", 6) == 0) {
            s->return_line = s->line;
        }
        s->p = p;
    } else if (*p == '(' || *p == ':') {
        *why = "holds a call or method: a frames file holds values only";
        return false;
    } else {
        s->line += *p == '\n';
        s->p = p + 1;
    }
    if (s->p == NULL) {
        *why = "has a string or comment that is not closed";
        return false;
    }
    return true;
}

/* Checks the text is data; false with "file:line: why" pushed when it is not. */
static bool check_data(lua_State *L, const char *path, const char *text, size_t len, int *ret) {
    scan s = {text, text + len, 1, 0};
    const char *why = NULL;
    if (len > 0 && text[0] == LUA_SIGNATURE[0]) {
        lua_pushfstring(L, "%s: is a compiled chunk: a frames file is text", path);
        return false;
    }
    while (s.p < s.end) {
        int line = s.line;
        if (!scan_token(&s, &why)) {
            lua_pushfstring(L, "%s:%d: %s", path, line, why);
            return false;
        }
    }
    *ret = s.return_line;
    if (s.return_line == 0) {
        lua_pushfstring(L, "%s:%d: must return a table of frames", path, s.line);
        return false;
    }
    return true;
}

/* ---- reading the file ---- */

/* Largest frames file: a few thousand hitbox lines, far more than an attack has. */
#define FRAMES_MAX_BYTES (1u << 20)

/* Reads the regular file path into a Lua string pushed on the stack, without following a link
 * and without waiting on a FIFO; false with the reason pushed otherwise. */
static bool read_text(lua_State *L, const char *path) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    struct stat sb;
    const char *why = NULL;
    if (fd < 0) {
        why = errno == ELOOP ? "is a symbolic link" : strerror(errno);
    } else if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        why = "is not a regular file";
    } else if ((size_t)sb.st_size > FRAMES_MAX_BYTES) {
        why = "is larger than 1 MiB";
    }
    luaL_Buffer b;
    if (why == NULL) {
        char *dst = luaL_buffinitsize(L, &b, (size_t)sb.st_size + 1);
        ssize_t got = read(fd, dst, (size_t)sb.st_size + 1);
        if (got < 0 || (size_t)got > (size_t)sb.st_size) {
            why = got < 0 ? strerror(errno) : "changed while it was read";
            lua_pop(L, 1); /* the buffer's box */
        } else {
            luaL_pushresultsize(&b, (size_t)got);
        }
    }
    if (fd >= 0) {
        close(fd);
    }
    if (why != NULL) {
        lua_pushfstring(L, "cannot read %s: it %s", path, why);
        return false;
    }
    return true;
}

/* __index and __newindex of the empty environment: every name is a mistake in a data file. */
static int no_names(lua_State *L) {
    return luaL_error(L,
                      "'%s' is not a value: a frames file holds numbers, strings, booleans "
                      "and tables only",
                      luaL_optstring(L, 2, "?"));
}

/* Tags the table on top with where it came from, so a bad field in it names the frames file
 * (constructors in a data file carry no line of their own: the line of `return` stands in). */
static void tag_where(lua_State *L, const char *path, int line) {
    clv_lua_table_tag(L, -1, CLV_LUA_TAG_WHERE); /* makes the weak table when missing */
    lua_getfield(L, LUA_REGISTRYINDEX, CLV_LUA_TAG_WHERE);
    lua_pushvalue(L, -2);
    lua_pushfstring(L, "%s:%d", path, line);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/// cleave.frames(name) -> the attack table frames/<name>.lua of the mod being loaded returns
static int l_frames(lua_State *L) {
    size_t len;
    const char *name = luaL_checklstring(L, 1, &len);
    clv_lua_check_nargs(L, 1);
    const char *why = name_refusal(name, len);
    if (why != NULL) {
        return luaL_argerror(L, 1, lua_pushfstring(L, "a frames file name %s", why));
    }
    if (lua_getfield(L, LUA_REGISTRYINDEX, CLV_LUA_MOD_DIR) != LUA_TSTRING) {
        return luaL_error(L, "cleave.frames reads the frames/ folder of a mod, and is called "
                             "only while the mod host loads one");
    }
    const char *path = lua_pushfstring(L, "%s/frames/%s.lua", lua_tostring(L, -1), name);
    int ret = 0;
    if (!read_text(L, path)) {
        return lua_error(L);
    }
    size_t n;
    const char *text = lua_tolstring(L, -1, &n);
    lua_pushfstring(L, "@%s", path);
    if (!check_data(L, path, text, n, &ret) ||
        luaL_loadbufferx(L, text, n, lua_tostring(L, -1), "t") != LUA_OK) {
        return lua_error(L);
    }
    lua_newtable(L); /* the environment: empty, and every name an error */
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, no_names);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, no_names);
    lua_setfield(L, -2, "__newindex");
    lua_setmetatable(L, -2);
    lua_setupvalue(L, -2, 1);
    lua_call(L, 0, 1);
    if (!lua_istable(L, -1)) {
        return luaL_error(L, "%s:%d: must return a table (got %s)", path, ret,
                          luaL_typename(L, -1));
    }
    tag_where(L, path, ret);
    return 1;
}

/* Records the folder (without trailing '/') in the registry, in protected mode: the sandbox's
 * allocator may refuse. */
static int set_dir(lua_State *L) {
    const char *dir = (const char *)lua_touserdata(L, 1);
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') {
        n--;
    }
    lua_pushlstring(L, dir, n);
    lua_setfield(L, LUA_REGISTRYINDEX, CLV_LUA_MOD_DIR);
    return 0;
}

bool clv_lua_frames_set_dir(lua_State *L, const char *dir) {
    lua_pushcfunction(L, set_dir);
    lua_pushlightuserdata(L, (void *)(uintptr_t)dir);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return false;
    }
    return true;
}

const luaL_Reg clv_lua_frames_funcs[] = {{"frames", l_frames}, {NULL, NULL}};
