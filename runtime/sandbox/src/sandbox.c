/* The mod sandbox: one lua_State per mod on a counting allocator, an allow-listed environment
 * checked after it is built, a count hook with a deadline, and one protected call path.
 *
 * Why each piece is there:
 * - One state per mod, so the string metatable, the globals and the garbage of one mod never
 *   meet another's.
 * - The allocator refuses growth past the budget, so a bomb ends in Lua's own "not enough
 *   memory" error inside that state; lua_close gives every byte back (checked by the tests).
 * - The count hook checks the deadline every HOOK_COUNT instructions. A deadline counts the CPU
 *   time of the thread running the mod, so a game whose other threads (or other programs) keep
 *   the cores busy does not refuse a good mod; wall-clock time only stops a call at
 *   WALL_FACTOR times its budget (and at least WALL_FLOOR), should the CPU clock be starved or
 *   lie. Once the deadline has passed the hook re-arms itself to fire on every instruction of
 *   whatever thread runs, so a pcall that swallows one timeout error meets the next one at its
 *   next instruction.
 * - Lua runs an xpcall message handler for an error raised in a hook with hooks off, so a mod's
 *   handler could loop for ever; xpcall is replaced by one that runs the handler after the
 *   error has unwound, inside an ordinary pcall where the hook is live.
 * - Finalizers run with hooks off too: setmetatable refuses any metatable with a __gc field
 *   and seals what it sets (sandbox_lib.c, with the other library functions a mod could make
 *   loop in C); the userdata metatables of the API are protected.
 * - Every use of the state by the host goes through lua_pcall: a memory error outside a
 *   protected call would reach the panic function and abort the game.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "sandbox_internal.h"

/* Instructions between two looks at the clock: a few microseconds of Lua, so a deadline is
 * noticed within microseconds, at the cost of one clock read per thousand instructions. */
#define HOOK_COUNT 1000

/* Calls of clv_sandbox_tick between two looks at the clock. */
#define TICKS_PER_LOOK 256

/* The wall-clock backstop: a call is stopped once this many times its budget, and at least
 * WALL_FLOOR seconds, have passed on the monotonic clock, whatever CPU time it used. Far
 * enough that a thread sharing its core with several busy ones is judged by its CPU time
 * alone: a scheduler can keep a runnable thread off the CPU for tens of milliseconds, which
 * is many times a 2 ms callback budget, and a call stopped by the backstop counts against its
 * callback as a timeout would. */
#define WALL_FACTOR 20.0
#define WALL_FLOOR 1.0

/* Smallest budget a state can be built in; below it creation fails with a clear message. */
#define MIN_MEMORY ((size_t)64 * 1024)

