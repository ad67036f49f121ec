//! Judged coverage of one query: its unjudged ranked documents, and each metric's optimistic
//! value, where every unjudged document within the metric's cutoff (the whole ranking without
//! one) is taken as judged relevant at the relevance level — as if an annotator had graded it
//! `rel_level`: R grows by those documents and nDCG's ideal ordering includes them, so every value
//! stays in [0, 1]. The pessimistic value is the usual one (unjudged = non-relevant, trec_eval).
//! Together they bound what the missing judgments could do to a query's value.

use super::metrics::{Judged, Kind, Metric, UNJUDGED};

/// `(rank, doc)` of the unjudged documents in the top `depth` (rank 1-based).
pub fn unjudged_docs(rels: &[i32], docs: &[&[u8]], depth: usize) -> Vec<(usize, String)> {
    rels.iter()
        .zip(docs)
        .take(depth)
        .enumerate()
        .filter(|(_, (&g, _))| g == UNJUDGED)
        .map(|(i, (_, d))| (i + 1, String::from_utf8_lossy(d).into_owned()))
        .collect()
}

/// The optimistic value of `m` for the query `j` (see the module header).
pub fn optimistic(j: &Judged, m: Metric) -> f64 {
    if m.kind == Kind::Judged {
        return j.value(m);
    }
    let cut = m.k.unwrap_or(j.rels.len()).min(j.rels.len());
    let unjudged = j.rels[..cut].iter().filter(|&&g| g == UNJUDGED).count();
    if unjudged == 0 {
        return j.value(m);
    }
    let rels: Vec<i32> = j
        .rels
        .iter()
        .enumerate()
        .map(|(i, &g)| {
            if i < cut && g == UNJUDGED {
                j.rel_level
            } else {
                g
            }
        })
        .collect();
    let mut ideal = j.ideal_gains.to_vec();
    ideal.extend(std::iter::repeat(j.gain(j.rel_level)).take(unjudged));
    ideal.sort_unstable_by(|a, b| b.total_cmp(a));
    Judged {
        rels: &rels,
        num_rel: j.num_rel + unjudged,
        ideal_gains: &ideal,
        ..*j
    }
    .value(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(s: &str) -> Metric {
        Metric::parse(s).unwrap()
    }

    fn judged<'a>(rels: &'a [i32], num_rel: usize, ideal: &'a [f64]) -> Judged<'a> {
        Judged {
            rels,
            num_rel,
            ideal_gains: ideal,
            rel_level: 1,
            exponential: false,
        }
    }

    #[test]
    fn fully_judged_rankings_have_equal_bounds() {
        let j = judged(&[0, 1, 2, 0], 2, &[2.0, 1.0]);
        for name in [
            "ndcg@3", "recall@2", "p@4", "mrr", "map", "hit@1", "judged@4",
        ] {
            assert_eq!(optimistic(&j, m(name)), j.value(m(name)), "{name}");
        }
    }

    #[test]
    fn unjudged_in_the_cut_count_as_relevant_and_raise_r() {
        // Ranks 1 and 3 unjudged, one relevant doc at rank 2, R = 2 (one not retrieved).
        let j = judged(&[UNJUDGED, 1, UNJUDGED], 2, &[1.0, 1.0]);
        assert_eq!(j.value(m("recall@2")), 0.5);
        // Rank 1 counted relevant: 2 hits of R = 3.
        assert_eq!(optimistic(&j, m("recall@2")), 2.0 / 3.0);
        assert_eq!(optimistic(&j, m("p@3")), 1.0);
        assert_eq!(optimistic(&j, m("mrr")), 1.0);
        let v = optimistic(&j, m("ndcg@3"));
        assert!(v > j.value(m("ndcg@3")) && v <= 1.0, "{v}");
        // judged@k is coverage, not relevance: the same under both readings.
        assert_eq!(optimistic(&j, m("judged@3")), 1.0 / 3.0);
    }

    #[test]
    fn lists_unjudged_docs_with_their_ranks() {
        let docs: [&[u8]; 3] = [b"A", b"B", b"C"];
        let got = unjudged_docs(&[UNJUDGED, 0, UNJUDGED], &docs, 2);
        assert_eq!(got, [(1, "A".to_string())]);
    }
}
