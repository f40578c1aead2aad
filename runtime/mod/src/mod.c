/* Mods: mods/<name>/mod.lua run in a sandbox of its own (one lua_State per mod), its table
 * validated and its weapons compiled. The C API of cleave/mod.h and cleave.load_mod share this
 * code; a mod's callbacks always run in the mod's own state. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mod_internal.h"
#include "sandbox.h"

static void errf(char *err, size_t errlen, const char *fmt, const char *a, const char *b,
                 const char *c) {
    if (err != NULL && errlen > 0) {
        snprintf(err, errlen, fmt, a, b, c);
    }
}

static char *dup_str(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = (char *)malloc(n);
    if (p != NULL) {
        memcpy(p, s, n);
    }
    return p;
}

static void *mod_alloc(clv_mod *mod, size_t n) { return clv_lalloc_resize(&mod->la, NULL, 0, n); }

static void mod_release(clv_mod *mod, void *p, size_t n) {
    if (p != NULL) {
        clv_lalloc_resize(&mod->la, p, n, 0);
    }
}

static char *mod_dup(clv_mod *mod, const char *s) {
    size_t n = strlen(s) + 1;
    char *p = (char *)mod_alloc(mod, n);
    if (p != NULL) {
        memcpy(p, s, n);
    }
    return p;
}

/* A weapon's name with the weapon it names, sorted by name and then by weapon. */
typedef struct named {
    const char *name;
    clv_lweapon *w;
    int32_t index;
} named;

