/* The arena's lifetime, its weapons and entities. */
#include "hit_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

clv_arena_def clv_default_arena_def(void) {
    clv_arena_def d;
    memset(&d, 0, sizeof d);
    d.entity_capacity = 64;
    d.sweep_tolerance = CLV__SWEEP_TOL_DEFAULT;
    d.clank_range = 9.0f;
    d.parry_stun = 20;
    return d;
}

clv_entity_def clv_default_entity_def(void) {
    clv_entity_def d;
    memset(&d, 0, sizeof d);
    d.weight = 1.0f;
    d.hp = 100.0f;
    d.state = CLV_HURT_NORMAL;
    d.hurtbox_count = 1;
    d.hurtboxes[0].type = CLV_CIRCLE;
    d.hurtboxes[0].u.circle.r = 8.0f;
    return d;
}

clv_attack_start_def clv_default_attack_start_def(void) {
    clv_attack_start_def d;
    memset(&d, 0, sizeof d);
    d.follow_owner = true;
    return d;
}

/* Every per-slot array, so that they always share one capacity. */
#define SLOT_ARRAYS 13
typedef struct slot_array {
    void **ptr;
    size_t elem; /* bytes per slot */
} slot_array;

static int slot_arrays(clv_arena *a, slot_array out[SLOT_ARRAYS]) {
    int n = 0;
    out[n++] = (slot_array){(void **)&a->ent, sizeof *a->ent};
    out[n++] = (slot_array){(void **)&a->pos, sizeof *a->pos};
    out[n++] = (slot_array){(void **)&a->vel, sizeof *a->vel};
    out[n++] = (slot_array){(void **)&a->local_centre, sizeof *a->local_centre};
    out[n++] = (slot_array){(void **)&a->local_half, sizeof *a->local_half};
    out[n++] = (slot_array){(void **)&a->calm, sizeof *a->calm};
    out[n++] = (slot_array){(void **)&a->vit, sizeof *a->vit};
    out[n++] = (slot_array){(void **)&a->hurt, sizeof *a->hurt};
    out[n++] = (slot_array){(void **)&a->fx, CLV_ENTITY_MAX_EFFECTS * sizeof *a->fx};
    out[n++] = (slot_array){(void **)&a->bx, sizeof *a->bx};
    out[n++] = (slot_array){(void **)&a->by, sizeof *a->by};
    out[n++] = (slot_array){(void **)&a->br, sizeof *a->br};
    if (a->cmb != NULL) {
        out[n++] = (slot_array){(void **)&a->cmb, sizeof *a->cmb};
    }
    return n;
}

/* Grows every per-slot array (and the grid's capacity) together; all or nothing. */
bool clv__entity_reserve(clv_arena *a, int32_t need) {
    if (need <= a->ent_cap) {
        return true;
    }
    int64_t cap = need < 64 ? 64 : need;
    if (cap < (int64_t)a->ent_cap * 2) {
        cap = (int64_t)a->ent_cap * 2;
    }
    if (cap > INT32_MAX / CLV_ENTITY_MAX_EFFECTS) {
        cap = INT32_MAX / CLV_ENTITY_MAX_EFFECTS;
    }
    if (cap < need) {
        return false;
    }
    slot_array arr[SLOT_ARRAYS];
    int n = slot_arrays(a, arr);
    void *fresh[SLOT_ARRAYS] = {NULL};
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        if ((uint64_t)cap > SIZE_MAX / arr[i].elem) {
            ok = false;
            break;
        }
        fresh[i] = clv__alloc(&a->al, (size_t)cap * arr[i].elem);
        ok = fresh[i] != NULL;
    }
    clv_grid *grid = NULL;
    clv_grid_def gd = a->grid_def;
    if (ok && a->grid_def.cell_size > 0.0f) {
        gd.capacity = (uint32_t)cap;
        grid = clv_grid_create(&gd, &a->al);
        ok = grid != NULL;
    }
    if (!ok) {
        for (int i = 0; i < n; i++) {
            clv__free(&a->al, fresh[i], (size_t)cap * arr[i].elem);
        }
        return false;
    }
    for (int i = 0; i < n; i++) {
        /* zeroed: padding bytes copied by snapshots are the same on every run */
        memset(fresh[i], 0, (size_t)cap * arr[i].elem);
        if (a->ent_cap > 0) {
            memcpy(fresh[i], *arr[i].ptr, (size_t)a->ent_cap * arr[i].elem);
        }
        clv__free(&a->al, *arr[i].ptr, (size_t)a->ent_cap * arr[i].elem);
        *arr[i].ptr = fresh[i];
    }
    if (grid != NULL) {
        clv_grid_destroy(a->grid);
        a->grid = grid;
        a->grid_def = gd;
    }
    a->ent_cap = (int32_t)cap;
    return true;
}

