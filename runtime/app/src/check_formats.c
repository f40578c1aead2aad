/* The text formats of `cleave check`: a table for people, CSV for spreadsheets, Markdown for
 * wikis. Every name a mod gave is escaped first (SHOWN), so no format can carry a control byte. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cleave/mod.h"

const char *app_float_text(float v, char *buf, size_t n) {
    if (v == 0.0f) {
        snprintf(buf, n, "0"); /* -0 too: both place and hit alike */
        return buf;
    }
    if (v == truncf(v) && fabsf(v) < 1e9f) {
        snprintf(buf, n, "%.0f", (double)v); /* "20", where %g would give "2e+01" */
        return buf;
    }
    for (int digits = 1; digits <= 9; digits++) {
        snprintf(buf, n, "%.*g", digits, (double)v);
        if (strtof(buf, NULL) == v) {
            break;
        }
    }
    return buf;
}

const char *app_clash_text(clv_clash_rule rule) {
    static const char *const names[] = {"normal", "transcend", "trade"};
    return (unsigned)rule < 3u ? names[rule] : "?";
}

const char *app_kind_text(clv_hitbox_kind kind) {
    static const char *const names[] = {"hit", "reflect", "absorb", "grab"};
    return (unsigned)kind < 4u ? names[kind] : "?";
}

const char *app_kind_detail(const clv_hitbox_def *h, char *buf, size_t n) {
    if (h->kind != CLV_HITBOX_REFLECT) {
        return app_kind_text(h->kind);
    }
    char speed[32], damage[32];
    snprintf(buf, n, "reflect (speed x%s damage x%s along %s)",
             app_float_text(h->reflect_speed, speed, sizeof speed),
             app_float_text(h->reflect_damage, damage, sizeof damage),
             h->reflect_along_facing ? "facing" : "normal");
    return buf;
}

const char *app_frames_text(int32_t frames, char *buf, size_t n) {
    if (frames == CLV_FRAMES_AUTO) {
        snprintf(buf, n, "auto");
    } else {
        snprintf(buf, n, "%d", (int)frames);
    }
    return buf;
}

/* The smash formula's numbers: "b30 g100", with " s5" when set knockback stands in. */
static const char *smash_terms(const clv_knockback *k, char *buf, size_t n) {
    int used = snprintf(buf, n, "b%.3g g%.3g", (double)k->base, (double)k->growth);
    if (k->set > 0.0f && used >= 0 && (size_t)used < n) {
        snprintf(buf + used, n - (size_t)used, " s%.3g", (double)k->set);
    }
    return buf;
}

/* A grab holds its target and pushes it nowhere, whatever knockback it names. */
static const char *kb_text(const clv_hitbox_def *h, char *buf, size_t n) {
    const clv_knockback *k = &h->knockback;
    switch (h->kind == CLV_HITBOX_GRAB ? CLV_KNOCKBACK_NONE : k->kind) {
    case CLV_KNOCKBACK_NONE:
        snprintf(buf, n, "none");
        break;
    case CLV_KNOCKBACK_FIXED:
        snprintf(buf, n, "fixed (%.3g, %.3g)", (double)k->vector.x, (double)k->vector.y);
        break;
    case CLV_KNOCKBACK_SCALING:
        snprintf(buf, n, "%.0fdeg %.3g+%.3g*dmg", (double)(k->angle * (float)(180.0 / CLV_PI)),
                 (double)k->base, (double)k->growth);
        break;
    case CLV_KNOCKBACK_RADIAL:
        snprintf(buf, n, "radial %.3g+%.3g*dmg", (double)k->base, (double)k->growth);
        break;
    case CLV_KNOCKBACK_SMASH: {
        int used = k->sakurai ? snprintf(buf, n, "smash sakurai ")
                              : snprintf(buf, n, "smash %.0fdeg ",
                                         (double)(k->angle * (float)(180.0 / CLV_PI)));
        if (used >= 0 && (size_t)used < n) {
            smash_terms(k, buf + used, n - (size_t)used);
        }
        break;
    }
    default:
        snprintf(buf, n, "?");
        break;
    }
    return buf;
}

