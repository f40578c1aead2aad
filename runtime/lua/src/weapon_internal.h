/* Private to cleave.weapon (weapon.c, weapon_hitbox.c): the state of one weapon compile and
 * the hitbox reader they share. */
#ifndef CLEAVE_LUA_WEAPON_INTERNAL_H
#define CLEAVE_LUA_WEAPON_INTERNAL_H

#include "cleave/body.h"
#include "internal.h"

/* State of one weapon compile. */
typedef struct wstate {
    clv_fctx c;
    clv_lweapon *w;
    int weapon_idx;    /* the weapon table */
    int defaults_idx;  /* weapon.defaults or 0 */
    int adefaults_idx; /* attack.defaults or 0 */
    int effects_idx;   /* weapon.effects or 0 */
    int32_t attack;    /* index of the attack being compiled */
    int32_t length;    /* its frames */
    int64_t frames;    /* of the weapon's attacks so far: bounded like cleave_hit's */
    int64_t placed;    /* hitboxes placed so far, one per hitbox and frame */
} wstate;

/* The fields a hitbox table may have, and those `defaults` may give (without id and frames). */
extern const char *const clv_lw_hitbox_fields[];
extern const char *const *const clv_lw_default_fields;

/* The hitbox table at hb read into out, with attack.defaults and weapon.defaults filling what it
 * does not give; errors name the field. */
void clv_lw_read_hitbox(wstate *s, int hb, clv_hitbox_def *out);

#endif
