"""Build the two map data files (engine/data/dimx/map_alpha.txt, map_beta.txt).

Both maps are assumed content: the rule text describes the maps (two 216-hex
maps numbered 111-666, unnumbered Lava Flow hexes, terrain kinds) but does not
print them. Mapzone Alpha places the hexes named in the worked examples where
solve_cluster.py found a layout satisfying every adjacency, distance and
line-of-fire fact in those examples; every other hex is numbered in plain
column-major order (down each column, columns left to right), skipping lava.
Run: python3 build_maps.py  (rewrites the two data files, then checks them).
"""
import sys
import hexgeo as h

# --- Mapzone Alpha -------------------------------------------------------
ALPHA_FIXED = {245: (6, 8), 246: (5, 7), 263: (6, 7), 313: (6, 9), 314: (5, 8),
               321: (7, 3), 325: (7, 8), 326: (7, 7), 331: (8, 7), 352: (8, 8),
               353: (9, 7), 415: (10, 8), 416: (10, 9), 421: (10, 7)}

ALPHA = dict(
    # lava flows as waypoints, joined hex by hex (see flow())
    lava=[[(6, 0), (6, 6), (5, 6), (1, 7)],
          [(19, 2), (15, 6), (14, 8), (13, 10)]],
    forest=[(7, 6), (9, 6), (8, 5), (9, 5), (8, 6), (10, 5),
            (10, 8), (11, 8), (11, 9), (12, 8), (10, 10),
            (1, 1), (2, 1), (1, 2), (2, 2), (3, 2),
            (3, 9), (2, 9), (2, 10), (3, 10), (4, 10),
            (16, 8), (17, 8), (17, 9), (16, 9), (18, 9),
            (15, 1), (16, 1), (16, 0)],
    rough=[(4, 3), (4, 4), (3, 4), (5, 4),
           (11, 3), (12, 3), (12, 2),
           (8, 10), (8, 11), (9, 11), (7, 10),
           (17, 5), (18, 5), (18, 6),
           (0, 3), (0, 4), (1, 4),
           (15, 10), (16, 11), (19, 10)],
    buildings=[(12, 5), (12, 6), (13, 5), (13, 6), (11, 6), (13, 4), (14, 5), (14, 6),
               (2, 8), (3, 8)],
    wormhole=[(9, 2), (17, 10)],
    roads=[
        # from the western edge past the bridge-less south bank to the town
        [(0, 8), (1, 8), (2, 8), (3, 8), (4, 7), (5, 7), (6, 7), (7, 7), (7, 8), (8, 8), (9, 7),
         (10, 7), (11, 6), (12, 6), (13, 6), (14, 6), (15, 6), (16, 5), (17, 5), (18, 4),
         (19, 4)],
        # town streets
        [(12, 5), (13, 5), (14, 5)], [(12, 5), (12, 6)], [(13, 4), (13, 5)], [(13, 5), (13, 6)],
        [(14, 5), (14, 6)],
        # north road over the lava (bridge at (6, 4)) to the wormhole
        [(0, 2), (1, 3), (2, 3), (3, 4), (4, 4), (5, 4), (6, 4), (7, 4), (8, 3), (9, 2)],
        # south road from the town to the southern edge
        [(13, 6), (13, 7), (12, 8), (12, 9), (12, 10), (12, 11)],
        # western village road
        [(2, 8), (2, 9), (1, 10), (1, 11)],
    ],
)