/* Blockstun and frame advantage on block: "-" for a hit no guard stops. */
static const char *block_text(const check_row *r, bool advantage, char *buf, size_t n) {
    if (!r->blockable) {
        snprintf(buf, n, "-");
    } else {
        snprintf(buf, n, advantage ? "%+d" : "%d", (int)(advantage ? r->on_block : r->blockstun));
    }
    return buf;
}

static const char *shape_name(clv_shape_type t) {
    static const char *names[] = {"point", "circle", "capsule", "aabb", "obb"};
    return (unsigned)t < 5u ? names[t] : "?";
}

/* "6" or "6-11": 1-based frames first..last. */
static const char *range_text(int32_t first, int32_t last, char *buf, size_t n) {
    if (first == last) {
        snprintf(buf, n, "%d", (int)first + 1);
    } else {
        snprintf(buf, n, "%d-%d", (int)first + 1, (int)last + 1);
    }
    return buf;
}

static const char *effects_text(const clv_hitbox_def *h, char *fx, size_t n) {
    fx[0] = '\0';
    for (int32_t e = 0; e < h->effect_count; e++) {
        size_t used = strlen(fx);
        char ename[CLV_HIT_NAME_MAX * 4];
        snprintf(fx + used, n - used, "%s%s %gx%.3g/%df", used ? ", " : "",
                 SHOWN(h->effects[e].name, ename),
                 (double)(h->effects[e].duration / h->effects[e].period),
                 (double)h->effects[e].magnitude, (int)h->effects[e].period);
    }
    if (fx[0] == '\0') {
        snprintf(fx, n, "-");
    }
    return fx;
}

/* ---- table ---- */

static bool table_begin(check_out *o, const char *mod, const char *version, const char *dir,
                        int32_t weapons) {
    char v[256], d[1024];
    printf("mod %s %s (%s): %d weapon(s), valid\n", SHOWN(mod, o->mod), SHOWN(version, v),
           SHOWN(dir, d), (int)weapons);
    return true;
}

static void table_weapon(check_out *o, const char *name, const char *same_as, int32_t attacks) {
    char first[CLV_HIT_NAME_MAX * 4];
    if (same_as != NULL) {
        printf("weapon %s: the same weapon as %s\n", SHOWN(name, o->weapon), SHOWN(same_as, first));
    } else {
        printf("weapon %s: %d attack(s)\n", SHOWN(name, o->weapon), (int)attacks);
    }
}

static void table_attack(check_out *o, const app_attack_facts *f, bool readable) {
    (void)o;
    char name[CLV_HIT_NAME_MAX * 4];
    SHOWN(f->name, name);
    if (!readable) {
        printf("  %s: cannot read its definition\n", name);
    } else if (f->active_first < 0) {
        printf("  %s: %d frames, no hitbox\n", name, (int)f->frames);
    } else {
        char rebound[16];
        printf("  %s: %d frames  startup %d  active %d-%d (%d frames)  recovery %d  rebound %s\n",
               name, (int)f->frames, (int)f->startup, (int)f->active_first + 1,
               (int)f->active_last + 1, (int)f->active_count, (int)f->recovery,
               app_frames_text(f->rebound, rebound, sizeof rebound));
        printf("    %-12s %-7s %-8s %5s %6s %-24s %4s %6s %7s %6s %5s %8s %4s %-9s %-7s %5s %s\n",
               "hitbox", "frames", "shape", "group", "damage", "knockback", "hits", "hitlag",
               "hitstun", "on-hit", "block", "on-block", "prio", "clash", "kind", "parry",
               "effects");
    }
}