clv_arena *clv_arena_create(const clv_arena_def *def, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    clv_arena_def d = def != NULL ? *def : clv_default_arena_def();
    if ((d.allocator.alloc == NULL) != (d.allocator.free == NULL)) {
        clv__diag_set(diag, CLV_HIT_ERR_NULL, "allocator",
                      "allocator needs both alloc and free, or neither");
        return NULL;
    }
    if (d.entity_capacity < 0 || d.entity_capacity > (INT32_MAX / CLV_ENTITY_MAX_EFFECTS)) {
        clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "entity_capacity",
                      "entity_capacity must be in 0..%d (got %d)",
                      (int)(INT32_MAX / CLV_ENTITY_MAX_EFFECTS), (int)d.entity_capacity);
        return NULL;
    }
    if (!clv__finite(d.miss_margin) || d.miss_margin < 0.0f) {
        clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "miss_margin",
                      "miss_margin must be finite and >= 0 (got %g)", (double)d.miss_margin);
        return NULL;
    }
    if (!clv__finite(d.sweep_tolerance) || d.sweep_tolerance < 0.0f) {
        clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "sweep_tolerance",
                      "sweep_tolerance must be finite and > 0, or 0 for the default (got %g)",
                      (double)d.sweep_tolerance);
        return NULL;
    }
    if (!clv__finite(d.clank_range) || d.clank_range < 0.0f || d.parry_stun < 0 ||
        d.parry_stun > 3600) {
        bool range = !clv__finite(d.clank_range) || d.clank_range < 0.0f;
        clv__diag_set(diag, CLV_HIT_ERR_NUMBER, range ? "clank_range" : "parry_stun",
                      "clank_range must be finite and >= 0, parry_stun in 0..3600 (got %g, %d)",
                      (double)d.clank_range, (int)d.parry_stun);
        return NULL;
    }
    if (d.grid_cell_size != 0.0f) {
        clv_grid_def gd = clv_grid_default_def();
        gd.origin = d.grid_origin;
        gd.cell_size = d.grid_cell_size;
        gd.cols = d.grid_cols > 0 ? (uint32_t)d.grid_cols : 0u;
        gd.rows = d.grid_rows > 0 ? (uint32_t)d.grid_rows : 0u;
        gd.capacity = 1;
        if (!clv__finite(d.grid_origin.x) || !clv__finite(d.grid_origin.y) ||
            !(d.grid_cell_size > 0.0f) || !clv__finite(d.grid_cell_size) ||
            clv_grid_memory_size(&gd) == 0) {
            clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "grid_cell_size",
                          "grid needs a finite origin, grid_cell_size > 0 and 1 <= cols * rows "
                          "<= 2^24 (got %g, %d x %d)",
                          (double)d.grid_cell_size, (int)d.grid_cols, (int)d.grid_rows);
            return NULL;
        }
    }
    clv_arena *a = clv__alloc(&d.allocator, sizeof *a);
    if (a == NULL) {
        clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
        return NULL;
    }
    memset(a, 0, sizeof *a);
    a->al = d.allocator;
    a->miss_margin = d.miss_margin;
    a->sweep_tol = d.sweep_tolerance > 0.0f ? d.sweep_tolerance : CLV__SWEEP_TOL_DEFAULT;
    a->clank_range = d.clank_range;
    a->parry_stun = d.parry_stun;
    a->clock_ns = d.clock_ns;
    a->clock_ctx = d.clock_ctx;
    if (d.grid_cell_size != 0.0f) {
        a->grid_def = clv_grid_default_def();
        a->grid_def.origin = d.grid_origin;
        a->grid_def.cell_size = d.grid_cell_size;
        a->grid_def.cols = (uint32_t)d.grid_cols;
        a->grid_def.rows = (uint32_t)d.grid_rows;
    }
    int32_t first_cap = d.entity_capacity > 0 ? d.entity_capacity : 1;
    if (!clv__entity_reserve(a, first_cap)) {
        clv_arena_destroy(a);
        clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
        return NULL;
    }
    return a;
}

/* Whether box i of weapon src can follow itself from one frame to the next (it spans frames,
 * or its attack's first and last, which a looping projectile joins) and is round: the boxes
 * whose swept model the arena's copy keeps (clv__aweapon.self_swept). A box made for one frame
 * alone, as generated arcs are, never reads it. */
static bool follows_itself(const clv_weapon *src, int32_t i) {
    const clv__hitbox_entry *e = &src->boxes[i];
    if (e->def.shape.type != CLV_CAPSULE && e->def.shape.type != CLV_CIRCLE) {
        return false;
    }
    return e->last > e->first || (e->first == 0 && e->last == src->attacks[e->attack].frames - 1);
}

static int32_t self_followers(const clv_weapon *src) {
    int32_t n = 0;
    for (int32_t i = 0; i < src->box_count; i++) {
        n += follows_itself(src, i) ? 1 : 0;
    }
    return n;
}

/* The size of each array of a weapon's copy, from its counts: allocation, freeing and
 * clv_weapon_arena_bytes all read them here, so they cannot disagree. */
