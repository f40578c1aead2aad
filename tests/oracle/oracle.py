#!/usr/bin/env python3
"""Differential test, oracle half: decides every pair oracle_gen wrote with exact arithmetic.

Written from the definitions (the open-set rule of collide.h), not from the C code:
  - a point, circle or capsule is a core (a point or a segment) grown by its radius r >= 0;
  - an aabb or obb is its open interior; the obb is {c + s*h.x*u + t*h.y*perp(u) : |s|<1, |t|<1}
    with perp(u) = (-u.y, u.x) and u exactly as stored;
  - two round shapes overlap when their cores are closer than rA + rB (so two zero-radius shapes
    never do); a round shape overlaps a box when its core comes closer than r to the box, or
    enters its interior; two boxes overlap when their interiors meet. Touching is never overlap.
  - a box with a zero extent has an empty interior: no box and no zero-radius shape ever
    overlaps it. Whether a round shape with r > 0 overlaps it when its core comes closer than r
    to the (closed) degenerate box is a choice the definitions leave open: --zero-area-box
    closed (the default, the rule's wording "closer to the box than r" with the closed box) says
    yes, --zero-area-box empty (the empty interior is nothing to be close to) says no.

Every input is a dyadic rational (a float) or an integer. A case's numbers are scaled by one
common factor to Python integers, so the geometry below is integer arithmetic, and a rational
(a squared distance) is a pair (numerator, denominator). No square root is taken: distances are
compared through their squares.

Float cases must agree outside a band of half-width delta = 1e-4 * scale around the touching
boundary, where scale is the largest magnitude among the pair's coordinates, radii and half
extents. A case is in the band when the exact answer changes between the pair grown by delta and
shrunk by delta (round-round: rA + rB +- delta; round-box: the box's half extents +- delta;
box-box: the first box's half extents +- delta; a negative extent is an empty box). Outside the
band the float overlap must equal the exact one; everywhere the float distance must be within
delta of the exact distance, and overlap(a, b) must equal overlap(b, a). Exact (integer) cases
must agree on every case.

Usage:
  oracle.py --gen PATH/oracle_gen [--seed N] [--float N] [--exact N] [--jobs N]
  oracle.py --gen PATH/oracle_gen --replay FILE   (the pairs of FILE, asked again)
  oracle.py --input FILE          (lines written by oracle_gen; '-' reads stdin)
  oracle.py --selftest            (hand-made cases with known answers)
"""

import argparse
import os
import subprocess
import sys

ARITY = {"point": 2, "circle": 3, "capsule": 5, "aabb": 4, "obb": 6}
ORDER = ["point", "circle", "capsule", "aabb", "obb"]
ROUND = ("point", "circle", "capsule")
FIELDS = {
    "point": ("x", "y"),
    "circle": ("x", "y", "r"),
    "capsule": ("ax", "ay", "bx", "by", "r"),
    "aabb": ("minx", "miny", "maxx", "maxy"),
    "obb": ("cx", "cy", "hx", "hy", "ux", "uy"),
}
# The band: delta = scale / BAND_DIV.
BAND_DIV = 10000
# How a round shape with r > 0 meets a box with a zero extent (see the module comment).
ZERO_AREA_BOX = "closed"


class BadInput(Exception):
    """A line that is not a valid case (a generator bug, or a non-finite result)."""


# ---------------------------------------------------------------------------------------------
# Exact geometry on integer coordinates. A shape is
#   ("R", verts, r)      a round shape: its core as 1 or 2 vertices, radius r >= 0
#   ("B", verts, solid)  a box: 4 corners in order (or none when empty); solid = open interior
#                        not empty
# ---------------------------------------------------------------------------------------------

AXES_XY = ((1, 0), (0, 1))


def edges(v):
    n = len(v)
    if n == 1:
        return ((v[0], v[0]),)
    if n == 2:
        return ((v[0], v[1]),)
    return tuple((v[i], v[(i + 1) % n]) for i in range(n))


