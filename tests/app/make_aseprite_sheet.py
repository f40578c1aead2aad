#!/usr/bin/env python3
"""Writes tests/app/aseprite/swing.png and swing.json: a four-frame sprite sheet of a sword
swing and its data in the form Aseprite's "Export Sprite Sheet" writes (JSON hash, with frame
tags and slices), for the import test. Standard library only; the output is deterministic.

Run from anywhere: python3 tests/app/make_aseprite_sheet.py
"""
import importlib.util
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

spec = importlib.util.spec_from_file_location("make_assets", os.path.join(ROOT, "assets", "make_assets.py"))
make_assets = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_assets)

CELL = 48
ORIGIN = (12, 24)  # where the wielder's hand is in every frame
# Each frame: duration in ms and the blade's angle in degrees (0 = +x, +y down).
FRAMES = [(100, -90), (50, 0), (100, 0), (200, 90)]
# The slices: (name, user data, colour, keys as (frame, x, y, w, h)); a key with w = h = 0 ends it.
SLICES = [
    ("origin", None, "#ffffffff", [(0, 11, 23, 2, 2)]),
    ("capsule:blade", "damage=7 angle=-20 base=1.5 growth=0.1", "#ff0000ff",
     [(1, 16, 21, 27, 6), (3, 0, 0, 0, 0)]),
    ("circle:tip", "damage=12 priority=1 sparkle=yes", "#ffa000ff", [(2, 36, 20, 8, 8), (3, 0, 0, 0, 0)]),
    ("guard", "shape=box damage=3", "#00a0ffff", [(2, 14, 16, 4, 12)]),
]


def frame_pixels(angle):
    px = [[(0, 0, 0, 0)] * CELL for _ in range(CELL)]
    ox, oy = ORIGIN
    for y in range(CELL):
        for x in range(CELL):
            if (x - ox) ** 2 + (y - oy) ** 2 <= 36:
                px[y][x] = (60, 110, 220, 255)  # the wielder's hand
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    for t in range(4, 31):
        x, y = int(round(ox + c * t)), int(round(oy + s * t))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if 0 <= x + dx < CELL and 0 <= y + dy < CELL:
                    px[y + dy][x + dx] = (210, 210, 225, 255)
    return px


def main():
    out = os.path.join(HERE, "aseprite")
    os.makedirs(out, exist_ok=True)
    w = CELL * len(FRAMES)
    rows = [[] for _ in range(CELL)]
    frames = {}
    for i, (ms, angle) in enumerate(FRAMES):
        cell = frame_pixels(angle)
        for y in range(CELL):
            rows[y] += cell[y]
        frames["swing %d.aseprite" % i] = {
            "frame": {"x": i * CELL, "y": 0, "w": CELL, "h": CELL},
            "rotated": False, "trimmed": False,
            "spriteSourceSize": {"x": 0, "y": 0, "w": CELL, "h": CELL},
            "sourceSize": {"w": CELL, "h": CELL},
            "duration": ms,
        }
    make_assets.write_png(os.path.join(out, "swing.png"), w, CELL, rows)
    slices = []
    for name, data, color, keys in SLICES:
        sl = {"name": name, "color": color}
        if data is not None:
            sl["data"] = data
        sl["keys"] = []
        for fr, x, y, kw, kh in keys:
            key = {"frame": fr, "bounds": {"x": x, "y": y, "w": kw, "h": kh}}
            if name == "origin":
                key["pivot"] = {"x": 1, "y": 1}
            sl["keys"].append(key)
        slices.append(sl)
    doc = {
        "frames": frames,
        "meta": {
            "app": "https://www.aseprite.org/", "version": "1.3.2-x64",
            "image": "swing.png", "format": "RGBA8888",
            "size": {"w": w, "h": CELL}, "scale": "1",
            "frameTags": [{"name": "swing", "from": 0, "to": 3, "direction": "forward", "color": "#000000ff"}],
            "layers": [{"name": "Layer 1", "opacity": 255, "blendMode": "normal"}],
            "slices": slices,
        },
    }
    with open(os.path.join(out, "swing.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