typedef struct copy_sizes {
    size_t attacks, frame_base, frame_start, list, prev, boxes, self_swept;
} copy_sizes;

static copy_sizes copy_sizes_of(int32_t attack_count, int32_t frame_total, int32_t list_count,
                                int32_t box_count, int32_t self_count) {
    copy_sizes z;
    z.attacks = (size_t)attack_count * sizeof(clv_attack_def);
    z.frame_base = (size_t)attack_count * sizeof(int32_t);
    z.frame_start = (size_t)(frame_total + 1) * sizeof(int32_t);
    z.list = (size_t)list_count * sizeof(int32_t);
    z.prev = (size_t)list_count * sizeof(int32_t);
    z.boxes = (size_t)box_count * sizeof(clv__box);
    z.self_swept = 2u * (size_t)self_count * sizeof(clv_swept);
    return z;
}

static copy_sizes aweapon_sizes(const clv__aweapon *w) {
    return copy_sizes_of(w->attack_count, w->frame_total, w->list_count, w->box_count,
                         w->self_count);
}

/* What clv__alloc takes for a request of n bytes (an empty array still takes one). */
static size_t taken(size_t n) { return n > 0 ? n : 1; }

size_t clv_weapon_arena_bytes(const clv_weapon *weapon) {
    if (weapon == NULL) {
        return 0;
    }
    copy_sizes z = copy_sizes_of(weapon->attack_count, weapon->frame_total, weapon->placed_total,
                                 weapon->box_count, self_followers(weapon));
    return taken(z.attacks) + taken(z.frame_base) + taken(z.frame_start) + taken(z.list) +
           taken(z.prev) + taken(z.boxes) + taken(z.self_swept) + clv__hurts_bytes(weapon);
}

static void weapon_free(clv_arena *a, clv__aweapon *w) {
    if (w->hurt_total > 0) {
        a->carrying_weapons--;
    }
    clv__free_hurts(a, w);
    copy_sizes z = aweapon_sizes(w);
    clv__free(&a->al, w->attacks, z.attacks);
    clv__free(&a->al, w->frame_base, z.frame_base);
    clv__free(&a->al, w->frame_start, z.frame_start);
    clv__free(&a->al, w->list, z.list);
    clv__free(&a->al, w->prev, z.prev);
    clv__free(&a->al, w->boxes, z.boxes);
    clv__free(&a->al, w->self_swept, z.self_swept);
    memset(w, 0, sizeof *w);
}

void clv_arena_destroy(clv_arena *a) {
    if (a == NULL) {
        return;
    }
    clv_allocator al = a->al;
    for (int32_t i = 0; i < a->weapon_count; i++) {
        weapon_free(a, &a->weapons[i]);
    }
    clv__free(&al, a->weapons, (size_t)a->weapon_cap * sizeof *a->weapons);
    clv__bodies_free(a);
    slot_array arr[SLOT_ARRAYS];
    int n = slot_arrays(a, arr);
    for (int i = 0; i < n; i++) {
        clv__free(&al, *arr[i].ptr, (size_t)a->ent_cap * arr[i].elem);
    }
    clv_grid_destroy(a->grid);
    clv__free(&al, a->grid_boxes, (size_t)a->grid_boxes_cap * sizeof *a->grid_boxes);
    clv__free(&al, a->grid_first, (size_t)a->grid_first_cap * sizeof *a->grid_first);
    clv__free(&al, a->grid_out, (size_t)a->grid_out_cap * sizeof *a->grid_out);
    clv__free(&al, a->att, (size_t)a->att_cap * sizeof *a->att);
    clv__free(&al, a->rec, (size_t)a->rec_cap * sizeof *a->rec);
    clv__free(&al, a->placed, (size_t)a->placed_cap * sizeof *a->placed);
    clv__free(&al, a->swept, (size_t)a->swept_cap * sizeof *a->swept);
    clv__free(&al, a->facing_trig, (size_t)a->facing_trig_cap * sizeof *a->facing_trig);
    clv__free(&al, a->sub, (size_t)a->sub_cap * sizeof *a->sub);
    clv__free(&al, a->trig, (size_t)a->trig_cap * sizeof *a->trig);
    clv__free(&al, a->cand, (size_t)a->cand_cap * sizeof *a->cand);
    clv__free(&al, a->new_rec, (size_t)a->new_rec_cap * sizeof *a->new_rec);
    clv__free(&al, a->scratch, (size_t)a->scratch_cap * sizeof *a->scratch);
    clv__free(&al, a->hits, (size_t)a->hit_cap * sizeof *a->hits);
    clv__free(&al, a->misses, (size_t)a->miss_cap * sizeof *a->misses);
    clv__free(&al, a->ticks, (size_t)a->tick_cap * sizeof *a->ticks);
    clv__free(&al, a->clashes, (size_t)a->clash_cap * sizeof *a->clashes);
    clv__free(&al, a->pevents, (size_t)a->pevent_cap * sizeof *a->pevents);
    clv__free(&al, a->stop, (size_t)a->stop_cap * sizeof *a->stop);
    clv__free(&al, a->meet_order, (size_t)a->meet_order_cap * sizeof *a->meet_order);
    clv__free(&al, a->meetings, (size_t)a->meeting_cap * sizeof *a->meetings);
    clv__free(&al, a->meet_misses, (size_t)a->meet_miss_cap * sizeof *a->meet_misses);
    clv__free(&al, a->trade_keys, (size_t)a->trade_keys_cap * sizeof *a->trade_keys);
    clv__free(&al, a->pushes, (size_t)a->push_cap * sizeof *a->pushes);
    clv__free(&al, a->carry, (size_t)a->carry_cap * sizeof *a->carry);
    clv__free(&al, a->carried, (size_t)a->carried_cap * sizeof *a->carried);
    clv__free(&al, a, sizeof *a);
}

