/* One arena frame, in the order of docs/hit-rules.md. */
#include "step_internal.h"

#include <math.h>
#include <string.h>

/* The move pass takes four entities at a time with SSE2 where the compiler targets it;
 * CLV_MOVE_NO_SSE2 builds the one-at-a-time pass alone (to check that it moves the same). */
#if (defined(__SSE2__) || defined(_M_X64)) && !defined(CLV_MOVE_NO_SSE2)
#include <emmintrin.h>
#define MOVE_SSE2 1
#else
#define MOVE_SSE2 0
#endif
/* ... and eight at a time with AVX2 where the processor has it, chosen at run time (the library
 * itself is built for SSE2); CLV_MOVE_NO_AVX2 builds without that path. */
#if MOVE_SSE2 && defined(__x86_64__) && defined(__GNUC__) && !defined(CLV_MOVE_NO_AVX2)
#include <immintrin.h>
#define MOVE_AVX2 1
#else
#define MOVE_AVX2 0
#endif

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

/* Whether velocity v moves: not +0 or -0 on both axes, told from the bits, as the four- and
 * eight-wide passes tell it (a float compare would call a subnormal zero in a program that
 * takes denormals as zero, and the paths would disagree). */
static inline bool moving(clv_vec2 v) {
    uint32_t x, y;
    memcpy(&x, &v.x, sizeof x);
    memcpy(&y, &v.y, sizeof y);
    return ((x | y) & 0x7fffffffu) != 0;
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
    clv_vec2 *pos = &a->pos[s], *vel = &a->vel[s];
    if (moving(*vel)) {
        pos->x = clv__clamp_world(pos->x + vel->x);
        pos->y = clv__clamp_world(pos->y + vel->y);
        if (e->friction > 0.0f) {
            float speed = sqrtf(vel->x * vel->x + vel->y * vel->y);
            if (speed <= e->friction) {
                *vel = clv_v2(0.0f, 0.0f);
            } else {
                float k = (speed - e->friction) / speed;
                vel->x *= k;
                vel->y *= k;
            }
        }
        clv__entity_update_bounds(a, s);
    }
    if (e->effect_count > 0 && tick_effects(a, s) != CLV_HIT_OK) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    return CLV_HIT_OK;
}

/* What live slot s is to the move pass, from its state now (clv__entity_stir). */
static uint8_t calm_of(const clv_arena *a, int32_t s) {
    const clv__entity *e = &a->ent[s];
    if ((e->hitlag | e->state_frames | e->hitstun | e->effect_count | e->frozen) != 0 ||
        e->friction > 0.0f) {
        return CLV__STIRRED;
    }
    bool far = e->hurt_count == 0 && (a->cmb == NULL || a->cmb[s].body1 == 0);
    return far ? CLV__CALM_FAR : CLV__CALM;
}

/* A calm entity's move: its velocity added, unless still (`moving`), and its bounds refreshed
 * (as clv__entity_update_bounds). */
static inline void move_one(clv_arena *a, int32_t s, bool far) {
    clv_vec2 *pos = &a->pos[s];
    const clv_vec2 v = a->vel[s];
    if (!moving(v)) {
        return;
    }
    pos->x = clv__clamp_world(pos->x + v.x);
    pos->y = clv__clamp_world(pos->y + v.y);
    a->bx[s] = far ? 3.0e38f : pos->x + a->local_centre[s].x;
    a->by[s] = far ? 3.0e38f : pos->y + a->local_centre[s].y;
    a->br[s] = far ? 0.0f : a->local_half[s];
}

#if MOVE_SSE2
/* clv__clamp_world on four lanes: min and max keep a value within the limit as it is (-0
 * included), NaN goes to the lower limit there and is then cleared to +0. */
static inline __m128 clamp_world4(__m128 v) {
    const __m128 lo = _mm_set1_ps(-CLV_WORLD_LIMIT), hi = _mm_set1_ps(CLV_WORLD_LIMIT);
    __m128 nan = _mm_cmpunord_ps(v, v);
    return _mm_andnot_ps(nan, _mm_min_ps(_mm_max_ps(v, lo), hi));
}

