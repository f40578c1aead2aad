/* Attacks that meet (step 3b of docs/hit-rules.md): hitboxes of attacks on different teams that
 * touch clank, outprioritize, pass through or trade; and hits that meet a parry. Every outcome is
 * decided from the state before the frame's hits, so no order of slots or starts changes it. */
#include "step_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Recovery frames beyond a minute are refused in definitions; the automatic ones stop there. */
#define STUN_CAP 3600.0f

static const clv__attack *attack_of(const clv_arena *a, int32_t p) {
    return &a->att[a->placed[p].attack1 - 1];
}

static const clv_hitbox_def *def_of(const clv_arena *a, int32_t p) {
    const clv__attack *at = attack_of(a, p);
    return &a->weapons[at->weapon1 - 1].boxes[a->placed[p].box].def;
}

/* ---- which hitboxes meet, and where ---- */

/* Where two shapes that touch meet: their contact point and normal, or halfway between their
 * closest points and the direction between them when round-off says they only touch. */
static void meeting_point(const clv_shape *x, const clv_shape *y, clv__meeting *m) {
    clv_contact c;
    if (clv_contact_shapes(x, y, &c)) {
        m->point = c.point;
        m->normal = c.normal;
        return;
    }
    clv_closest cp = clv_closest_points(x, y);
    float nx = cp.pb.x - cp.pa.x, ny = cp.pb.y - cp.pa.y, len = sqrtf(nx * nx + ny * ny);
    m->point = clv_v2(0.5f * (cp.pa.x + cp.pb.x), 0.5f * (cp.pa.y + cp.pb.y));
    m->normal = len > 0.0f ? clv_v2(nx / len, ny / len) : clv_v2(1.0f, 0.0f);
}

static void cover_of(const clv_arena *a, const clv__placed *pl, int32_t k, clv_capsule c[2],
                     float *grow) {
    const clv_vec2 *q = &a->sub[pl->sub0 + 2 * k];
    c[0] = (clv_capsule){q[0], q[1], 0.0f};
    c[1] = (clv_capsule){q[2], q[3], 0.0f};
    float ra = clv__sub_radius(pl, k), rb = clv__sub_radius(pl, k + 1);
    *grow = (ra > rb ? ra : rb) + pl->grow;
}

/* Whether two sub-step covers touch (each the hull of its cores at both ends, grown). Two convex
 * sets touch when their boundaries meet, which a segment between two points of one reaching the
 * other finds, or when one holds the other, which any of its points finds. */
static bool covers_touch(const clv_capsule x[2], float gx, const clv_capsule y[2], float gy) {
    const clv_vec2 p[4] = {y[0].a, y[0].b, y[1].a, y[1].b};
    for (int i = 0; i < 4; i++) {
        for (int j = i + 1; j < 4; j++) {
            clv_shape seg = clv_shape_capsule(p[i].x, p[i].y, p[j].x, p[j].y, gy);
            if (clv_hull_touches(&x[0], &x[1], gx, &seg)) {
                return true;
            }
        }
    }
    clv_shape inner = clv_shape_circle(x[0].a.x, x[0].a.y, gx);
    return clv_hull_touches(&y[0], &y[1], gy, &inner);
}

/* Two swept hitboxes: their sub-steps walked together in time; the first pair of sub-steps
 * that overlap in time and whose covers touch. */
static bool meet_swept(const clv_arena *a, const clv__placed *x, const clv__placed *y,
                       clv__meeting *m) {
    int32_t k = 0, l = 0;
    while (k < x->nsub && l < y->nsub) {
        clv_capsule cx[2], cy[2];
        float gx, gy;
        cover_of(a, x, k, cx, &gx);
        cover_of(a, y, l, cy, &gy);
        if (covers_touch(cx, gx, cy, gy)) {
            clv_shape sx = clv__sub_shape(a, x, k), sy = clv__sub_shape(a, y, l);
            float tx = (float)k / (float)x->nsub, ty = (float)l / (float)y->nsub;
            meeting_point(&sx, &sy, m);
            m->sweep_t = tx > ty ? tx : ty;
            return true;
        }
        int64_t end_x = (int64_t)(k + 1) * y->nsub, end_y = (int64_t)(l + 1) * x->nsub;
        k += end_x <= end_y;
        l += end_y <= end_x;
    }
    return false;
}