static double clock_seconds(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

/* CPU time of the calling thread: the thread that runs the mod. */
static double cpu_seconds(void) { return clock_seconds(CLOCK_THREAD_CPUTIME_ID); }

/* Has the running deadline passed? A thread cannot use more CPU time than the wall-clock time
 * that passed, so the CPU clock (a system call, where the monotonic clock is not) is read only
 * once the budget has passed on the wall clock. */
static bool deadline_passed(const clv_sandbox *sb) {
    double budget = sb->budget_ms / 1000.0;
    double wall = wall_seconds() - sb->wall_start;
    if (wall < budget) {
        return false;
    }
    if (wall >= budget * WALL_FACTOR && wall >= WALL_FLOOR) {
        return true;
    }
    return cpu_seconds() - sb->cpu_start >= budget;
}

/* ---- Allocator ---- */

/* Lua raises a memory error without running the message handler, so the line that asked for
 * the memory would be lost: note it when the first request is refused. Walking the main
 * thread's frames allocates nothing; a coroutine's bomb is reported at its resume. Only up to
 * Lua 5.4.4: later releases turn every frame's stack pointers into offsets while they grow a
 * stack, so a refused stack growth would find the frames unreadable (no line then). */
static void note_line(clv_sandbox *sb, bool *noted, char *where, size_t size) {
#if LUA_VERSION_RELEASE_NUM <= 50404
    if (*noted || sb->L == NULL || sb->busy == 0) {
        return;
    }
    *noted = true;
    lua_Debug ar;
    for (int level = 0; lua_getstack(sb->L, level, &ar); level++) {
        if (lua_getinfo(sb->L, "Sl", &ar) && ar.currentline > 0) {
            snprintf(where, size, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
#else
    (void)sb;
    (void)noted;
    (void)where;
    (void)size;
#endif
}

/* Bytes a running call may allocate between two looks at the clock by the allocator. A C
 * function (string.rep, table.concat, a concatenation) does work in proportion to the memory it
 * asks for, up to the whole budget, in one instruction: a thousand of them between two looks
 * by the count hook could run for many times the deadline. */
#define LOOK_BYTES ((size_t)64 * 1024)

/* Requests below this still succeed past the deadline, so that the timeout message itself (a
 * short string) can be built; the work a late call could still do is then a few KiB a step. */
#define LATE_SMALL ((size_t)4 * 1024)

static void sandbox_hook(lua_State *L, lua_Debug *ar);

/* Sets the hook of thread L to fire at its next instruction: the deadline has passed. */
static void hook_next_instruction(lua_State *L) { lua_sethook(L, sandbox_hook, LUA_MASKCOUNT, 1); }

/* Past the deadline, does the allocator refuse a growth of `more` bytes? It looks at the clock
 * once LOOK_BYTES have been handed out since its last look. A refusal is a memory error that
 * load() or pcall can catch, so once the deadline is seen here the main thread's hook is set
 * to fire at its next instruction, as the hook does: a mod that goes on after the caught
 * error (or simply returns) meets the timeout before it ends. A coroutine meets it at its own
 * next look, within HOOK_COUNT instructions. */
static bool too_late(clv_sandbox *sb, size_t more) {
    if (!sb->timing || sb->busy == 0) {
        return false;
    }
    sb->grown_since_look += more;
    if (!sb->expired && sb->grown_since_look >= LOOK_BYTES) {
        sb->grown_since_look = 0;
        sb->expired = deadline_passed(sb);
        if (sb->expired) {
            hook_next_instruction(sb->L);
        }
    }
    return sb->expired && more >= LATE_SMALL;
}

/* May the budget grow by `more` bytes? A refusal notes the mod's line: as where the memory ran
 * out, or, past the deadline, as where the time did. */
static bool may_grow(clv_sandbox *sb, size_t more) {
    if (sb->fail_after > 0 && ++sb->growths >= sb->fail_after) {
        note_line(sb, &sb->oom_noted, sb->oom_where, sizeof sb->oom_where);
        return false;
    }
    if (sb->bytes > sb->limits.memory_bytes || more > sb->limits.memory_bytes - sb->bytes) {
        note_line(sb, &sb->oom_noted, sb->oom_where, sizeof sb->oom_where);
        return false;
    }
    if (too_late(sb, more)) {
        note_line(sb, &sb->late_noted, sb->late_where, sizeof sb->late_where);
        return false;
    }
    return true;
}

static void count_bytes(clv_sandbox *sb, size_t less, size_t more) {
    sb->bytes = sb->bytes - less + more;
    if (sb->bytes > sb->peak) {
        sb->peak = sb->bytes;
    }
}

static void *sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    clv_sandbox *sb = ud;
    if (ptr == NULL) {
        osize = 0; /* osize then tells the kind of object, not a size */
    }
    if (nsize == 0) {
        free(ptr);
        sb->bytes -= osize;
        return NULL;
    }
    if (nsize > osize && !may_grow(sb, nsize - osize)) {
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p == NULL) {
        return NULL;
    }
    count_bytes(sb, osize, nsize);
    return p;
}

bool clv_sandbox_charge(clv_sandbox *sb, size_t bytes) {
    if (bytes > 0 && !may_grow(sb, bytes)) {
        return false;
    }
    count_bytes(sb, 0, bytes);
    return true;
}

void clv_sandbox_uncharge(clv_sandbox *sb, size_t bytes) { sb->bytes -= bytes; }

clv_sandbox *clv_sandbox_of(lua_State *L) {
    void *ud = NULL;
    if (lua_getallocf(L, &ud) != sandbox_alloc) {
        return NULL;
    }
    return ud;
}

/* ---- CPU deadline ---- */

/* Arms the hook of thread L with the normal period. */
void clv_sandbox_arm_hook(lua_State *L) { lua_sethook(L, sandbox_hook, LUA_MASKCOUNT, HOOK_COUNT); }

/* A timeout raised in a coroutine reaches the main thread as a value that resume returns: the
 * main thread's hook is set too, so that it stops at its next instruction, not up to
 * HOOK_COUNT instructions later. */
bool clv_sandbox_expired(lua_State *L) {
    clv_sandbox *sb = clv_sandbox_of(L);
    if (sb == NULL || !sb->timing || !deadline_passed(sb)) {
        return false;
    }
    sb->expired = true;
    hook_next_instruction(L);
    if (L != sb->L) {
        hook_next_instruction(sb->L);
    }
    return true;
}

void clv_sandbox_tick(lua_State *L) {
    clv_sandbox *sb = clv_sandbox_of(L);
    if (sb != NULL && ++sb->ticks % TICKS_PER_LOOK == 0) {
        clv_sandbox_check_deadline(L);
    }
}

void clv_sandbox_check_deadline(lua_State *L) {
    if (clv_sandbox_expired(L)) {
        clv_sandbox_push_timeout(L, 1);
        lua_error(L);
    }
}

const char *clv_sandbox_push_timeout(lua_State *L, int level) {
    clv_sandbox *sb = clv_sandbox_of(L);
    lua_Debug ar;
    const char *phase = sb != NULL && sb->phase != NULL ? sb->phase : "call";
    char ms[32];
    snprintf(ms, sizeof ms, "%g", sb != NULL ? sb->shown_ms : 0.0);
    /* the first Lua frame from level on: sort's order function runs under the C sort */
    bool found = false;
    for (; !found && lua_getstack(L, level, &ar); level++) {
        found = lua_getinfo(L, "Sl", &ar) && ar.currentline > 0;
    }
    if (found) {
        if (sb != NULL && !sb->late_noted) {
            sb->late_noted = true;
            snprintf(sb->late_where, sizeof sb->late_where, "%s:%d: ", ar.short_src,
                     ar.currentline);
        }
        return lua_pushfstring(L, "%s:%d: time limit exceeded (%s ms per %s)", ar.short_src,
                               ar.currentline, ms, phase);
    }
    return lua_pushfstring(L, "time limit exceeded (%s ms per %s)", ms, phase);
}

static void sandbox_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    if (clv_sandbox_expired(L)) {
        /* Level 0 inside a hook is the Lua function being run: name the looping line. */
        clv_sandbox_push_timeout(L, 0);
        lua_error(L);
    }
    if (lua_gethookcount(L) != HOOK_COUNT) {
        clv_sandbox_arm_hook(L); /* a thread left on every-instruction by an earlier timeout */
    }
}

static void start_deadline(clv_sandbox *sb, double ms, const char *phase) {
    sb->budget_ms = ms;
    sb->shown_ms = ms;
    sb->phase = phase;
    sb->expired = false;
    sb->grown_since_look = 0;
    sb->wall_start = wall_seconds();
    sb->cpu_start = cpu_seconds();
    sb->timing = true;
    clv_sandbox_arm_hook(sb->L);
}

static void stop_deadline(clv_sandbox *sb) {
    sb->timing = false;
    sb->phase = NULL;
}

/* ---- Parsing under the deadline ---- */

/* The parser reads its source in pieces this long; the deadline is looked at between pieces,
 * so a source that parses slowly (some grow quadratically) is stopped within one piece. */
#define PARSE_PIECE 1024

/* The next piece of s (len bytes, *pos read so far), or NULL at the end; raises the timeout
 * error once the deadline has passed. */
static const char *next_piece(lua_State *L, const char *s, size_t len, size_t *pos, size_t *size) {
    clv_sandbox_check_deadline(L);
    if (*pos >= len) {
        *size = 0;
        return NULL;
    }
    *size = len - *pos < PARSE_PIECE ? len - *pos : PARSE_PIECE;
    const char *piece = s + *pos;
    *pos += *size;
    return piece;
}

typedef struct source_reader {
    const char *s;
    size_t len;
    size_t pos;
} source_reader;

static const char *read_source(lua_State *L, void *data, size_t *size) {
    source_reader *r = data;
    return next_piece(L, r->s, r->len, &r->pos, size);
}

/* The reader load() gets for a string chunk: upvalues the string and the bytes read. */
int clv_sandbox_string_pieces(lua_State *L) {
    size_t len, size;
    const char *s = lua_tolstring(L, lua_upvalueindex(1), &len);
    size_t pos = (size_t)lua_tointeger(L, lua_upvalueindex(2));
    const char *piece = next_piece(L, s, len, &pos, &size);
    lua_pushinteger(L, (lua_Integer)pos);
    lua_replace(L, lua_upvalueindex(2));
    if (piece == NULL) {
        return 0;
    }
    lua_pushlstring(L, piece, size);
    return 1;
}

/* Keeps a line (at most CLV_SANDBOX_LOG_LINE - 1 bytes) in the log, dropping the oldest. */
void clv_sandbox_log_add(clv_sandbox *sb, const char *line) {
    if (sb->log_count == CLV_SANDBOX_LOG_LINES) {
        sb->log_first = (sb->log_first + 1) % CLV_SANDBOX_LOG_LINES;
        sb->log_count--;
        sb->log_dropped++;
    }
    int slot = (sb->log_first + sb->log_count) % CLV_SANDBOX_LOG_LINES;
    snprintf(sb->log[slot], CLV_SANDBOX_LOG_LINE, "%s", line);
    sb->log_count++;
}

/* ---- The protected path ---- */

/* The message handler: "file:line: message" and a traceback, reading the error object without
 * running any of its metamethods (a __tostring could loop with the hook off, or raise). */
static int message_handler(lua_State *L) {
    const char *msg;
    switch (lua_type(L, 1)) {
    case LUA_TSTRING:
        msg = lua_tostring(L, 1);
        break;
    case LUA_TNUMBER:
        lua_pushvalue(L, 1);
        msg = lua_tostring(L, -1); /* converts the copy; numbers have no metamethods here */
        break;
    default: {
        lua_Debug ar;
        int level = 1;
        const char *where = "";
        while (lua_getstack(L, level, &ar)) {
            lua_getinfo(L, "Sl", &ar);
            if (ar.currentline > 0) {
                where = lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
                break;
            }
            level++;
        }
        msg = lua_pushfstring(L, "%s(error object is a %s value)", where,
                              lua_typename(L, lua_type(L, 1)));
        break;
    }
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

static void write_err(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Writes the message (a printf format) to err, when the caller gave room for one. */
static void write_err(char *err, size_t errlen, const char *fmt, ...) {
    if (err != NULL && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
}

/* Calls the function below nargs arguments under a deadline of ms, through message_handler.
 * On failure pops everything, writes the message and returns false. */
static bool protected_call(clv_sandbox *sb, int nargs, int nresults, double ms, const char *phase,
                           char *err, size_t errlen) {
    lua_State *L = sb->L;
    int func = lua_gettop(L) - nargs;
    if (!lua_checkstack(L, 2)) {
        lua_settop(L, func - 1);
        write_err(err, errlen, "not enough memory");
        return false;
    }
    lua_pushcfunction(L, message_handler);
    lua_insert(L, func);
    if (!sb->timing) { /* a run's deadline starts before its source is parsed */
        start_deadline(sb, ms, phase);
    }
    sb->busy++;
    sb->oom_noted = false;
    sb->oom_where[0] = '\0';
    sb->late_noted = false;
    sb->late_where[0] = '\0';
    int status = lua_pcall(L, nargs, nresults, func);
    sb->busy--;
    const char *ran = sb->phase != NULL ? sb->phase : phase;
    stop_deadline(sb);
    lua_remove(L, func);
    if (status == LUA_OK && !sb->expired) {
        return true;
    }
    if (status == LUA_OK) {
        /* The sandbox saw the deadline pass during the call: it may have refused a request or
         * raised the timeout, which the mod could catch and return from, straight from the C
         * function that caught it (`return pcall(f)`) where no hook runs. What the call
         * returned is not trusted. */
        lua_settop(L, func - 1);
        write_err(err, errlen, "%stime limit exceeded (%g ms per %s)", sb->late_where, sb->shown_ms,
                  ran);
        return false;
    }
    if (status == LUA_ERRMEM && sb->expired) {
        /* the allocator refused a late request: the memory was there, the time was not */
        write_err(err, errlen, "%stime limit exceeded (%g ms per %s)", sb->late_where, sb->shown_ms,
                  ran);
    } else if (status == LUA_ERRMEM) {
        write_err(err, errlen, "%snot enough memory (the mod's limit is %zu bytes)", sb->oom_where,
                  sb->limits.memory_bytes);
    } else {
        write_err(err, errlen, "%s",
                  lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(error object lost)");
    }
    lua_pop(L, 1);
    return false;
}

/* ---- Public functions ---- */

clv_sandbox_limits clv_sandbox_default_limits(void) {
    clv_sandbox_limits l;
    l.memory_bytes = (size_t)64 * 1024 * 1024;
    l.load_ms = 250.0;
    l.callback_ms = 2.0;
    l.frame_ms = 5.0;
    return l;
}

static int sandbox_panic(lua_State *L) {
    /* Unreachable by design (every use is protected); say why the game stops if it happens. */
    fprintf(stderr, "cleave sandbox: unprotected error: %s\n",
            lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?");
    return 0;
}

clv_sandbox *clv_sandbox_create_failing(const clv_sandbox_limits *limits, long fail_after,
                                        char *err, size_t errlen) {
    clv_sandbox_limits l = limits != NULL ? *limits : clv_sandbox_default_limits();
    if (l.frame_ms == 0) {
        l.frame_ms = clv_sandbox_default_limits().frame_ms;
    }
    if (!(l.load_ms > 0) || !(l.callback_ms > 0) || !(l.frame_ms > 0) || l.load_ms > 1e9 ||
        l.callback_ms > 1e9 || l.frame_ms > 1e9) {
        write_err(err, errlen, "sandbox: time limits must be > 0 ms and finite");
        return NULL;
    }
    if (l.memory_bytes < MIN_MEMORY) {
        write_err(err, errlen, "sandbox: memory limit must be at least 65536 bytes");
        return NULL;
    }
    clv_sandbox *sb = calloc(1, sizeof *sb);
    if (sb == NULL) {
        write_err(err, errlen, "not enough memory");
        return NULL;
    }
    sb->limits = l;
    sb->fail_after = fail_after > 0 ? fail_after : 0;
    sb->L = lua_newstate(sandbox_alloc, sb);
    if (sb->L == NULL) {
        write_err(err, errlen, "not enough memory");
        free(sb);
        return NULL;
    }
    lua_atpanic(sb->L, sandbox_panic);
    lua_pushcfunction(sb->L, clv_sandbox_build_env);
    int status = lua_pcall(sb->L, 0, 0, 0);
    if (status != LUA_OK) {
        write_err(err, errlen, "%s",
                  lua_type(sb->L, -1) == LUA_TSTRING ? lua_tostring(sb->L, -1)
                                                     : "sandbox: environment failed");
        clv_sandbox_destroy(sb);
        return NULL;
    }
    return sb;
}

clv_sandbox *clv_sandbox_create(const clv_sandbox_limits *limits, char *err, size_t errlen) {
    return clv_sandbox_create_failing(limits, 0, err, errlen);
}

void clv_sandbox_close(clv_sandbox *sb) {
    if (sb != NULL && sb->L != NULL) {
        sb->timing = false; /* whatever __close runs at the end is not a mod's call */
        lua_close(sb->L);
        sb->L = NULL;
    }
}

void clv_sandbox_destroy(clv_sandbox *sb) {
    if (sb == NULL) {
        return;
    }
    clv_sandbox_close(sb);
    free(sb->strikes);
    free(sb);
}

clv_sandbox_limits clv_sandbox_get_limits(const clv_sandbox *sb) { return sb->limits; }

bool clv_sandbox_is_open(const clv_sandbox *sb) { return sb != NULL && sb->L != NULL; }

lua_State *clv_sandbox_state(clv_sandbox *sb) { return sb->L; }

size_t clv_sandbox_bytes(const clv_sandbox *sb) { return sb->bytes; }

size_t clv_sandbox_peak(const clv_sandbox *sb) { return sb->peak; }

int clv_sandbox_faults(const clv_sandbox *sb) { return sb->faults; }

int clv_sandbox_log_count(const clv_sandbox *sb) { return sb->log_count; }

const char *clv_sandbox_log_line(const clv_sandbox *sb, int i) {
    if (i < 0 || i >= sb->log_count) {
        return NULL;
    }
    return sb->log[(sb->log_first + i) % CLV_SANDBOX_LOG_LINES];
}

long clv_sandbox_log_dropped(const clv_sandbox *sb) { return sb->log_dropped; }

void clv_sandbox_log_clear(clv_sandbox *sb) {
    sb->log_first = 0;
    sb->log_count = 0;
    sb->log_dropped = 0;
}

/* The name Lua shows for a chunk, for messages Lua gives without one. */
static void chunk_display(const char *chunkname, char *out, size_t outlen) {
    if (chunkname[0] == '@' || chunkname[0] == '=') {
        snprintf(out, outlen, "%s", chunkname + 1);
    } else {
        snprintf(out, outlen, "[string \"%.40s\"]", chunkname);
    }
}

/* false, with the function and its nargs arguments popped (none for -1) and a message in err,
 * when the sandbox cannot take a call now. */
static bool can_call(clv_sandbox *sb, int nargs, char *err, size_t errlen) {
    if (sb->L == NULL) {
        write_err(err, errlen, "sandbox: the sandbox is closed");
        return false;
    }
    if (sb->busy) {
        lua_pop(sb->L, nargs + 1);
        write_err(err, errlen, "sandbox: re-entrant use of a running sandbox");
        return false;
    }
    return true;
}

bool clv_sandbox_run(clv_sandbox *sb, const char *source, size_t len, const char *chunkname,
                     int nresults, char *err, size_t errlen) {
    if (!can_call(sb, -1, err, errlen)) {
        return false;
    }
    lua_State *L = sb->L;
    if (chunkname == NULL) {
        chunkname = "=mod";
    }
    if (!lua_checkstack(L, 3)) {
        write_err(err, errlen, "not enough memory");
        return false;
    }
    char name[64];
    chunk_display(chunkname, name, sizeof name);
    if (len > CLV_SANDBOX_MAX_SOURCE) {
        write_err(err, errlen, "%s: source larger than %d bytes", name, CLV_SANDBOX_MAX_SOURCE);
        return false;
    }
    /* Parsing and running share the load deadline. */
    start_deadline(sb, sb->limits.load_ms, "load");
    source_reader reader = {source, len, 0};
    int status = lua_load(L, read_source, &reader, chunkname, "t");
    if (status != LUA_OK) {
        stop_deadline(sb);
        const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "load failed";
        if (strncmp(msg, name, strlen(name)) == 0) {
            write_err(err, errlen, "%s", msg);
        } else {
            write_err(err, errlen, "%s: %s", name, msg);
        }
        lua_pop(L, 1);
        return false;
    }
    return protected_call(sb, 0, nresults, sb->limits.load_ms, "load", err, errlen);
}

bool clv_sandbox_run_file(clv_sandbox *sb, const char *path, int nresults, char *err,
                          size_t errlen) {
    /* O_NONBLOCK: opening a FIFO for reading would wait for a writer; only a regular file is
     * read, so a FIFO or a device never blocks the game. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        write_err(err, errlen, "%s: cannot open the file", path);
        return false;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        write_err(err, errlen, "%s: not a regular file", path);
        return false;
    }
    FILE *f = fdopen(fd, "rb");
    if (f == NULL) {
        close(fd);
        write_err(err, errlen, "not enough memory");
        return false;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    bool ok = buf != NULL;
    while (ok) {
        if (len == cap) {
            /* A source larger than the memory budget or the source limit could never load:
             * stop reading early. */
            if (cap >= sb->limits.memory_bytes) {
                ok = false;
                write_err(err, errlen, "%s: file larger than the mod's memory limit", path);
                break;
            }
            if (cap > CLV_SANDBOX_MAX_SOURCE) {
                ok = false;
                write_err(err, errlen, "%s: source larger than %d bytes", path,
                          CLV_SANDBOX_MAX_SOURCE);
                break;
            }
            char *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) {
                ok = false;
                write_err(err, errlen, "not enough memory");
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) {
                ok = false;
                write_err(err, errlen, "%s: cannot read the file", path);
            }
            break;
        }
    }
    fclose(f);
    if (ok) {
        size_t namelen = strlen(path) + 2;
        char *name = malloc(namelen);
        if (name == NULL) {
            write_err(err, errlen, "not enough memory");
            ok = false;
        } else {
            snprintf(name, namelen, "@%s", path);
            ok = clv_sandbox_run(sb, buf, len, name, nresults, err, errlen);
            free(name);
        }
    } else if (buf == NULL) {
        write_err(err, errlen, "not enough memory");
    }
    free(buf);
    return ok;
}

bool clv_sandbox_call(clv_sandbox *sb, int nargs, int nresults, char *err, size_t errlen) {
    if (!can_call(sb, nargs, err, errlen)) {
        return false;
    }
    bool ok = protected_call(sb, nargs, nresults, sb->limits.callback_ms, "callback", err, errlen);
    sb->faults = ok ? 0 : sb->faults + 1;
    return ok;
}

bool clv_sandbox_call_load(clv_sandbox *sb, int nargs, int nresults, char *err, size_t errlen) {
    return can_call(sb, nargs, err, errlen) &&
           protected_call(sb, nargs, nresults, sb->limits.load_ms, "load", err, errlen);
}

/* ---- Callbacks of a frame ---- */

void clv_sandbox_frame_begin(clv_sandbox *sb) {
    sb->frame_spent = 0;
    sb->frame_reported = false;
}

/* The strike record of callback key; NULL when none could be made (then none is kept). */
static struct strike *strike_of(clv_sandbox *sb, int key) {
    for (int i = 0; i < sb->strike_count; i++) {
        if (sb->strikes[i].key == key) {
            return &sb->strikes[i];
        }
    }
    if (sb->strike_count == sb->strike_cap) {
        int cap = sb->strike_cap > 0 ? 2 * sb->strike_cap : 8;
        struct strike *bigger = realloc(sb->strikes, (size_t)cap * sizeof *bigger);
        if (bigger == NULL) {
            return NULL;
        }
        sb->strikes = bigger;
        sb->strike_cap = cap;
    }
    struct strike *st = &sb->strikes[sb->strike_count++];
    st->key = key;
    st->count = 0;
    return st;
}

clv_callback_status clv_sandbox_call_callback(clv_sandbox *sb, int key, int nargs, char *err,
                                              size_t errlen) {
    if (sb->L == NULL) {
        write_err(err, errlen, "sandbox: the sandbox is closed");
        return CLV_CALLBACK_FAILED;
    }
    struct strike *st = strike_of(sb, key);
    double left_ms = sb->limits.frame_ms - sb->frame_spent * 1000.0;
    if ((st != NULL && st->count >= CLV_SANDBOX_STRIKES) || left_ms <= 0) {
        lua_pop(sb->L, nargs + 1);
        if (left_ms > 0 || sb->frame_reported) {
            return CLV_CALLBACK_SKIPPED;
        }
        sb->frame_reported = true;
        write_err(err, errlen,
                  "the mod's callbacks used up their %g ms of this frame; the rest of the "
                  "frame's callbacks are skipped",
                  sb->limits.frame_ms);
        return CLV_CALLBACK_FAILED;
    }
    if (sb->busy) {
        lua_pop(sb->L, nargs + 1);
        write_err(err, errlen, "sandbox: re-entrant use of a running sandbox");
        return CLV_CALLBACK_FAILED;
    }
    /* The frame's remainder stops a call before its own budget does: a timeout then says so,
     * and is not held against the callback. */
    bool frame_bound = left_ms < sb->limits.callback_ms;
    start_deadline(sb, frame_bound ? left_ms : sb->limits.callback_ms,
                   frame_bound ? "frame" : "callback");
    if (frame_bound) {
        sb->shown_ms = sb->limits.frame_ms;
    }
    bool ok = protected_call(sb, nargs, 0, sb->limits.callback_ms, "callback", err, errlen);
    sb->frame_spent += cpu_seconds() - sb->cpu_start;
    bool timed_out = !ok && sb->expired;
    sb->faults = ok ? 0 : sb->faults + 1;
    if (st != NULL && !frame_bound) {
        st->count = timed_out ? st->count + 1 : 0;
        if (st->count >= CLV_SANDBOX_STRIKES) {
            char line[CLV_SANDBOX_LOG_LINE];
            snprintf(line, sizeof line,
                     "cleave: a callback ran out of time %d times in a row and is disabled",
                     CLV_SANDBOX_STRIKES);
            clv_sandbox_log_add(sb, line);
            if (err != NULL && errlen > 0) {
                size_t used = strcspn(err, "\n");
                snprintf(err + used, errlen - used, " (%s)", line + strlen("cleave: "));
            }
        }
    }
    return ok ? CLV_CALLBACK_OK : CLV_CALLBACK_FAILED;
}