static int cmp_named(const void *a, const void *b) {
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

static int cmp_weapon(const void *a, const void *b) {
    const named *x = (const named *)a, *y = (const named *)b;
    if (x->w != y->w) {
        return (uintptr_t)x->w < (uintptr_t)y->w ? -1 : 1;
    }
    return x->index < y->index ? -1 : (x->index > y->index);
}

/* Raises "<file>: <what> "<escaped s>" <why>" when the string at idx is not a usable name: not
 * empty, at most max bytes, printable UTF-8 without control bytes. */
static void check_name(lua_State *S, int idx, const char *file, const char *what, size_t max) {
    size_t len;
    const char *s = lua_tolstring(S, idx, &len);
    char why[96], shown[CLV_HIT_NAME_MAX * 4 + 8];
    clv_mod_escape(s, shown, sizeof shown);
    if (len == 0) {
        luaL_error(S, "%s: %s must not be empty", file, what);
    }
    if (!clv_lua_name_ok(s, len, why, sizeof why)) {
        char full[CLV_HIT_NAME_MAX * 4 + 8];
        /* escaping stops at a NUL: show the bytes after it too */
        size_t o = 0;
        for (size_t i = 0; i < len && i < CLV_HIT_NAME_MAX && o + 5 < sizeof full; i++) {
            unsigned char c = (unsigned char)s[i];
            o += (size_t)snprintf(full + o, sizeof full - o, c < 0x20 || c >= 0x7f ? "\\%u" : "%c",
                                  c);
        }
        luaL_error(S, "%s: %s \"%s\" %s", file, what, full, why);
    }
    if (len > max) {
        luaL_error(S, "%s: %s \"%s\" is %d bytes long (at most %d)", file, what, shown, (int)len,
                   (int)max);
    }
}

/* Longest mod name or version, in bytes. */
#define MOD_TEXT_MAX 63

static const char *const mod_fields[] = {"name",    "version",     "weapons",  "bodies",
                                         "effects", "description", "selftest", NULL};

/* Raises "<file>: not enough memory" for a failed host allocation; the mod owns what was
 * already made, so nothing leaks when the error unwinds. */
static void *check_alloc(lua_State *S, void *p, const char *file) {
    if (p == NULL) {
        luaL_error(S, "%s: not enough memory", file);
    }
    return p;
}

/* Fills the mod's weapon list from the n validated entries of the weapons table at wt: names in
 * order, each with its weapon, and for a weapon listed under several names the index of its first
 * name, so that the host copies each weapon once. The pairs are gathered in one pass (a name is
 * never looked up again) in a scratch userdata of the sandbox. */
static void read_weapons(lua_State *S, clv_mod *mod, int wt, int32_t n, const char *file) {
    named *list = (named *)lua_newuserdatauv(S, (size_t)n * sizeof(named), 0);
    int32_t k = 0;
    lua_pushnil(S);
    while (lua_next(S, wt)) {
        list[k].name = lua_tostring(S, -2); /* anchored by the weapons table */
        list[k].w = (clv_lweapon *)lua_touserdata(S, -1);
        k++;
        lua_pop(S, 1);
    }
    qsort(list, (size_t)n, sizeof *list, cmp_named); /* a stable order: by name */
    mod->weapon_names = (char **)check_alloc(S, mod_alloc(mod, (size_t)n * sizeof(char *)), file);
    memset(mod->weapon_names, 0, (size_t)n * sizeof(char *));
    mod->weapon_count = n; /* the size clv_mod_free gives back, from here on */
    mod->weapons =
        (clv_lweapon **)check_alloc(S, mod_alloc(mod, (size_t)n * sizeof(clv_lweapon *)), file);
    mod->first = (int32_t *)check_alloc(S, mod_alloc(mod, (size_t)n * sizeof(int32_t)), file);
    for (int32_t i = 0; i < n; i++) {
        mod->weapon_names[i] = (char *)check_alloc(S, mod_dup(mod, list[i].name), file);
        mod->weapons[i] = list[i].w;
        list[i].index = i;
    }
    qsort(list, (size_t)n, sizeof *list, cmp_weapon);
    for (int32_t i = 0; i < n; i++) {
        bool same = i > 0 && list[i].w == list[i - 1].w;
        mod->first[list[i].index] = same ? mod->first[list[i - 1].index] : list[i].index;
    }
    lua_pop(S, 1);
}

/* A body's name and the body, sorted by name. */
typedef struct named_body {
    const char *name;
    const clv_body *body;
} named_body;

static int cmp_named_body(const void *a, const void *b) {
    return strcmp(((const named_body *)a)->name, ((const named_body *)b)->name);
}

/* The mod table's optional bodies = { name = cleave.body{...} } (the table at t), checked and
 * listed in name order like the weapons. */
static void read_bodies(lua_State *S, clv_mod *mod, int t, const char *file) {
    int bt = lua_getfield(S, t, "bodies");
    if (bt == LUA_TNIL) {
        lua_pop(S, 1);
        return;
    }
    if (bt != LUA_TTABLE) {
        luaL_error(S, "%s: bodies must be a table of cleave.body{...} by name (got %s)", file,
                   luaL_typename(S, -1));
    }
    int b = lua_gettop(S);
    int32_t n = 0;
    lua_pushnil(S);
    while (lua_next(S, b)) {
        if (lua_type(S, -2) != LUA_TSTRING) {
            luaL_error(S, "%s: bodies keys must be names (got %s)", file, luaL_typename(S, -2));
        }
        check_name(S, -2, file, "body name", CLV_HIT_NAME_MAX - 1);
        if (clv_lua_to_body(S, -1) == NULL) {
            luaL_error(S, "%s: bodies.%s must be a cleave.Body (got %s)", file, lua_tostring(S, -2),
                       luaL_typename(S, -1));
        }
        lua_pop(S, 1);
        if (n == INT32_MAX) {
            luaL_error(S, "%s: too many bodies", file);
        }
        n++;
    }
    named_body *list = (named_body *)lua_newuserdatauv(S, (size_t)n * sizeof(named_body), 0);
    int32_t k = 0;
    lua_pushnil(S);
    while (lua_next(S, b)) {
        list[k].name = lua_tostring(S, -2); /* anchored by the bodies table */
        list[k].body = clv_lua_to_body(S, -1);
        k++;
        lua_pop(S, 1);
    }
    qsort(list, (size_t)n, sizeof *list, cmp_named_body);
    mod->body_names = (char **)check_alloc(S, mod_alloc(mod, (size_t)n * sizeof(char *) + 1), file);
    memset(mod->body_names, 0, (size_t)n * sizeof(char *));
    mod->body_count = n; /* the size clv_mod_free gives back, from here on */
    mod->bodies = (const clv_body **)check_alloc(
        S, mod_alloc(mod, (size_t)n * sizeof(const clv_body *) + 1), file);
    for (int32_t i = 0; i < n; i++) {
        mod->body_names[i] = (char *)check_alloc(S, mod_dup(mod, list[i].name), file);
        mod->bodies[i] = list[i].body;
    }
    lua_settop(S, b - 1);
}

/* Validates the mod table and fills the mod; run through the sandbox's protected path under
 * the load deadline, because reading a field of a table the mod made may run its metamethods
 * (which could loop) and any allocation may fail. Arguments: the mod and the file name (light
 * userdata) and the table. Returns the table's selftest function, or nil. */
static int read_mod_table(lua_State *S) {
    clv_mod *mod = (clv_mod *)lua_touserdata(S, 1);
    const char *file = (const char *)lua_touserdata(S, 2);
    const int t = 3;
    lua_settop(S, 3);
    if (lua_type(S, t) != LUA_TTABLE) {
        return luaL_error(S, "%s: mod.lua must return a table {name=, version=, weapons=} (got %s)",
                          file, luaL_typename(S, t));
    }
    lua_pushnil(S);
    while (lua_next(S, t)) {
        lua_pop(S, 1);
        const char *k = lua_type(S, -1) == LUA_TSTRING ? lua_tostring(S, -1) : NULL;
        bool ok = false;
        for (int i = 0; k != NULL && mod_fields[i] != NULL; i++) {
            ok = ok || strcmp(k, mod_fields[i]) == 0;
        }
        if (!ok) {
            char shown[128];
            return luaL_error(S,
                              "%s: unknown field '%s' in the mod table (fields: name, version, "
                              "weapons, bodies, effects, description, selftest)",
                              file, k != NULL ? clv_mod_escape(k, shown, sizeof shown) : "?");
        }
    }
    static const char *const strs[] = {"name", "version"};
    for (int i = 0; i < 2; i++) {
        int ty = lua_getfield(S, t, strs[i]);
        if (ty != LUA_TSTRING || lua_rawlen(S, -1) == 0) {
            return luaL_error(S, "%s: %s must be a non-empty string (got %s)", file, strs[i],
                              ty == LUA_TSTRING ? "an empty string" : luaL_typename(S, -1));
        }
        /* C sees a string up to its first NUL, and a terminal obeys its control bytes */
        check_name(S, -1, file, strs[i], MOD_TEXT_MAX);
        char **slot = i == 0 ? &mod->name : &mod->version;
        *slot = (char *)check_alloc(S, mod_dup(mod, lua_tostring(S, -1)), file);
        lua_pop(S, 1);
    }
    if (lua_getfield(S, t, "effects") != LUA_TNIL && lua_type(S, -1) != LUA_TTABLE) {
        return luaL_error(S, "%s: effects must be a table (got %s)", file, luaL_typename(S, -1));
    }
    lua_pop(S, 1);
    int st = lua_getfield(S, t, "selftest"); /* 4 */
    if (st != LUA_TNIL && st != LUA_TFUNCTION) {
        return luaL_error(S, "%s: selftest must be a function (got %s)", file,
                          luaL_typename(S, -1));
    }
    if (lua_getfield(S, t, "weapons") != LUA_TTABLE) { /* 5 */
        return luaL_error(S, "%s: weapons must be a table of cleave.weapon{...} by name (got %s)",
                          file, luaL_typename(S, -1));
    }
    const int wt = 5;
    int32_t n = 0;
    lua_pushnil(S);
    while (lua_next(S, wt)) {
        if (lua_type(S, -2) != LUA_TSTRING) {
            return luaL_error(S, "%s: weapons keys must be names (got %s)", file,
                              luaL_typename(S, -2));
        }
        check_name(S, -2, file, "weapon name", CLV_HIT_NAME_MAX - 1);
        if (luaL_testudata(S, -1, CLV_LUA_WEAPON) == NULL) {
            return luaL_error(S, "%s: weapons.%s must be a cleave.Weapon (got %s)", file,
                              lua_tostring(S, -2), luaL_typename(S, -1));
        }
        lua_pop(S, 1);
        if (n == INT32_MAX) {
            return luaL_error(S, "%s: too many weapons", file);
        }
        n++;
    }
    if (n == 0) {
        return luaL_error(S, "%s: weapons must hold at least one weapon", file);
    }
    read_weapons(S, mod, wt, n, file);
    read_bodies(S, mod, t, file);
    lua_pushvalue(S, t);
    mod->table_ref = luaL_ref(S, LUA_REGISTRYINDEX); /* anchors the weapons and bodies */
    lua_pushvalue(S, 4);
    return 1;
}

/* Escapes a message in place (see clv_mod_escape): a mod's error text may hold any bytes, and
 * it ends up on a terminal. With keep_traceback, the lines of a traceback after the message
 * stay lines (each escaped, its leading tab kept). */
static void escape_message(char *msg, size_t size, bool keep_traceback) {
    char *src = msg != NULL && size > 0 ? dup_str(msg) : NULL;
    if (src == NULL) {
        return;
    }
    char *tb = keep_traceback ? strstr(src, "\nstack traceback:") : NULL;
    if (tb != NULL) {
        *tb = '\0';
    }
    clv_mod_escape(src, msg, size);
    for (char *line = tb != NULL ? tb + 1 : NULL; line != NULL;) {
        char *nl = strchr(line, '\n');
        if (nl != NULL) {
            *nl = '\0';
        }
        size_t used = strlen(msg);
        bool tab = line[0] == '\t';
        if (used + 3 >= size) {
            break;
        }
        msg[used++] = '\n';
        if (tab) {
            msg[used++] = '\t';
        }
        clv_mod_escape(line + tab, msg + used, size - used);
        line = nl != NULL ? nl + 1 : NULL;
    }
    free(src);
}

/* Drops the traceback of a load message: a definition error is one line, "file:line: path
 * message"; the frames through cleave.weapon add nothing a modder can use. */
static void one_line(char *err) {
    char *tb = err != NULL ? strstr(err, "\nstack traceback:") : NULL;
    if (tb != NULL) {
        *tb = '\0';
    }
}

/* A load error is one line that names the mod's file. Lua gives no position for an error
 * raised in a C function called by a tail call (`return load{}`), so the file is added when
 * the message does not name it already. */
static void load_error(char *err, size_t errlen, const char *file) {
    one_line(err);
    escape_message(err, errlen, false);
    if (err == NULL || errlen == 0 || strstr(err, file) != NULL) {
        return;
    }
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", err);
    snprintf(err, errlen, "%s: %s", file, msg);
}

/* Is file (dir + "/mod.lua") a regular file we can read? Opened without blocking, so that a
 * FIFO or a device in its place is refused instead of stopping the caller. A mod.lua given in
 * place of its folder is named in the message, with the folder to give instead. */
static bool probe_file(const char *dir, const char *file, char *err, size_t errlen) {
    struct stat sb;
    if (stat(dir, &sb) == 0 && S_ISREG(sb.st_mode)) {
        errf(err, errlen, "%s is a file: give the mod's folder (the one holding mod.lua)", dir, "",
             "");
        return false;
    }
    int fd = open(file, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        errf(err, errlen, "cannot open %s (a mod folder holds mod.lua)", file, "", "");
        return false;
    }
    bool regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
    close(fd);
    if (!regular) {
        errf(err, errlen, "%s is not a regular file", file, "", "");
    }
    return regular;
}

clv_mod_limits clv_mod_default_limits(void) {
    clv_sandbox_limits l = clv_sandbox_default_limits();
    clv_mod_limits m;
    m.memory_bytes = l.memory_bytes;
    m.load_ms = l.load_ms;
    m.callback_ms = l.callback_ms;
    return m;
}

clv_mod *clv_mod_load_failing(const char *dir, const clv_mod_limits *limits, long fail_after,
                              char *err, size_t errlen) {
    if (dir == NULL) {
        errf(err, errlen, "%s", "mod folder is NULL", "", "");
        return NULL;
    }
    clv_mod_limits ml = limits != NULL ? *limits : clv_mod_default_limits();
    size_t dl = strlen(dir);
    char *file = (char *)malloc(dl + 16);
    clv_mod *mod = (clv_mod *)calloc(1, sizeof *mod);
    if (file == NULL || mod == NULL) {
        free(file);
        free(mod);
        errf(err, errlen, "%s", "not enough memory", "", "");
        return NULL;
    }
    mod->table_ref = LUA_NOREF;
    mod->dir = dup_str(dir);
    mod->limits.memory_bytes = ml.memory_bytes;
    mod->limits.load_ms = ml.load_ms;
    mod->limits.callback_ms = ml.callback_ms;
    mod->limits.api = luaopen_cleave;
    /* "mods/x/" and "mods/x" name the same file, so the messages read the same */
    while (dl > 1 && dir[dl - 1] == '/') {
        dl--;
    }
    memcpy(file, dir, dl);
    strcpy(file + dl, "/mod.lua");
    if (mod->dir == NULL) {
        errf(err, errlen, "%s", "not enough memory", "", "");
        goto fail;
    }
    mod->sb = clv_sandbox_create_failing(&mod->limits, fail_after, err, errlen);
    if (mod->sb == NULL) {
        goto fail;
    }
    mod->la = clv_lua_lalloc(clv_sandbox_state(mod->sb));
    if (!clv_lua_frames_set_dir(clv_sandbox_state(mod->sb), dir)) {
        errf(err, errlen, "%s", "not enough memory", "", "");
        goto fail;
    }
    if (!probe_file(dir, file, err, errlen)) {
        goto fail;
    }
    if (!clv_sandbox_run_file(mod->sb, file, 1, err, errlen)) {
        load_error(err, errlen, file);
        goto fail;
    }
    lua_State *S = clv_sandbox_state(mod->sb);
    if (!lua_checkstack(S, 4)) {
        errf(err, errlen, "%s: not enough memory", file, "", "");
        goto fail;
    }
    lua_pushcfunction(S, read_mod_table);
    lua_insert(S, -2);
    lua_pushlightuserdata(S, mod);
    lua_insert(S, -2);
    lua_pushlightuserdata(S, file);
    lua_insert(S, -2);
    if (!clv_sandbox_call_load(mod->sb, 3, 1, err, errlen)) {
        load_error(err, errlen, file);
        goto fail;
    }
    if (lua_type(S, -1) == LUA_TFUNCTION) {
        /* the mod's own check of the version being loaded, under the load deadline */
        lua_rawgeti(S, LUA_REGISTRYINDEX, mod->table_ref);
        char msg[1024];
        if (!clv_sandbox_call_load(mod->sb, 1, 0, msg, sizeof msg)) {
            one_line(msg);
            escape_message(msg, sizeof msg, false);
            if (err != NULL && errlen > 0) {
                snprintf(err, errlen, "%s (selftest of %s)", msg, file);
            }
            goto fail;
        }
    } else {
        lua_pop(S, 1);
    }
    free(file);
    return mod;
fail:
    free(file);
    clv_mod_free(mod);
    return NULL;
}

clv_mod *clv_mod_load_with(const char *dir, const clv_mod_limits *limits, char *err,
                           size_t errlen) {
    if (limits != NULL &&
        (!(limits->load_ms > 0) || !(limits->callback_ms > 0) || limits->load_ms > 1e9 ||
         limits->callback_ms > 1e9 || limits->memory_bytes < (size_t)65536)) {
        errf(err, errlen, "%s",
             "mod limits: time limits must be > 0 ms and finite, memory at least 65536 bytes", "",
             "");
        return NULL;
    }
    return clv_mod_load_failing(dir, limits, 0, err, errlen);
}

clv_mod *clv_mod_load(const char *dir, char *err, size_t errlen) {
    return clv_mod_load_with(dir, NULL, err, errlen);
}

clv_mod *clv_mod_reload(const clv_mod *current, char *err, size_t errlen) {
    if (current == NULL) {
        errf(err, errlen, "%s", "mod is NULL", "", "");
        return NULL;
    }
    clv_mod_limits l;
    l.memory_bytes = current->limits.memory_bytes;
    l.load_ms = current->limits.load_ms;
    l.callback_ms = current->limits.callback_ms;
    return clv_mod_load_with(current->dir, &l, err, errlen);
}

const char *clv_mod_dir(const clv_mod *mod) { return mod != NULL ? mod->dir : NULL; }

clv_mod_limits clv_mod_get_limits(const clv_mod *mod) {
    if (mod == NULL) {
        return clv_mod_default_limits();
    }
    clv_mod_limits l;
    l.memory_bytes = mod->limits.memory_bytes;
    l.load_ms = mod->limits.load_ms;
    l.callback_ms = mod->limits.callback_ms;
    return l;
}

void clv_mod_free(clv_mod *mod) {
    if (mod == NULL) {
        return;
    }
    /* the host's copies go back to the sandbox's allocator while it still exists */
    size_t n = (size_t)mod->weapon_count;
    for (size_t i = 0; mod->weapon_names != NULL && i < n; i++) {
        char *w = mod->weapon_names[i];
        mod_release(mod, w, w != NULL ? strlen(w) + 1 : 0);
    }
    mod_release(mod, mod->weapon_names, n * sizeof(char *));
    mod_release(mod, mod->weapons, n * sizeof(clv_lweapon *));
    mod_release(mod, mod->first, n * sizeof(int32_t));
    mod_release(mod, mod->arena_ids, n * sizeof(clv_weapon_id));
    size_t nb = (size_t)mod->body_count;
    for (size_t i = 0; mod->body_names != NULL && i < nb; i++) {
        char *b = mod->body_names[i];
        mod_release(mod, b, b != NULL ? strlen(b) + 1 : 0);
    }
    mod_release(mod, mod->body_names, nb * sizeof(char *) + 1);
    mod_release(mod, mod->bodies, nb * sizeof(const clv_body *) + 1);
    mod_release(mod, mod->name, mod->name != NULL ? strlen(mod->name) + 1 : 0);
    mod_release(mod, mod->version, mod->version != NULL ? strlen(mod->version) + 1 : 0);
    clv_sandbox_destroy(mod->sb); /* collects the weapons */
    free(mod->dir);
    free(mod);
}

const char *clv_mod_name(const clv_mod *mod) { return mod != NULL ? mod->name : NULL; }

const char *clv_mod_version(const clv_mod *mod) { return mod != NULL ? mod->version : NULL; }

int32_t clv_mod_weapon_count(const clv_mod *mod) { return mod != NULL ? mod->weapon_count : 0; }

const char *clv_mod_weapon_name(const clv_mod *mod, int32_t index) {
    if (mod == NULL || index < 0 || index >= mod->weapon_count) {
        return NULL;
    }
    return mod->weapon_names[index];
}

const clv_weapon *clv_mod_weapon(const clv_mod *mod, int32_t index) {
    if (mod == NULL || index < 0 || index >= mod->weapon_count) {
        return NULL;
    }
    return mod->weapons[index]->compiled;
}

int32_t clv_mod_weapon_first(const clv_mod *mod, int32_t index) {
    if (mod == NULL || index < 0 || index >= mod->weapon_count) {
        return -1;
    }
    return mod->first[index];
}

clv_allocator clv_mod_allocator(clv_mod *mod) {
    if (mod == NULL) {
        return (clv_allocator){NULL, NULL, NULL};
    }
    return clv_lalloc_hook(&mod->la);
}

bool clv_mod_add_weapons(clv_mod *mod, clv_arena *arena, clv_weapon_id *out, char *err,
                         size_t errlen) {
    if (mod == NULL || arena == NULL) {
        errf(err, errlen, "%s", "mod or arena is NULL", "", "");
        return false;
    }
    size_t bytes = (size_t)mod->weapon_count * sizeof(clv_weapon_id);
    clv_weapon_id *ids = (clv_weapon_id *)mod_alloc(mod, bytes);
    if (ids == NULL) {
        errf(err, errlen, "%s", "not enough memory (the mod's budget holds its weapon list)", "",
             "");
        return false;
    }
    for (int32_t i = 0; i < mod->weapon_count; i++) {
        clv_hit_diag diag;
        int32_t f = mod->first[i];
        if (f != i) {
            ids[i] = ids[f]; /* one weapon under several names is copied once */
        } else if (clv_arena_add_weapon(arena, mod->weapons[i]->compiled, &ids[i], &diag) !=
                   CLV_HIT_OK) {
            errf(err, errlen, "weapon '%s': %s", mod->weapon_names[i], diag.message, "");
            mod_release(mod, ids, bytes);
            return false;
        }
        if (out != NULL) {
            out[i] = ids[i];
        }
    }
    mod_release(mod, mod->arena_ids, bytes);
    mod->arena_ids = ids;
    mod->arena = arena;
    return true;
}

int32_t clv_mod_body_count(const clv_mod *mod) { return mod != NULL ? mod->body_count : 0; }

const char *clv_mod_body_name(const clv_mod *mod, int32_t index) {
    if (mod == NULL || index < 0 || index >= mod->body_count) {
        return NULL;
    }
    return mod->body_names[index];
}

const clv_body *clv_mod_body(const clv_mod *mod, int32_t index) {
    if (mod == NULL || index < 0 || index >= mod->body_count) {
        return NULL;
    }
    return mod->bodies[index];
}

bool clv_mod_add_bodies(const clv_mod *mod, clv_arena *arena, clv_body_id *out, char *err,
                        size_t errlen) {
    if (mod == NULL || arena == NULL) {
        errf(err, errlen, "%s", "mod or arena is NULL", "", "");
        return false;
    }
    for (int32_t i = 0; i < mod->body_count; i++) {
        clv_hit_diag diag;
        clv_body_id id;
        if (clv_arena_add_body(arena, mod->bodies[i], &id, &diag) != CLV_HIT_OK) {
            errf(err, errlen, "body '%s': %s", mod->body_names[i], diag.message, "");
            return false;
        }
        if (out != NULL) {
            out[i] = id;
        }
    }
    return true;
}

/* The mod's weapon with arena id id (its first name), or NULL. */
static const clv_lweapon *mod_weapon(const clv_mod *mod, clv_weapon_id id) {
    for (int32_t i = 0; i < mod->weapon_count; i++) {
        if (mod->first[i] == i && mod->arena_ids[i].index1 == id.index1 &&
            mod->arena_ids[i].gen == id.gen) {
            return mod->weapons[i];
        }
    }
    return NULL;
}

/* Adds msg to the list in err (a new list when first): each message ends with a NUL and the
 * list with an empty message, so that err read as a string is the first message. A message
 * that does not fit is left out; the first is cut to fit. */
static void add_error(char *err, size_t errlen, bool first, const char *msg) {
    if (err == NULL || errlen < 2) {
        errf(err, errlen, "%s", "", "", "");
        return;
    }
    size_t used = 0;
    while (!first && err[used] != '\0') {
        used += strlen(err + used) + 1;
    }
    size_t n = strlen(msg);
    if (used + n + 2 > errlen) {
        if (used > 0) {
            return;
        }
        n = errlen - 2;
    }
    memcpy(err + used, msg, n);
    err[used + n] = '\0';
    err[used + n + 1] = '\0';
}

/* Calls one callback of the mod (none for LUA_NOREF); adds its error to the list in err. */
static bool call_event(clv_mod *mod, int ref, const clv_lua_event *e, char *err, size_t errlen,
                       bool *first_error) {
    char msg[1024];
    if (ref == LUA_NOREF) {
        return true;
    }
    if (!clv_lua_call_event(mod->sb, ref, e, msg, sizeof msg)) {
        escape_message(msg, sizeof msg, true);
        add_error(err, errlen, *first_error, msg);
        *first_error = false;
        return false;
    }
    return true;
}

/* The clashes of the frame that the mod's weapons took part in, each heard by its side, and
 * the projectiles its weapons turned back. */
static bool meeting_callbacks(clv_mod *mod, const clv_arena *arena, char *err, size_t errlen,
                              bool *first) {
    bool ok = true;
    int32_t count;
    const clv_clash_event *c = clv_arena_clashes(arena, &count);
    for (int32_t k = 0; k < count; k++) {
        clv_lua_event e = {.clash = &c[k]};
        for (int s = 0; s < 2; s++) {
            e.names[s] = clv_arena_weapon_name(arena, c[k].weapon[s]);
            e.box[s] = clv_arena_hitbox(arena, c[k].weapon[s], c[k].attack_index[s],
                                        c[k].attack_frame[s], c[k].hitbox[s]);
        }
        for (int s = 0; s < 2; s++) {
            const clv_lweapon *w = mod_weapon(mod, c[k].weapon[s]);
            if (w != NULL) {
                e.side = s;
                ok = call_event(mod, w->on_clash_ref, &e, err, errlen, first) && ok;
            }
        }
    }
    const clv_projectile_event *p = clv_arena_projectile_events(arena, &count);
    for (int32_t k = 0; k < count; k++) {
        clv_attack_info by;
        if (p[k].kind != CLV_PROJECTILE_REFLECTED ||
            clv_arena_attack(arena, p[k].by_attack, &by) != CLV_HIT_OK) {
            continue;
        }
        const clv_lweapon *w = mod_weapon(mod, by.weapon);
        if (w != NULL) {
            clv_lua_event e = {.reflect = &p[k]};
            e.names[0] = clv_arena_weapon_name(arena, p[k].weapon);
            ok = call_event(mod, w->on_reflect_ref, &e, err, errlen, first) && ok;
        }
    }
    return ok;
}

bool clv_mod_run_callbacks(clv_mod *mod, clv_arena *arena, char *err, size_t errlen) {
    if (mod == NULL || arena == NULL || mod->arena != arena || mod->arena_ids == NULL) {
        errf(err, errlen, "%s", "the mod's weapons were not added to this arena", "", "");
        return false;
    }
    lua_State *S = clv_sandbox_state(mod->sb);
    if (S == NULL) {
        errf(err, errlen, "%s", "the mod's sandbox is closed", "", "");
        return false;
    }
    clv_sandbox_frame_begin(mod->sb);
    bool ok = true, first = true;
    int32_t count;
    const clv_hit_event *hits = clv_arena_hits(arena, &count);
    for (int32_t k = 0; k < count; k++) {
        const clv_lweapon *w = mod_weapon(mod, hits[k].weapon);
        if (w != NULL) {
            clv_lua_event e = {.hit = &hits[k], .weapon = w};
            e.box[0] = clv_arena_hitbox(arena, hits[k].weapon, hits[k].attack_index,
                                        hits[k].attack_frame, hits[k].hitbox);
            ok = call_event(mod, w->on_hit_ref, &e, err, errlen, &first) && ok;
        }
    }
    const clv_tick_event *ticks = clv_arena_ticks(arena, &count);
    for (int32_t k = 0; k < count; k++) {
        const clv_lweapon *w = mod_weapon(mod, ticks[k].weapon);
        if (w != NULL) {
            clv_lua_event e = {.tick = &ticks[k]};
            ok = call_event(mod, clv_lua_effect_ref(w, ticks[k].name), &e, err, errlen, &first) &&
                 ok;
        }
    }
    return meeting_callbacks(mod, arena, err, errlen, &first) && ok;
}

const char *clv_mod_escape(const char *s, char *out, size_t outlen) {
    return clv_lua_escape(s, out, outlen);
}
