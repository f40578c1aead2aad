/* Step 1 of the frame: advance attacks, place their hitboxes (swept from the frame before). */
#include "step_internal.h"

#include <math.h>
#include <string.h>

clv_vec2 clv__turn(const clv__pose *p, clv_vec2 v) {
    float y = p->mirror ? -v.y : v.y;
    return clv_v2(p->c * v.x - p->s * y, p->s * v.x + p->c * y);
}

static clv_vec2 place_point(const clv__pose *p, clv_vec2 v) {
    clv_vec2 r = clv__turn(p, v);
    return clv_v2(p->o.x + r.x, p->o.y + r.y);
}

clv_shape clv__core_of(const clv_shape *s) {
    clv_shape c = *s;
    if (s->type == CLV_CAPSULE) {
        c.u.capsule.r = 0.0f;
    } else if (s->type == CLV_CIRCLE) {
        c.u.circle.r = 0.0f;
    } else {
        clv_vec2 centre = s->type == CLV_OBB ? s->u.obb.c : s->u.point;
        c = clv_shape_point(centre.x, centre.y);
    }
    return c;
}

static clv_shape place_shape(const clv__pose *p, const clv_shape *s) {
    clv_shape r = *s;
    switch (s->type) {
    case CLV_CIRCLE:
        r.u.circle.c = place_point(p, s->u.circle.c);
        break;
    case CLV_CAPSULE:
        r.u.capsule.a = place_point(p, s->u.capsule.a);
        r.u.capsule.b = place_point(p, s->u.capsule.b);
        break;
    case CLV_OBB:
        r.u.obb.c = place_point(p, s->u.obb.c);
        r.u.obb.u = clv__turn(p, s->u.obb.u);
        break;
    default:
        break;
    }
    return r;
}

/* The pose of an attack, and the sine and cosine of its angle in double (the pose's are them
 * rounded to float, as clv_sincos rounds them). */
static clv__pose pose_of(const clv_arena *a, const clv__attack *at, double *sn, double *cs) {
    clv__pose p;
    p.o = at->offset;
    if (at->follow) {
        const clv__entity *o = &a->ent[at->owner.index1 - 1];
        p.o.x += o->pos.x;
        p.o.y += o->pos.y;
    }
    clv_sincos_d((double)at->facing, sn, cs);
    p.s = (float)*sn;
    p.c = (float)*cs;
    p.mirror = at->mirror;
    return p;
}

clv__pose clv__attack_pose(const clv_arena *a, const clv__attack *at) {
    double sn, cs;
    return pose_of(a, at, &sn, &cs);
}

clv_shape clv__place_shape(const clv__pose *p, const clv_shape *local) {
    return place_shape(p, local);
}

clv_shape clv__place_hitbox(const clv_arena *a, const clv__attack *at, const clv_shape *local) {
    clv__pose p = clv__attack_pose(a, at);
    return place_shape(&p, local);
}

/* World core ends of a placed round shape (a circle's centre twice). */
static void core_ends(const clv_shape *s, clv_vec2 *a, clv_vec2 *b) {
    if (s->type == CLV_CAPSULE) {
        *a = s->u.capsule.a;
        *b = s->u.capsule.b;
    } else {
        *a = *b = s->u.circle.c;
    }
}

/* nextafterf(f, up ? INFINITY : -INFINITY), without the call into libm: every swept hitbox
 * widens its bounds by four of them, and with a thousand projectiles in flight the calls cost
 * more than the rest of the bounds. */
static float next_out(float f, bool up) {
    if (isnan(f) || f == (up ? INFINITY : -INFINITY)) {
        return f;
    }
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if (f == 0.0f) {
        u = up ? 1u : 0x80000001u; /* the smallest subnormal of that sign */
    } else if ((f > 0.0f) == up) {
        u++; /* away from zero */
    } else {
        u--;
    }
    memcpy(&f, &u, sizeof f);
    return f;
}

static float round_up(double v) {
    float f = (float)v;
    return (double)f < v ? next_out(f, true) : f;
}

/* The angles of a sweep: th0 at its start, turning by dth; the sine and cosine of th1 (the
 * pose's angle) are known, and are reused for an angle equal to it bit for bit. */
typedef struct sweep_turn {
    double th0, dth, th1, s1, c1;
} sweep_turn;