def axes(v):
    """Candidate separating directions of a convex polygon: each edge's direction and normal.
    Extra directions never make a wrong separation; these are enough even for degenerate
    polygons (points, segments), with x and y added for two points."""
    out = []
    for (ax, ay), (bx, by) in edges(v):
        dx, dy = bx - ax, by - ay
        if dx or dy:
            out.append((dx, dy))
            out.append((-dy, dx))
    return out


def separated(va, vb, closed):
    """closed=True: the closed convex hulls are disjoint (strict separation on some axis).
    closed=False: va does not meet the OPEN interior of vb (nor vice versa): some axis has
    max(a) <= min(b) or max(b) <= min(a). Needs a non-degenerate side for the open sense."""
    for nx, ny in axes(va) + axes(vb) + list(AXES_XY):
        pa = [nx * x + ny * y for x, y in va]
        pb = [nx * x + ny * y for x, y in vb]
        if closed:
            if max(pa) < min(pb) or max(pb) < min(pa):
                return True
        else:
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return True
    return False


def point_segment_dist2(px, py, ax, ay, bx, by):
    """Squared distance from p to the closed segment a..b, as (num, den)."""
    dx, dy = bx - ax, by - ay
    wx, wy = px - ax, py - ay
    dd = dx * dx + dy * dy
    if dd == 0:
        return wx * wx + wy * wy, 1
    t = wx * dx + wy * dy
    if t <= 0:
        return wx * wx + wy * wy, 1
    if t >= dd:
        vx, vy = px - bx, py - by
        return vx * vx + vy * vy, 1
    c = dx * wy - dy * wx
    return c * c, dd


def dist2(va, vb):
    """Squared distance between two closed convex polygons (vertex lists), as (num, den).
    Disjoint convex polygons are closest at a vertex of one and an edge of the other."""
    if not separated(va, vb, True):
        return 0, 1
    best = None
    for v, w in ((va, vb), (vb, va)):
        for px, py in v:
            for (ax, ay), (bx, by) in edges(w):
                n, d = point_segment_dist2(px, py, ax, ay, bx, by)
                if best is None or n * best[1] < best[0] * d:
                    best = (n, d)
    return best


def overlap(a, b):
    """The open-set rule, exactly."""
    if a[0] == "B" and b[0] == "R":
        a, b = b, a
    if a[0] == "R" and b[0] == "R":
        r = a[2] + b[2]
        if r == 0:
            return False
        n, d = dist2(a[1], b[1])
        return n < r * r * d
    if a[0] == "R":  # round against box
        r = a[2]
        if not b[2]:
            if ZERO_AREA_BOX == "closed" and r > 0 and b[1]:
                n, d = dist2(a[1], b[1])
                return n < r * r * d
            return False
        if r > 0:
            n, d = dist2(a[1], b[1])
            return n < r * r * d
        return not separated(a[1], b[1], False)
    return a[2] and b[2] and not separated(a[1], b[1], False)


def touching(a, b):
    """The closed shapes meet but the open ones do not (the boundary case exact mode must get
    right)."""
    if overlap(a, b) or not a[1] or not b[1]:
        return False
    n, d = dist2(a[1], b[1])
    r = radius(a) + radius(b)
    return n == r * r * d


def distance_ok(n, d, r, f, delta):
    """|f - max(0, sqrt(n/d) - r)| <= delta, without a square root (f, r, delta >= 0)."""
    if n > (f + delta + r) ** 2 * d:
        return False
    return f - delta <= 0 or n >= (f - delta + r) ** 2 * d


# ---------------------------------------------------------------------------------------------
# Reading cases
# ---------------------------------------------------------------------------------------------


def split_line(line):
    tok = line.split()
    if len(tok) < 2 or tok[0] not in ("F", "E"):
        raise BadInput("not a case line")
    i = 2
    shapes = []
    for _ in range(2):
        if i >= len(tok) or tok[i] not in ARITY:
            raise BadInput("bad shape type")
        t = tok[i]
        n = ARITY[t]
        shapes.append((t, tok[i + 1 : i + 1 + n]))
        i += 1 + n
    rest = tok[i:]
    want = 4 if tok[0] == "F" else 2
    if len(rest) != want or any(r not in ("0", "1") for r in rest[:2]):
        raise BadInput("bad results")
    if tok[0] == "E" and any(t == "obb" for t, _ in shapes):
        raise BadInput("obb in an exact case")
    return tok[0], tok[1], shapes, rest


