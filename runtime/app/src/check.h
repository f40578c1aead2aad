/* The frame data `cleave check` prints, and the formats it prints it in. */
#ifndef CLEAVE_APP_CHECK_H
#define CLEAVE_APP_CHECK_H

#include "app.h"

/// A run of consecutive frames in which one hitbox keeps the same hit data.
typedef struct check_row {
    const clv_hitbox_def *h;
    int32_t first, last; ///< 0-based frames of the run
    float kb_speed;      ///< launch speed given to the default target (weight 1, 0 percent)
    int32_t hitlag, hitstun;
    int32_t on_hit;    ///< the attacker's frame advantage when the run's first frame hits
    int32_t blockstun; ///< frames a guard that blocks the hit is stunned
    int32_t on_block;  ///< the attacker's frame advantage when the run's first frame is blocked
    bool blockable;    ///< false for grabs and unblockable hitboxes: no guard stops them
} check_row;

typedef struct check_out check_out;

/// A format: called for the mod, each weapon (same_as names the first name of a weapon listed
/// twice), each attack (readable is false when its definition cannot be read) and each row.
typedef struct check_format {
    const char *name;
    /// NULL when the format is not built in; missing then says what it needs.
    bool (*begin)(check_out *o, const char *mod, const char *version, const char *dir,
                  int32_t weapons);
    void (*weapon)(check_out *o, const char *name, const char *same_as, int32_t attacks);
    void (*attack)(check_out *o, const app_attack_facts *f, bool readable);
    void (*hitbox)(check_out *o, const app_attack_facts *f, const check_row *r);
    /// Finishes the output; ok says whether every weapon was read. false on a write error.
    bool (*end)(check_out *o, bool ok);
    const char *missing;
} check_format;

struct check_json;

struct check_out {
    const check_format *fmt;
    char mod[CLV_HIT_NAME_MAX * 4], weapon[CLV_HIT_NAME_MAX * 4];
    struct check_json *json;
};

/// The format of that name, NULL when there is none.
const check_format *app_check_format(const char *name);
/// The JSON format (check_json.c), built with cJSON when it was found.
extern const check_format app_check_json;

/// A hitbox's clash rule and kind as a mod spells them ("normal", "transcend", "trade"; "hit",
/// "reflect", "absorb", "grab").
const char *app_clash_text(clv_clash_rule rule);
const char *app_kind_text(clv_hitbox_kind kind);
/// The kind of hitbox h for the text formats: a reflecting one with what it does to what it
/// turns back ("reflect (speed x1.5 damage x2 along facing)": no comma, a CSV field as it
/// is), else app_kind_text.
const char *app_kind_detail(const clv_hitbox_def *h, char *buf, size_t n);
/// A frame count a mod may leave to the arena (rebound, parry_stun): "auto" or the number.
const char *app_frames_text(int32_t frames, char *buf, size_t n);

/// The shortest decimal text that reads back as exactly the float v ("0.1", "-30", "1e+30").
const char *app_float_text(float v, char *buf, size_t n);

/// Text a mod gave, made safe for a terminal (see clv_mod_escape).
#define SHOWN(s, buf) clv_mod_escape((s), (buf), sizeof(buf))

#endif