/* ---- weapons ---- */

/* Frame lists in insertion order (the order hitboxes were added is their precedence): each
 * frame's end offset from the counts, then the hitboxes filed from the last one back, each
 * frame's offset counting down to its start. Returns the most hitboxes of one frame. */
static int32_t file_hitboxes(const clv_weapon *src, clv__aweapon *w) {
    int32_t f = 0, widest = 0;
    for (int32_t at = 0; at < w->attack_count; at++) {
        w->frame_base[at] = f;
        f += w->attacks[at].frames;
    }
    memset(w->frame_start, 0, (size_t)(w->frame_total + 1) * sizeof *w->frame_start);
    for (int32_t i = 0; i < src->box_count; i++) {
        const clv__hitbox_entry *e = &src->boxes[i];
        for (int32_t fr = e->first; fr <= e->last; fr++) {
            w->frame_start[w->frame_base[e->attack] + fr]++;
        }
    }
    for (f = 0; f < w->frame_total; f++) {
        widest = w->frame_start[f] > widest ? w->frame_start[f] : widest;
        w->frame_start[f] += f > 0 ? w->frame_start[f - 1] : 0;
    }
    w->frame_start[w->frame_total] = w->list_count;
    for (int32_t i = src->box_count - 1; i >= 0; i--) {
        const clv__hitbox_entry *e = &src->boxes[i];
        for (int32_t fr = e->first; fr <= e->last; fr++) {
            w->list[--w->frame_start[w->frame_base[e->attack] + fr]] = i;
        }
    }
    return widest;
}

/* A hitbox id and its index, for finding a frame's hitbox by id. */
typedef struct id_ref {
    const char *id;
    int32_t box;
} id_ref;

static int cmp_id_ref(const void *x, const void *y) {
    return strncmp(((const id_ref *)x)->id, ((const id_ref *)y)->id, CLV_HIT_NAME_MAX);
}

/* The hitbox with box's id in frame f (sorted into `sorted` on first use), or -1. */
static int32_t find_by_id(const clv__aweapon *w, int32_t f, int32_t box, id_ref *sorted,
                          bool *have_sorted) {
    int32_t lo = w->frame_start[f], n = w->frame_start[f + 1] - lo;
    if (!*have_sorted) {
        for (int32_t j = 0; j < n; j++) {
            sorted[j].box = w->list[lo + j];
            sorted[j].id = w->boxes[sorted[j].box].def.id;
        }
        qsort(sorted, (size_t)n, sizeof *sorted, cmp_id_ref);
        *have_sorted = true;
    }
    id_ref key = {w->boxes[box].def.id, box};
    const id_ref *hit = bsearch(&key, sorted, (size_t)n, sizeof *sorted, cmp_id_ref);
    return hit != NULL ? hit->box : -1;
}

/* A hitbox sweeps from the hitbox of the same id on the frame before (ids are unique within a
 * frame), whether the same entry spans both frames (it is its own predecessor) or a generator
 * emitted one per frame (found by id in the frame before, sorted once: n log n, not n^2). */
static void link_sweeps(clv__aweapon *w, const clv_weapon *src, id_ref *sorted) {
    for (int32_t at = 0; at < w->attack_count; at++) {
        for (int32_t fr = 0; fr < w->attacks[at].frames; fr++) {
            int32_t cur = w->frame_base[at] + fr;
            bool have_sorted = false;
            for (int32_t k = w->frame_start[cur]; k < w->frame_start[cur + 1]; k++) {
                int32_t box = w->list[k];
                if (fr == 0) {
                    /* A looping projectile sweeps from its last frame into its first. */
                    int32_t last = w->frame_base[at] + w->attacks[at].frames - 1;
                    w->prev[k] = find_by_id(w, last, box, sorted, &have_sorted);
                } else if (src->boxes[box].first < fr) {
                    w->prev[k] = box;
                } else {
                    w->prev[k] = find_by_id(w, cur - 1, box, sorted, &have_sorted);
                }
            }
        }
    }
}

/* The slot a new weapon takes: the lowest one a removal emptied (a weapon always has an
 * attack), or weapon_count when none is. */
