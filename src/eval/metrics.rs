//! Metric names and the pure per-query maths, following trec_eval 10 (m_*.c):
//! recall@k (`recall_k`) hits in top k / R; p@k (`P_k`) hits in top k / k (always k);
//! mrr@k (`recip_rank` with -M k) and mrr (`recip_rank`) 1 / rank of the first relevant doc;
//! ndcg@k (`ndcg_cut_k`) and ndcg (`ndcg`): Σ gain_i / log2(i + 1) over the ranking, divided by the
//! same sum over the ideal ordering of every judged doc of the query (retrieved or not);
//! ap@k (`map_cut_k`) and map (`map`): Σ precision at each relevant retrieved doc / R;
//! rprec (`Rprec`) hits in top R / R; hit@k (`success_k`) 1 if any relevant doc is in the top k;
//! complete@k (ours, `complete_k`) 1 if every relevant doc is in the top k (R ≤ k is needed; the
//! "complete evidence" of multi-hop questions), with the same policies (rel_level, R = 0 → 0).
//! "Relevant" means rel >= rel_level (trec_eval -l); nDCG ignores the level and uses the raw
//! grade (gain = rel, or 2^rel − 1 with the exponential gain). Every metric is 0 when R = 0 or the
//! ranking is empty. `ann-recall@k` (ANN top k ∩ exact top k / k) lives in `ann.rs`.
//! judged@k (ir_measures `Judged@k`): judged docs (any grade, also ≤ 0) in the top k / the docs in
//! the top k (min(k, ranking length); 0 for an empty ranking); it does not depend on R.
//! Unjudged docs carry the grade [`UNJUDGED`].

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Recall,
    P,
    Mrr,
    Ndcg,
    Ap,
    Rprec,
    Hit,
    Complete,
    AnnRecall,
    Judged,
}

/// The grade of a ranked doc without a judgment: below every real grade, so it is never
/// relevant and has no gain, and judged@k can tell it from a judged non-relevant doc.
pub const UNJUDGED: i32 = i32::MIN;

/// One metric with its cutoff, e.g. `ndcg@10`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Metric {
    pub kind: Kind,
    pub k: Option<usize>,
}

pub const NAMES_HELP: &str =
    "recall@k, p@k, mrr@k, mrr, ndcg@k, ndcg, ap@k, map, rprec, hit@k, complete@k, judged@k, ann-recall@k";

/// The metric names without cutoff, for "did you mean".
const BASES: [&str; 12] = [
    "recall",
    "p",
    "mrr",
    "ndcg",
    "ap",
    "map",
    "rprec",
    "hit",
    "complete",
    "ann-recall",
    "precision",
    "success",
];

impl Metric {
    /// Parses our canonical names (case-insensitive; `map@k` = `ap@k`, `success@k` = `hit@k`,
    /// `precision@k` = `p@k`).
    /// Every spelling a gate file accepts works here too (`ndcg_cut_10`, `P_10`, `recip_rank`,
    /// `NDCG@10`): the name is mapped to ours first (`metric_names::canonical`).
    pub fn parse(s: &str) -> Result<Metric, String> {
        let low = crate::metric_names::canonical(s).to_ascii_lowercase();
        let (base, k) = match low.split_once('@') {
            Some((b, k)) => {
                let k: usize = k.parse().ok().filter(|&k| k > 0).ok_or_else(|| {
                    format!("metric {s:?}: the cutoff after @ must be a positive integer")
                })?;
                (b.to_string(), Some(k))
            }
            None => (low.clone(), None),
        };
        let kind = match base.as_str() {
            "recall" => Kind::Recall,
            "p" | "precision" => Kind::P,
            "mrr" | "rr" => Kind::Mrr,
            "ndcg" => Kind::Ndcg,
            "ap" | "map" if k.is_some() => Kind::Ap,
            "map" => Kind::Ap,
            "rprec" => Kind::Rprec,
            "hit" | "success" => Kind::Hit,
            "complete" => Kind::Complete,
            "ann-recall" => Kind::AnnRecall,
            "judged" => Kind::Judged,
            _ => {
                let hint = crate::metric_names::did_you_mean(&base, BASES)
                    .map(|b| match k {
                        Some(k) => format!("did you mean {b}@{k}? "),
                        None => format!("did you mean {b}? "),
                    })
                    .unwrap_or_default();
                return Err(format!(
                    "unknown metric {}; {hint}known: {NAMES_HELP}",
                    crate::safe_text::quoted(s)
                ));
            }
        };
        let needs_k = matches!(
            kind,
            Kind::Recall | Kind::P | Kind::Hit | Kind::Complete | Kind::AnnRecall | Kind::Judged
        );
        if needs_k && k.is_none() {
            return Err(format!("metric {s:?} needs a cutoff, e.g. {base}@10"));
        }
        if kind == Kind::Rprec && k.is_some() || base == "ap" && k.is_none() {
            return Err(format!("metric {s:?}: use rprec (no cutoff), map or ap@k"));
        }
        Ok(Metric { kind, k })
    }