def dyadic(s):
    """A hex float as (n, k) with value n / 2**k."""
    x = float.fromhex(s)
    if x != x or x in (float("inf"), float("-inf")):
        raise BadInput("non-finite number " + s)
    n, d = x.as_integer_ratio()
    return n, d.bit_length() - 1


def pair_name(ta, tb):
    a, b = sorted((ta, tb), key=ORDER.index)
    return a + "-" + b


def check_valid(t, vals):
    """The preconditions of the float API (clv_shape_valid): the generator must respect them."""
    if t == "circle" and vals[2] < 0 or t == "capsule" and vals[4] < 0:
        raise BadInput("negative radius")
    if t == "aabb" and (vals[0] > vals[2] or vals[1] > vals[3]):
        raise BadInput("aabb min > max")
    if t == "obb":
        if vals[2] < 0 or vals[3] < 0:
            raise BadInput("negative half extent")
        if not 0.998 < vals[4] * vals[4] + vals[5] * vals[5] < 1.002:
            raise BadInput("obb axis not unit")


def build(t, v, grow, unit):
    """A shape from scaled integer fields v. grow (boxes only) is added to every half extent;
    unit is the scale factor (u is stored scaled by it, so h*u needs one division by it)."""
    if t == "point":
        return ("R", ((v[0], v[1]),), 0)
    if t == "circle":
        return ("R", ((v[0], v[1]),), v[2])
    if t == "capsule":
        return ("R", ((v[0], v[1]), (v[2], v[3])), v[4])
    if t == "aabb":
        x0, y0, x1, y1 = v[0] - grow, v[1] - grow, v[2] + grow, v[3] + grow
        if x1 < x0 or y1 < y0:
            return ("B", (), False)
        return ("B", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), x0 < x1 and y0 < y1)
    cx, cy, hx, hy, ux, uy = v
    hx += grow
    hy += grow
    if hx < 0 or hy < 0:
        return ("B", (), False)
    e1x, r1 = divmod(hx * ux, unit)
    e1y, r2 = divmod(hx * uy, unit)
    e2x, r3 = divmod(-hy * uy, unit)
    e2y, r4 = divmod(hy * ux, unit)
    assert not (r1 or r2 or r3 or r4), "scale factor too small for an exact obb"
    corners = (
        (cx + e1x + e2x, cy + e1y + e2y),
        (cx - e1x + e2x, cy - e1y + e2y),
        (cx - e1x - e2x, cy - e1y - e2y),
        (cx + e1x - e2x, cy + e1y - e2y),
    )
    solid = hx > 0 and hy > 0 and (ux != 0 or uy != 0)
    return ("B", corners, solid)


def radius(s):
    return s[2] if s[0] == "R" else 0


