#!/usr/bin/env python3
"""Writes the demo's sprites and bitmap font as PNG files (standard library only).

Run from anywhere: python3 assets/make_assets.py. The output is deterministic, so the PNGs
in the repository can be regenerated and compared byte for byte.
"""
import math
import os
import random
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def write_png(path, w, h, pixels):
    """pixels: list of h rows, each a list of w (r, g, b, a) tuples."""
    raw = bytearray()
    for row in pixels:
        raw.append(0)
        for r, g, b, a in row:
            raw += bytes((r, g, b, a))

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    png += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def clamp(v):
    return max(0, min(255, int(round(v))))


def blank(w, h):
    return [[(0, 0, 0, 0) for _ in range(w)] for _ in range(h)]


def shade(col, k):
    return tuple(clamp(c * k) for c in col)


# ---- 5x7 font, one glyph per printable ASCII character, rows top to bottom, bit 4 = left ----
GLYPHS = """
00000000000000 04040404040004 0A0A0000000000 0A0A1F0A1F0A0A 040F140E051E04 18190204081303
0C121408151 20D 04040000000000 02040808080402 08040202020408 0004150E150400 0004041F040400
00000000 0C0408 000000 1F000000 0000000000 0C0C 01010204081010 0E11131519110E 040C040404040E
0E11010204081F 1F020402011 10E 02060A121F0202 1F101E0101110E 0608101E11110E 1F010204080808
0E11110E11110E 0E11110F01020C 000C0C000C0C00 000C0C000C0408 02040810080402 00001F001F0000
08040201020408 0E110102040004 0E11010D15150E 0E11111F111111 1E11111E11111E 0E11101010110E
1C121111111 21C 1F10101E10101F 1F10101E101010 0E1110171111 0F 1111111F111111 0E04040404040E
07020202021 20C 11121418141211 1010101010101F 111B1515111111 11111915131111 0E11111111110E
1E11111E101010 0E11111115120D 1E11111E141211 0F10100E01011E 1F040404040404 1111111111110E
11111111110A04 1111111515150A 11110A040A1111 1111110A040404 1F01020408101F 0E08080808080E
10100804020101 0E02020202020E 040A1100000000 0000000000001F 08040000000000 00000E010F110F
10101619111 11E 00000E1010110E 01010D1311110F 00000E111F100E 0609081C080808 000F11110F010E
10101619111111 04000C0404040E 02000602021 20C 10101214181412 0C04040404040E 00001A15151111
00001619111111 00000E1111110E 00001E111E1010 00000D130F0101 00001619101010 00000E100E011E
08081C08080906 0000111111130D 0000111111 0A04 000011111515 0A 0000110A040A11 00001111 0F010E
00001F0204081F 02040408040402 04040404040404 08040402040408 00000815020000
"""


# Letters that reach below the baseline (row 6): nine rows each, the bowl or stem on the
# x-height rows 2..6 and the tail in rows 7..8, so "g" no longer reads as "9" nor "p" as "P".
DESCENDERS = {
    "g": [0x00, 0x00, 0x0F, 0x11, 0x11, 0x11, 0x0F, 0x01, 0x0E],
    "j": [0x02, 0x00, 0x06, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C],
    "p": [0x00, 0x00, 0x1E, 0x11, 0x11, 0x11, 0x1E, 0x10, 0x10],
    "q": [0x00, 0x00, 0x0F, 0x11, 0x11, 0x11, 0x0F, 0x01, 0x01],
    "y": [0x00, 0x00, 0x11, 0x11, 0x11, 0x11, 0x0F, 0x01, 0x0E],
}


def font_rows():
    hexes = "".join(GLYPHS.split())
    assert len(hexes) == 95 * 14, len(hexes)
    glyphs = []
    for i in range(95):
        g = hexes[i * 14:(i + 1) * 14]
        glyphs.append(DESCENDERS.get(chr(32 + i), [int(g[k * 2:k * 2 + 2], 16) for k in range(7)]))
    return glyphs


