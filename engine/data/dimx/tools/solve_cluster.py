"""Find cells for the hexes named in the rule text's worked examples (Map Alpha).

Constraints (rule text 003):
  movement example: 263-326-352-353-415 and 326-325-352 are steps between
  adjacent hexes; combat example: 353 is adjacent to 421 and to 331 (HQ);
  Kay'otz activation example: 314 is adjacent to 313, 245 and 246; from 421
  the nearest hex next to 314 is 313 (straight down a row of hexes); from 416
  it is 313 again and then 245; from 321 it is 246.
Score: how far each hex sits from where plain column-major numbering puts it.
"""
import itertools
import hexgeo as h

SPECIAL = [353, 352, 421, 415, 331, 325, 326, 263, 314, 313, 245, 246, 321, 416]
ADJ = [(263, 326), (326, 325), (325, 352), (326, 352), (352, 353), (353, 415),
       (353, 421), (353, 331), (314, 313), (314, 245), (314, 246)]
LAVA = 24
CELLS = h.COLS * h.ROWS


def order(cell):
    return cell[0] * h.ROWS + cell[1]


def natural(num):
    return h.to_index(num) * CELLS / 216.0


def axis_line(a, b):
    """True when b lies on a straight hex row from a (one of the three axes)."""
    qa, ra, sa = h.cube(*a)
    qb, rb, sb = h.cube(*b)
    return qa == qb or ra == rb or sa == sb


def pick(frm, cells, pos):
    """The rule's choice: nearest, ties to the highest-numbered hex. Ties with
    hexes that have no number yet are refused (None)."""
    num_at = {v: k for k, v in pos.items()}
    d = min(h.dist(frm, c) for c in cells)
    tied = [c for c in cells if h.dist(frm, c) == d]
    if any(c not in num_at for c in tied) and len(tied) > 1:
        return None
    return max(tied, key=lambda c: num_at.get(c, 0))


def check_dist(pos):
    n314 = h.neighbours(*pos[314])
    if len(n314) < 6:
        return False
    if pick(pos[421], n314, pos) != pos[313]:
        return False
    if not axis_line(pos[421], pos[313]):
        return False
    if pick(pos[416], n314, pos) != pos[313]:
        return False
    if pick(pos[416], [c for c in n314 if c != pos[313]], pos) != pos[245]:
        return False
    if pick(pos[321], n314, pos) != pos[246]:
        return False
    return True


def cands(n, window):
    nat = natural(n)
    return [(c, r) for c in range(h.COLS) for r in range(h.ROWS)
            if abs(order((c, r)) - nat) <= window and 0 < r < h.ROWS - 1]


def place(names, pos, used, out, window):
    """Backtrack over cells for `names`, keeping every ADJ pair adjacent."""
    if not names:
        out.append(dict(pos))
        return
    n = names[0]
    for c in cands(n, window):
        if c in used:
            continue
        if any(c not in h.neighbours(*pos[o]) for a, b in ADJ for o in [b if a == n else a if b == n else None]
               if o is not None and o in pos):
            continue
        pos[n] = c
        used.add(c)
        place(names[1:], pos, used, out, window)
        del pos[n]
        used.discard(c)


def solve(window=16, first=300):
    """Two stages: the movement and combat examples' hexes, then the
    activation example's around the 421 they fix. Returns (score, placement,
    Forest candidates on 263-421, Lava candidates on 321-246), best first."""
    score = lambda pos: sum(abs(order(pos[n]) - natural(n)) for n in pos)
    stage_a = []
    place([353, 352, 421, 415, 331, 325, 326, 263], {}, set(), stage_a, window)
    stage_a.sort(key=score)
    res = []
    for pa in stage_a[:first]:
        roads = {pa[n] for n in (263, 326, 325, 352, 353, 331)}
        forest = [c for c in h.between(pa[263], pa[421]) if c not in roads and c not in pa.values()]
        if len(forest) < 2:
            continue
        stage_b = []
        place([314, 313, 245, 246, 321, 416], dict(pa), set(pa.values()), stage_b, window)
        for p in stage_b:
            if not check_dist(p):
                continue
            bad = set(h.between(p[421], p[313])) | set(h.between(p[416], p[245]))
            lava = [c for c in h.between(p[321], p[246]) if c not in p.values() and c not in bad]
            if lava:
                res.append((score(p), p, forest, lava))
    res.sort(key=lambda x: x[0])
    return res


if __name__ == "__main__":
    # takes a few minutes; build_maps.py uses the best placement (ALPHA_FIXED)
    for score, pos, forest, lava in solve()[:5]:
        print(round(score, 1), sorted(pos.items()), "forest:", forest, "lava:", lava)
