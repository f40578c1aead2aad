/* Step 1 of the frame: advance attacks, place their hitboxes (swept from the frame before). */
#include "step_internal.h"

#include <math.h>
#include <string.h>
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

static inline clv_vec2 turn(const clv__pose *p, clv_vec2 v) {
    float y = p->mirror ? -v.y : v.y;
    return clv_v2(p->c * v.x - p->s * y, p->s * v.x + p->c * y);
}

clv_vec2 clv__turn(const clv__pose *p, clv_vec2 v) { return turn(p, v); }

static inline clv_vec2 place_point(const clv__pose *p, clv_vec2 v) {
    clv_vec2 r = turn(p, v);
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

/* Writes the shape s moved to pose p into *r, field by field: the placing loop then reads
 * back what it wrote at the width it wrote it. */
static void place_into(const clv__pose *p, const clv_shape *s, clv_shape *r) {
    r->type = s->type;
    switch (s->type) {
    case CLV_CIRCLE:
        r->u.circle.c = place_point(p, s->u.circle.c);
        r->u.circle.r = s->u.circle.r;
        break;
    case CLV_CAPSULE:
        r->u.capsule.a = place_point(p, s->u.capsule.a);
        r->u.capsule.b = place_point(p, s->u.capsule.b);
        r->u.capsule.r = s->u.capsule.r;
        break;
    case CLV_OBB:
        r->u.obb = s->u.obb;
        r->u.obb.c = place_point(p, s->u.obb.c);
        r->u.obb.u = turn(p, s->u.obb.u);
        break;
    default:
        *r = *s;
        break;
    }
}

static clv_shape place_shape(const clv__pose *p, const clv_shape *s) {
    clv_shape r = *s;
    place_into(p, s, &r);
    return r;
}

/* The pose of an attack whose angle has sine sn and cosine cs in double (the pose's are them
 * rounded to float, as clv_sincos rounds them). */
static clv__pose pose_with(const clv_arena *a, const clv__attack *at, double sn, double cs) {
    clv__pose p;
    p.o = at->offset;
    if (at->follow) {
        const clv_vec2 *o = &a->pos[at->owner.index1 - 1];
        p.o.x += o->x;
        p.o.y += o->y;
    }
    p.s = (float)sn;
    p.c = (float)cs;
    p.mirror = at->mirror;
    return p;
}

/* The pose of attack slot s while placing, with the sine and cosine kept for the next frame:
 * a projectile's facing, and a held pose's, stays the same frame after frame. */
static clv__pose placing_pose(clv_arena *a, int32_t s, double *sn, double *cs) {
    const clv__attack *at = &a->att[s];
    clv__facing_trig *t = &a->facing_trig[s];
    if (!t->ok || memcmp(&t->facing, &at->facing, sizeof t->facing) != 0) {
        clv_sincos_d((double)at->facing, &t->s, &t->c);
        t->facing = at->facing;
        t->ok = 1;
    }
    *sn = t->s;
    *cs = t->c;
    return pose_with(a, at, t->s, t->c);
}

clv__pose clv__attack_pose(const clv_arena *a, const clv__attack *at) {
    double sn, cs;
    clv_sincos_d((double)at->facing, &sn, &cs);
    return pose_with(a, at, sn, cs);
}

clv_shape clv__place_shape(const clv__pose *p, const clv_shape *local) {
    return place_shape(p, local);
}

clv_shape clv__place_hitbox(const clv_arena *a, const clv__attack *at, const clv_shape *local) {
    clv__pose p = clv__attack_pose(a, at);
    return place_shape(&p, local);
}

/* clv_shape_bounds grown by the margin, the round shapes' without the call: it returns the
 * box in two registers that the loop stored and read back whole, a stall per hitbox. */
static clv_aabb placed_bounds(const clv_shape *s, float margin) {
    clv_aabb b;
    if (s->type == CLV_CAPSULE) {
        const clv_capsule *c = &s->u.capsule;
        b.min = clv_v2(clv__min2f(c->a.x, c->b.x) - c->r, clv__min2f(c->a.y, c->b.y) - c->r);
        b.max = clv_v2(clv__max2f(c->a.x, c->b.x) + c->r, clv__max2f(c->a.y, c->b.y) + c->r);
    } else if (s->type == CLV_CIRCLE) {
        const clv_circle *c = &s->u.circle;
        b.min = clv_v2(c->c.x - c->r, c->c.y - c->r);
        b.max = clv_v2(c->c.x + c->r, c->c.y + c->r);
    } else {
        b = clv_shape_bounds(s);
    }
    b.min.x -= margin;
    b.min.y -= margin;
    b.max.x += margin;
    b.max.y += margin;
    return b;
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

/* Core ends of a local round shape placed at pose p (core_ends of place_shape's result). */
static void local_core_ends(const clv__pose *p, const clv_shape *s, clv_vec2 *a, clv_vec2 *b) {
    if (s->type == CLV_CAPSULE) {
        *a = place_point(p, s->u.capsule.a);
        *b = place_point(p, s->u.capsule.b);
    } else {
        *a = *b = place_point(p, s->u.circle.c);
    }
}

/* nextafterf(f, up ? INFINITY : -INFINITY), without the call into libm: every swept hitbox
 * widens its bounds by four of them, and with a thousand projectiles in flight the calls cost
 * more than the rest of the bounds. */
static float next_out(float f, bool up) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) - 1u < 0x7f7fffffu) {
        /* finite and not zero, the usual case: a step toward zero, or away from it */
        u += u >> 31 == (uint32_t)up ? (uint32_t)-1 : 1u;
    } else if (isnan(f) || f == (up ? INFINITY : -INFINITY)) {
        return f;
    } else if (f == 0.0f) {
        u = up ? 1u : 0x80000001u; /* the smallest subnormal of that sign */
    } else {
        u--; /* the other infinity: the largest finite float of its sign */
    }
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The least float >= v. For v >= 0 without a branch on the rounding: it goes either way about
 * half the time, and a mispredicted branch there cost about a quarter of placing a knife. */
