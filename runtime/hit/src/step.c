/* One arena frame, in the order of docs/hit-rules.md. */
#include "step_internal.h"

#include <math.h>
#include <string.h>

static uint64_t clock_now(const clv_arena *a) {
    return a->clock_ns != NULL ? a->clock_ns(a->clock_ctx) : 0;
}

/* ---- 0. timers, movement, status effects ---- */

static clv_hit_status push_tick(clv_arena *a, const clv_tick_event *t) {
    if (!clv__reserve(&a->al, (void **)&a->ticks, &a->tick_cap, a->tick_count + 1,
                      sizeof *a->ticks)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    a->ticks[a->tick_count++] = *t;
    return CLV_HIT_OK;
}

static clv_hit_status tick_effects(clv_arena *a, int32_t s) {
    clv__entity *e = &a->ent[s];
    clv__effect *fx = &a->fx[(size_t)s * CLV_ENTITY_MAX_EFFECTS];
    int32_t kept = 0;
    for (int32_t k = 0; k < e->effect_count; k++) {
        clv__effect f = fx[k];
        f.elapsed++;
        bool ticks = f.elapsed % f.period == 0;
        bool expired = f.elapsed >= f.duration;
        if (ticks || expired) {
            clv_tick_event t;
            memset(&t, 0, sizeof t);
            t.frame = a->frame;
            t.target.index1 = (uint32_t)s + 1;
            t.target.gen = e->gen;
            t.weapon = f.weapon;
            memcpy(t.name, f.name, sizeof t.name);
            t.magnitude = f.magnitude;
            t.expired = expired;
            clv__vitals *v = &a->vit[s];
            if (ticks && f.damages && v->hp > 0.0f) {
                v->hp = clv__clamp_world(v->hp - f.magnitude);
                v->damage_taken = clv__clamp_world(v->damage_taken + f.magnitude);
                t.damage = f.magnitude;
                t.killed = v->hp <= 0.0f;
            }
            if (push_tick(a, &t) != CLV_HIT_OK) {
                return CLV_HIT_ERR_NO_MEMORY;
            }
        }
        if (!expired) {
            fx[kept++] = f;
        }
    }
    for (int32_t k = kept; k < e->effect_count; k++) {
        memset(&fx[k], 0, sizeof fx[k]);
    }
    e->effect_count = kept;
    return CLV_HIT_OK;
}

/* Timers, movement and effects of a live slot that has a timer, an effect or friction. */
static clv_hit_status integrate_busy(clv_arena *a, int32_t s) {
    clv__entity *e = &a->ent[s];
    if (e->hitlag > 0) {
        e->hitlag--;
        e->frozen = 1;
        return CLV_HIT_OK;
    }
    e->frozen = 0;
    if (e->state_frames > 0) {
        a->timed_count++;
    }
    if (e->hitstun > 0) {
        e->hitstun--;
    }
    if (e->vel.x != 0.0f || e->vel.y != 0.0f) {
        e->pos.x = clv__clamp_world(e->pos.x + e->vel.x);
        e->pos.y = clv__clamp_world(e->pos.y + e->vel.y);
        if (e->friction > 0.0f) {
            float speed = sqrtf(e->vel.x * e->vel.x + e->vel.y * e->vel.y);
            if (speed <= e->friction) {
                e->vel = clv_v2(0.0f, 0.0f);
            } else {
                float k = (speed - e->friction) / speed;
                e->vel.x *= k;
                e->vel.y *= k;
            }
        }
        clv__entity_update_bounds(a, s);
    }
    if (e->effect_count > 0 && tick_effects(a, s) != CLV_HIT_OK) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    return CLV_HIT_OK;
}

/* Most entities of a crowd have no timer, effect or friction and are not frozen: they only
 * move, with their bounds. Their pass keeps the arena's arrays in locals, which no store can
 * change (through the arena, the compiler must reload them after every byte stored), and hands
 * every other live slot to integrate_busy. */
static clv_hit_status integrate(clv_arena *a) {
    a->timed_count = 0;
    clv__entity *ent = a->ent;
    float *bx = a->bx, *by = a->by, *br = a->br;
    const clv__combat *cmb = a->cmb;
    const int32_t n = a->ent_count;
    for (int32_t s = 0; s < n; s++) {
        clv__entity *e = &ent[s];
        if (!e->used) {
            continue;
        }
        if ((e->hitlag | e->state_frames | e->hitstun | e->effect_count | e->frozen) != 0 ||
            e->friction > 0.0f) {
            if (integrate_busy(a, s) != CLV_HIT_OK) {
                return CLV_HIT_ERR_NO_MEMORY;
            }
            continue;
        }
        /* still (+0 or -0 on both axes), told from the bits: fewer branches than two compares */
        uint32_t vxb, vyb;
        memcpy(&vxb, &e->vel.x, sizeof vxb);
        memcpy(&vyb, &e->vel.y, sizeof vyb);
        if (((vxb | vyb) & 0x7fffffffu) == 0) {
            continue;
        }
        e->pos.x = clv__clamp_world(e->pos.x + e->vel.x);
        e->pos.y = clv__clamp_world(e->pos.y + e->vel.y);
        bool far = e->hurt_count == 0 && (cmb == NULL || cmb[s].body1 == 0);
        /* as clv__entity_update_bounds */
        bx[s] = far ? 3.0e38f : e->pos.x + e->local_centre.x;
        by[s] = far ? 3.0e38f : e->pos.y + e->local_centre.y;
        br[s] = far ? 0.0f : e->local_half;
    }
    return CLV_HIT_OK;
}

/* ---- 9. timed hurt states ----
 * Counted down after the hits, so that a state set between steps for n frames covers the next
 * n frames' hits (n = 1 included); an entity frozen on this frame waits. */
static void count_states(clv_arena *a) {
    /* Only the entities integrate counted have a state to count down: the walk stops after the
     * last of them, and a frame without one (the usual case) walks nothing. */
    int32_t left = a->timed_count;
    for (int32_t s = 0; s < a->ent_count && left > 0; s++) {
        clv__entity *e = &a->ent[s];
        if (!e->used || e->frozen || e->state_frames == 0) {
            continue;
        }
        left--;
        e->state_frames--;
        if (e->state_frames == 0) {
            a->vit[s].state = CLV_HURT_NORMAL;
        }
    }
}

clv_hit_status clv_arena_step(clv_arena *a) {
    if (a == NULL) {
        return CLV_HIT_ERR_NULL;
    }
    if (a->frame >= CLV_ARENA_MAX_FRAME) {
        return CLV_HIT_ERR_NUMBER;
    }
    clv__events_clear(a);
    memset(&a->profile, 0, sizeof a->profile);
    a->frame++;
    uint64_t t0 = clock_now(a);
    clv_hit_status st = integrate(a);
    clv__combat_step(a);
    uint64_t t1 = clock_now(a);
    if (st == CLV_HIT_OK) {
        st = clv__place(a);
    }
    if (st == CLV_HIT_OK) {
        st = clv__carry(a);
    }
    uint64_t t2 = clock_now(a);
    if (st == CLV_HIT_OK) {
        st = clv__broadphase(a);
    }
    uint64_t t3 = clock_now(a);
    if (st == CLV_HIT_OK) {
        clv__narrowphase(a);
    }
    uint64_t t4 = clock_now(a);
    if (st == CLV_HIT_OK) {
        st = clv__meet(a);
    }
    if (st == CLV_HIT_OK) {
        st = clv__rules(a);
    }
    if (st == CLV_HIT_OK) {
        clv__end_stopped(a);
        count_states(a);
    }
    uint64_t t5 = clock_now(a);
    a->profile.integrate = t1 - t0;
    a->profile.place = t2 - t1;
    a->profile.broadphase = t3 - t2;
    a->profile.narrowphase = t4 - t3;
    a->profile.rules = t5 - t4;
    return st;
}