/* A swept hitbox against one that stands at this frame's placement. */
static bool meet_one_swept(const clv_arena *a, const clv__placed *moving, const clv__placed *still,
                           clv__meeting *m) {
    int32_t k = clv__first_substep(a, moving, &still->shape, moving->nsub);
    if (k < 0) {
        return false;
    }
    clv__cand c;
    memset(&c, 0, sizeof c);
    clv__swept_contact(a, moving, k, &still->shape, &c);
    m->point = c.contact.point;
    m->normal = c.contact.normal;
    m->sweep_t = c.sweep_t;
    return true;
}

bool clv__meets(const clv_arena *a, int32_t x, int32_t y, clv__meeting *m) {
    if (def_of(a, x)->kind == CLV_HITBOX_GRAB || def_of(a, y)->kind == CLV_HITBOX_GRAB) {
        return false; /* a grab reaches for bodies: it neither clanks nor is stopped */
    }
    const clv__placed *px = &a->placed[x], *py = &a->placed[y];
    m->placed[0] = x;
    m->placed[1] = y;
    if (px->nsub > 0 && py->nsub > 0) {
        return meet_swept(a, px, py, m);
    }
    if (px->nsub > 0 || py->nsub > 0) {
        return px->nsub > 0 ? meet_one_swept(a, px, py, m) : meet_one_swept(a, py, px, m);
    }
    if (!clv_overlap(&px->shape, &py->shape)) {
        return false;
    }
    meeting_point(&px->shape, &py->shape, m);
    m->sweep_t = 1.0f;
    return true;
}

/* ---- what the meetings do ---- */

/* By side 0's attack, side 1's attack, then the hitboxes' positions in their frames. */
static int cmp_meeting(const void *pa, const void *pb, const clv_arena *a) {
    const clv__meeting *x = pa, *y = pb;
    for (int s = 0; s < 2; s++) {
        uint32_t ax = a->placed[x->placed[s]].attack1, ay = a->placed[y->placed[s]].attack1;
        if (ax != ay) {
            return ax < ay ? -1 : 1;
        }
    }
    for (int s = 0; s < 2; s++) {
        int32_t px = a->placed[x->placed[s]].pos, py = a->placed[y->placed[s]].pos;
        if (px != py) {
            return px < py ? -1 : 1;
        }
    }
    return 0;
}

/* Insertion sort: qsort has no context argument, and a frame has few meetings. */
static void sort_meetings(clv_arena *a) {
    for (int32_t i = 1; i < a->meeting_count; i++) {
        clv__meeting m = a->meetings[i];
        int32_t j = i;
        while (j > 0 && cmp_meeting(&a->meetings[j - 1], &m, a) > 0) {
            a->meetings[j] = a->meetings[j - 1];
            j--;
        }
        a->meetings[j] = m;
    }
}

static bool transcends(const clv_arena *a, const clv__meeting *m) {
    return def_of(a, m->placed[0])->clash == CLV_CLASH_TRANSCEND ||
           def_of(a, m->placed[1])->clash == CLV_CLASH_TRANSCEND;
}

static float damage_at(const clv_arena *a, int32_t p) {
    return clv__damage_of(a, a->placed[p].attack1, def_of(a, p));
}

/* true when placed hitbox p goes before q as its attack's side of a meeting: higher priority,
 * then earlier in the frame's list (the order hits use). */
static bool side_precedes(const clv_arena *a, int32_t p, int32_t q) {
    int32_t pp = def_of(a, p)->priority, pq = def_of(a, q)->priority;
    return pp != pq ? pp > pq : a->placed[p].pos < a->placed[q].pos;
}

/* The kind of meeting hitbox `own` has with projectile hitbox `other`: REFLECT, ABSORB, or -1
 * when it is a plain hitbox or the projectile refuses it. */
static int turn_kind(const clv_arena *a, int32_t own, int32_t other) {
    const clv__attack *p = attack_of(a, other);
    clv_hitbox_kind k = def_of(a, own)->kind;
    if (!p->projectile) {
        return -1;
    }
    if (k == CLV_HITBOX_REFLECT && p->reflectable) {
        return CLV_CLASH_REFLECT;
    }
    return k == CLV_HITBOX_ABSORB && p->absorbable ? CLV_CLASH_ABSORB : -1;
}

