/* Deterministic trig, quantized angles and their Q30 sin, exact rotation, the rotation cache. */
#include "cleave/motion.h"
#include "harness.h"

#include <stdint.h>

__extension__ typedef __int128 i128;

__extension__ typedef unsigned __int128 u128;

/* pi * 2^73, rounded: 0x648'7ED5110B4611A626 (from Machin's formula in exact integers). */
static u128 pi_q73(void) { return ((u128)0x648u << 64) | (u128)0x7ED5110B4611A626u; }

/* round(a * b / 2^62) for values in Q62 below 2^64. */
static u128 mul_q62(u128 a, u128 b) { return (a * b + ((u128)1 << 61)) >> 62; }

/* Bound on the series' error, in units of 2^-62: a few per term, over about 25 terms. */
#define CLV_SIN_ERR_Q62 256u

/* sin(pi/2 * k / CLV_ROT_QUARTER) in Q30 for k in [0, CLV_ROT_QUARTER] with integers only: pi
 * from Machin's formula and a 128-bit fixed-point series, written independently of the
 * library's polynomial. -1 and *ambiguous when the value is too close to a rounding tie to round
 * with certainty; k out of range gives -1. */
static int32_t isin_q30_series(uint32_t k, bool *ambiguous) {
    if (ambiguous) {
        *ambiguous = false;
    }
    if (k > CLV_ROT_QUARTER) {
        return -1;
    }
    /* x = (pi/2) * k / 1024 = k * pi * 2^-11, in Q62: k * pi_q73 / 2^22. */
    u128 x = ((u128)k * pi_q73() + ((u128)1 << 21)) >> 22;
    u128 x2 = mul_q62(x, x);
    /* sin x = x - x^3/3! + x^5/5! - ...: terms shrink from the third on (x <= pi/2). */
    u128 term = x, pos = x, neg = 0;
    for (unsigned n = 1; term != 0; n += 2) {
        term = mul_q62(term, x2) / ((u128)(n + 1) * (n + 2));
        if (((n + 1) / 2) % 2 == 1) {
            neg += term;
        } else {
            pos += term;
        }
    }
    u128 s = pos - neg; /* sin x >= 0 here */
    uint64_t frac = (uint64_t)(s & 0xFFFFFFFFu);
    uint64_t half = (uint64_t)1 << 31;
    uint64_t gap = frac > half ? frac - half : half - frac;
    if (gap <= CLV_SIN_ERR_Q62) {
        if (ambiguous) {
            *ambiguous = true;
        }
        return -1;
    }
    return (int32_t)((s + half) >> 32);
}

static const double pi = CLV_PI;

