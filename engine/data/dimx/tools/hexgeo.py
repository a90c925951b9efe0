"""Hex geometry shared by the dimx map tools (mirrors engine/src/games/dimx/map.rs).

Flat-topped hexes in columns; odd columns sit half a hex lower ("odd-q").
Integer affine coordinates: centre (3*col, 2*row + (col & 1)); the corners are
the centre plus (+-2, 0) and (+-1, +-1). Intersection tests are affine-invariant,
so these exact integers give the same answers as the true geometry.
"""

COLS, ROWS = 20, 12


def centre(c, r):
    return (3 * c, 2 * r + (c & 1))


def corners(c, r):
    x, y = centre(c, r)
    return [(x + 2, y), (x + 1, y + 1), (x - 1, y + 1), (x - 2, y), (x - 1, y - 1), (x + 1, y - 1)]


def on_map(c, r):
    return 0 <= c < COLS and 0 <= r < ROWS


def neighbours(c, r):
    if c & 1 == 0:
        d = [(1, -1), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 0)]
    else:
        d = [(1, 0), (1, 1), (0, -1), (0, 1), (-1, 0), (-1, 1)]
    return [(c + a, r + b) for a, b in d if on_map(c + a, r + b)]


def cube(c, r):
    q = c
    rr = r - (c - (c & 1)) // 2
    return q, rr, -q - rr


def dist(a, b):
    q1, r1, s1 = cube(*a)
    q2, r2, s2 = cube(*b)
    return max(abs(q1 - q2), abs(r1 - r2), abs(s1 - s2))


def orient(a, b, p):
    v = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    return (v > 0) - (v < 0)


def on_seg(a, b, p):
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def seg_seg(a, b, c, d):
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    if o1 != o2 and o3 != o4:
        return True
    if o1 == 0 and on_seg(a, b, c):
        return True
    if o2 == 0 and on_seg(a, b, d):
        return True
    if o3 == 0 and on_seg(c, d, a):
        return True
    if o4 == 0 and on_seg(c, d, b):
        return True
    return False


def inside(poly, p):
    s = [orient(poly[i], poly[(i + 1) % 6], p) for i in range(6)]
    return all(x >= 0 for x in s) or all(x <= 0 for x in s)


def touches(cell, a, b):
    poly = corners(*cell)
    if inside(poly, a) or inside(poly, b):
        return True
    return any(seg_seg(a, b, poly[i], poly[(i + 1) % 6]) for i in range(6))


def between(a, b):
    """Cells other than a and b whose closed hex touches the segment between centres."""
    pa, pb = centre(*a), centre(*b)
    out = []
    for c in range(COLS):
        for r in range(ROWS):
            if (c, r) in (a, b):
                continue
            if touches((c, r), pa, pb):
                out.append((c, r))
    return out


def to_index(num):
    """Hex number 111..666 to 0..215 (digits read base 6)."""
    s = str(num)
    return (int(s[0]) - 1) * 36 + (int(s[1]) - 1) * 6 + (int(s[2]) - 1)


def from_index(i):
    return 100 * (i // 36 + 1) + 10 * (i // 6 % 6 + 1) + (i % 6 + 1)