def judge_float(kind, shapes, rest):
    """Returns (facts, problems): facts for the summary, problems = list of strings."""
    (ta, sa), (tb, sb) = shapes
    da = [dyadic(x) for x in sa]
    db = [dyadic(x) for x in sb]
    dist_ab, dist_ba = dyadic(rest[2]), dyadic(rest[3])
    check_valid(ta, [n / (1 << k) for n, k in da])
    check_valid(tb, [n / (1 << k) for n, k in db])
    kmax = max(k for _, k in da + db + [dist_ab, dist_ba])
    # With K = 2*kmax + 4, h*u, delta and delta*u are all integers at scale 625 * 2**K.
    big_k = 2 * kmax + 4
    unit = 625 << big_k

    def sc(nk):
        return (nk[0] * 625) << (big_k - nk[1])

    va = [sc(x) for x in da]
    vb = [sc(x) for x in db]
    mags = []
    for t, v in ((ta, va), (tb, vb)):
        mags += [abs(x) for x in (v[:4] if t == "obb" else v)]
    delta = max(mags) // BAND_DIV  # exact: max(mags) is a multiple of 10000 at this scale
    fab, fba = sc(dist_ab), sc(dist_ba)

    a0 = build(ta, va, 0, unit)
    b0 = build(tb, vb, 0, unit)
    ra, rb = radius(a0), radius(b0)
    r = ra + rb
    n, d = dist2(a0[1], b0[1])
    if a0[0] == "R" and b0[0] == "R":
        grown = n < (r + delta) ** 2 * d
        shrunk = r - delta > 0 and n < (r - delta) ** 2 * d
    elif a0[0] == "R" or b0[0] == "R":
        if a0[0] == "R":
            rnd, bt, bv = a0, tb, vb
        else:
            rnd, bt, bv = b0, ta, va
        grown = overlap(rnd, build(bt, bv, delta, unit))
        shrunk = overlap(rnd, build(bt, bv, -delta, unit))
    else:
        grown = overlap(build(ta, va, delta, unit), b0)
        shrunk = overlap(build(ta, va, -delta, unit), b0)
    in_band = grown != shrunk
    truth = overlap(a0, b0) if in_band else grown
    ov_ab, ov_ba = rest[0] == "1", rest[1] == "1"

    problems = []
    if ov_ab != ov_ba:
        problems.append("asymmetric overlap: overlap(a,b)=%d overlap(b,a)=%d" % (ov_ab, ov_ba))
    if not in_band and ov_ab != truth:
        problems.append(
            "float overlap %s, exact %s (outside the band)" % (str(ov_ab).lower(), str(truth).lower())
        )
    for name, f in (("distance(a,b)", fab), ("distance(b,a)", fba)):
        if f < 0 or not distance_ok(n, d, r, f, delta):
            exact = max(0.0, (n / d) ** 0.5 - r) / unit if d else 0.0
            problems.append(
                "%s = %.9g, exact %.9g, allowed +-%.3g"
                % (name, f / unit, exact, delta / unit)
            )
    if abs(fab - fba) > delta:
        problems.append("asymmetric distance: %.9g vs %.9g" % (fab / unit, fba / unit))
    facts = {"band": in_band, "truth": truth, "exact_dist_sym": fab == fba}
    return facts, problems


def judge_exact(kind, shapes, rest):
    (ta, sa), (tb, sb) = shapes
    va = [int(x) for x in sa]
    vb = [int(x) for x in sb]
    for t, v in ((ta, va), (tb, vb)):
        lim = 1 << 30
        if any(abs(x) > lim for x in v):
            raise BadInput("exact value out of range")
        if t in ("circle", "capsule") and v[-1] < 0:
            raise BadInput("negative radius")
        if t == "aabb" and (v[0] > v[2] or v[1] > v[3]):
            raise BadInput("aabb min > max")
    a, b = build(ta, va, 0, 1), build(tb, vb, 0, 1)
    truth = overlap(a, b)
    # Cases that the reading of a zero-area box decides (see --zero-area-box).
    global ZERO_AREA_BOX
    chosen = ZERO_AREA_BOX
    ZERO_AREA_BOX = "empty" if chosen == "closed" else "closed"
    other = overlap(a, b)
    ZERO_AREA_BOX = chosen
    ov_ab, ov_ba = rest[0] == "1", rest[1] == "1"
    problems = []
    if ov_ab != truth:
        problems.append("exact_overlap(a,b) = %s, exact %s" % (str(ov_ab).lower(), str(truth).lower()))
    if ov_ba != truth:
        problems.append("exact_overlap(b,a) = %s, exact %s" % (str(ov_ba).lower(), str(truth).lower()))
    facts = {"band": False, "truth": truth, "zero_area": truth != other, "touching": touching(a, b)}
    return facts, problems


def readable(line):
    """The case with its numbers in decimal (the hex line stays the reproducible form)."""
    try:
        mode, kind, shapes, rest = split_line(line)
    except BadInput:
        return line
    parts = []
    for t, vals in shapes:
        if mode == "F":
            nums = [repr(float.fromhex(x)) for x in vals]
        else:
            nums = vals
        parts.append("%s(%s)" % (t, ", ".join("%s=%s" % kv for kv in zip(FIELDS[t], nums))))
    res = "overlap(a,b)=%s overlap(b,a)=%s" % (rest[0], rest[1])
    if mode == "F":
        res += " distance(a,b)=%r distance(b,a)=%r" % (float.fromhex(rest[2]), float.fromhex(rest[3]))
    return "%s %s: a = %s, b = %s; C says %s" % (
        "float" if mode == "F" else "exact",
        kind,
        parts[0],
        parts[1],
        res,
    )