/* (mask ? x : y) per lane */
static inline __m128 select4(__m128 mask, __m128 x, __m128 y) {
    return _mm_or_ps(_mm_and_ps(mask, x), _mm_andnot_ps(mask, y));
}

/* The arrays the move pass reads and writes, held in locals: every store through an intrinsic
 * may alias anything, so fields read through the arena would be read again after each one. */
typedef struct move_arrays {
    float *pos;
    const float *vel, *centre, *half;
    float *bx, *by, *br;
} move_arrays;

/* move_one on the calm entities among slots s..s+3: the same additions and clamps, lane by
 * lane, the others' values stored back unchanged. Usually all four are calm, near and moving:
 * their values are stored without a look at the old ones. */
static inline void move_four(move_arrays m, int32_t s, uint32_t calm4) {
    float *px = m.pos + 2 * s;
    const float *vx = m.vel + 2 * s, *lc = m.centre + 2 * s;
    __m128 p01 = _mm_loadu_ps(px), p23 = _mm_loadu_ps(px + 4);
    __m128 v01 = _mm_loadu_ps(vx), v23 = _mm_loadu_ps(vx + 4);
    /* an axis lane is still when its bits are +0 or -0 (told from the bits, as `moving` does: a
     * float compare calls a subnormal zero where denormals are taken as zero); a slot is still
     * when both of its lanes are */
    const __m128i abs = _mm_set1_epi32(0x7fffffff), zero_bits = _mm_setzero_si128();
    __m128 z01 =
        _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(_mm_castps_si128(v01), abs), zero_bits));
    __m128 z23 =
        _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(_mm_castps_si128(v23), abs), zero_bits));
    __m128 still = _mm_and_ps(_mm_shuffle_ps(z01, z23, _MM_SHUFFLE(2, 0, 2, 0)),
                              _mm_shuffle_ps(z01, z23, _MM_SHUFFLE(3, 1, 3, 1)));
    if (_mm_movemask_ps(still) == 0xf) {
        return; /* all four still: a still slot keeps its position and bounds */
    }
    __m128 n01 = clamp_world4(_mm_add_ps(p01, v01)), n23 = clamp_world4(_mm_add_ps(p23, v23));
    __m128 l01 = _mm_loadu_ps(lc), l23 = _mm_loadu_ps(lc + 4);
    const uint32_t all_near = 0x01010101u * CLV__CALM;
    if (calm4 == all_near && _mm_movemask_ps(still) == 0) {
        _mm_storeu_ps(px, n01);
        _mm_storeu_ps(px + 4, n23);
        _mm_storeu_ps(m.bx + s, _mm_add_ps(_mm_shuffle_ps(n01, n23, _MM_SHUFFLE(2, 0, 2, 0)),
                                           _mm_shuffle_ps(l01, l23, _MM_SHUFFLE(2, 0, 2, 0))));
        _mm_storeu_ps(m.by + s, _mm_add_ps(_mm_shuffle_ps(n01, n23, _MM_SHUFFLE(3, 1, 3, 1)),
                                           _mm_shuffle_ps(l01, l23, _MM_SHUFFLE(3, 1, 3, 1))));
        _mm_storeu_ps(m.br + s, _mm_loadu_ps(m.half + s));
        return;
    }
    const __m128i zero = _mm_setzero_si128();
    __m128i c = _mm_cvtsi32_si128((int)calm4);
    c = _mm_unpacklo_epi16(_mm_unpacklo_epi8(c, zero), zero); /* one slot per lane */
    __m128 calm = _mm_castsi128_ps(_mm_cmpgt_epi32(c, zero));
    __m128 moves = _mm_andnot_ps(still, calm); /* per slot */
    __m128 far = _mm_castsi128_ps(_mm_cmpeq_epi32(c, _mm_set1_epi32(CLV__CALM_FAR)));
    p01 = select4(_mm_unpacklo_ps(moves, moves), n01, p01);
    p23 = select4(_mm_unpackhi_ps(moves, moves), n23, p23);
    _mm_storeu_ps(px, p01);
    _mm_storeu_ps(px + 4, p23);
    __m128 x = _mm_add_ps(_mm_shuffle_ps(p01, p23, _MM_SHUFFLE(2, 0, 2, 0)),
                          _mm_shuffle_ps(l01, l23, _MM_SHUFFLE(2, 0, 2, 0)));
    __m128 y = _mm_add_ps(_mm_shuffle_ps(p01, p23, _MM_SHUFFLE(3, 1, 3, 1)),
                          _mm_shuffle_ps(l01, l23, _MM_SHUFFLE(3, 1, 3, 1)));
    const __m128 away = _mm_set1_ps(3.0e38f);
    x = select4(far, away, x);
    y = select4(far, away, y);
    __m128 r = _mm_andnot_ps(far, _mm_loadu_ps(m.half + s));
    _mm_storeu_ps(m.bx + s, select4(moves, x, _mm_loadu_ps(m.bx + s)));
    _mm_storeu_ps(m.by + s, select4(moves, y, _mm_loadu_ps(m.by + s)));
    _mm_storeu_ps(m.br + s, select4(moves, r, _mm_loadu_ps(m.br + s)));
}
#endif