static void table_hitbox(check_out *o, const app_attack_facts *f, const check_row *r) {
    (void)o, (void)f;
    const clv_hitbox_def *h = r->h;
    char id[CLV_HIT_NAME_MAX * 4], range[24], kb[48], fx[96], hits[12], parry[16], bs[16], ob[16];
    char kd[96];
    if (h->max_hits > 0) {
        snprintf(hits, sizeof hits, "%d%s", (int)h->max_hits,
                 h->knockback_ignores_hit_count ? "+" : "");
    } else {
        snprintf(hits, sizeof hits, "-");
    }
    /* a reflecting hitbox's detail ends the row, so that the columns stay in line */
    const bool reflects = h->kind == CLV_HITBOX_REFLECT;
    printf(
        "    %-12s %-7s %-8s %5d %6.3g %-24s %4s %6d %7d %+6d %5s %8s %4d %-9s %-7s %5s %s%s%s\n",
        SHOWN(h->id, id), range_text(r->first, r->last, range, sizeof range),
        shape_name(h->shape.type), (int)h->group, (double)h->damage, kb_text(h, kb, sizeof kb),
        hits, (int)r->hitlag, (int)r->hitstun, (int)r->on_hit, block_text(r, false, bs, sizeof bs),
        block_text(r, true, ob, sizeof ob), (int)h->priority, app_clash_text(h->clash),
        app_kind_text(h->kind), app_frames_text(h->parry_stun, parry, sizeof parry),
        effects_text(h, fx, sizeof fx), reflects ? "  " : "",
        reflects ? app_kind_detail(h, kd, sizeof kd) : "");
}

static bool stdout_end(check_out *o, bool ok) {
    (void)o, (void)ok;
    return fflush(stdout) == 0 && !ferror(stdout);
}

/* ---- CSV (RFC 4180: a field with a comma, quote or line break is quoted) ---- */

static void csv_field(const char *s, const char *sep) {
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, stdout);
    } else {
        putchar('"');
        for (; *s; s++) {
            if (*s == '"') {
                putchar('"');
            }
            putchar(*s);
        }
        putchar('"');
    }
    fputs(sep, stdout);
}

static bool csv_begin(check_out *o, const char *mod, const char *version, const char *dir,
                      int32_t weapons) {
    (void)version, (void)dir, (void)weapons;
    SHOWN(mod, o->mod);
    /* the columns of attacks that meet come last, so the others keep their places */
    puts("mod,weapon,attack,frames,startup,active,recovery,hitbox,hitbox_frames,shape,group,"
         "damage,knockback,kb_speed,max_hits,hitlag,hitstun,priority,on_hit,clash,kind,"
         "parry_stun,rebound,blockstun,on_block");
    return true;
}

static void csv_weapon(check_out *o, const char *name, const char *same_as, int32_t attacks) {
    (void)same_as, (void)attacks;
    SHOWN(name, o->weapon);
}

/* The columns every row of an attack shares, up to and including recovery. */
static void csv_attack_cells(const check_out *o, const app_attack_facts *f) {
    char name[CLV_HIT_NAME_MAX * 4], active[24];
    csv_field(o->mod, ",");
    csv_field(o->weapon, ",");
    csv_field(SHOWN(f->name, name), ",");
    printf("%d,%d,%s,%d,", (int)f->frames, (int)f->startup,
           f->active_first < 0 ? "" : range_text(f->active_first, f->active_last, active, 24),
           (int)f->recovery);
}

static void csv_attack(check_out *o, const app_attack_facts *f, bool readable) {
    if (readable && f->active_first < 0) {
        csv_attack_cells(o, f);
        char rebound[16];
        printf(",,,,,,,,,,,,,,,%s,,\n", app_frames_text(f->rebound, rebound, sizeof rebound));
    }
}

static void csv_hitbox(check_out *o, const app_attack_facts *f, const check_row *r) {
    const clv_hitbox_def *h = r->h;
    char id[CLV_HIT_NAME_MAX * 4], range[24], kb[48], num[32], parry[16], rebound[16], kd[96];
    csv_attack_cells(o, f);
    csv_field(SHOWN(h->id, id), ",");
    printf("%s,%s,%d,", range_text(r->first, r->last, range, sizeof range),
           shape_name(h->shape.type), (int)h->group);
    printf("%s,", app_float_text(h->damage, num, sizeof num));
    csv_field(kb_text(h, kb, sizeof kb), ",");
    printf("%s,%d,%d,%d,%d,%d,%s,%s,%s,%s,", app_float_text(r->kb_speed, num, sizeof num),
           (int)h->max_hits, (int)r->hitlag, (int)r->hitstun, (int)h->priority, (int)r->on_hit,
           app_clash_text(h->clash), app_kind_detail(h, kd, sizeof kd),
           app_frames_text(h->parry_stun, parry, sizeof parry),
           app_frames_text(f->rebound, rebound, sizeof rebound));
    if (r->blockable) {
        printf("%d,%d\n", (int)r->blockstun, (int)r->on_block);
    } else {
        puts(","); /* no guard stops it: no blockstun */
    }
}

