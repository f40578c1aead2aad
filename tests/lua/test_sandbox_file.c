/* clv_sandbox_run_file, the path every mod.lua is read through: what it returns for a good
 * file, and the message for each way reading one can fail. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "cleave/lua.h"
#include "sandbox.h"

static char g_dir[256];

static const char *path_of(const char *name) {
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", g_dir, name);
    return p;
}

static void write_file(const char *name, const void *data, size_t len) {
    FILE *f = fopen(path_of(name), "wb");
    CHECK(f != NULL);
    if (f != NULL) {
        CHECK(fwrite(data, 1, len, f) == len);
        fclose(f);
    }
}

static clv_sandbox *small_sandbox(void) {
    clv_sandbox_limits l = clv_sandbox_default_limits();
    l.api = luaopen_cleave;
    l.memory_bytes = 256 * 1024;
    char err[256];
    clv_sandbox *sb = clv_sandbox_create(&l, err, sizeof err);
    CHECK(sb != NULL);
    return sb;
}

static void expect_error(clv_sandbox *sb, const char *name, const char *want_suffix) {
    char err[1024] = "";
    char want[1024];
    snprintf(want, sizeof want, "%s%s", path_of(name), want_suffix);
    lua_State *L = clv_sandbox_state(sb);
    int top = lua_gettop(L);
    CHECK(!clv_sandbox_run_file(sb, path_of(name), 1, err, sizeof err));
    char *tb = strstr(err, "\nstack traceback:");
    if (tb != NULL) {
        *tb = '\0';
    }
    bool same = strcmp(err, want) == 0;
    CHECK(same);
    if (!same) {
        fprintf(stderr, "  want: %s\n  got:  %s\n", want, err);
    }
    CHECK(lua_gettop(L) == top);
}

static void test_run_file(void) {
    clv_sandbox *sb = small_sandbox();
    if (sb == NULL) {
        return;
    }
    lua_State *L = clv_sandbox_state(sb);
    char err[1024];

    /* a good file: its results, and its name as the chunk's */
    const char *good = "local t = {}\nfor i = 1, 10 do t[i] = i end\nreturn #t, debug == nil\n";
    write_file("good.lua", good, strlen(good));
    CHECK(clv_sandbox_run_file(sb, path_of("good.lua"), 2, err, sizeof err));
    CHECK(lua_tointeger(L, -2) == 10);
    CHECK(lua_toboolean(L, -1));
    lua_pop(L, 2);

    /* an empty file is an empty chunk */
    write_file("empty.lua", "", 0);
    CHECK(clv_sandbox_run_file(sb, path_of("empty.lua"), 1, err, sizeof err));
    CHECK(lua_isnil(L, -1));
    lua_pop(L, 1);

    expect_error(sb, "missing.lua", ": cannot open the file");

    const char *syntax = "local a = 1\nlocal b = = 2\n";
    write_file("syntax.lua", syntax, strlen(syntax));
    expect_error(sb, "syntax.lua", ":2: unexpected symbol near '='");

    const char *raise = "local a = 1\n\nerror('no')\n";
    write_file("raise.lua", raise, strlen(raise));
    expect_error(sb, "raise.lua", ":3: no");

    const char bytecode[] = "\x1bLua\x54\x00\x19\x93\r\n\x1a\n";
    write_file("bytecode.lua", bytecode, sizeof bytecode - 1);
    expect_error(sb, "bytecode.lua", ": attempt to load a binary chunk (mode is 't')");

    /* a source larger than the memory budget is refused before it is all read */
    size_t big = 600 * 1024;
    char *text = malloc(big);
    CHECK(text != NULL);
    if (text != NULL) {
        memset(text, '-', big);
        write_file("big.lua", text, big);
        free(text);
        expect_error(sb, "big.lua", ": file larger than the mod's memory limit");
    }

    /* a folder is not a regular file */
    char sub[600];
    snprintf(sub, sizeof sub, "%s", path_of("folder.lua"));
    CHECK(mkdir(sub, 0700) == 0);
    expect_error(sb, "folder.lua", ": not a regular file");
    rmdir(sub);

    /* the sandbox still works after every failure */
    CHECK(clv_sandbox_run_file(sb, path_of("good.lua"), 2, err, sizeof err));
    lua_pop(L, 2);
    clv_sandbox_close(sb);
    CHECK(clv_sandbox_bytes(sb) == 0);
    clv_sandbox_destroy(sb);
    const char *names[] = {"good.lua",  "empty.lua",    "syntax.lua",
                           "raise.lua", "bytecode.lua", "big.lua"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        remove(path_of(names[i]));
    }
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    const char *tmp = getenv("TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s/clv_sbfile_XXXXXX", tmp != NULL && *tmp ? tmp : P_tmpdir);
    if (mkdtemp(g_dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    RUN(test_run_file);
    rmdir(g_dir);
    return clv_test_report();
}