/* The sine and cosine of the angle at each sub-step point k of n, into trig[2k], trig[2k + 1]. */
static void fill_trig(double *trig, int32_t n, const sweep_turn *t) {
    for (int32_t k = 0; k <= n; k++) {
        double th = t->th0 + t->dth * ((double)k / (double)n);
        if (k > 0 && t->dth == 0.0) {
            /* No turn (a projectile's flight): every angle is th0 + dth * 0, bit for bit. */
            trig[2 * k] = trig[0], trig[2 * k + 1] = trig[1];
        } else if (memcmp(&th, &t->th1, sizeof th) == 0) {
            trig[2 * k] = t->s1, trig[2 * k + 1] = t->c1;
        } else {
            clv_sincos_d(th, &trig[2 * k], &trig[2 * k + 1]);
        }
    }
}

/* The swept hitboxes of one attack, placed[first..end): every one that moved takes n sub-steps
 * (the most any of them needs), their cores written to a->sub, their bounds widened to cover
 * all sub-steps. Their nsub holds the sub-steps each needs and grow its rounding slack on entry. */
static clv_hit_status sweep_attack(clv_arena *a, int32_t first, int32_t end, int32_t n,
                                   const clv__pose *p0, const clv__pose *p1,
                                   const sweep_turn *turn) {
    if (!clv__reserve(&a->al, (void **)&a->trig, &a->trig_cap, 2 * (n + 1), sizeof *a->trig)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    fill_trig(a->trig, n, turn);
    double dx = (double)p1->o.x - (double)p0->o.x, dy = (double)p1->o.y - (double)p0->o.y;
    const clv__attack *at = &a->att[a->placed[first].attack1 - 1];
    const clv__aweapon *w = &a->weapons[at->weapon1 - 1];
    int32_t f = w->frame_base[at->attack] + at->frame;
    for (int32_t i = first; i < end; i++) {
        clv__placed *pl = &a->placed[i];
        if (pl->nsub == 0) {
            continue;
        }
        if (!clv__reserve(&a->al, (void **)&a->sub, &a->sub_cap, a->sub_count + 2 * (n + 1),
                          sizeof *a->sub)) {
            return CLV_HIT_ERR_NO_MEMORY;
        }
        pl->sub0 = a->sub_count;
        a->sub_count += 2 * (n + 1);
        clv_vec2 *q = &a->sub[pl->sub0];
        int32_t prev_box = w->prev[w->frame_start[f] + pl->pos];
        clv_shape before = place_shape(p0, &w->boxes[prev_box].def.shape);
        core_ends(&before, &q[0], &q[1]);
        core_ends(&pl->shape, &q[2 * n], &q[2 * n + 1]);
        for (int32_t k = 1; k < n; k++) {
            double sk = (double)k / (double)n;
            clv_swept_core(&pl->m, sk, a->trig[2 * k], a->trig[2 * k + 1],
                           (double)p0->o.x + sk * dx, (double)p0->o.y + sk * dy, &q[2 * k],
                           &q[2 * k + 1]);
        }
        pl->grow = round_up(clv_swept_bend(&pl->m, n) + (double)pl->grow);
        pl->r0 = (float)pl->m.r0;
        pl->r1 = (float)pl->m.r1;
        pl->nsub = n;
        clv_aabb b = pl->bounds;
        for (int32_t k = 0; k < 2 * (n + 1); k++) {
            b.min.x = q[k].x < b.min.x ? q[k].x : b.min.x;
            b.min.y = q[k].y < b.min.y ? q[k].y : b.min.y;
            b.max.x = q[k].x > b.max.x ? q[k].x : b.max.x;
            b.max.y = q[k].y > b.max.y ? q[k].y : b.max.y;
        }
        float g = (pl->r0 > pl->r1 ? pl->r0 : pl->r1) + pl->grow + a->miss_margin;
        b.min.x = next_out(b.min.x - g, false);
        b.min.y = next_out(b.min.y - g, false);
        b.max.x = next_out(b.max.x + g, true);
        b.max.y = next_out(b.max.y + g, true);
        pl->bounds = b;
    }
    return CLV_HIT_OK;
}

/* Advances attack s by a frame; false when it is frozen or has ended. */
static bool advance(clv_arena *a, int32_t s) {
    clv__attack *at = &a->att[s];
    if (at->projectile) {
        return clv__projectile_advance(a, s); /* no owner's hitlag holds it */
    }
    /* Attacks end with their owner, so the owner slot is live. */
    if (a->ent[at->owner.index1 - 1].frozen) {
        return false;
    }
    at->frame++;
    at->elapsed++;
    if (at->frame >= a->weapons[at->weapon1 - 1].attacks[at->attack].frames) {
        clv__attack_end(a, s);
        return false;
    }
    return true;
}

clv_hit_status clv__place(clv_arena *a) {
    static const double two_pi = 2.0 * CLV_PI;
    a->placed_count = 0;
    a->sub_count = 0;
    for (int32_t s = 0; s < a->att_count; s++) {
        clv__attack *at = &a->att[s];
        at->active = 0;
        if (!at->used) {
            continue;
        }
        if (!advance(a, s)) {
            continue;
        }
        const clv__aweapon *w = &a->weapons[at->weapon1 - 1];
        at->active = 1;
        double s1, c1;
        clv__pose p = pose_of(a, at, &s1, &c1);
        /* The pose of the frame before: every frame but the first follows a placement (a
         * looping projectile's first frame too, after the first time). */
        bool has_prev = at->projectile ? at->elapsed >= 2 : at->frame >= 1;
        clv__pose p0 = p;
        double dth = 0.0, dx = 0.0, dy = 0.0;
        if (has_prev) {
            p0.o = at->prev_o;
            if (memcmp(&at->prev_facing, &at->facing, sizeof at->facing) != 0) {
                clv_sincos(at->prev_facing, &p0.s, &p0.c); /* else p's, the same angle */
            }
            p0.mirror = at->prev_mirror;
            double d = (double)at->facing - (double)at->prev_facing;
            dth = d - two_pi * floor(d / two_pi + 0.5);
            dx = (double)p.o.x - (double)p0.o.x;
            dy = (double)p.o.y - (double)p0.o.y;
        }
        double th0 = (double)at->prev_facing;
        at->prev_o = p.o;
        at->prev_facing = at->facing;
        at->prev_mirror = p.mirror;
        int32_t f = w->frame_base[at->attack] + at->frame;
        int32_t first = w->frame_start[f], end = w->frame_start[f + 1];
        if (!clv__reserve(&a->al, (void **)&a->placed, &a->placed_cap,
                          a->placed_count + (end - first), sizeof *a->placed)) {
            return CLV_HIT_ERR_NO_MEMORY;
        }
        int32_t base = a->placed_count, n = 0;
        for (int32_t k = first; k < end; k++) {
            clv__placed *pl = &a->placed[a->placed_count++];
            pl->attack1 = (uint32_t)s + 1;
            pl->pos = k - first;
            pl->box = w->list[k];
            const clv_hitbox_def *def = &w->boxes[pl->box].def;
            pl->shape = place_shape(&p, &def->shape);
            pl->core = clv__core_of(&pl->shape);
            pl->bounds = clv_shape_bounds(&pl->shape);
            pl->bounds.min.x -= a->miss_margin;
            pl->bounds.min.y -= a->miss_margin;
            pl->bounds.max.x += a->miss_margin;
            pl->bounds.max.y += a->miss_margin;
            pl->nsub = 0;
            pl->sub0 = 0;
            pl->r0 = pl->r1 = pl->grow = 0.0f;
            int32_t pb = has_prev && def->sweep ? w->prev[k] : -1;
            if (pb < 0 || !clv_swept_init(&pl->m, &w->boxes[pb].def.shape, p0.mirror != 0,
                                          &def->shape, p.mirror != 0)) {
                continue;
            }
            clv_swept_move(&pl->m, dth, dx, dy, p.o);
            if (!clv_swept_still(&pl->m)) {
                pl->nsub = clv_swept_substeps(&pl->m, (double)a->sweep_tol, CLV__MAX_SUBSTEPS);
                pl->grow = round_up(pl->m.slack);
                n = pl->nsub > n ? pl->nsub : n;
            }
        }
        if (n > 0) {
            sweep_turn turn = {th0, dth, (double)at->facing, s1, c1};
            clv_hit_status st = sweep_attack(a, base, a->placed_count, n, &p0, &p, &turn);
            if (st != CLV_HIT_OK) {
                return st;
            }
        }
    }
    return CLV_HIT_OK;
}