#if MOVE_AVX2
/* clamp_world4 on eight lanes. */
__attribute__((target("avx2"))) static inline __m256 clamp_world8(__m256 v) {
    const __m256 lo = _mm256_set1_ps(-CLV_WORLD_LIMIT), hi = _mm256_set1_ps(CLV_WORLD_LIMIT);
    __m256 nan = _mm256_cmp_ps(v, v, _CMP_UNORD_Q);
    return _mm256_andnot_ps(nan, _mm256_min_ps(_mm256_max_ps(v, lo), hi));
}

/* x and y of slots s..s+7 from two registers of four (x, y) pairs each: the in-lane shuffle
 * gives slots 0 1 4 5 | 2 3 6 7, the permutation of 64-bit pairs puts them in order. */
__attribute__((target("avx2"))) static inline __m256 xs_of(__m256 q0, __m256 q1, int y) {
    __m256 t = y ? _mm256_shuffle_ps(q0, q1, _MM_SHUFFLE(3, 1, 3, 1))
                 : _mm256_shuffle_ps(q0, q1, _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(t), _MM_SHUFFLE(3, 1, 2, 0)));
}

/* move_four over slots from s up to n, eight at a time when all eight are calm, near and
 * moving (the usual group); the others four at a time. Returns where it stopped. */
__attribute__((target("avx2"))) static int32_t move_calm_avx2(move_arrays m, const uint8_t *calm,
                                                              int32_t s, int32_t n) {
    const uint64_t all_near = 0x0101010101010101ull * CLV__CALM;
    const __m256i abs = _mm256_set1_epi32(0x7fffffff), zero_bits = _mm256_setzero_si256();
    for (; s + 8 <= n; s += 8) {
        uint64_t calm8;
        memcpy(&calm8, &calm[s], sizeof calm8);
        if (calm8 == 0) {
            continue;
        }
        float *px = m.pos + 2 * s;
        const float *vx = m.vel + 2 * s, *lc = m.centre + 2 * s;
        __m256 v0 = _mm256_loadu_ps(vx), v1 = _mm256_loadu_ps(vx + 8);
        __m256 z0 = _mm256_castsi256_ps(
            _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_castps_si256(v0), abs), zero_bits));
        __m256 z1 = _mm256_castsi256_ps(
            _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_castps_si256(v1), abs), zero_bits));
        /* a slot is still when both its lanes are (the order of the slots does not matter) */
        __m256 still = _mm256_and_ps(_mm256_shuffle_ps(z0, z1, _MM_SHUFFLE(2, 0, 2, 0)),
                                     _mm256_shuffle_ps(z0, z1, _MM_SHUFFLE(3, 1, 3, 1)));
        int still8 = _mm256_movemask_ps(still);
        if (still8 == 0xff) {
            continue; /* all eight still (a crowd standing by): nothing moves */
        }
        if (calm8 != all_near || still8 != 0) {
            uint32_t lo = (uint32_t)calm8, hi = (uint32_t)(calm8 >> 32);
            if (lo != 0) {
                move_four(m, s, lo);
            }
            if (hi != 0) {
                move_four(m, s + 4, hi);
            }
            continue;
        }
        __m256 n0 = clamp_world8(_mm256_add_ps(_mm256_loadu_ps(px), v0));
        __m256 n1 = clamp_world8(_mm256_add_ps(_mm256_loadu_ps(px + 8), v1));
        _mm256_storeu_ps(px, n0);
        _mm256_storeu_ps(px + 8, n1);
        __m256 l0 = _mm256_loadu_ps(lc), l1 = _mm256_loadu_ps(lc + 8);
        _mm256_storeu_ps(m.bx + s, _mm256_add_ps(xs_of(n0, n1, 0), xs_of(l0, l1, 0)));
        _mm256_storeu_ps(m.by + s, _mm256_add_ps(xs_of(n0, n1, 1), xs_of(l0, l1, 1)));
        _mm256_storeu_ps(m.br + s, _mm256_loadu_ps(m.half + s));
    }
    return s;
}
#endif