# --- Mapzone Beta --------------------------------------------------------
BETA = dict(
    lava=[[(3, 0), (17, 8)],
          [(9, 8), (10, 11)],
          [(16, 0), (19, 1)]],
    forest=[(1, 5), (2, 5), (1, 6), (2, 6), (3, 6),
            (6, 6), (7, 6), (6, 7), (7, 7),
            (12, 1), (13, 1), (13, 2), (12, 2), (14, 2),
            (15, 10), (16, 10), (16, 11), (17, 11),
            (4, 10), (5, 10), (5, 11),
            (18, 4), (19, 4), (18, 5)],
    rough=[(8, 0), (9, 0), (9, 1), (10, 1),
           (11, 8), (12, 8), (12, 9), (13, 9),
           (1, 9), (2, 9), (2, 10),
           (15, 3), (16, 3), (16, 4),
           (19, 8), (19, 9)],
    buildings=[(5, 4), (6, 4), (5, 5), (6, 5), (4, 4),
               (14, 9), (15, 9), (14, 10)],
    wormhole=[(10, 6), (3, 3)],
    roads=[
        [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4), (5, 4), (6, 4), (7, 5), (8, 5), (9, 6), (10, 6),
         (11, 7), (12, 7), (13, 8), (14, 8), (14, 9), (15, 9), (16, 9), (17, 9), (18, 9),
         (19, 10)],
        [(5, 4), (5, 5)], [(6, 4), (6, 5)], [(5, 5), (6, 5)],
        # north road crossing the long lava flow on a bridge at (9, 4)
        [(10, 6), (10, 5), (9, 4), (9, 3), (9, 2), (10, 1)[:0] or (9, 1), (9, 0)],
        [(14, 9), (14, 10), (14, 11)],
        [(0, 9), (1, 8), (2, 8), (3, 7), (4, 7), (5, 6), (5, 5)],
    ],
)


def flow(points):
    """A lava flow through these waypoints, hex by hex."""
    out = [points[0]]
    for p in points[1:]:
        while out[-1] != p:
            cur = out[-1]
            out.append(min(h.neighbours(*cur), key=lambda n: (h.dist(n, p), n)))
    return out


def expand(spec):
    if spec["lava"] and isinstance(spec["lava"][0], list):
        cells = []
        for f in spec["lava"]:
            for c in flow(f):
                if c not in cells:
                    cells.append(c)
        spec["lava"] = cells
    return spec


def number(spec, fixed):
    lava = set(spec["lava"])
    assert len(lava) == h.COLS * h.ROWS - 216, len(lava)
    cells = [(c, r) for c in range(h.COLS) for r in range(h.ROWS)]
    taken = {h.to_index(n) for n in fixed}
    fixed_cells = set(fixed.values())
    assert not (fixed_cells & lava), fixed_cells & lava
    free_numbers = [i for i in range(216) if i not in taken]
    nums = {cell: n for n, cell in fixed.items()}
    it = iter(free_numbers)
    for cell in cells:
        if cell in lava or cell in fixed_cells:
            continue
        nums[cell] = h.from_index(next(it))
    return nums


def terrain(spec):
    t = {}
    for k, code in (("forest", "F"), ("rough", "R"), ("buildings", "B"), ("wormhole", "W")):
        for cell in spec[k]:
            assert cell not in t, (cell, k)
            t[cell] = code
    for cell in spec["lava"]:
        assert cell not in t, (cell, "lava")
        t[cell] = "~"
    return t


def route(points, lava):
    """Fill the gaps between road waypoints with adjacent steps, avoiding lava
    hexes unless a waypoint is one (a bridge)."""
    out = [points[0]]
    for p in points[1:]:
        while out[-1] != p:
            cur = out[-1]
            opts = [n for n in h.neighbours(*cur) if n == p or n not in lava]
            out.append(min(opts, key=lambda n: (h.dist(n, p), n)))
    return out


def ref(cell, nums):
    if cell in nums:
        return str(nums[cell])
    return "L%d-%d" % (cell[0] + 1, cell[1] + 1)