static int32_t free_weapon_slot(const clv_arena *a) {
    int32_t s = 0;
    while (s < a->weapon_count && a->weapons[s].attack_count > 0) {
        s++;
    }
    return s;
}

clv_hit_status clv_arena_add_weapon(clv_arena *a, const clv_weapon *src, clv_weapon_id *out,
                                    clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (a == NULL || src == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, a == NULL ? "arena" : "weapon", "%s is NULL",
                             a == NULL ? "arena" : "weapon");
    }
    if (src->attack_count == 0) {
        return clv__diag_set(diag, CLV_HIT_ERR_INDEX, "attacks", "weapon has no attack");
    }
    int32_t slot = free_weapon_slot(a);
    if (!clv__reserve(&a->al, (void **)&a->weapons, &a->weapon_cap, slot + 1, sizeof *a->weapons)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
    }
    clv__aweapon w;
    memset(&w, 0, sizeof w);
    snprintf(w.name, sizeof w.name, "%s", clv_weapon_name(src));
    w.attack_count = src->attack_count;
    /* Both bounded when the weapon was built: the copy is linear in them (and n log n in the
     * largest frame). */
    w.frame_total = src->frame_total;
    w.list_count = src->placed_total;
    w.box_count = src->box_count;
    w.self_count = self_followers(src);
    copy_sizes z = aweapon_sizes(&w);
    w.attacks = clv__alloc(&a->al, z.attacks);
    w.frame_base = clv__alloc(&a->al, z.frame_base);
    w.frame_start = clv__alloc(&a->al, z.frame_start);
    w.list = clv__alloc(&a->al, z.list);
    w.prev = clv__alloc(&a->al, z.prev);
    w.boxes = clv__alloc(&a->al, z.boxes);
    w.self_swept = clv__alloc(&a->al, z.self_swept);
    if (w.attacks == NULL || w.frame_base == NULL || w.frame_start == NULL || w.list == NULL ||
        w.prev == NULL || w.boxes == NULL || w.self_swept == NULL) {
        weapon_free(a, &w);
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
    }
    memcpy(w.attacks, src->attacks, (size_t)w.attack_count * sizeof *w.attacks);
    for (int32_t i = 0, self = 0; i < w.box_count; i++) {
        w.boxes[i].def = src->boxes[i].def;
        const clv_hitbox_def *d = &src->boxes[i].def;
        w.boxes[i].group_key = d->group == CLV_GROUP_NONE ? -1 - i : d->group;
        w.boxes[i].filters = d->kind == CLV_HITBOX_GRAB || d->hits != CLV_HITS_AUTO ||
                             d->facing_restrict != CLV_FACING_ANY || d->layer != 1 ||
                             d->mask != 0xFFFF;
        w.boxes[i].self = follows_itself(src, i) ? self++ : -1;
        for (int32_t mirror = 0; w.boxes[i].self >= 0 && mirror < 2; mirror++) {
            (void)clv_swept_init(&w.self_swept[2 * w.boxes[i].self + mirror], &d->shape,
                                 mirror != 0, &d->shape, mirror != 0);
        }
    }
    int32_t widest = file_hitboxes(src, &w);
    id_ref *sorted = clv__alloc(&a->al, (size_t)widest * sizeof *sorted);
    if (sorted == NULL) {
        weapon_free(a, &w);
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
    }
    link_sweeps(&w, src, sorted);
    clv__free(&a->al, sorted, (size_t)widest * sizeof *sorted);
    if (!clv__file_hurts(a, src, &w)) {
        weapon_free(a, &w);
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
    }
    a->carrying_weapons += w.hurt_total > 0 ? 1 : 0;
    w.fingerprint = clv__weapon_fingerprint(&w);
    w.gen = a->weapons[slot].gen; /* 0 for a new slot: clv__reserve zeroes what it adds */
    a->weapons[slot] = w;
    if (slot == a->weapon_count) {
        a->weapon_count++;
    }
    if (out != NULL) {
        out->index1 = (uint32_t)slot + 1;
        out->gen = w.gen;
    }
    return CLV_HIT_OK;
}

clv__aweapon *clv__weapon_get(const clv_arena *a, clv_weapon_id id) {
    if (a == NULL || id.index1 == 0 || id.index1 > (uint32_t)a->weapon_count) {
        return NULL;
    }
    clv__aweapon *w = &a->weapons[id.index1 - 1];
    return w->attack_count > 0 && w->gen == id.gen ? w : NULL;
}

clv_hit_status clv_arena_remove_weapon(clv_arena *a, clv_weapon_id id) {
    if (a == NULL) {
        return CLV_HIT_ERR_NULL;
    }
    clv__aweapon *w = clv__weapon_get(a, id);
    if (w == NULL) {
        return CLV_HIT_ERR_STALE_ID;
    }
    for (int32_t s = 0; s < a->att_count; s++) {
        if (a->att[s].used && a->att[s].weapon1 == id.index1) {
            return CLV_HIT_ERR_IN_USE;
        }
    }
    weapon_free(a, w); /* leaves attack_count 0: the slot is empty */
    w->gen = (uint16_t)(id.gen + 1);
    return CLV_HIT_OK;
}

