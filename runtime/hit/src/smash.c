/* Knockback as platform fighters compute it: the formula their communities measured and
 * publish (ssbwiki "Knockback", "Sakurai angle"), written from that description. */
#include "hit_internal.h"

#include <math.h>

#include "cleave/body.h"

/* The Sakurai angle on the ground: flat below SAKURAI_LOW knockback, SAKURAI_HIGH_ANGLE from
 * SAKURAI_HIGH, linear between; in the air always SAKURAI_AIR_ANGLE (the Brawl values). */
#define SAKURAI_LOW 60.0f
#define SAKURAI_HIGH 88.0f
#define SAKURAI_HIGH_ANGLE 37.0f
#define SAKURAI_AIR_ANGLE 45.0f

static bool non_negative(float v) { return clv__finite(v) && v >= 0.0f; }

float clv_smash_knockback(const clv_smash_hit *hit, float percent, float weight) {
    if (hit == NULL || !non_negative(hit->damage) || !non_negative(hit->base) ||
        !non_negative(hit->growth) || !non_negative(hit->set) || !non_negative(percent) ||
        !clv__finite(weight) || !(weight > -100.0f)) {
        return NAN;
    }
    /* set knockback stands in for the damage terms: as if a hit of `set` damage landed on a
     * target at 10 percent */
    double p = hit->set > 0.0f ? 10.0 : (double)percent + (double)hit->damage;
    double d = hit->set > 0.0f ? (double)hit->set : (double)hit->damage;
    double kb = ((p / 10.0 + p * d / 20.0) * 200.0 / ((double)weight + 100.0) * 1.4 + 18.0) *
                    ((double)hit->growth / 100.0) +
                (double)hit->base;
    return (float)kb;
}

float clv_smash_angle(const clv_smash_hit *hit, float kb, bool grounded) {
    if (hit->angle != CLV_SMASH_SAKURAI_ANGLE) {
        return hit->angle;
    }
    if (!grounded) {
        return SAKURAI_AIR_ANGLE;
    }
    if (kb < SAKURAI_LOW) {
        return 0.0f;
    }
    if (kb >= SAKURAI_HIGH) {
        return SAKURAI_HIGH_ANGLE;
    }
    return (kb - SAKURAI_LOW) / (SAKURAI_HIGH - SAKURAI_LOW) * SAKURAI_HIGH_ANGLE;
}

float clv_smash_launch_speed(float kb) { return 0.03f * kb; }

int32_t clv_smash_hitstun(float kb) {
    double f = floor(0.4 * (double)kb);
    if (!(f > 0.0)) {
        return 0;
    }
    return f >= (double)CLV_ATTACK_MAX_FRAMES ? CLV_ATTACK_MAX_FRAMES : (int32_t)f;
}