static uint64_t rng_state = 0x2545F4914F6CDD1Du;
static uint64_t next_u64(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* The polynomial sin, cos and atan2 agree with libm's to a few units in the last place. */
static void test_deterministic_trig(void) {
    double worst = 0.0, worst_atan = 0.0;
    for (int i = 0; i < 200000; i++) {
        double x = ((double)(next_u64() >> 11) * 0x1p-53 - 0.5) * 100.0;
        double s, c;
        clv_sincos_d(x, &s, &c);
        worst = fmax(worst, fmax(fabs(s - sin(x)), fabs(c - cos(x))));
        double y = (double)(next_u64() >> 11) * 0x1p-53 - 0.5;
        double z = (double)(next_u64() >> 11) * 0x1p-53 - 0.5;
        worst_atan = fmax(worst_atan, fabs(clv_atan2_d(y, z) - atan2(y, z)));
    }
    printf("deterministic trig: worst |sin, cos - libm| %.3g, |atan2 - libm| %.3g\n", worst,
           worst_atan);
    CHECK(worst <= 1e-15);
    CHECK(worst_atan <= 1e-15);
    CHECK(clv_atan2_d(0.0, 0.0) == 0.0);
    CHECK_NEAR(clv_atan2_d(0.0, -1.0), pi, 1e-15);
    CHECK_NEAR(clv_atan2_d(-1.0, 0.0), -pi / 2, 1e-15);
    float fs, fc;
    clv_sincos(0.5f, &fs, &fc);
    CHECK(fs == (float)sin(0.5) && fc == (float)cos(0.5));
}

/* Every table entry is what the integer series computes, and none is a rounding toss-up; and it
 * is clv_sincos_d's value rounded, so the steps and the arena share one sin. */
static void test_table_matches_integer_series(void) {
    int mismatches = 0, ambiguous = 0, poly_mismatches = 0;
    for (uint32_t k = 0; k <= CLV_ROT_QUARTER; k++) {
        bool amb = true;
        int32_t v = isin_q30_series(k, &amb);
        ambiguous += amb ? 1 : 0;
        mismatches += v != clv_isin_q30(k) ? 1 : 0;
        double s, c;
        clv_sincos_d((double)k * (pi / 2048.0), &s, &c);
        poly_mismatches += (int32_t)floor(s * 0x1p30 + 0.5) != clv_isin_q30(k) ? 1 : 0;
        poly_mismatches += (int32_t)floor(c * 0x1p30 + 0.5) != clv_icos_q30(k) ? 1 : 0;
    }
    CHECK(mismatches == 0);
    CHECK(poly_mismatches == 0);
    CHECK(ambiguous == 0);
    bool amb = false;
    CHECK(isin_q30_series(CLV_ROT_QUARTER + 1, &amb) == -1);
    CHECK(isin_q30_series(CLV_ROT_QUARTER, NULL) == CLV_Q30_ONE);
}

/* The table is sin correctly rounded: within half a unit of libm's double sin everywhere, and
 * equal to its rounding wherever that rounding is not a near tie. */
static void test_table_against_libm(void) {
    double worst = 0.0;
    int unequal = 0;
    for (uint32_t k = 0; k < CLV_ROT_STEPS; k++) {
        double ref = sin(2.0 * pi * (double)k / (double)CLV_ROT_STEPS) * 1073741824.0;
        double err = fabs((double)clv_isin_q30(k) - ref);
        worst = err > worst ? err : worst;
        double frac = ref - floor(ref);
        if (fabs(frac - 0.5) > 1e-6 && (double)clv_isin_q30(k) != floor(ref + 0.5)) {
            unequal++;
        }
        double cref = cos(2.0 * pi * (double)k / (double)CLV_ROT_STEPS) * 1073741824.0;
        double cerr = fabs((double)clv_icos_q30(k) - cref);
        worst = cerr > worst ? cerr : worst;
    }
    printf("table: worst |Q30 - libm| = %.6f units\n", worst);
    CHECK(worst <= 0.5 + 1e-6);
    CHECK(unequal == 0);
}

static void test_table_symmetry(void) {
    CHECK(clv_isin_q30(0) == 0);
    CHECK(clv_isin_q30(CLV_ROT_QUARTER) == CLV_Q30_ONE);
    CHECK(clv_isin_q30(2 * CLV_ROT_QUARTER) == 0);
    CHECK(clv_isin_q30(3 * CLV_ROT_QUARTER) == -CLV_Q30_ONE);
    CHECK(clv_icos_q30(0) == CLV_Q30_ONE);
    /* 45 degrees: 2^30 / sqrt(2) = 759250124.99..., rounds up. */
    CHECK(clv_isin_q30(CLV_ROT_STEPS / 8) == 759250125);
    CHECK(clv_icos_q30(CLV_ROT_STEPS / 8) == 759250125);
    int odd = 0, mirror = 0, cos_even = 0, shift = 0, wrap = 0, norm = 0;
    for (uint32_t k = 0; k < CLV_ROT_STEPS; k++) {
        odd += clv_isin_q30(k) != -clv_isin_q30(CLV_ROT_STEPS - k) ? 1 : 0;
        mirror += clv_isin_q30(k) != clv_isin_q30(CLV_ROT_STEPS / 2 - k) ? 1 : 0;
        cos_even += clv_icos_q30(k) != clv_icos_q30(CLV_ROT_STEPS - k) ? 1 : 0;
        shift += clv_icos_q30(k) != clv_isin_q30(k + CLV_ROT_QUARTER) ? 1 : 0;
        wrap += clv_isin_q30(k) != clv_isin_q30(k + 5u * CLV_ROT_STEPS) ? 1 : 0;
        /* |(C, S)| = 2^30 within the two roundings. */
        int64_t c = clv_icos_q30(k), s = clv_isin_q30(k);
        double n = sqrt((double)(c * c + s * s));
        norm += fabs(n - 1073741824.0) > 0.75 ? 1 : 0;
    }
    CHECK(odd == 0);
    CHECK(mirror == 0);
    CHECK(cos_even == 0);
    CHECK(shift == 0);
    CHECK(wrap == 0);
    CHECK(norm == 0);
    /* Strictly increasing over the first quarter. */
    int flat = 0;
    for (uint32_t k = 1; k <= CLV_ROT_QUARTER; k++) {
        flat += clv_isin_q30(k) <= clv_isin_q30(k - 1) ? 1 : 0;
    }
    CHECK(flat == 0);
}

static void test_quantize(void) {
    CHECK(clv_angle_quantize(0.0f) == 0);
    CHECK(clv_angle_quantize((float)(pi / 2)) == CLV_ROT_QUARTER);
    CHECK(clv_angle_quantize((float)pi) == 2 * CLV_ROT_QUARTER);
    CHECK(clv_angle_quantize((float)(-pi / 2)) == 3 * CLV_ROT_QUARTER);
    CHECK(clv_angle_quantize((float)(2 * pi)) == 0);
    CHECK(clv_angle_quantize((float)(100 * pi)) == 0);
    CHECK(clv_angle_quantize((float)(-2 * pi / 4096 * 0.49)) == 0); /* rounds to nearest */
    CHECK(clv_angle_quantize((float)(-2 * pi / 4096 * 0.51)) == 4095);
    CHECK(clv_angle_quantize(NAN) == 0);
    CHECK(clv_angle_quantize(INFINITY) == 0);
    int trip = 0;
    double worst = 0.0;
    for (uint32_t k = 0; k < CLV_ROT_STEPS; k++) {
        trip += clv_angle_quantize(clv_angle_of_step(k)) != k ? 1 : 0;
        double a = (double)clv_angle_of_step(k);
        worst = fmax(worst, fabs(a - 2.0 * pi * (double)k / 4096.0));
    }
    CHECK(trip == 0);
    CHECK(worst < 3e-7);
    /* Any angle lands within half a step. */
    int far = 0;
    for (int i = 0; i < 100000; i++) {
        float a = (float)(((double)(next_u64() >> 11) * 0x1p-53 - 0.5) * 40.0);
        double q = (double)clv_angle_of_step(clv_angle_quantize(a));
        double d = fmod(fabs((double)a - q), 2.0 * pi);
        d = fmin(d, 2.0 * pi - d);
        far += d > pi / 4096.0 + 1e-6 ? 1 : 0;
    }
    CHECK(far == 0);
}

static void test_rot_unit(void) {
    double worst = 0.0;
    for (uint32_t k = 0; k < CLV_ROT_STEPS; k++) {
        clv_vec2 u = clv_rot_unit(k);
        double a = 2.0 * pi * (double)k / 4096.0;
        worst = fmax(worst, fmax(fabs((double)u.x - cos(a)), fabs((double)u.y - sin(a))));
    }
    printf("unit vectors: worst error %.3g\n", worst);
    CHECK(worst <= 0x1p-24 + 0x1p-31);
}

/* round(v / 2^30) to nearest, ties away from zero, done differently from the library. */
static int64_t ref_round(i128 v) {
    i128 q = v / ((i128)1 << 30), r = v % ((i128)1 << 30); /* truncates toward zero */
    i128 ar = r < 0 ? -r : r;
    if (ar >= ((i128)1 << 29)) {
        q += v < 0 ? -1 : 1;
    }
    return (int64_t)q;
}

static void test_exact_rotate(void) {
    int64_t x, y;
    clv_exact_rotate(7, -3, CLV_ROT_QUARTER, &x, &y);
    CHECK(x == 3 && y == 7);
    clv_exact_rotate(7, -3, 2 * CLV_ROT_QUARTER, &x, &y);
    CHECK(x == -7 && y == 3);
    clv_exact_rotate(1 << 30, 0, CLV_ROT_STEPS / 8, &x, &y);
    CHECK(x == 759250125 && y == 759250125);
    clv_exact_rotate(1, 0, CLV_ROT_QUARTER / 2, &x, &y); /* (0.707, 0.707) rounds to (1, 1) */
    CHECK(x == 1 && y == 1);
    int wrong = 0, asym = 0, far = 0, fixed = 0;
    double worst = 0.0;
    for (int i = 0; i < 200000; i++) {
        int64_t px = (int64_t)(next_u64() % ((uint64_t)1 << 31)) - ((int64_t)1 << 30);
        int64_t py = (int64_t)(next_u64() % ((uint64_t)1 << 31)) - ((int64_t)1 << 30);
        if (i % 4 == 0) {
            px >>= 20, py >>= 20; /* small coordinates too, where the rounding shows */
        }
        uint32_t step = (uint32_t)(next_u64() % CLV_ROT_STEPS);
        clv_exact_rotate(px, py, step, &x, &y);
        i128 c = clv_icos_q30(step), s = clv_isin_q30(step);
        if (x != ref_round((i128)px * c - (i128)py * s) ||
            y != ref_round((i128)px * s + (i128)py * c)) {
            wrong++;
        }
        int64_t nx, ny;
        clv_exact_rotate(-px, -py, step, &nx, &ny);
        asym += (nx != -x || ny != -y) ? 1 : 0;
        /* Against the true rotation: half a unit of rounding plus the table's 2^-31 per term. */
        double a = 2.0 * pi * (double)step / 4096.0;
        long double tx =
            (long double)px * cosl((long double)a) - (long double)py * sinl((long double)a);
        long double ty =
            (long double)px * sinl((long double)a) + (long double)py * cosl((long double)a);
        double e = (double)fmaxl(fabsl((long double)x - tx), fabsl((long double)y - ty));
        double bound = 0.5 + (fabs((double)px) + fabs((double)py)) * 0x1p-31 + 1e-6;
        far += e > bound ? 1 : 0;
        worst = fmax(worst, e);
        /* A quarter turn is exact. */
        clv_exact_rotate(px, py, CLV_ROT_QUARTER * (uint32_t)(i & 3), &nx, &ny);
        int64_t ex = (i & 3) == 0 ? px : (i & 3) == 1 ? -py : (i & 3) == 2 ? -px : py;
        int64_t ey = (i & 3) == 0 ? py : (i & 3) == 1 ? px : (i & 3) == 2 ? -py : -px;
        fixed += (nx != ex || ny != ey) ? 1 : 0;
    }
    printf("exact rotate: worst error vs true rotation %.3f units\n", worst);
    CHECK(wrong == 0);
    CHECK(asym == 0);
    CHECK(far == 0);
    CHECK(fixed == 0);
}

/* Bit-reproducibility pin: a hash of 20,000 exact rotations, computed independently (decimal
 * arithmetic at 60 digits) when the table was made. Any machine must give the same. */
static void test_exact_rotate_hash(void) {
    rng_state = 0x2545F4914F6CDD1Du;
    uint64_t h = 1469598103934665603u;
    for (int i = 0; i < 20000; i++) {
        int64_t px = (int64_t)(next_u64() % ((uint64_t)1 << 31)) - ((int64_t)1 << 30);
        int64_t py = (int64_t)(next_u64() % ((uint64_t)1 << 31)) - ((int64_t)1 << 30);
        uint32_t step = (uint32_t)(next_u64() % CLV_ROT_STEPS);
        int64_t out[2];
        clv_exact_rotate(px, py, step, &out[0], &out[1]);
        for (int j = 0; j < 2; j++) {
            uint64_t v = (uint64_t)out[j];
            for (int b = 0; b < 8; b++) {
                h ^= (v >> (8 * b)) & 0xFFu;
                h *= 1099511628211u;
            }
        }
    }
    CHECK(h == 0x0b5b068450a32b4du);
}

static void test_exact_place(void) {
    clv_ishape cap = {CLV_CAPSULE, 100, 0, 300, 0, 10};
    clv_ishape w = clv_exact_place(&cap, CLV_ROT_QUARTER, 1000, -50);
    CHECK(w.type == CLV_CAPSULE && w.ax == 1000 && w.ay == 50 && w.bx == 1000 && w.by == 250);
    CHECK(w.r == 10);
    CHECK(clv_ishape_valid(&w));
    clv_ishape circ = {CLV_CIRCLE, 0, 200, 0, 0, 5};
    w = clv_exact_place(&circ, CLV_ROT_STEPS / 2, 0, 0);
    CHECK(w.type == CLV_CIRCLE && w.ax == 0 && w.ay == -200 && w.r == 5);
    clv_ishape box = {CLV_AABB, 1, 2, 5, 9, 0};
    w = clv_exact_place(&box, CLV_ROT_QUARTER, 10, 10);
    CHECK(w.type == CLV_AABB && w.ax == 1 && w.ay == 11 && w.bx == 8 && w.by == 15);
    w = clv_exact_place(&box, 7, 10, 10);
    CHECK(w.type == CLV_SHAPE_TYPE_COUNT);
    CHECK(!clv_ishape_valid(&w));
    /* Exact placement agrees with the exact overlap test: a rotated blade hits what it reaches. */
    clv_ishape blade = {CLV_CAPSULE, 0, 0, 1000, 0, 4};
    clv_ishape dummy = {CLV_CIRCLE, 0, 1003, 0, 0, 0};
    CHECK(clv_exact_overlap(&dummy, &blade) == false);
    w = clv_exact_place(&blade, CLV_ROT_QUARTER, 0, 0);
    CHECK(clv_exact_overlap(&dummy, &w));
}

static void test_cache(void) {
    CHECK(sizeof(clv_rot_cache) <= 256);
    clv_capsule local = {{30.0f, -4.0f}, {120.0f, 6.0f}, 5.0f};
    clv_rot_cache cache;
    clv_rot_cache_init(&cache, &local);
    int differ = 0;
    /* Every step, twice: the second is a hit for recent ones, a refill for evicted ones. */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t k = 0; k < CLV_ROT_STEPS; k += (pass == 0 ? 1u : 7u)) {
            clv_capsule c = clv_rot_cache_get(&cache, k), d = clv_rotate_capsule_step(&local, k);
            differ += memcmp(&c, &d, sizeof c) != 0 ? 1 : 0;
        }
    }
    CHECK(differ == 0);
    /* A hit really comes from the cache: change the bound capsule behind its back. */
    clv_rot_cache_init(&cache, &local);
    clv_capsule first = clv_rot_cache_get(&cache, 100);
    cache.local.a.x = 9999.0f;
    clv_capsule again = clv_rot_cache_get(&cache, 100);
    CHECK(memcmp(&first, &again, sizeof first) == 0);
    clv_capsule other = clv_rot_cache_get(&cache, 101); /* a miss sees the change */
    CHECK(other.a.x != clv_rotate_capsule_step(&local, 101).a.x);
    /* Eviction is round-robin over the slots: the ninth facing replaces the first. */
    clv_rot_cache_init(&cache, &local);
    for (uint32_t k = 0; k < CLV_ROT_CACHE_SLOTS + 1; k++) {
        clv_rot_cache_get(&cache, k * 100u);
    }
    int present = 0;
    for (int i = 0; i < CLV_ROT_CACHE_SLOTS; i++) {
        present += cache.key[i] == 0u ? 1 : 0;
    }
    CHECK(present == 0);
    CHECK(cache.key[0] == CLV_ROT_CACHE_SLOTS * 100u);
}