int32_t clv_arena_find_attack(const clv_arena *a, clv_weapon_id weapon, const char *name) {
    const clv__aweapon *w = clv__weapon_get(a, weapon);
    return w != NULL ? clv__find_attack(w->attacks, w->attack_count, name) : -1;
}

const char *clv_arena_weapon_name(const clv_arena *a, clv_weapon_id weapon) {
    const clv__aweapon *w = clv__weapon_get(a, weapon);
    return w != NULL ? w->name : NULL;
}

const clv_attack_def *clv_arena_attack_def(const clv_arena *a, clv_weapon_id weapon,
                                           int32_t attack) {
    const clv__aweapon *w = clv__weapon_get(a, weapon);
    if (w == NULL || attack < 0 || attack >= w->attack_count) {
        return NULL;
    }
    return &w->attacks[attack];
}

int32_t clv_arena_frame_hitbox_count(const clv_arena *a, clv_weapon_id weapon, int32_t attack,
                                     int32_t frame) {
    const clv__aweapon *w = clv__weapon_get(a, weapon);
    if (w == NULL || attack < 0 || attack >= w->attack_count || frame < 0 ||
        frame >= w->attacks[attack].frames) {
        return 0;
    }
    int32_t f = w->frame_base[attack] + frame;
    return w->frame_start[f + 1] - w->frame_start[f];
}

const clv_hitbox_def *clv_arena_hitbox(const clv_arena *a, clv_weapon_id weapon, int32_t attack,
                                       int32_t frame, int32_t hitbox) {
    const clv__aweapon *w = clv__weapon_get(a, weapon);
    if (w == NULL || attack < 0 || attack >= w->attack_count || frame < 0 ||
        frame >= w->attacks[attack].frames) {
        return NULL;
    }
    int32_t f = w->frame_base[attack] + frame;
    int32_t count = w->frame_start[f + 1] - w->frame_start[f];
    if (hitbox < 0 || hitbox >= count) {
        return NULL;
    }
    return &w->boxes[w->list[w->frame_start[f] + hitbox]].def;
}

/* ---- entities ---- */

int32_t clv__entity_slot(const clv_arena *a, clv_entity_id id) {
    if (a == NULL || id.index1 == 0 || id.index1 > (uint32_t)a->ent_count) {
        return -1;
    }
    int32_t s = (int32_t)(id.index1 - 1);
    if (!a->ent[s].used || a->ent[s].gen != id.gen) {
        return -1;
    }
    return s;
}

void clv__entity_refresh_bounds(clv_arena *a, int32_t s) {
    const clv__hurt *h = &a->hurt[s];
    clv__entity *e = &a->ent[s];
    clv_vec2 *centre = &a->local_centre[s];
    float *half_side = &a->local_half[s];
    clv__entity_stir(a, s);
    clv_aabb lb;
    memset(&lb, 0, sizeof lb);
    for (int32_t i = 0; i < h->count; i++) {
        clv_aabb b = clv_shape_bounds(&h->shapes[i]);
        if (i == 0) {
            lb = b;
        } else {
            lb.min.x = b.min.x < lb.min.x ? b.min.x : lb.min.x;
            lb.min.y = b.min.y < lb.min.y ? b.min.y : lb.min.y;
            lb.max.x = b.max.x > lb.max.x ? b.max.x : lb.max.x;
            lb.max.y = b.max.y > lb.max.y ? b.max.y : lb.max.y;
        }
    }
    e->hurt_count = h->count;
    if (clv__body_bounds(a, s, centre, half_side)) {
        clv__entity_update_bounds(a, s);
        return;
    }
    *centre = clv_v2(0.5f * (lb.min.x + lb.max.x), 0.5f * (lb.min.y + lb.max.y));
    float hw = 0.5f * (lb.max.x - lb.min.x), hh = 0.5f * (lb.max.y - lb.min.y);
    /* rounding of the centre can move an edge by an ulp: grow the square a little */
    float half = hw > hh ? hw : hh;
    /* ... and keep it > 0, which marks a slot that can be hit (a point hurtbox included) */
    *half_side = half + 1e-4f * (half + fabsf(centre->x) + fabsf(centre->y)) + 1e-30f;
    clv__entity_update_bounds(a, s);
}

static clv_hit_status check_hurtboxes(const clv_shape *shapes, int32_t count, clv_hit_diag *diag) {
    if (count < 0 || count > CLV_MAX_HURTBOXES) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "hurtbox_count",
                             "hurtbox_count must be in 0..%d (got %d)", CLV_MAX_HURTBOXES,
                             (int)count);
    }
    if (count > 0 && shapes == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, "hurtboxes", "hurtboxes is NULL");
    }
    for (int32_t i = 0; i < count; i++) {
        char field[32];
        snprintf(field, sizeof field, "hurtboxes[%d]", (int)i);
        clv_hit_status st = clv__check_shape(&shapes[i], field, diag);
        if (st != CLV_HIT_OK) {
            return st;
        }
    }
    return CLV_HIT_OK;
}