/* The calm entities' moves: most of a crowd, and a pass without a branch per entity. */
static void move_calm(clv_arena *a) {
    const uint8_t *calm = a->calm;
    const int32_t n = a->ent_count;
    int32_t s = 0;
#if MOVE_SSE2
    const move_arrays m = {&a->pos[0].x, &a->vel[0].x, &a->local_centre[0].x, a->local_half, a->bx,
                           a->by,        a->br};
#if MOVE_AVX2
    if (__builtin_cpu_supports("avx2")) {
        s = move_calm_avx2(m, calm, s, n);
    }
#endif
    for (; s + 4 <= n; s += 4) {
        uint32_t calm4;
        memcpy(&calm4, &calm[s], sizeof calm4);
        if (calm4 != 0) {
            move_four(m, s, calm4);
        }
    }
#endif
    for (; s < n; s++) {
        if (calm[s] != CLV__STIRRED) {
            move_one(a, s, calm[s] == CLV__CALM_FAR);
        }
    }
}

/* The first slot from s on (n when none) whose calm byte is CLV__STIRRED (0). Nearly every
 * slot of a large crowd is calm: the search takes 64 bytes a step with SSE2, eight without
 * (a word with no zero byte: the classic test), where a byte at a time cost 5% of a frame. */
static int32_t next_stirred(const uint8_t *calm, int32_t s, int32_t n) {
#if MOVE_SSE2
    const __m128i zero = _mm_setzero_si128();
    for (; s + 64 <= n; s += 64) {
        const __m128i *p = (const __m128i *)(const void *)(calm + s);
        __m128i m = _mm_min_epu8(_mm_min_epu8(_mm_loadu_si128(p), _mm_loadu_si128(p + 1)),
                                 _mm_min_epu8(_mm_loadu_si128(p + 2), _mm_loadu_si128(p + 3)));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(m, zero)) != 0) {
            break;
        }
    }
#endif
    for (; s + 8 <= n; s += 8) {
        uint64_t w;
        memcpy(&w, &calm[s], sizeof w);
        if (((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull) != 0) {
            break;
        }
    }
    while (s < n && calm[s] != CLV__STIRRED) {
        s++;
    }
    return s;
}

/* 0. Every live entity's timers, movement and effects: the calm ones in one pass, then the
 * others in slot order (their ticks are reported in it), each found calm or not for the next
 * frame. No entity's move reads another's, so the two passes give what one would. */
static clv_hit_status integrate(clv_arena *a) {
    a->timed_count = 0;
    move_calm(a);
    const uint8_t *calm = a->calm;
    const int32_t n = a->ent_count;
    for (int32_t s = next_stirred(calm, 0, n); s < n; s = next_stirred(calm, s + 1, n)) {
        if (!a->ent[s].used) {
            continue;
        }
        uint8_t now = calm_of(a, s);
        if (now == CLV__STIRRED) {
            if (integrate_busy(a, s) != CLV_HIT_OK) {
                return CLV_HIT_ERR_NO_MEMORY;
            }
        } else {
            move_one(a, s, now == CLV__CALM_FAR);
        }
        a->calm[s] = calm_of(a, s);
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