static int32_t rebound_of(const clv_arena *a, int32_t p) {
    const clv__attack *at = attack_of(a, p);
    if (at->projectile) {
        return 0; /* nobody holds it */
    }
    int32_t r = a->weapons[at->weapon1 - 1].attacks[at->attack].rebound;
    if (r != CLV_FRAMES_AUTO) {
        return r;
    }
    float v = 4.0f + 0.5f * damage_at(a, p);
    return (int32_t)floorf(v < STUN_CAP ? v : STUN_CAP);
}

/* An attack stops for this frame; of several reasons the lowest code stays, with what did it. */
static void stop_attack(clv_arena *a, uint32_t attack1, const clv__stop *why) {
    clv__stop *st = &a->stop[attack1 - 1];
    int32_t stun = why->stun > st->stun ? why->stun : st->stun;
    if (st->reason < 0 || why->reason < st->reason) {
        *st = *why;
    }
    st->stun = stun;
}

static void fill_side(const clv_arena *a, clv_clash_event *ev, int side, int32_t p) {
    const clv__attack *at = attack_of(a, p);
    ev->attack[side] = (clv_attack_id){a->placed[p].attack1, at->gen};
    ev->owner[side] = at->owner;
    ev->weapon[side] = (clv_weapon_id){at->weapon1, a->weapons[at->weapon1 - 1].gen};
    ev->attack_index[side] = at->attack;
    ev->attack_frame[side] = at->frame;
    ev->hitbox[side] = a->placed[p].pos;
    ev->damage[side] = damage_at(a, p);
}