    /// Parses a comma-separated list, keeping its order and dropping repeats.
    pub fn parse_list(s: &str) -> Result<Vec<Metric>, String> {
        let mut out: Vec<Metric> = Vec::new();
        for part in s.split(',').filter(|p| !p.trim().is_empty()) {
            let m = Metric::parse(part)?;
            if !out.contains(&m) {
                out.push(m);
            }
        }
        if out.is_empty() {
            return Err(format!("no metrics given; known: {NAMES_HELP}"));
        }
        Ok(out)
    }

    /// trec_eval's measure name (ours where trec_eval has none: `recip_rank_cut_k`, `ann_recall_k`).
    pub fn trec_name(&self) -> String {
        let k = self.k.unwrap_or(0);
        match (self.kind, self.k) {
            (Kind::Recall, _) => format!("recall_{k}"),
            (Kind::P, _) => format!("P_{k}"),
            (Kind::Mrr, None) => "recip_rank".into(),
            (Kind::Mrr, Some(_)) => format!("recip_rank_cut_{k}"),
            (Kind::Ndcg, None) => "ndcg".into(),
            (Kind::Ndcg, Some(_)) => format!("ndcg_cut_{k}"),
            (Kind::Ap, None) => "map".into(),
            (Kind::Ap, Some(_)) => format!("map_cut_{k}"),
            (Kind::Rprec, _) => "Rprec".into(),
            (Kind::Hit, _) => format!("success_{k}"),
            (Kind::Complete, _) => format!("complete_{k}"),
            (Kind::AnnRecall, _) => format!("ann_recall_{k}"),
            (Kind::Judged, _) => format!("judged_{k}"),
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let base = match (self.kind, self.k) {
            (Kind::Recall, _) => "recall",
            (Kind::P, _) => "p",
            (Kind::Mrr, _) => "mrr",
            (Kind::Ndcg, _) => "ndcg",
            (Kind::Ap, None) => "map",
            (Kind::Ap, Some(_)) => "ap",
            (Kind::Rprec, _) => "rprec",
            (Kind::Hit, _) => "hit",
            (Kind::Complete, _) => "complete",
            (Kind::AnnRecall, _) => "ann-recall",
            (Kind::Judged, _) => "judged",
        };
        match self.k {
            Some(k) => write!(f, "{base}@{k}"),
            None => f.write_str(base),
        }
    }
}

/// One query, ready to score: the grades of the ranked docs (0 for unjudged), R, and the ideal
/// gains (of every judged doc with rel > 0, highest first).
pub struct Judged<'a> {
    pub rels: &'a [i32],
    pub num_rel: usize,
    pub ideal_gains: &'a [f64],
    pub rel_level: i32,
    pub exponential: bool,
}