/* ---- Markdown: one table per weapon ---- */

/* s with each '|' escaped, so a cell cannot end early. */
static void md_cell(const char *s) {
    fputs("| ", stdout);
    for (; *s; s++) {
        if (*s == '|') {
            putchar('\\');
        }
        putchar(*s);
    }
    putchar(' ');
}

static bool md_begin(check_out *o, const char *mod, const char *version, const char *dir,
                     int32_t weapons) {
    (void)dir, (void)weapons;
    char v[256];
    SHOWN(mod, o->mod);
    printf("## %s %s\n", o->mod, SHOWN(version, v));
    return true;
}

static void md_weapon(check_out *o, const char *name, const char *same_as, int32_t attacks) {
    (void)attacks;
    char first[CLV_HIT_NAME_MAX * 4];
    printf("\n### %s\n\n", SHOWN(name, o->weapon));
    if (same_as != NULL) {
        printf("The same weapon as %s.\n", SHOWN(same_as, first));
        return;
    }
    puts("| attack | frames | startup | active | recovery | rebound | hitbox | hitbox frames | "
         "damage | knockback | hitlag | hitstun | on hit | blockstun | on block | clash | kind | "
         "parry stun |");
    puts("|---|---:|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---|---|---:|");
}

static void md_attack_cells(const app_attack_facts *f) {
    char name[CLV_HIT_NAME_MAX * 4], active[24], rebound[16];
    md_cell(SHOWN(f->name, name));
    printf("| %d | %d | %s | %d | %s ", (int)f->frames, (int)f->startup,
           f->active_first < 0 ? "-" : range_text(f->active_first, f->active_last, active, 24),
           (int)f->recovery, app_frames_text(f->rebound, rebound, sizeof rebound));
}

static void md_attack(check_out *o, const app_attack_facts *f, bool readable) {
    (void)o;
    if (readable && f->active_first < 0) {
        md_attack_cells(f);
        puts("| - | - | - | - | - | - | - | - | - | - | - | - |");
    }
}

static void md_hitbox(check_out *o, const app_attack_facts *f, const check_row *r) {
    (void)o;
    char id[CLV_HIT_NAME_MAX * 4], range[24], kb[48], num[32], parry[16], bs[16], ob[16];
    char kd[96];
    md_attack_cells(f);
    md_cell(SHOWN(r->h->id, id));
    printf("| %s | %s ", range_text(r->first, r->last, range, sizeof range),
           app_float_text(r->h->damage, num, sizeof num));
    md_cell(kb_text(r->h, kb, sizeof kb));
    printf("| %d | %d | %+d | %s | %s | %s | %s | %s |\n", (int)r->hitlag, (int)r->hitstun,
           (int)r->on_hit, block_text(r, false, bs, sizeof bs), block_text(r, true, ob, sizeof ob),
           app_clash_text(r->h->clash), app_kind_detail(r->h, kd, sizeof kd),
           app_frames_text(r->h->parry_stun, parry, sizeof parry));
}

static const check_format formats[] = {
    {"table", table_begin, table_weapon, table_attack, table_hitbox, stdout_end, NULL},
    {"csv", csv_begin, csv_weapon, csv_attack, csv_hitbox, stdout_end, NULL},
    {"markdown", md_begin, md_weapon, md_attack, md_hitbox, stdout_end, NULL},
};

const check_format *app_check_format(const char *name) {
    if (strcmp(name, app_check_json.name) == 0) {
        return &app_check_json;
    }
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (strcmp(name, formats[i].name) == 0) {
            return &formats[i];
        }
    }
    return NULL;
}
