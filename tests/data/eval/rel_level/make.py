"""trec_eval's answers at a relevance level above some queries' grades, for tests/it/rel_level.rs.

Writes, with pytrec_eval-terrier (trec_eval 10.0's measures; pip install pytrec-eval-terrier),
`measure<TAB>qid<TAB>value` at full precision (repr) plus `measure<TAB>all<TAB>mean` rows (the
mean over every evaluated query, trec_eval's `all` line):
- trec_eval_test.l3.pte.tsv, trec_eval_test.l4.pte.tsv: trec_eval's own test files
  (qrels.rel_level: grades -1..4; results.test) at -l 3 and -l 4: query 303 has no document
  at 3 or above, query 302 none at 4;
- covid_graded3.l3.pte.tsv: the TREC-COVID round-2 qrels with grade 2 raised to 3 on the
  odd-numbered topics (so the 17 even-numbered topics have no grade-3 document) against the
  covidex-sim run, at -l 3. tests/it/rel_level.rs makes the same qrels from the committed file.
Run from the repository root: python3 tests/data/eval/rel_level/make.py
"""

import pytrec_eval

FIX = "tests/data/eval/fixtures"
OUT = "tests/data/eval/rel_level"
MEASURES = {"map", "ndcg_cut_10", "ndcg", "recall_100", "P_10", "recip_rank", "Rprec", "success_10"}


def read_qrels(path, raise_odd=False):
    q = {}
    for line in open(path):
        qid, _, doc, rel = line.split()
        rel = int(rel)
        if raise_odd and rel == 2 and int(qid) % 2 == 1:
            rel = 3
        q.setdefault(qid, {})[doc] = rel
    return q


def read_run(path):
    """The run with each score replaced by a rank-based one in trec_eval 10's order (score
    descending as f64, ties by docid descending in byte order): pytrec_eval-terrier breaks ties
    its own way, so it is given no ties."""
    r = {}
    for line in open(path):
        qid, _, doc, _, score, _ = line.split()[:6]
        r.setdefault(qid, {})[doc] = float(score)
    out = {}
    for qid, docs in r.items():
        order = sorted(docs, key=lambda d: (docs[d], d.encode()), reverse=True)
        out[qid] = {d: float(len(order) - i) for i, d in enumerate(order)}
    return out


def check_against_shared_oracle():
    """At -l 1 the same route gives the shared fixtures' trec_eval 10 values (1e-12)."""
    qrels = read_qrels(f"{FIX}/trec-covid-r2/qrels.covid-round2.txt")
    run = read_run(f"{FIX}/trec-covid-r2/run.covidex-sim.txt")
    per = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut_10", "recall_100"}).evaluate(run)
    n = 0
    for line in open(f"{FIX}/trec-covid-r2/run.covidex-sim.pte.tsv"):
        m, q, v = line.split("\t")
        if q in per and m in per[q]:
            assert abs(per[q][m] - float(v)) <= 1e-12, (m, q, per[q][m], v)
            n += 1
    assert n >= 3 * 35, n


def write(name, qrels, run, level):
    ev = pytrec_eval.RelevanceEvaluator(qrels, MEASURES, relevance_level=level)
    per = ev.evaluate(run)
    with open(f"{OUT}/{name}", "w") as f:
        for m in sorted(MEASURES):
            vals = [per[q][m] for q in sorted(per)]
            for q in sorted(per):
                f.write(f"{m}\t{q}\t{per[q][m]!r}\n")
            f.write(f"{m}\tall\t{sum(vals) / len(vals)!r}\n")


check_against_shared_oracle()
te_qrels = read_qrels(f"{FIX}/trec_eval_test/qrels.rel_level")
te_run = read_run(f"{FIX}/trec_eval_test/results.test")
write("trec_eval_test.l3.pte.tsv", te_qrels, te_run, 3)
write("trec_eval_test.l4.pte.tsv", te_qrels, te_run, 4)
covid = read_qrels(f"{FIX}/trec-covid-r2/qrels.covid-round2.txt", raise_odd=True)
write("covid_graded3.l3.pte.tsv", covid, read_run(f"{FIX}/trec-covid-r2/run.covidex-sim.txt"), 3)