impl Judged<'_> {
    fn is_rel(&self, i: usize) -> bool {
        self.rels[i] >= self.rel_level
    }

    /// Relevant docs in the top `k`.
    pub fn hits(&self, k: usize) -> usize {
        (0..k.min(self.rels.len()))
            .filter(|&i| self.is_rel(i))
            .count()
    }

    pub fn gain(&self, rel: i32) -> f64 {
        match (rel > 0, self.exponential) {
            (false, _) => 0.0,
            (true, false) => rel as f64,
            (true, true) => (rel as f64).exp2() - 1.0,
        }
    }

    /// The value of `m` for this query (`AnnRecall` is not a relevance metric: 0 here).
    pub fn value(&self, m: Metric) -> f64 {
        let n = self.rels.len();
        let r = self.num_rel;
        let cut = m.k.unwrap_or(n).min(n);
        if m.kind == Kind::Judged {
            let judged = self.rels[..cut].iter().filter(|&&g| g != UNJUDGED).count();
            return if cut == 0 {
                0.0
            } else {
                judged as f64 / cut as f64
            };
        }
        if r == 0 && m.kind != Kind::Ndcg {
            return 0.0;
        }
        match m.kind {
            Kind::Recall => self.hits(cut) as f64 / r as f64,
            Kind::P => self.hits(cut) as f64 / m.k.unwrap_or(1) as f64,
            Kind::Hit => f64::from(self.hits(cut) > 0),
            Kind::Complete => f64::from(self.hits(cut) == r),
            Kind::Mrr => (0..cut)
                .find(|&i| self.is_rel(i))
                .map_or(0.0, |i| 1.0 / (i + 1) as f64),
            Kind::Rprec => self.hits(r) as f64 / r as f64,
            Kind::Ap => {
                let (mut hits, mut sum) = (0usize, 0.0);
                for i in (0..cut).filter(|&i| self.is_rel(i)) {
                    hits += 1;
                    sum += hits as f64 / (i + 1) as f64;
                }
                sum / r as f64
            }
            Kind::Ndcg => {
                // Folded from +0.0: `Sum for f64` starts at -0.0, which would print as "-0".
                let dcg = (0..cut)
                    .map(|i| self.gain(self.rels[i]) / ((i + 2) as f64).log2())
                    .fold(0.0, |a, x| a + x);
                let icut =
                    m.k.unwrap_or(self.ideal_gains.len())
                        .min(self.ideal_gains.len());
                let idcg = (0..icut)
                    .map(|i| self.ideal_gains[i] / ((i + 2) as f64).log2())
                    .fold(0.0, |a, x| a + x);
                if idcg > 0.0 {
                    dcg / idcg
                } else {
                    0.0
                }
            }
            Kind::AnnRecall | Kind::Judged => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q<'a>(rels: &'a [i32], num_rel: usize, ideal: &'a [f64]) -> Judged<'a> {
        Judged {
            rels,
            num_rel,
            ideal_gains: ideal,
            rel_level: 1,
            exponential: false,
        }
    }

    fn m(s: &str) -> Metric {
        Metric::parse(s).unwrap()
    }

    #[test]
    fn names_round_trip_and_aliases() {
        for s in [
            "recall@5",
            "p@10",
            "mrr@10",
            "mrr",
            "ndcg@10",
            "ndcg",
            "ap@100",
            "map",
            "rprec",
            "hit@1",
            "ann-recall@10",
            "ann-recall@3",
            "judged@10",
        ] {
            assert_eq!(m(s).to_string(), s);
            // What `eval --format trec` writes, the readers of `check` map back to our name.
            assert_eq!(crate::metric_names::canonical(&m(s).trec_name()), s, "{s}");
        }
        assert_eq!(m("MAP@5"), m("ap@5"));
        assert_eq!(m("success@5").trec_name(), "success_5");
        assert_eq!(m("ndcg@10").trec_name(), "ndcg_cut_10");
        assert!(Metric::parse("recall")
            .unwrap_err()
            .contains("needs a cutoff"));
        assert!(Metric::parse("bleu@3")
            .unwrap_err()
            .contains("unknown metric"));
        assert!(Metric::parse("p@0").is_err());
        assert_eq!(Metric::parse_list("p@5, p@5,map").unwrap().len(), 2);
        assert_eq!(crate::metric_names::canonical("bpref"), "bpref");
        assert_eq!(crate::metric_names::canonical("P_0"), "P_0");
    }

    #[test]
    fn hand_computed_binary_query() {
        // Relevant at ranks 2 and 4, R = 3.
        let j = q(&[0, 1, 0, 1, 0], 3, &[1.0, 1.0, 1.0]);
        assert_eq!(j.value(m("recall@3")), 1.0 / 3.0);
        assert_eq!(j.value(m("p@10")), 0.2);
        assert_eq!(j.value(m("mrr")), 0.5);
        assert_eq!(j.value(m("mrr@1")), 0.0);
        assert_eq!(j.value(m("hit@2")), 1.0);
        assert_eq!(j.value(m("rprec")), 1.0 / 3.0);
        assert!((j.value(m("map")) - (0.5 + 0.5) / 3.0).abs() < 1e-15);
        assert!((j.value(m("ap@3")) - 0.5 / 3.0).abs() < 1e-15);
        let dcg = 1.0 / 3f64.log2() + 1.0 / 5f64.log2();
        let idcg = 1.0 + 1.0 / 3f64.log2() + 1.0 / 4f64.log2();
        assert!((j.value(m("ndcg")) - dcg / idcg).abs() < 1e-15);
    }

    #[test]
    fn complete_needs_every_relevant_doc_in_the_top_k() {
        // Relevant at ranks 2 and 4, R = 2 (both retrieved).
        let j = q(&[0, 1, 0, 1, 0], 2, &[1.0, 1.0]);
        assert_eq!(j.value(m("complete@3")), 0.0);
        assert_eq!(j.value(m("complete@4")), 1.0);
        assert_eq!(j.value(m("complete@100")), 1.0);
        // R = 3 with one relevant doc never retrieved: never complete.
        let j = q(&[0, 1, 0, 1, 0], 3, &[1.0, 1.0, 1.0]);
        assert_eq!(j.value(m("complete@100")), 0.0);
        assert_eq!(m("complete@5").to_string(), "complete@5");
        assert!(Metric::parse("complete")
            .unwrap_err()
            .contains("needs a cutoff"));
    }

    #[test]
    fn graded_gains_and_level() {
        let mut j = q(&[2, 0, 1], 1, &[3.0, 2.0, 1.0]);
        j.rel_level = 2;
        assert_eq!(j.value(m("recall@3")), 1.0);
        let dcg = 2.0 + 1.0 / 2.0;
        let idcg = 3.0 + 2.0 / 3f64.log2() + 1.0 / 2.0;
        assert!((j.value(m("ndcg@3")) - dcg / idcg).abs() < 1e-15);
        j.exponential = true;
        assert_eq!(j.gain(3), 7.0);
    }

    #[test]
    fn judged_counts_any_judgment_over_the_top_k() {
        // Judged non-relevant (0) and negative grades count as judged; unjudged do not.
        let j = q(&[1, UNJUDGED, 0, -1, UNJUDGED], 1, &[1.0]);
        assert_eq!(j.value(m("judged@4")), 0.75);
        // A ranking shorter than k: the share of what was ranked (ir_measures).
        assert_eq!(j.value(m("judged@10")), 0.6);
        assert_eq!(q(&[], 1, &[1.0]).value(m("judged@10")), 0.0);
        assert_eq!(j.value(m("recall@5")), 1.0);
        assert_eq!(j.value(m("p@5")), 0.2);
        // R = 0 does not change coverage.
        assert_eq!(q(&[0, UNJUDGED], 0, &[]).value(m("judged@2")), 0.5);
    }

    #[test]
    fn empty_ranking_and_no_relevant_are_zero() {
        assert_eq!(q(&[], 1, &[1.0]).value(m("recall@5")), 0.0);
        assert_eq!(q(&[], 1, &[1.0]).value(m("ndcg@5")), 0.0);
        assert_eq!(q(&[0, 0], 0, &[]).value(m("map")), 0.0);
        // Regression: an empty DCG sum was -0.0 and printed as "-0" in CSV.
        assert!(q(&[], 1, &[1.0]).value(m("ndcg@5")).is_sign_positive());
    }
}