def new_stats():
    return {
        "cases": 0,
        "pairs": {},
        "kinds": {},
        "band": 0,
        "overlapping": 0,
        "dist_sym_bits": 0,
        "zero_area": 0,
        "touching": 0,
        "bad": 0,
        "disagreements": 0,
        "examples": [],
    }


def judge_lines(lines, keep=8):
    st = new_stats()
    for line in lines:
        line = line.strip()
        if not line:
            continue
        try:
            mode, kind, shapes, rest = split_line(line)
            if mode == "F":
                facts, problems = judge_float(kind, shapes, rest)
            else:
                facts, problems = judge_exact(kind, shapes, rest)
        except (BadInput, ValueError) as e:
            st["bad"] += 1
            st["disagreements"] += 1
            if len(st["examples"]) < keep:
                st["examples"].append((line, ["unreadable case: %s" % e]))
            continue
        st["cases"] += 1
        key = (mode, pair_name(shapes[0][0], shapes[1][0]))
        st["pairs"][key] = st["pairs"].get(key, 0) + 1
        kkey = (mode, kind)
        st["kinds"][kkey] = st["kinds"].get(kkey, 0) + 1
        st["band"] += facts["band"]
        st["overlapping"] += facts["truth"]
        st["dist_sym_bits"] += facts.get("exact_dist_sym", 0)
        st["zero_area"] += facts.get("zero_area", 0)
        st["touching"] += facts.get("touching", 0)
        if problems:
            st["disagreements"] += 1
            if len(st["examples"]) < keep:
                st["examples"].append((line, problems))
    return st


def merge(total, part, keep=8):
    for k in ("cases", "band", "overlapping", "dist_sym_bits", "zero_area", "touching", "bad", "disagreements"):
        total[k] += part[k]
    for k in ("pairs", "kinds"):
        for key, n in part[k].items():
            total[k][key] = total[k].get(key, 0) + n
    total["examples"] += part["examples"][: max(0, keep - len(total["examples"]))]


def run_parallel(lines, jobs):
    chunk = 2000
    pieces = [lines[i : i + chunk] for i in range(0, len(lines), chunk)]
    total = new_stats()
    if jobs <= 1 or len(pieces) <= 1:
        for p in pieces:
            merge(total, judge_lines(p))
        return total
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with ctx.Pool(jobs) as pool:
        for part in pool.imap(judge_lines, pieces):
            merge(total, part)
    return total


def report(st, out=sys.stdout):
    fl = {k[1]: n for k, n in st["pairs"].items() if k[0] == "F"}
    ex = {k[1]: n for k, n in st["pairs"].items() if k[0] == "E"}
    nf, ne = sum(fl.values()), sum(ex.values())
    print("float cases per pair (both argument orders):", file=out)
    for i, a in enumerate(ORDER):
        for b in ORDER[i:]:
            print("  %-16s %7d" % (a + "-" + b, fl.get(a + "-" + b, 0)), file=out)
    if ex:
        print("exact cases per pair:", file=out)
        for i, a in enumerate(ORDER[:4]):
            for b in ORDER[i:4]:
                print("  %-16s %7d" % (a + "-" + b, ex.get(a + "-" + b, 0)), file=out)
    print(
        "kinds: "
        + ", ".join("%s %s %d" % ("float" if m == "F" else "exact", k, n) for (m, k), n in sorted(st["kinds"].items())),
        file=out,
    )
    if nf:
        print(
            "float: %d cases, %d in the band (%.2f%%), band = 1e-4 of the pair's scale"
            % (nf, st["band"], 100.0 * st["band"] / nf),
            file=out,
        )
        print(
            "float: distance(a,b) and distance(b,a) bit-identical in %d of %d cases" % (st["dist_sym_bits"], nf),
            file=out,
        )
    if ne:
        print("exact: %d of %d cases touch exactly" % (st["touching"], ne), file=out)
        print(
            "exact: %d cases decided by the reading of a zero-area box (--zero-area-box %s)"
            % (st["zero_area"], ZERO_AREA_BOX),
            file=out,
        )
    if st["cases"]:
        print(
            "overlapping: %d of %d cases (%.1f%%)"
            % (st["overlapping"], st["cases"], 100.0 * st["overlapping"] / st["cases"]),
            file=out,
        )
    if st["bad"]:
        print("unreadable or invalid case lines: %d" % st["bad"], file=out)
    for line, problems in st["examples"]:
        print("DISAGREEMENT: " + "; ".join(problems), file=out)
        print("  " + readable(line), file=out)
        print("  line: " + line, file=out)
    print("oracle: %d cases, %d disagreements" % (st["cases"] + st["bad"], st["disagreements"]), file=out)