static void set_hurtboxes(clv_arena *a, int32_t s, const clv_shape *shapes, int32_t count) {
    clv__hurt *h = &a->hurt[s];
    memset(h, 0, sizeof *h);
    h->count = count;
    for (int32_t i = 0; i < count; i++) {
        h->shapes[i] = shapes[i];
    }
    clv__entity_refresh_bounds(a, s);
}

clv_hit_status clv_arena_spawn(clv_arena *a, const clv_entity_def *d, clv_entity_id *out,
                               clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (a == NULL || d == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, a == NULL ? "arena" : "def", "%s is NULL",
                             a == NULL ? "arena" : "def");
    }
    const struct {
        float v;
        const char *name;
        float lo;
        bool strict;
    } nums[] = {
        {d->position.x, "position.x", -CLV_WORLD_LIMIT, false},
        {d->position.y, "position.y", -CLV_WORLD_LIMIT, false},
        {d->velocity.x, "velocity.x", -CLV_WORLD_LIMIT, false},
        {d->velocity.y, "velocity.y", -CLV_WORLD_LIMIT, false},
        {d->weight, "weight", 0.0f, true},
        {d->friction, "friction", 0.0f, false},
        {d->hp, "hp", 0.0f, true},
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        if (!clv__finite(nums[i].v)) {
            return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, nums[i].name,
                                 "%s must be finite (got %g)", nums[i].name, (double)nums[i].v);
        }
        if (nums[i].strict ? !(nums[i].v > nums[i].lo) : !(nums[i].v >= nums[i].lo)) {
            return clv__diag_set(
                diag, CLV_HIT_ERR_NUMBER, nums[i].name, "%s must be %s %g (got %g)", nums[i].name,
                nums[i].strict ? ">" : ">=", (double)nums[i].lo, (double)nums[i].v);
        }
        if (!clv__in_world(nums[i].v)) {
            return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, nums[i].name,
                                 "%s must be within +-1e9 (got %g)", nums[i].name,
                                 (double)nums[i].v);
        }
    }
    if ((int)d->state < (int)CLV_HURT_NORMAL || (int)d->state > (int)CLV_HURT_GUARD) {
        return clv__diag_set(
            diag, CLV_HIT_ERR_ENUM, "state",
            "state must be normal, invincible, intangible, parry or guard (got %d)", (int)d->state);
    }
    clv_hit_status st = check_hurtboxes(d->hurtboxes, d->hurtbox_count, diag);
    if (st != CLV_HIT_OK) {
        return st;
    }
    int32_t s = a->ent_free_hint;
    while (s < a->ent_count && a->ent[s].used) {
        s++;
    }
    if (s == a->ent_count) {
        if (a->ent_count == INT32_MAX / CLV_ENTITY_MAX_EFFECTS || !clv__entity_reserve(a, s + 1)) {
            return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
        }
        memset(&a->ent[s], 0, sizeof a->ent[s]);
        memset(&a->vit[s], 0, sizeof a->vit[s]);
        a->ent_count++;
    }
    if (d->state == CLV_HURT_GUARD && clv__combat_of(a, s) == NULL) { /* the guard meter */
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
    }
    a->ent_free_hint = s + 1;
    clv__entity *e = &a->ent[s];
    uint16_t gen = e->gen;
    memset(e, 0, sizeof *e);
    e->gen = gen;
    e->used = 1;
    a->pos[s] = d->position;
    a->vel[s] = d->velocity;
    clv__entity_stir(a, s);
    e->friction = d->friction;
    clv__vitals *v = &a->vit[s];
    memset(v, 0, sizeof *v);
    v->weight = d->weight;
    v->hp = d->hp;
    v->team = d->team;
    v->state = (int32_t)d->state;
    v->user = d->user;
    memset(&a->fx[(size_t)s * CLV_ENTITY_MAX_EFFECTS], 0, CLV_ENTITY_MAX_EFFECTS * sizeof *a->fx);
    if (a->cmb != NULL) {
        a->cmb[s] = clv__combat_default();
    }
    set_hurtboxes(a, s, d->hurtboxes, d->hurtbox_count);
    a->ent_live++;
    if (out != NULL) {
        out->index1 = (uint32_t)s + 1;
        out->gen = gen;
    }
    return CLV_HIT_OK;
}

clv_hit_status clv_arena_remove(clv_arena *a, clv_entity_id id) {
    int32_t s = clv__entity_slot(a, id);
    if (s < 0) {
        return a == NULL ? CLV_HIT_ERR_NULL : CLV_HIT_ERR_STALE_ID;
    }
    for (int32_t i = 0; i < a->att_count; i++) {
        if (a->att[i].used && a->att[i].owner.index1 == id.index1 &&
            a->att[i].owner.gen == id.gen) {
            clv__attack_end(a, i);
        }
    }
    clv__combat_forget(a, s);
    a->ent[s].used = 0;
    a->ent[s].gen = (uint16_t)(a->ent[s].gen + 1);
    clv__entity_stir(a, s);
    clv__entity_update_bounds(a, s);
    a->ent_live--;
    if (s < a->ent_free_hint) {
        a->ent_free_hint = s;
    }
    return CLV_HIT_OK;
}

