"""A median / p95 diagnosis: the bootstrap variance of the paired type-7 quantile difference at
resample size m (scaled by m/n) over the true variance, m = n/16 ... 4n (it grows with m when the
sides are paired, so no extrapolation in m can remove the excess).

    cd calibration/quantile_candidates && python3 diag.py
"""
import sys, numpy as np
from qdiff_candidates import draw, t7
def run(model,p,n,sets=400,B=300):
    rng=np.random.default_rng(1)
    ests=[];S={}
    ms=[max(n//16,4),n//4,n//2,n,2*n,4*n]
    for _ in range(sets):
        b,c=draw(model,n,rng); est=t7(np.sort(c),p)-t7(np.sort(b),p); ests.append(est)
        for m in ms:
            i=rng.integers(0,n,(B,m)); d=t7(np.sort(c[i],1),p)-t7(np.sort(b[i],1),p)
            S.setdefault(m,[]).append(m/n*d.var(ddof=1))
    tv=np.var(ests)
    print(model,p,n,"true var %.2f"%tv, " ".join("m=%d:%.3f"%(m,np.mean(S[m])/tv) for m in ms),flush=True)
for spec in sys.argv[1:]:
    m,p,n=spec.split(":"); run(m,float(p),int(n))
