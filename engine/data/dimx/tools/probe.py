import hexgeo as h
import solve_cluster as s
P421 = (10, 6)
cnt = {}
# 314 anywhere within 6 of 421; 313 neighbour of 314 on axis from 421 nearest
res = []
for c in range(h.COLS):
    for r in range(1, h.ROWS-1):
        p314 = (c, r)
        if h.dist(p314, P421) > 7 or p314 == P421: continue
        n = h.neighbours(*p314)
        if len(n) < 6: continue
        d = sorted(n, key=lambda x: h.dist(P421, x))
        if h.dist(P421, d[0]) == h.dist(P421, d[1]): continue
        p313 = d[0]
        if p313 == P421 or not s.axis_line(P421, p313): continue
        for p416 in [(a, b) for a in range(h.COLS) for b in range(h.ROWS)]:
            if p416 in (P421, p314) or p416 in n: continue
            if h.dist(p416, P421) > 3: continue
            dd = sorted(n, key=lambda x: h.dist(p416, x))
            if dd[0] != p313 or h.dist(p416, dd[0]) == h.dist(p416, dd[1]): continue
            rest = dd[1:]
            if h.dist(p416, rest[0]) == h.dist(p416, rest[1]): continue
            p245 = rest[0]
            for p246 in n:
                if p246 in (p313, p245): continue
                for p321 in [(a, b) for a in range(h.COLS) for b in range(h.ROWS)]:
                    if p321 in n or p321 in (p314, P421, p416): continue
                    if h.dist(p321, p314) > 6: continue
                    d3 = sorted(n, key=lambda x: h.dist(p321, x))
                    if d3[0] != p246 or h.dist(p321, d3[0]) == h.dist(p321, d3[1]): continue
                    res.append((p314, p313, p416, p245, p246, p321))
print(len(res))
for x in res[:20]: print(x)