def write(path, title, key, spec, nums, notes):
    t = terrain(spec)
    out = []
    out.append("# %s of Invaders From Dimension X! (rule text 003, A.1)." % title)
    for n in notes:
        out.append("# " + n)
    out.append("#")
    out.append("# Format (see engine/src/games/dimx/RULES.md, 'Map files'):")
    out.append("#   grid COLS ROWS: flat-topped hexes in columns; odd columns (2nd, 4th, ...)")
    out.append("#     sit half a hex lower. Column and row numbers below count from 1.")
    out.append("#   row N: the hexes of row N, left to right: a hex number and a terrain")
    out.append("#     code, or ~ for an unnumbered Lava Flow hex.")
    out.append("#     codes: . clear  F forest  R rough  B buildings  W wormhole")
    out.append("#   road A B C ...: a road running through these hexes in order; each step")
    out.append("#     is a road connection (C.1). Lava hexes are named L<col>-<row>; a road")
    out.append("#     through a lava hex is a bridge.")
    out.append("map %s" % key)
    out.append("name %s" % title)
    out.append("grid %d %d" % (h.COLS, h.ROWS))
    for r in range(h.ROWS):
        toks = []
        for c in range(h.COLS):
            code = t.get((c, r), ".")
            toks.append("  ~ " if code == "~" else "%d%s" % (nums[(c, r)], code))
        out.append("row %2d  %s" % (r + 1, " ".join(toks)))
    for road in spec["roads"]:
        road = route(road, set(spec["lava"]))
        out.append("road " + " ".join(ref(c, nums) for c in road))
    open(path, "w").write("\n".join(out) + "\n")


def check_alpha(spec, nums):
    t = terrain(spec)
    at = {n: c for c, n in nums.items()}
    lava = set(spec["lava"])
    edges = set()
    for road in spec["roads"]:
        road = route(road, lava)
        for a, b in zip(road, road[1:]):
            edges.add(frozenset((a, b)))
    conn = lambda x, y: frozenset((at[x], at[y])) in edges
    assert conn(263, 326) and conn(326, 325) and conn(325, 352) and conn(352, 353)
    assert not conn(326, 352) and not conn(353, 415)
    assert t.get(at[415]) in ("F", "R")
    assert t.get(at[421], ".") not in ("F", "R", "B")
    for n in (352, 326, 325, 353, 263):
        assert t.get(at[n], ".") not in ("F", "R"), n
    blockers = [c for c in h.between(at[263], at[421]) if t.get(c) == "F"]
    assert len(blockers) >= 2, blockers
    assert any(c in lava for c in h.between(at[321], at[246]))
    assert not any(c in lava for c in h.between(at[421], at[313]))
    assert not any(c in lava for c in h.between(at[416], at[245]))
    import solve_cluster as s
    assert s.check_dist(ALPHA_FIXED)
    # with every hex numbered, re-check the choices including unnamed neighbours
    n314 = h.neighbours(*at[314])
    def pick(frm, cells):
        d = min(h.dist(frm, c) for c in cells)
        return max((c for c in cells if h.dist(frm, c) == d), key=lambda c: nums[c])
    assert pick(at[421], n314) == at[313]
    assert pick(at[416], n314) == at[313]
    assert pick(at[416], [c for c in n314 if c != at[313]]) == at[245]
    assert pick(at[321], n314) == at[246]
    print("alpha: every worked-example fact holds")


def show(spec, nums):
    t = terrain(spec)
    for r in range(h.ROWS):
        line = ""
        for c in range(h.COLS):
            code = t.get((c, r), ".")
            line += ("  ~~ " if code == "~" else "%d%s " % (nums[(c, r)], code))
        print(("  " if False else "") + line)


if __name__ == "__main__":
    here = sys.path[0]
    data = here + "/.."
    expand(ALPHA)
    expand(BETA)
    print("lava", len(ALPHA["lava"]), len(BETA["lava"]))
    na = number(ALPHA, ALPHA_FIXED)
    check_alpha(ALPHA, na)
    nb = number(BETA, {})
    common = ["assumed: the rule text does not print the maps; layout, terrain and numbering",
              "  are Xenolog's own, built by tools/build_maps.py. Replace this file with your own",
              "  copy's map to match the printed sheet."]
    write(data + "/map_alpha.txt", "Mapzone Alpha", "alpha", ALPHA, na, common + [
        "assumed: hexes named in the rule text's worked examples (245 246 263 313 314 321",
        "  325 326 331 352 353 415 416 421) sit where tools/solve_cluster.py found a",
        "  layout that makes every example come out as printed; the other hexes are",
        "  numbered down each column, columns left to right, skipping lava."])
    write(data + "/map_beta.txt", "Mapzone Beta", "beta", BETA, nb, common + [
        "assumed: hexes are numbered down each column, columns left to right, skipping lava."])
    if "-v" in sys.argv:
        show(ALPHA, na)
        print()
        show(BETA, nb)
