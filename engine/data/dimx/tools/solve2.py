import hexgeo as h
import solve_cluster as s
A = [353, 352, 421, 415, 331, 325, 326, 263]
B = [314, 313, 245, 246, 321, 416]
W = 16
def cands(n):
    nat = s.natural(n)
    return [(c, r) for c in range(h.COLS) for r in range(h.ROWS) if abs(s.order((c, r)) - nat) <= W and 0 < r < h.ROWS-1]
def rec(i, pos, used, order_, out):
    if i == len(order_):
        out.append(dict(pos)); return
    n = order_[i]
    for c in cands(n):
        if c in used: continue
        ok = True
        for a, b in s.ADJ:
            o = b if a == n else a if b == n else None
            if o is not None and o in pos and c not in h.neighbours(*pos[o]):
                ok = False; break
        if not ok: continue
        pos[n] = c; used.add(c)
        rec(i+1, pos, used, order_, out)
        del pos[n]; used.discard(c)
sc = lambda pos: sum(abs(s.order(pos[n]) - s.natural(n)) for n in pos)
solsA = []
rec(0, {}, set(), A, solsA)
solsA.sort(key=sc)
res = []
for pa in solsA[:300]:
    roads = {pa[n] for n in (263, 326, 325, 352, 353, 331)}
    btw = [c for c in h.between(pa[263], pa[421]) if c not in roads and c not in pa.values()]
    if len(btw) < 2: continue
    solsB = []
    rec(0, dict(pa), set(pa.values()), B, solsB)
    for p in solsB:
        if not s.check_dist(p): continue
        # lava candidates on 321->246 line, none may be special cells
        lav = [c for c in h.between(p[321], p[246]) if c not in p.values()]
        bad = set(h.between(p[421], p[313])) | set(h.between(p[416], p[245]))
        lav = [c for c in lav if c not in bad]
        if not lav: continue
        res.append((sc(p), p, btw, lav))
res.sort(key=lambda x: x[0])
print(len(res))
for r in res[:8]:
    print(r[0], sorted(r[1].items(), key=lambda kv: kv[0]), 'forest?', r[2], 'lava?', r[3])