static float round_up(double v) {
    float f = (float)v;
    if (!(v >= 0.0)) {
        return (double)f < v ? next_out(f, true) : f;
    }
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    u += (uint32_t)((double)f < v);
    memcpy(&f, &u, sizeof f);
    return f;
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

#if defined(__SSE2__) || defined(_M_X64)
/* clv__grown_out on bounds held as (min x, min y, max x, max y). */
static inline clv_aabb grown_out4(__m128 v, float g) {
    const __m128 gv = _mm_set1_ps(g);
    v = _mm_shuffle_ps(_mm_sub_ps(v, gv), _mm_add_ps(v, gv), _MM_SHUFFLE(3, 2, 1, 0));
    const __m128i u = _mm_castps_si128(v);
    const __m128i mag = _mm_and_si128(u, _mm_set1_epi32(0x7fffffff));
    const __m128i usual = _mm_and_si128(_mm_cmpgt_epi32(mag, _mm_setzero_si128()),
                                        _mm_cmplt_epi32(mag, _mm_set1_epi32(0x7f800000)));
    clv_aabb r;
    if (_mm_movemask_ps(_mm_castsi128_ps(usual)) == 0xf) {
        /* the usual case, finite and not zero: next_out's step of the bits, -1 where the sign
         * agrees with the direction (the magnitude shrinks toward it), else +1; the upper
         * bounds go up */
        const __m128i up = _mm_setr_epi32(0, 0, -1, -1);
        const __m128i step = _mm_sub_epi32(
            _mm_and_si128(_mm_xor_si128(_mm_srai_epi32(u, 31), up), _mm_set1_epi32(2)),
            _mm_set1_epi32(1));
        _mm_storeu_ps(&r.min.x, _mm_castsi128_ps(_mm_add_epi32(u, step)));
        return r;
    }
    _mm_storeu_ps(&r.min.x, v);
    r.min = clv_v2(next_out(r.min.x, false), next_out(r.min.y, false));
    r.max = clv_v2(next_out(r.max.x, true), next_out(r.max.y, true));
    return r;
}
#endif

/* Four lanes at once with SSE2 where every bound is finite and not zero, the usual case. */
clv_aabb clv__grown_out(clv_aabb b, float g) {
#if defined(__SSE2__) || defined(_M_X64)
    return grown_out4(_mm_setr_ps(b.min.x, b.min.y, b.max.x, b.max.y), g);
#else
    return (clv_aabb){{next_out(b.min.x - g, false), next_out(b.min.y - g, false)},
                      {next_out(b.max.x + g, true), next_out(b.max.y + g, true)}};
#endif
}

/* Widens pl's bounds to cover its n + 1 sub-step cores q (a, b pairs) and the radius, bend and
 * rounding slack every cover adds, rounded outward. */
static void swept_bounds(const clv_arena *a, clv__placed *pl, const clv_vec2 *q, int32_t n) {
    clv_aabb b = pl->bounds;
    const float g = (pl->r0 > pl->r1 ? pl->r0 : pl->r1) + pl->grow + a->miss_margin;
#if defined(__SSE2__) || defined(_M_X64)
    /* Two points a step, each lane one coordinate of the even or the odd points, then the lanes
     * of either kind merged: minps and maxps keep the kept operand on a NaN or a tie as the
     * scalar loop's selects do; a different order could only swap a -0 for a +0, which the
     * outward rounding below turns into the same bound. */
    __m128 lo = _mm_setr_ps(b.min.x, b.min.y, b.min.x, b.min.y);
    __m128 hi = _mm_setr_ps(b.max.x, b.max.y, b.max.x, b.max.y);
    for (int32_t k = 0; k < 2 * (n + 1); k += 2) {
        __m128 v = _mm_loadu_ps(&q[k].x);
        lo = _mm_min_ps(v, lo);
        hi = _mm_max_ps(v, hi);
    }
    lo = _mm_min_ps(_mm_movehl_ps(lo, lo), lo);
    hi = _mm_max_ps(_mm_movehl_ps(hi, hi), hi);
    pl->bounds = grown_out4(_mm_movelh_ps(lo, hi), g);
#else
    for (int32_t k = 0; k < 2 * (n + 1); k++) {
        b.min.x = clv__min2f(q[k].x, b.min.x);
        b.min.y = clv__min2f(q[k].y, b.min.y);
        b.max.x = clv__max2f(q[k].x, b.max.x);
        b.max.y = clv__max2f(q[k].y, b.max.y);
    }
    pl->bounds = clv__grown_out(b, g);
#endif
}

/* A rigid hitbox's one sub-step (place_rigid set its nsub to 1): its cores where it stood at
 * p0 and where it stands now, as sweep_attack writes them with n = 1. */
static clv_hit_status sweep_rigid(clv_arena *a, clv__placed *pl, const clv_shape *local,
                                  const clv__pose *p0) {
    if (a->sub_count + 4 > a->sub_cap &&
        !clv__reserve(&a->al, (void **)&a->sub, &a->sub_cap, a->sub_count + 4, sizeof *a->sub)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    pl->sub0 = a->sub_count;
    a->sub_count += 4;
    clv_vec2 *q = &a->sub[pl->sub0];
    local_core_ends(p0, local, &q[0], &q[1]);
    core_ends(&pl->shape, &q[2], &q[3]);
    swept_bounds(a, pl, q, 1);
    return CLV_HIT_OK;
}

/* The swept hitboxes of one attack, placed[first..end): every one that moved takes n sub-steps
 * (the most any of them needs), their cores written to a->sub, their bounds widened to cover
 * all sub-steps. Their nsub holds the sub-steps each needs and grow its rounding slack on entry. */
static clv_hit_status sweep_attack(clv_arena *a, int32_t first, int32_t end, int32_t n,
                                   const clv__pose *p0, const clv__pose *p1,
                                   const sweep_turn *turn) {
    if (n > 1) { /* one sub-step has no point between its ends to turn */
        if (!clv__reserve(&a->al, (void **)&a->trig, &a->trig_cap, 2 * (n + 1), sizeof *a->trig)) {
            return CLV_HIT_ERR_NO_MEMORY;
        }
        fill_trig(a->trig, n, turn);
    }
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
        clv_swept *m = &a->swept[i];
        const clv_shape *prev = &w->boxes[w->prev[w->frame_start[f] + pl->pos]].def.shape;
        local_core_ends(p0, prev, &q[0], &q[1]);
        core_ends(&pl->shape, &q[2 * n], &q[2 * n + 1]);
        if (pl->rigid && n > 1) { /* another hitbox needs the points between: the model */
            clv_swept_init(m, prev, p0->mirror != 0, prev, p1->mirror != 0);
            clv_swept_move(m, turn->dth, dx, dy, p1->o);
        }
        clv_swept_cores(m, n, a->trig, (double)p0->o.x, (double)p0->o.y, q);
        if (!pl->rigid) { /* a rigid move does not bend: its grow and radii are set */
            pl->grow = round_up(clv_swept_bend(m, n) + (double)pl->grow);
            pl->r0 = (float)m->r0;
            pl->r1 = (float)m->r1;
        }
        pl->nsub = n;
        swept_bounds(a, pl, q, n);
    }
    return CLV_HIT_OK;
}

/* A round hitbox that only travels (dx, dy) to end at origin o, the same box in the same
 * mirror under a pose that did not turn: its nsub, grow and radii, as clv_swept_init,
 * clv_swept_move and clv_swept_substeps give them for a straight move, without the model
 * (no turn, so no bend: one sub-step covers it within the rounding slack). False when the
 * shape is not round or the slack needs more sub-steps: the model decides. */
static bool place_rigid(const clv_arena *a, clv__placed *pl, const clv_shape *local, double dx,
                        double dy, clv_vec2 o) {
    if (local->type != CLV_CAPSULE && local->type != CLV_CIRCLE) {
        return false;
    }
    if (dx == 0.0 && dy == 0.0) {
        pl->rigid = 1;
        return true; /* still: no sweep */
    }
    double slack = clv_swept_travel_slack(local, dx, dy, o);
    if (!(slack <= (double)a->sweep_tol)) {
        return false;
    }
    pl->rigid = 1;
    pl->r0 = pl->r1 = local->type == CLV_CAPSULE ? local->u.capsule.r : local->u.circle.r;
    pl->nsub = 1;
    pl->grow = round_up(slack);
    return true;
}

/* swept_bounds for the one sub-step of a knife's flight (radius r0 = r1) whose placed bounds are
 * b, from the four cores just written: the same minima and maxima (a -0 for a +0 at most, which
 * the rounding erases). Written out: swept_bounds itself cost about 7 us a frame more with
 * 1,000 knives in flight. */
static void flight_bounds(const clv_arena *a, clv__placed *pl, clv_aabb b, const clv_vec2 *q) {
    float x0 =
        clv__min2f(q[3].x, clv__min2f(q[2].x, clv__min2f(q[1].x, clv__min2f(q[0].x, b.min.x))));
    float y0 =
        clv__min2f(q[3].y, clv__min2f(q[2].y, clv__min2f(q[1].y, clv__min2f(q[0].y, b.min.y))));
    float x1 =
        clv__max2f(q[3].x, clv__max2f(q[2].x, clv__max2f(q[1].x, clv__max2f(q[0].x, b.max.x))));
    float y1 =
        clv__max2f(q[3].y, clv__max2f(q[2].y, clv__max2f(q[1].y, clv__max2f(q[0].y, b.max.y))));
    const float g = pl->r1 + pl->grow + a->miss_margin;
#if defined(__SSE2__) || defined(_M_X64)
    /* from registers: clv__grown_out, which takes the bounds through memory, waited on the
     * stores and cost about 6.5 us a frame more with 1,000 knives */
    pl->bounds = grown_out4(_mm_setr_ps(x0, y0, x1, y1), g);
#else
    pl->bounds = clv__grown_out((clv_aabb){{x0, y0}, {x1, y1}}, g);
#endif
}

/* A projectile's frame when it flew without a turn or a change of mirror and each of its
 * hitboxes is the box it was on the frame before, round and swept: what the general path below
 * places for it (rigid hitboxes, one sub-step each), bit for bit, with a fraction of the work.
 * A thousand knives take this path every frame. 1 when placed, 0 when the frame needs the
 * general path (nothing kept), -1 when out of memory. */
static int place_flight(clv_arena *a, int32_t s, const clv__aweapon *w, const clv__pose *p) {
    clv__attack *at = &a->att[s];
    if (at->elapsed < 2 || memcmp(&at->prev_facing, &at->facing, sizeof at->facing) != 0 ||
        at->prev_mirror != p->mirror) {
        return 0;
    }
    int32_t f = w->frame_base[at->attack] + at->frame;
    int32_t first = w->frame_start[f], count = w->frame_start[f + 1] - first;
    int32_t room = a->placed_count + count, sub_room = a->sub_count + 4 * count;
    if ((room > a->placed_cap || room > a->swept_cap || sub_room > a->sub_cap) &&
        (!clv__reserve(&a->al, (void **)&a->placed, &a->placed_cap, room, sizeof *a->placed) ||
         !clv__reserve(&a->al, (void **)&a->swept, &a->swept_cap, room, sizeof *a->swept) ||
         !clv__reserve(&a->al, (void **)&a->sub, &a->sub_cap, sub_room, sizeof *a->sub))) {
        return -1;
    }
    clv_vec2 o0 = at->prev_o;
    double dx = (double)p->o.x - (double)o0.x, dy = (double)p->o.y - (double)o0.y;
    int32_t sub = a->sub_count;
    for (int32_t i = 0; i < count; i++) {
        int32_t box = w->list[first + i];
        const clv_hitbox_def *def = &w->boxes[box].def;
        const clv_shape *local = &def->shape;
        bool capsule = local->type == CLV_CAPSULE;
        if (!def->sweep || w->prev[first + i] != box || (!capsule && local->type != CLV_CIRCLE)) {
            return 0;
        }
        /* The first hitbox's slack is worked out before the placing (flight_slack). p->o is
         * the offset (a projectile does not follow), read whole from the attack as the call
         * takes it, not put together from the two floats the pose holds. */
        bool moved = dx != 0.0 || dy != 0.0;
        double slack = i == 0 ? a->facing_trig[s].flight_slack
                              : clv_swept_travel_slack(local, dx, dy, at->offset);
        if (moved && !(slack <= (double)a->sweep_tol)) {
            return 0;
        }
        clv_vec2 ra = turn(p, capsule ? local->u.capsule.a : local->u.circle.c);
        clv_vec2 rb = capsule ? turn(p, local->u.capsule.b) : ra;
        float r = capsule ? local->u.capsule.r : local->u.circle.r;
        clv__placed *pl = &a->placed[a->placed_count + i];
        pl->attack1 = (uint32_t)s + 1;
        pl->pos = i;
        pl->box = box;
        pl->shape.type = local->type;
        clv_vec2 a1 = clv_v2(p->o.x + ra.x, p->o.y + ra.y),
                 b1 = clv_v2(p->o.x + rb.x, p->o.y + rb.y);
        if (capsule) {
            pl->shape.u.capsule = (clv_capsule){a1, b1, r};
        } else {
            pl->shape.u.circle = (clv_circle){a1, r};
        }
        /* placed_bounds: a circle's core is a capsule's with both ends at its centre */
        clv_aabb b;
        b.min = clv_v2(clv__min2f(a1.x, b1.x) - r - a->miss_margin,
                       clv__min2f(a1.y, b1.y) - r - a->miss_margin);
        b.max = clv_v2(clv__max2f(a1.x, b1.x) + r + a->miss_margin,
                       clv__max2f(a1.y, b1.y) + r + a->miss_margin);
        pl->bounds = b;
        pl->rigid = 1;
        pl->nsub = pl->sub0 = 0;
        pl->r0 = pl->r1 = pl->grow = 0.0f;
        if (!moved) {
            continue; /* still: no sweep */
        }
        pl->r0 = pl->r1 = r;
        pl->nsub = 1;
        pl->grow = round_up(slack);
        pl->sub0 = sub;
        clv_vec2 *q = &a->sub[sub];
        sub += 4;
        /* where it stood: the same turn (no change of facing), from the origin before */
        q[0] = clv_v2(o0.x + ra.x, o0.y + ra.y);
        q[1] = clv_v2(o0.x + rb.x, o0.y + rb.y);
        q[2] = a1;
        q[3] = b1;
        flight_bounds(a, pl, b, q);
    }
    a->placed_count += count;
    a->sub_count = sub;
    at->prev_o = p->o;
    return 1;
}

/* What place_flight reads as the slack of the first hitbox of projectile at on this frame.
 * Worked out in a pass of its own, where the square roots and roundings of many projectiles are
 * under way at once: inside the placing, each projectile's would hold up the rest of its work.
 * NaN when the frame does not fly or stands still (place_flight finds that out itself). */
static double flight_slack(const clv_arena *a, const clv__attack *at) {
    const clv__aweapon *w = &a->weapons[at->weapon1 - 1];
    int32_t f = w->frame_base[at->attack] + at->frame, first = w->frame_start[f];
    if (at->elapsed < 2 || first == w->frame_start[f + 1]) {
        return (double)NAN;
    }
    int32_t box = w->list[first];
    const clv_hitbox_def *def = &w->boxes[box].def;
    double dx = (double)at->offset.x - (double)at->prev_o.x;
    double dy = (double)at->offset.y - (double)at->prev_o.y;
    if (!def->sweep || w->prev[first] != box || (dx == 0.0 && dy == 0.0)) {
        return (double)NAN;
    }
    return clv_swept_travel_slack(&def->shape, dx, dy, at->offset);
}

/* The local part of the motion of weapon w's box from box pb under mirror0 to box under
 * mirror1 into *m (clv_swept_init); false when either is not round. A box that stays itself
 * under the same mirror (a blade the pose turns whole, the usual swing) reads the model the
 * weapon's copy keeps for it. */
static bool local_model(const clv__aweapon *w, int32_t pb, int32_t box, int32_t mirror0,
                        int32_t mirror1, clv_swept *m) {
    const clv__box *b = &w->boxes[box];
    if (pb == box && mirror0 == mirror1 && b->self >= 0) {
        *m = w->self_swept[2 * b->self + (mirror1 != 0)];
        return true;
    }
    return clv_swept_init(m, &w->boxes[pb].def.shape, mirror0 != 0, &b->def.shape, mirror1 != 0);
}

/* Whether model m only carries its box as the pose moves it: no local turn, nothing left over,
 * the same radius. */
static bool carried_whole(const clv_swept *m) {
    return m->phi == 0.0 && m->e_max == 0.0 && m->r0 == m->r1;
}

/* The sub-steps of the hitboxes placed[base ..] that placing left at -1 (carried_whole, all
 * under the attack's one pose move); returns the most of n and theirs. Each bound of such a
 * model grows with its reach rho_u and its radius alone (every operation on them is monotone),
 * so a box no thicker than the one that reaches farthest (the lead) needs no more sub-steps than
 * it: only the attack's count is read on (sweep_attack sets every moved box's). */
static int32_t count_carried(clv_arena *a, int32_t base, int32_t n) {
    int32_t lead = -1;
    for (int32_t i = base; i < a->placed_count; i++) {
        const clv_swept *m = &a->swept[i];
        if (a->placed[i].nsub == -1 &&
            (lead < 0 || m->rho_u > a->swept[lead].rho_u ||
             (m->rho_u == a->swept[lead].rho_u && m->r0 > a->swept[lead].r0))) {
            lead = i;
        }
    }
    if (lead < 0) {
        return n;
    }
    const clv_swept *l = &a->swept[lead];
    const int32_t nl = clv_swept_substeps(l, (double)a->sweep_tol, CLV__MAX_SUBSTEPS);
    for (int32_t i = base; i < a->placed_count; i++) {
        clv__placed *pl = &a->placed[i];
        const clv_swept *m = &a->swept[i];
        if (pl->nsub == -1) {
            pl->nsub = m->r0 <= l->r0
                           ? nl /* it reaches no farther: the lead's rho_u */
                           : clv_swept_substeps(m, (double)a->sweep_tol, CLV__MAX_SUBSTEPS);
            n = pl->nsub > n ? pl->nsub : n;
        }
    }
    return n;
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
    if (!clv__reserve(&a->al, (void **)&a->facing_trig, &a->facing_trig_cap, a->att_count,
                      sizeof *a->facing_trig)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    /* Every attack advances before any is placed (placing reads nothing another advance
     * writes); then the projectiles' slacks (flight_slack); then the placing. */
    for (int32_t s = 0; s < a->att_count; s++) {
        clv__attack *at = &a->att[s];
        at->active = 0;
        if (at->used && advance(a, s)) {
            at->active = 1;
        }
    }
    for (int32_t s = 0; s < a->att_count; s++) {
        const clv__attack *at = &a->att[s];
        if (at->active && at->projectile) {
            a->facing_trig[s].flight_slack = flight_slack(a, at);
        }
    }
    for (int32_t s = 0; s < a->att_count; s++) {
        clv__attack *at = &a->att[s];
        if (!at->active) {
            continue;
        }
        const clv__aweapon *w = &a->weapons[at->weapon1 - 1];
        double s1, c1;
        clv__pose p = placing_pose(a, s, &s1, &c1);
        int flight = at->projectile ? place_flight(a, s, w, &p) : 0;
        if (flight != 0) {
            if (flight < 0) {
                return CLV_HIT_ERR_NO_MEMORY;
            }
            continue;
        }
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
            dth = d == 0.0 ? d : d - two_pi * floor(d / two_pi + 0.5); /* the same bits */
            dx = (double)p.o.x - (double)p0.o.x;
            dy = (double)p.o.y - (double)p0.o.y;
        }
        double th0 = (double)at->prev_facing;
        at->prev_o = p.o;
        at->prev_facing = at->facing;
        at->prev_mirror = p.mirror;
        int32_t f = w->frame_base[at->attack] + at->frame;
        int32_t first = w->frame_start[f], end = w->frame_start[f + 1];
        int32_t room = a->placed_count + (end - first);
        if ((room > a->placed_cap || room > a->swept_cap) &&
            (!clv__reserve(&a->al, (void **)&a->placed, &a->placed_cap, room, sizeof *a->placed) ||
             !clv__reserve(&a->al, (void **)&a->swept, &a->swept_cap, room, sizeof *a->swept))) {
            return CLV_HIT_ERR_NO_MEMORY;
        }
        int32_t base = a->placed_count, n = 0;
        /* no turn of the pose: a hitbox that stays the same box only travels */
        bool rigid = has_prev && dth == 0.0 && p0.mirror == p.mirror, modelled = false;
        for (int32_t k = first; k < end; k++) {
            clv__placed *pl = &a->placed[a->placed_count];
            clv_swept *m = &a->swept[a->placed_count++];
            pl->attack1 = (uint32_t)s + 1;
            pl->pos = k - first;
            pl->box = w->list[k];
            const clv_hitbox_def *def = &w->boxes[pl->box].def;
            place_into(&p, &def->shape, &pl->shape);
            pl->bounds = placed_bounds(&pl->shape, a->miss_margin);
            pl->nsub = 0;
            pl->sub0 = 0;
            pl->rigid = 0;
            pl->r0 = pl->r1 = pl->grow = 0.0f;
            int32_t pb = has_prev && def->sweep ? w->prev[k] : -1;
            if (pb == pl->box && rigid && place_rigid(a, pl, &def->shape, dx, dy, p.o)) {
                n = pl->nsub > n ? pl->nsub : n;
                continue;
            }
            if (pb < 0 || !local_model(w, pb, pl->box, p0.mirror, p.mirror, m)) {
                continue;
            }
            clv_swept_move(m, dth, dx, dy, p.o);
            if (!clv_swept_still(m)) {
                pl->nsub = carried_whole(m)
                               ? -1 /* counted below */
                               : clv_swept_substeps(m, (double)a->sweep_tol, CLV__MAX_SUBSTEPS);
                pl->grow = round_up(m->slack);
                n = pl->nsub > n ? pl->nsub : n;
                modelled = true;
            }
        }
        n = count_carried(a, base, n);
        if (n == 1 && !modelled) { /* only rigid hitboxes, one sub-step each */
            for (int32_t i = base; i < a->placed_count; i++) {
                const clv_shape *local = &w->boxes[a->placed[i].box].def.shape;
                if (a->placed[i].nsub == 1 &&
                    sweep_rigid(a, &a->placed[i], local, &p0) != CLV_HIT_OK) {
                    return CLV_HIT_ERR_NO_MEMORY;
                }
            }
        } else if (n > 0) {
            sweep_turn turn = {th0, dth, (double)at->facing, s1, c1};
            clv_hit_status st = sweep_attack(a, base, a->placed_count, n, &p0, &p, &turn);
            if (st != CLV_HIT_OK) {
                return st;
            }
        }
    }
    return CLV_HIT_OK;
}
