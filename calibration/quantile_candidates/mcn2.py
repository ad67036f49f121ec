"""Continuous McNemar test-inversion interval for q_c(p) - q_b(p) (no bootstrap, no density).
Fractional indicator weights: for a level u in [0, n], W_i(u; x) = 1 if rank(x_i) <= floor(u),
u - floor(u) if rank = floor(u)+1, else 0 (sum = u); threshold value t_x(u) = x_(floor u) +
frac (x_(floor u + 1) - x_(floor u)) (x_(0) := x_(1)). Anchor b at u = n p. For a level u of c:
S(u) = u - n p = sum_i D_i, D_i = W_i(u; c) - W_i(np; b); accept u if |S| <= z sqrt(sum D_i^2 + eps)
(score/McNemar test of P(c <= t_c(u)) = P(b <= t_b(np))). Interval: t_c(u_lo) - t_b(np), t_c(u_hi) - t_b(np).
mcn2_sym: average of the endpoints with the mirrored interval (anchor c, level on b, negated)."""
import sys, numpy as np
from scipy.stats import norm
from qdiff_candidates import cell_seed, coverage_text, draw
Z = norm.ppf(0.975)
def W(rank, u):  # rank (n,) 1-based ; u (G,) -> (G,n)
    fu = np.floor(u)[:, None]
    return np.where(rank[None, :] <= fu, 1.0, np.where(rank[None, :] == fu + 1, (u[:, None] - fu), 0.0))
def tval(xs, u):
    n = len(xs); ext = np.concatenate([[xs[0]], xs, [xs[-1]]])
    fu = np.floor(u).astype(int); fr = u - fu
    return ext[fu] + fr * (ext[np.minimum(fu + 1, n + 1)] - ext[fu])
def one(b, c, p, z=Z, step=0.05):
    n = len(b)
    rb = np.empty(n, int); rb[np.argsort(b)] = np.arange(1, n + 1)
    rc = np.empty(n, int); rc[np.argsort(c)] = np.arange(1, n + 1)
    u0 = np.array([n * p]); Wb = W(rb, u0)[0]
    us = np.arange(0.5, n + 0.5 + 1e-9, step); us = us[(us >= 1) & (us <= n)]
    D = W(rc, us) - Wb[None, :]
    S = us - n * p
    acc = np.abs(S) <= z * np.sqrt((D ** 2).sum(1)) + 1e-9
    if not acc.any():
        acc = np.abs(S) == np.abs(S).min()
    ul, uh = us[acc].min(), us[acc].max()
    tb = tval(np.sort(b), u0)[0]; cs = np.sort(c)
    return tval(cs, np.array([ul]))[0] - tb, tval(cs, np.array([uh]))[0] - tb
def interval(b, c, p):
    l1, h1 = one(b, c, p); l2, h2 = one(c, b, p)
    return (l1, h1), ((l1 - h2) / 2, (h1 - l2) / 2)
def run(model, p, n, sets):
    seed = cell_seed(model, p, n)
    rng = np.random.default_rng(seed)
    lo = np.zeros(2); hi = np.zeros(2)
    for _ in range(sets):
        b, c = draw(model, n, rng)
        for i, (l, h) in enumerate(interval(b, c, p)):
            lo[i] += l > 0; hi[i] += h < 0
    out = [coverage_text(nm, lo[i], hi[i], sets) for i, nm in enumerate(["mcn2_b", "mcn2_sym"])]
    print(f"{model:8s} p={p} n={n:4d}: " + "; ".join(out), flush=True)
if __name__ == "__main__":
    sets = int(sys.argv[1])
    for spec in sys.argv[2:]:
        m, p, n = spec.split(":"); run(m, float(p), int(n), sets)
