/* How long past its budget a `while true do end` runs before the sandbox stops it.
 * Not a test: a measurement for docs/reliability.md. Prints the budget, then min, median,
 * p99 and max of (time to return - budget) over RUNS calls, for a plain loop, a loop inside
 * nested pcalls and a pattern bomb.
 * Usage: sandbox_stop_bench [budget_ms] */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cleave/lua.h"
#include "sandbox.h"

#define RUNS 100

static double clock_ms(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }

/* CPU time of this thread: tells a slow stop from one the scheduler delayed (the deadline is
 * wall-clock, so a preempted game thread overruns by the time it was not running). */
static double cpu_ms(void) { return clock_ms(CLOCK_THREAD_CPUTIME_ID); }

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void measure(clv_sandbox *sb, const char *label, const char *name, double budget) {
    double over[RUNS], idle[RUNS];
    char err[512];
    lua_State *L = clv_sandbox_state(sb);
    for (int r = 0; r < RUNS; r++) {
        lua_getglobal(L, name);
        double t0 = now_ms(), c0 = cpu_ms();
        bool ok = clv_sandbox_call(sb, 0, 0, err, sizeof err);
        double wall = now_ms() - t0;
        over[r] = wall - budget;
        idle[r] = wall - (cpu_ms() - c0); /* time the thread was not on a CPU */
        if (ok || strstr(err, "time limit exceeded") == NULL) {
            fprintf(stderr, "%s: expected a timeout, got %s\n", label, ok ? "success" : err);
            exit(1);
        }
    }
    qsort(over, RUNS, sizeof over[0], by_value);
    qsort(idle, RUNS, sizeof idle[0], by_value);
    printf("%-14s overrun ms: min %.3f  median %.3f  p99 %.3f  max %.3f  "
           "(off-CPU p99 %.3f max %.3f)\n",
           label, over[0], over[RUNS / 2], over[(RUNS * 99 + 99) / 100 - 1], over[RUNS - 1],
           idle[(RUNS * 99 + 99) / 100 - 1], idle[RUNS - 1]);
}

int main(int argc, char **argv) {
    clv_sandbox_limits limits = clv_sandbox_default_limits();
    limits.api = luaopen_cleave;
    if (argc > 1) {
        limits.callback_ms = atof(argv[1]);
    }
    char err[512];
    clv_sandbox *sb = clv_sandbox_create(&limits, err, sizeof err);
    if (sb == NULL) {
        fprintf(stderr, "create: %s\n", err);
        return 1;
    }
    const char *src = "function spin() while true do end end\n"
                      "function nested() while true do pcall(function()\n"
                      "  while true do pcall(error) end end) end end\n"
                      "function bomb() while true do\n"
                      "  string.find(('a'):rep(200), ('a-'):rep(4) .. 'b') end end\n";
    if (!clv_sandbox_run(sb, src, strlen(src), "=bench", 0, err, sizeof err)) {
        fprintf(stderr, "load: %s\n", err);
        return 1;
    }
    printf("budget %.3f ms per callback, %d runs each\n", limits.callback_ms, RUNS);
    measure(sb, "while true", "spin", limits.callback_ms);
    measure(sb, "nested pcall", "nested", limits.callback_ms);
    measure(sb, "pattern bomb", "bomb", limits.callback_ms);
    clv_sandbox_destroy(sb);
    return 0;
}