# ---------------------------------------------------------------------------------------------
# Self-test: hand-made cases with answers worked out on paper, including textbook tests' traps.
# ---------------------------------------------------------------------------------------------


def fl(x):
    return float(x).hex()


def fcase(a, b, ov, dist):
    """A float line from (type, values) pairs; the results are the C side's claimed answers."""
    sa = " ".join([a[0]] + [fl(x) for x in a[1]])
    sb = " ".join([b[0]] + [fl(x) for x in b[1]])
    return "F self %s %s %d %d %s %s" % (sa, sb, ov, ov, fl(dist), fl(dist))


def ecase(a, b, ov):
    sa = " ".join([a[0]] + [str(x) for x in a[1]])
    sb = " ".join([b[0]] + [str(x) for x in b[1]])
    return "E self %s %s %d %d" % (sa, sb, ov, ov)


def selftest():
    import math

    s2 = math.sqrt(0.5)
    # (line, should the oracle accept it?)
    cases = [
        # exact touching: |(3,4)| = 5 = 2 + 3
        (ecase(("circle", (0, 0, 2)), ("circle", (3, 4, 3)), 0), True),
        (ecase(("circle", (0, 0, 2)), ("circle", (3, 4, 3)), 1), False),
        (ecase(("circle", (0, 0, 2)), ("circle", (3, 4, 4)), 1), True),
        # thin capsules crossing in an X, ends far apart
        (ecase(("capsule", (-100, -100, 100, 100, 1)), ("capsule", (-100, 100, 100, -100, 1)), 1), True),
        (ecase(("capsule", (-100, -100, 100, 100, 1)), ("capsule", (-100, 100, 100, -100, 1)), 0), False),
        # two zero-radius cores crossing never overlap
        (ecase(("capsule", (-100, -100, 100, 100, 0)), ("capsule", (-100, 100, 100, -100, 0)), 0), True),
        (ecase(("point", (0, 0)), ("capsule", (-5, 0, 5, 0, 0)), 0), True),
        (ecase(("point", (0, 1)), ("capsule", (-5, 0, 5, 0, 1)), 0), True),
        (ecase(("point", (0, 1)), ("capsule", (-5, 0, 5, 0, 2)), 1), True),
        # o3/o4 from the wrong segment would call these crossing: they are 3 apart
        (ecase(("capsule", (0, 0, 10, 0, 1)), ("capsule", (5, 3, 5, 10, 1)), 0), True),
        (ecase(("capsule", (0, 0, 10, 0, 1)), ("capsule", (5, 3, 5, 10, 2)), 0), True),
        (ecase(("capsule", (0, 0, 10, 0, 1)), ("capsule", (5, 3, 5, 10, 3)), 1), True),
        # collinear capsules: gap 2 = 1 + 1 touches, gap 1 overlaps
        (ecase(("capsule", (0, 0, 10, 0, 1)), ("capsule", (12, 0, 20, 0, 1)), 0), True),
        (ecase(("capsule", (0, 0, 10, 0, 1)), ("capsule", (11, 0, 20, 0, 1)), 1), True),
        # parallel capsules 2 apart with radii 1 + 1 touch
        (ecase(("capsule", (0, 0, 10, 0, 1)), ("capsule", (3, 2, 30, 2, 1)), 0), True),
        # the axis-aligned box typo case: b is entirely to the right of a
        (ecase(("aabb", (0, 0, 2, 2)), ("aabb", (3, 0, 5, 2)), 0), True),
        (ecase(("aabb", (0, 0, 2, 2)), ("aabb", (2, 0, 4, 2)), 0), True),
        (ecase(("aabb", (0, 0, 2, 2)), ("aabb", (1, 1, 4, 4)), 1), True),
        (ecase(("aabb", (0, 0, 2, 2)), ("aabb", (2, 2, 4, 4)), 0), True),
        # a circle in the corner region: sqrt(2) > 1 from the corner (edge-midpoint SAT says hit)
        (ecase(("circle", (3, 3, 1)), ("aabb", (0, 0, 2, 2)), 0), True),
        (ecase(("circle", (5, 6, 5)), ("aabb", (0, 0, 2, 2)), 0), True),
        (ecase(("circle", (5, 6, 6)), ("aabb", (0, 0, 2, 2)), 1), True),
        # a zero-radius segment along an edge, through a corner only, and through the box
        (ecase(("capsule", (-3, 2, 5, 2, 0)), ("aabb", (0, 0, 2, 2)), 0), True),
        (ecase(("capsule", (0, 4, 4, 0, 0)), ("aabb", (0, 0, 2, 2)), 0), True),
        (ecase(("capsule", (0, 3, 3, 0, 0)), ("aabb", (0, 0, 2, 2)), 1), True),
        (ecase(("capsule", (0, 4, 4, 0, 1)), ("aabb", (0, 0, 2, 2)), 1), True),
        # a point on the boundary, inside, and an empty box
        (ecase(("point", (2, 1)), ("aabb", (0, 0, 2, 2)), 0), True),
        (ecase(("point", (1, 1)), ("aabb", (0, 0, 2, 2)), 1), True),
        (ecase(("circle", (0, 0, 5)), ("aabb", (0, 0, 0, 0)), ZERO_AREA_BOX == "closed"), True),
        (ecase(("circle", (0, 6, 5)), ("aabb", (0, 0, 0, 9)), ZERO_AREA_BOX == "closed"), True),
        (ecase(("circle", (5, 6, 5)), ("aabb", (0, 0, 0, 9)), 0), True),
        (ecase(("point", (0, 6)), ("aabb", (0, 0, 0, 9)), 0), True),
        (ecase(("capsule", (-5, 6, 5, 6, 0)), ("aabb", (0, 0, 0, 9)), 0), True),
        (ecase(("aabb", (0, 0, 0, 9)), ("aabb", (-1, 1, 1, 2)), 0), True),
        # at the edge of the exact range: |(2^30, 2^30) - (-2^30, -2^30)|^2 = 2^63
        (ecase(("circle", (1 << 30, 1 << 30, 1 << 30)), ("circle", (-(1 << 30), -(1 << 30), 1 << 30)), 0), True),
        (ecase(("capsule", (-(1 << 30), 0, 1 << 30, 0, 1 << 30)), ("point", (1 << 30, 1 << 30)), 0), True),
        (ecase(("capsule", (-(1 << 30), 0, 1 << 30, 0, 1 << 30)), ("point", (1 << 30, (1 << 30) - 1)), 1), True),
        # float: far from the boundary the answer is checked; distance within the band
        (fcase(("circle", (0, 0, 1)), ("circle", (10, 0, 1)), 0, 8.0), True),
        (fcase(("circle", (0, 0, 1)), ("circle", (10, 0, 1)), 1, 8.0), False),
        (fcase(("circle", (0, 0, 1)), ("circle", (10, 0, 1)), 0, 8.01), False),
        (fcase(("circle", (0, 0, 1)), ("circle", (10, 0, 1)), 0, 8.0005), True),
        (fcase(("circle", (0, 0, 2)), ("circle", (3, 4, 3)), 1, 0.0), True),  # touching: in band
        (fcase(("circle", (0, 0, 2)), ("circle", (3, 4, 3)), 0, 0.0), True),
        (fcase(("circle", (0, 0, 2)), ("circle", (3, 4, 3.1)), 0, 0.0), False),
        # an obb turned 45 degrees: a diamond reaching sqrt(2) along x
        (fcase(("point", (1.2, 0)), ("obb", (0, 0, 1, 1, s2, s2)), 1, 0.0), True),
        (fcase(("point", (1.2, 0)), ("obb", (0, 0, 1, 1, s2, s2)), 0, 0.0), False),
        (fcase(("point", (1.5, 0)), ("obb", (0, 0, 1, 1, s2, s2)), 0, 1.5 - math.sqrt(2)), True),
        (fcase(("point", (1.5, 0)), ("obb", (0, 0, 1, 1, s2, s2)), 0, 0.0), False),
        (fcase(("circle", (3, 3, 1)), ("obb", (0, 0, 2, 2, 1, 0)), 1, 0.0), False),
        (fcase(("circle", (3, 3, 1)), ("obb", (0, 0, 2, 2, 1, 0)), 0, math.sqrt(2) - 1), True),
        (fcase(("obb", (0, 0, 1, 1, s2, s2)), ("aabb", (1.3, -1, 3, 1)), 1, 0.0), True),
        (fcase(("obb", (0, 0, 1, 1, s2, s2)), ("aabb", (1.5, -1, 3, 1)), 0, 1.5 - math.sqrt(2)), True),
        (fcase(("obb", (0, 0, 1, 1, s2, s2)), ("aabb", (1.5, -1, 3, 1)), 1, 0.0), False),
        # a result that differs between the two argument orders is caught even in the band
        ("F self circle %s %s %s circle %s %s %s 1 0 %s %s"
         % (fl(0), fl(0), fl(2), fl(3), fl(4), fl(3), fl(0), fl(0)), False),
        # invalid input is an error, not a pass
        (fcase(("circle", (0, 0, -1)), ("point", (5, 0)), 0, 6.0), False),
        ("F self circle nan 0x0p+0 0x1p+0 point 0x0p+0 0x0p+0 0 0 0x0p+0 0x0p+0", False),
    ]
    failed = 0
    for line, ok in cases:
        st = judge_lines([line])
        accepted = st["disagreements"] == 0
        if accepted != ok:
            failed += 1
            print("SELFTEST FAILED (%s expected): %s" % ("accept" if ok else "reject", readable(line)))
            for _, problems in st["examples"]:
                print("  oracle said: " + "; ".join(problems))
    print("oracle selftest: %d cases, %d failed" % (len(cases), failed))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gen", help="path to oracle_gen")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--float", dest="nfloat", type=int, default=100000)
    ap.add_argument("--exact", dest="nexact", type=int, default=40000)
    ap.add_argument("--input", help="read case lines from this file ('-' for stdin)")
    ap.add_argument("--replay", help="with --gen: re-ask the C side about the pairs in this file")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--zero-area-box", choices=("closed", "empty"), default="closed")
    args = ap.parse_args()
    global ZERO_AREA_BOX
    ZERO_AREA_BOX = args.zero_area_box
    if args.selftest:
        return selftest()
    if args.input:
        f = sys.stdin if args.input == "-" else open(args.input)
        lines = f.read().splitlines()
    elif args.gen:
        if args.replay:
            cmd = [args.gen, "--replay", args.replay]
        else:
            cmd = [args.gen, str(args.seed), str(args.nfloat), str(args.nexact)]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, universal_newlines=True)
        if proc.returncode != 0:
            print("oracle: %s failed with status %d" % (" ".join(cmd), proc.returncode))
            return 1
        lines = proc.stdout.splitlines()
        if not args.replay and len(lines) != args.nfloat + args.nexact:
            print("oracle: expected %d lines, got %d" % (args.nfloat + args.nexact, len(lines)))
            return 1
    else:
        ap.error("give --gen, --input or --selftest")
    st = run_parallel(lines, max(1, args.jobs))
    report(st)
    return 1 if st["disagreements"] or st["cases"] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