def make_font():
    # 16 columns x 6 rows of 6x10 cells: characters 32..127 (127 is left empty). Capitals stand
    # on row 6; rows 7-8 hold descenders and row 9 keeps lines apart.
    cw, ch = 6, 10
    w, h = 16 * cw, 6 * ch
    px = blank(w, h)
    for i, rows in enumerate(font_rows()):
        cx, cy = (i % 16) * cw, (i // 16) * ch
        for y, bits in enumerate(rows):
            for x in range(5):
                if bits & (0x10 >> x):
                    px[cy + y][cx + x] = (255, 255, 255, 255)
    write_png(os.path.join(HERE, "font.png"), w, h, px)


def disc_sprite(size, draw):
    px = blank(size, size)
    for y in range(size):
        for x in range(size):
            c = draw(x + 0.5, y + 0.5)
            if c is not None:
                px[y][x] = c
    return px


def make_player():
    s = 32
    body = (64, 112, 200)
    trim = (230, 190, 70)
    skin = (236, 196, 160)

    def draw(x, y):
        cx, cy = 16.0, 16.0
        dx, dy = x - cx, y - cy
        d = math.hypot(dx, dy)
        # shadow under the body
        if d >= 13.0 and math.hypot(dx - 1.5, dy - 2.0) < 14.0:
            return (0, 0, 0, 90)
        if d < 13.0:
            if d > 11.5:
                return (20, 30, 60, 255)
            light = 1.15 - 0.35 * ((dx + dy) / 18.0 + 0.5)
            col = body
            if abs(dy) < 2.0 and d > 6.5:
                col = trim  # belt of the tunic
            hd = math.hypot(dx - 2.0, dy - 0.0)
            if hd < 6.5:
                if hd > 5.5:
                    return (60, 40, 30, 255)
                col = skin
                if math.hypot(dx - 5.0, dy + 2.0) < 1.2 or math.hypot(dx - 5.0, dy - 2.0) < 1.2:
                    return (30, 20, 20, 255)  # eyes look along +x
                light = 1.1 - 0.25 * ((dx + dy) / 10.0 + 0.5)
            return shade(col, light) + (255,)
        return None

    write_png(os.path.join(HERE, "player.png"), s, s, disc_sprite(s, draw))


def make_enemy():
    s = 32

    def draw(x, y):
        dx, dy = x - 16.0, y - 18.0
        # a slime: a squashed disc with a flat base
        e = math.hypot(dx / 13.0, dy / 11.0 if dy < 0 else dy / 9.0)
        if e >= 1.0 and math.hypot(dx / 14.0, (dy - 3.0) / 7.0) < 1.0:
            return (0, 0, 0, 80)
        if e < 1.0:
            if e > 0.88:
                return (22, 70, 30, 255)
            light = 1.25 - 0.55 * ((dx + dy) / 24.0 + 0.5)
            col = (90, 190, 90)
            if math.hypot(dx + 5.0, dy + 5.5) < 2.5:
                return (230, 255, 230, 255)  # highlight
            for ex in (-4.0, 4.0):
                ed = math.hypot(dx - ex, dy + 1.0)
                if ed < 3.0:
                    if ed < 1.4:
                        return (20, 20, 30, 255)
                    return (250, 250, 250, 255)
            if abs(dx) < 3.5 and 4.0 < dy < 5.2:
                return (30, 60, 30, 255)  # mouth
            return shade(col, light) + (255,)
        return None

    write_png(os.path.join(HERE, "enemy.png"), s, s, disc_sprite(s, draw))


def make_floor():
    rnd = random.Random(7)
    s = 32
    px = blank(s, s)
    for y in range(s):
        for x in range(s):
            base = 58 + rnd.randint(-4, 4)
            # four flagstones per tile with darker grout
            if x % 16 == 0 or y % 16 == 0:
                base = 40
            elif x % 16 == 1 or y % 16 == 1:
                base += 8
            px[y][x] = (clamp(base * 0.95), clamp(base * 0.92), clamp(base * 1.05), 255)
    write_png(os.path.join(HERE, "floor.png"), s, s, px)


def make_wall():
    rnd = random.Random(11)
    s = 32
    px = blank(s, s)
    for y in range(s):
        row = y // 8
        off = 8 if row % 2 else 0
        for x in range(s):
            base = 96 + rnd.randint(-6, 6)
            if y % 8 == 0 or (x + off) % 16 == 0:
                base = 52
            elif y % 8 == 1:
                base += 18
            px[y][x] = (clamp(base * 1.05), clamp(base * 0.78), clamp(base * 0.62), 255)
    write_png(os.path.join(HERE, "wall.png"), s, s, px)


if __name__ == "__main__":
    make_font()
    make_player()
    make_enemy()
    make_floor()
    make_wall()