static clv_hit_status push_meet_miss(clv_arena *a, const clv_clash_event *ev, int side,
                                     clv_miss_reason reason, int32_t group) {
    if (!clv__reserve(&a->al, (void **)&a->meet_misses, &a->meet_miss_cap, a->meet_miss_count + 1,
                      sizeof *a->meet_misses)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    clv_miss_record *m = &a->meet_misses[a->meet_miss_count++];
    memset(m, 0, sizeof *m);
    m->frame = ev->frame;
    m->attack = ev->attack[side];
    m->weapon = ev->weapon[side];
    m->attacker = ev->owner[side];
    m->target = ev->owner[1 - side];
    m->attack_index = ev->attack_index[side];
    m->attack_frame = ev->attack_frame[side];
    m->hitbox = ev->hitbox[side];
    m->group = group;
    m->reason = reason;
    m->distance = 0.0f;
    return CLV_HIT_OK;
}

static clv_hit_status push_clash(clv_arena *a, const clv_clash_event *ev) {
    if (!clv__reserve(&a->al, (void **)&a->clashes, &a->clash_cap, a->clash_count + 1,
                      sizeof *a->clashes)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    a->clashes[a->clash_count++] = *ev;
    return CLV_HIT_OK;
}

/* The kind of a meeting of hitboxes side[0] and side[1], and the side that goes on. */
static clv_clash_kind judge(const clv_arena *a, const int32_t side[2], int32_t *winner) {
    const clv_hitbox_def *d0 = def_of(a, side[0]), *d1 = def_of(a, side[1]);
    *winner = -1;
    if (d0->clash == CLV_CLASH_TRADE || d1->clash == CLV_CLASH_TRADE) {
        return CLV_CLASH_TRADED;
    }
    float x0 = damage_at(a, side[0]), x1 = damage_at(a, side[1]);
    if (fabsf(x0 - x1) <= a->clank_range) {
        return CLV_CLASH_CLANK;
    }
    *winner = x0 > x1 ? 0 : 1;
    return CLV_CLASH_OUTPRIORITIZE;
}

/* The reason side s of a judged meeting misses with, or -1 when it goes on untouched. */
static int32_t loss_of(const clv_clash_event *ev, int s) {
    switch (ev->kind) {
    case CLV_CLASH_TRANSCENDED:
        return CLV_MISS_TRANSCENDED;
    case CLV_CLASH_CLANK:
        return CLV_MISS_CLANKED;
    case CLV_CLASH_OUTPRIORITIZE:
        return ev->winner != s ? CLV_MISS_OUTPRIORITIZED : -1;
    case CLV_CLASH_REFLECT:
        return ev->winner != s ? CLV_MISS_REFLECTED : -1;
    case CLV_CLASH_ABSORB:
        return ev->winner != s ? CLV_MISS_ABSORBED : -1;
    default:
        return -1;
    }
}

/* The losers of a judged meeting stop for this frame, and say so in a miss each. */
static clv_hit_status stop_losers(clv_arena *a, const clv_clash_event *ev, const int32_t side[2],
                                  const clv__meeting *where) {
    for (int s = 0; s < 2; s++) {
        int32_t r = loss_of(ev, s);
        if (r < 0) {
            continue;
        }
        if (r != CLV_MISS_TRANSCENDED) {
            clv__stop why = {r, ev->stun[s], side[1 - s], where->normal, ev->damage[s]};
            stop_attack(a, ev->attack[s].index1, &why);
        }
        if (push_meet_miss(a, ev, s, (clv_miss_reason)r, def_of(a, side[s])->group) != CLV_HIT_OK) {
            return CLV_HIT_ERR_NO_MEMORY;
        }
    }
    return CLV_HIT_OK;
}

/* A REFLECT or ABSORB hitbox of one side meeting the other side's projectile: the best such
 * hitbox (by precedence) and its side, or -1. */
static int turner_of(const clv_arena *a, const clv__meeting *m, int32_t n, int32_t side[2],
                     int *kind) {
    int found = -1;
    for (int32_t i = 0; i < n; i++) {
        for (int s = 0; s < 2 && !transcends(a, &m[i]); s++) {
            int k = turn_kind(a, m[i].placed[s], m[i].placed[1 - s]);
            if (k >= 0 &&
                (found < 0 || (found == s && side_precedes(a, m[i].placed[s], side[s])))) {
                found = s;
                *kind = k;
                side[s] = m[i].placed[s];
                side[1 - s] = m[i].placed[1 - s];
            }
        }
    }
    return found;
}

/* Each side's best hitbox among the meetings that do not transcend; the index of the earliest
 * such meeting, or -1 when every one transcends. */
static int32_t best_sides(const clv_arena *a, const clv__meeting *m, int32_t n, int32_t side[2]) {
    int32_t where = -1;
    for (int32_t i = 0; i < n; i++) {
        if (transcends(a, &m[i])) {
            continue;
        }
        for (int s = 0; s < 2; s++) {
            if (side[s] < 0 || side_precedes(a, m[i].placed[s], side[s])) {
                side[s] = m[i].placed[s];
            }
        }
        where = where < 0 || m[i].sweep_t < m[where].sweep_t ? i : where;
    }
    return where;
}

/* One pair of attacks, meetings m[0..n): a reflector or absorber turns a projectile first;
 * else each side meets with its best hitbox that does not transcend (a transcendent one passes
 * through), and the earliest meeting says where. */
static clv_hit_status resolve(clv_arena *a, const clv__meeting *m, int32_t n) {
    int32_t side[2] = {-1, -1};
    clv_clash_event ev;
    memset(&ev, 0, sizeof ev);
    ev.frame = a->frame;
    int kind = -1;
    int turner = turner_of(a, m, n, side, &kind);
    int32_t where = turner >= 0 ? 0 : best_sides(a, m, n, side);
    if (turner >= 0) {
        ev.kind = (clv_clash_kind)kind;
        ev.winner = turner;
        while (where < n - 1 && (m[where].placed[0] != side[0] || m[where].placed[1] != side[1])) {
            where++;
        }
    } else if (where < 0) {
        ev.kind = CLV_CLASH_TRANSCENDED;
        ev.winner = -1;
        where = 0;
        side[0] = m[0].placed[0];
        side[1] = m[0].placed[1];
    } else {
        ev.kind = judge(a, side, &ev.winner);
    }
    for (int s = 0; s < 2; s++) {
        fill_side(a, &ev, s, side[s]);
        bool rebounds =
            ev.kind == CLV_CLASH_CLANK || (ev.kind == CLV_CLASH_OUTPRIORITIZE && ev.winner != s);
        ev.stun[s] = rebounds ? rebound_of(a, side[s]) : 0;
    }
    ev.point = m[where].point;
    ev.sweep_t = m[where].sweep_t;
    if (push_clash(a, &ev) != CLV_HIT_OK) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    return stop_losers(a, &ev, side, &m[where]);
}

clv_hit_status clv__meet(clv_arena *a) {
    a->meet_miss_count = 0;
    if (!clv__reserve(&a->al, (void **)&a->stop, &a->stop_cap, a->att_count, sizeof *a->stop)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    for (int32_t s = 0; s < a->att_count; s++) {
        a->stop[s] = (clv__stop){-1, 0, -1, {0.0f, 0.0f}, 0.0f};
    }
    clv_hit_status st = clv__find_meetings(a);
    if (st != CLV_HIT_OK) {
        return st;
    }
    sort_meetings(a);
    for (int32_t i = 0; i < a->meeting_count;) {
        const clv__meeting *m = &a->meetings[i];
        int32_t j = i + 1;
        while (j < a->meeting_count &&
               a->placed[a->meetings[j].placed[0]].attack1 == a->placed[m->placed[0]].attack1 &&
               a->placed[a->meetings[j].placed[1]].attack1 == a->placed[m->placed[1]].attack1) {
            j++;
        }
        if ((st = resolve(a, m, j - i)) != CLV_HIT_OK) {
            return st;
        }
        i = j;
    }
    return CLV_HIT_OK;
}

/* ---- parries ---- */

static int32_t parry_stun_of(const clv_arena *a, const clv_hitbox_def *d) {
    return d->parry_stun == CLV_FRAMES_AUTO ? a->parry_stun : d->parry_stun;
}

/* A parry of candidate c (the best of its attack on its target): the event, the stop. */
static clv_hit_status parried(clv_arena *a, const clv__cand *c) {
    const clv__attack *at = &a->att[c->attack1 - 1];
    const clv_hitbox_def *d = &clv__cand_box(a, c)->def;
    clv_clash_event ev;
    memset(&ev, 0, sizeof ev);
    ev.frame = a->frame;
    ev.kind = CLV_CLASH_PARRY;
    ev.winner = 1;
    ev.attack[0] = (clv_attack_id){c->attack1, at->gen};
    ev.owner[0] = at->owner;
    ev.owner[1] = (clv_entity_id){c->target1, a->ent[c->target1 - 1].gen};
    ev.weapon[0] = (clv_weapon_id){at->weapon1, a->weapons[at->weapon1 - 1].gen};
    ev.attack_index[0] = at->attack;
    ev.attack_frame[0] = at->frame;
    ev.hitbox[0] = c->pos;
    ev.hitbox[1] = -1;
    ev.damage[0] = clv__damage_of(a, c->attack1, d);
    ev.stun[0] = at->projectile ? 0 : parry_stun_of(a, d);
    ev.point = c->contact.point;
    ev.sweep_t = c->sweep_t;
    clv__stop why = {CLV_MISS_PARRIED, ev.stun[0], -1, c->contact.normal, ev.damage[0]};
    stop_attack(a, c->attack1, &why);
    return push_clash(a, &ev);
}

clv_hit_status clv__parry(clv_arena *a) {
    for (int32_t i = 0; i < a->cand_count;) {
        int32_t j = i, best = -1;
        for (; j < a->cand_count && a->cand[j].attack1 == a->cand[i].attack1 &&
               a->cand[j].target1 == a->cand[i].target1;
             j++) {
            const clv__cand *c = &a->cand[j];
            bool parries = c->reason < 0 && a->vit[c->target1 - 1].state == CLV_HURT_PARRY;
            if (parries && (best < 0 || clv__cand_box(a, c)->def.priority >
                                            clv__cand_box(a, &a->cand[best])->def.priority)) {
                best = j;
            }
        }
        if (best >= 0 && parried(a, &a->cand[best]) != CLV_HIT_OK) {
            return CLV_HIT_ERR_NO_MEMORY;
        }
        i = j;
    }
    for (int32_t i = 0; i < a->cand_count; i++) {
        clv__cand *c = &a->cand[i];
        if (c->reason < 0 && a->stop[c->attack1 - 1].reason == CLV_MISS_PARRIED) {
            c->reason = CLV_MISS_PARRIED;
        }
    }
    return CLV_HIT_OK;
}

void clv__end_stopped(clv_arena *a) {
    for (int32_t s = 0; s < a->att_count; s++) {
        const clv__stop *st = &a->stop[s];
        if (!a->att[s].used) {
            continue;
        }
        if (a->att[s].projectile) {
            if (clv__projectile_settles(&a->att[s], st)) {
                clv__projectile_settle(a, s, st);
            }
            continue;
        }
        if (st->reason < 0) {
            continue;
        }
        clv__entity *owner = &a->ent[a->att[s].owner.index1 - 1];
        owner->hitstun = st->stun > owner->hitstun ? st->stun : owner->hitstun;
        clv__entity_stir(a, (int32_t)a->att[s].owner.index1 - 1);
        clv__attack_end(a, s);
    }
}