bool clv_arena_entity_valid(const clv_arena *a, clv_entity_id id) {
    return clv__entity_slot(a, id) >= 0;
}

int32_t clv_arena_entity_count(const clv_arena *a) { return a != NULL ? a->ent_live : 0; }

clv_hit_status clv_arena_entity(const clv_arena *a, clv_entity_id id, clv_entity_info *out) {
    if (a == NULL || out == NULL) {
        return CLV_HIT_ERR_NULL;
    }
    int32_t s = clv__entity_slot(a, id);
    if (s < 0) {
        return CLV_HIT_ERR_STALE_ID;
    }
    const clv__entity *e = &a->ent[s];
    const clv__vitals *v = &a->vit[s];
    memset(out, 0, sizeof *out);
    out->position = a->pos[s];
    out->velocity = a->vel[s];
    out->weight = v->weight;
    out->friction = e->friction;
    out->hp = v->hp;
    out->damage_taken = v->damage_taken;
    out->team = v->team;
    out->state = (clv_hurt_state)v->state;
    out->state_frames = e->state_frames;
    out->alive = v->hp > 0.0f;
    out->hitlag = e->hitlag;
    out->hitstun = e->hitstun;
    out->effect_count = e->effect_count;
    out->hurtbox_count = a->hurt[s].count;
    out->user = v->user;
    return CLV_HIT_OK;
}

clv_hit_status clv_arena_set_position(clv_arena *a, clv_entity_id id, clv_vec2 p) {
    int32_t s = clv__entity_slot(a, id);
    if (s < 0) {
        return a == NULL ? CLV_HIT_ERR_NULL : CLV_HIT_ERR_STALE_ID;
    }
    if (!clv__in_world(p.x) || !clv__in_world(p.y)) {
        return CLV_HIT_ERR_NUMBER;
    }
    a->pos[s] = p;
    clv__entity_update_bounds(a, s);
    return CLV_HIT_OK;
}

clv_hit_status clv_arena_set_velocity(clv_arena *a, clv_entity_id id, clv_vec2 v) {
    int32_t s = clv__entity_slot(a, id);
    if (s < 0) {
        return a == NULL ? CLV_HIT_ERR_NULL : CLV_HIT_ERR_STALE_ID;
    }
    if (!clv__in_world(v.x) || !clv__in_world(v.y)) {
        return CLV_HIT_ERR_NUMBER;
    }
    a->vel[s] = v;
    return CLV_HIT_OK;
}

clv_hit_status clv_arena_set_state(clv_arena *a, clv_entity_id id, clv_hurt_state state,
                                   int32_t frames) {
    int32_t s = clv__entity_slot(a, id);
    if (s < 0) {
        return a == NULL ? CLV_HIT_ERR_NULL : CLV_HIT_ERR_STALE_ID;
    }
    if ((int)state < (int)CLV_HURT_NORMAL || (int)state > (int)CLV_HURT_GUARD) {
        return CLV_HIT_ERR_ENUM;
    }
    if (frames < 0) {
        return CLV_HIT_ERR_NUMBER;
    }
    if (state == CLV_HURT_GUARD && clv__combat_of(a, s) == NULL) { /* the guard meter */
        return CLV_HIT_ERR_NO_MEMORY;
    }
    a->vit[s].state = (int32_t)state;
    a->ent[s].state_frames = state == CLV_HURT_NORMAL ? 0 : frames;
    clv__entity_stir(a, s);
    return CLV_HIT_OK;
}

clv_hit_status clv_arena_set_hp(clv_arena *a, clv_entity_id id, float hp) {
    int32_t s = clv__entity_slot(a, id);
    if (s < 0) {
        return a == NULL ? CLV_HIT_ERR_NULL : CLV_HIT_ERR_STALE_ID;
    }
    if (!clv__in_world(hp)) {
        return CLV_HIT_ERR_NUMBER;
    }
    a->vit[s].hp = hp;
    return CLV_HIT_OK;
}

clv_hit_status clv_arena_set_hurtboxes(clv_arena *a, clv_entity_id id, const clv_shape *shapes,
                                       int32_t count, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (a == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, "arena", "arena is NULL");
    }
    int32_t s = clv__entity_slot(a, id);
    if (s < 0) {
        return clv__diag_set(diag, CLV_HIT_ERR_STALE_ID, "id", "entity id is stale");
    }
    clv_hit_status st = check_hurtboxes(shapes, count, diag);
    if (st != CLV_HIT_OK) {
        return st;
    }
    set_hurtboxes(a, s, shapes, count);
    return CLV_HIT_OK;
}