/* Cached rotation against direct sin/cos: within 2^-21 * rho of the rotation by the quantized
 * angle, and within that plus rho * pi / 4096 of the rotation by the angle asked for. */
static void test_cache_error(void) {
    double worst_q = 0.0, worst_raw = 0.0;
    int over_q = 0, over_raw = 0, place_wrong = 0;
    for (int i = 0; i < 50000; i++) {
        float ax = (float)((double)(next_u64() >> 11) * 0x1p-53 * 4000.0 - 2000.0);
        float ay = (float)((double)(next_u64() >> 11) * 0x1p-53 * 4000.0 - 2000.0);
        clv_capsule local = {{ax, ay}, {ay * 0.5f, ax}, 3.0f};
        double rho = fmax(hypot((double)ax, (double)ay), hypot((double)ay * 0.5, (double)ax));
        float angle = (float)(((double)(next_u64() >> 11) * 0x1p-53 - 0.5) * 20.0);
        clv_rot_cache cache;
        clv_rot_cache_init(&cache, &local);
        uint32_t step = clv_angle_quantize(angle);
        clv_capsule c = clv_rot_cache_get(&cache, step);
        double qa = 2.0 * pi * (double)step / 4096.0;
        double ex = cos(qa) * (double)ax - sin(qa) * (double)ay;
        double ey = sin(qa) * (double)ax + cos(qa) * (double)ay;
        double eq = hypot((double)c.a.x - ex, (double)c.a.y - ey);
        clv_capsule d = clv_rotate_capsule_sincos(&local, angle);
        double er = hypot((double)c.a.x - (double)d.a.x, (double)c.a.y - (double)d.a.y);
        worst_q = fmax(worst_q, eq / rho);
        worst_raw = fmax(worst_raw, er / rho);
        over_q += eq > rho * 0x1p-21 ? 1 : 0;
        over_raw += er > rho * (0x1p-21 + 0x1p-21 + pi / 4096.0) ? 1 : 0;
        clv_pose pose = clv_make_pose(10.0f, -20.0f, angle);
        clv_capsule p = clv_rot_cache_place(&cache, pose);
        place_wrong += (p.a.x != c.a.x + 10.0f || p.b.y != c.b.y - 20.0f || p.r != 3.0f) ? 1 : 0;
    }
    printf("cache vs quantized rotation: worst %.3g rho; vs raw angle: worst %.3g rho\n", worst_q,
           worst_raw);
    CHECK(over_q == 0);
    CHECK(over_raw == 0);
    CHECK(place_wrong == 0);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_deterministic_trig);
    RUN(test_table_matches_integer_series);
    RUN(test_table_against_libm);
    RUN(test_table_symmetry);
    RUN(test_quantize);
    RUN(test_rot_unit);
    RUN(test_exact_rotate);
    RUN(test_exact_rotate_hash);
    RUN(test_exact_place);
    RUN(test_cache);
    RUN(test_cache_error);
    return clv_test_report();
}
