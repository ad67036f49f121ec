//! Metric names: trec_eval and ir_measures spellings mapped to rag-gate's canonical names, and
//! which metrics are bounded to [0, 1] (so a value outside is an input error, not a metric).
//!
//! Canonical names are lower case with `@k` cutoffs: `ndcg@10`, `recall@5`, `p@5`, `mrr`,
//! `mrr@10`, `hit@5`, `map`, `ap@10`, `rprec`. Names we do not know (`latency_ms`) are kept as
//! written and are unbounded.

pub mod run_level; // which way is better for a run card's metric, from its name

/// Maps a metric name as written in an input file to its canonical name.
///
/// trec_eval: `ndcg_cut_10` → `ndcg@10`, `recall_5` → `recall@5`, `P_5` → `p@5`,
/// `recip_rank` → `mrr`, `success_5` → `hit@5`, `map_cut_10` → `ap@10`, `Rprec` → `rprec`.
/// ir_measures: `nDCG@10` → `ndcg@10`, `R@5` → `recall@5`, `P@5` → `p@5`, `RR` → `mrr`,
/// `RR@10` → `mrr@10`, `AP` → `map`, `AP@10` → `ap@10`, `Success@5` → `hit@5`.
pub fn canonical(name: &str) -> String {
    let name = name.trim();
    // trec_eval style: base_k
    let trec = [
        ("ndcg_cut_", "ndcg@"),
        ("recall_", "recall@"),
        ("P_", "p@"),
        ("success_", "hit@"),
        ("map_cut_", "ap@"),
        // Not trec_eval measures, but what `rag-gate eval --format trec` writes for mrr@k
        // (trec_eval's -M k has no name of its own) and ann-recall@k.
        ("recip_rank_cut_", "mrr@"),
        ("ann_recall_", "ann-recall@"),
        ("judged_", "judged@"),
    ];
    for (prefix, ours) in trec {
        if let Some(k) = name.strip_prefix(prefix) {
            if is_cutoff(k) {
                return format!("{ours}{k}");
            }
        }
    }
    match name {
        "recip_rank" => return "mrr".into(),
        "Rprec" => return "rprec".into(),
        "map" => return "map".into(),
        "ndcg" => return "ndcg".into(),
        _ => {}
    }
    // ir_measures / our own style: Base@k or Base
    let (base, cut) = match name.split_once('@') {
        Some((b, k)) if is_cutoff(k) => (b, Some(k)),
        Some(_) => return name.to_string(),
        None => (name, None),
    };
    let ours = match base.to_ascii_lowercase().as_str() {
        "ndcg" => "ndcg",
        "r" | "recall" => "recall",
        "p" | "precision" => "p",
        "rr" | "mrr" => "mrr",
        "ap" if cut.is_some() => "ap",
        "ap" | "map" => "map",
        "success" | "hit" | "hits" => "hit",
        "rprec" => "rprec",
        "judged" if cut.is_some() => "judged",
        _ => return name.to_string(),
    };
    match cut {
        Some(k) => format!("{ours}@{k}"),
        None => ours.to_string(),
    }
}

/// A cutoff is a whole number ≥ 1 (`@0` and `_0` are not cutoffs).
fn is_cutoff(k: &str) -> bool {
    !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) && k.bytes().any(|b| b != b'0')
}

/// True for metrics whose every per-query value lies in [0, 1].
pub fn is_bounded(canonical: &str) -> bool {
    let base = canonical.split('@').next().unwrap_or(canonical);
    matches!(
        base,
        "ndcg"
            | "recall"
            | "p"
            | "mrr"
            | "map"
            | "ap"
            | "hit"
            | "complete"
            | "rprec"
            | "ann-recall"
            | "judged"
    )
}

/// True when `name` is a measure trec_eval prints (used to tell trec_eval `-q` from
/// ir_measures `-q` output when the file has no telling extension).
pub fn is_trec_eval_measure(name: &str) -> bool {
    let fixed = [
        "runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "map",
        "gm_map",
        "Rprec",
        "bpref",
        "recip_rank",
        "iprec_at_recall_0.00",
        "ndcg",
        "set_P",
        "set_recall",
        "set_F",
    ];
    if fixed.contains(&name) {
        return true;
    }
    [
        "P_",
        "recall_",
        "ndcg_cut_",
        "map_cut_",
        "success_",
        "iprec_at_recall_",
        "Rprec_mult_",
        // what `rag-gate eval --format trec` writes for mrr@k and ann-recall@k
        "recip_rank_cut_",
        "ann_recall_",
        "judged_",
    ]
    .iter()
    .any(|p| name.strip_prefix(p).is_some_and(|rest| !rest.is_empty()))
}

/// The closest of `known` to `name` (case-insensitive, an edit or a swap of two neighbours
/// counting 1), if it is close enough to be a typo: at most 1 edit for names up to 4
/// characters, 2 for longer ones.
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let low = name.to_ascii_lowercase();
    let limit = if low.chars().count() <= 4 { 1 } else { 2 };
    known
        .into_iter()
        .map(|k| (edits(&low, &k.to_ascii_lowercase()), k))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Optimal-string-alignment distance (Levenshtein plus swaps of neighbours).
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// True for trec_eval / ir_measures rows that count or name things rather than measure them:
/// `num_q`, `num_ret`, `num_rel`, `num_rel_ret`, `num_nonrel_judged_ret`, `runid`, `relstring`,
/// ir_measures' `NumQ`, `NumRet`, `NumRel`, `NumRelRet`. They are never compared as metrics.
pub fn is_count(measure: &str) -> bool {
    let squashed = measure.to_ascii_lowercase().replace('_', "");
    matches!(squashed.as_str(), "runid" | "relstring")
        || ((measure.starts_with("num_") || measure.starts_with("Num"))
            && squashed.chars().all(|c| c.is_ascii_lowercase()))
}

/// The cutoff of a canonical name (`ndcg@10` → 10), None for `map`, `mrr`, `latency_ms`.
pub fn cutoff(canonical: &str) -> Option<usize> {
    let (_, k) = canonical.rsplit_once('@')?;
    k.parse().ok()
}

/// True for the metrics whose direction rag-gate knows (every IR metric it names: higher is
/// better). Any other column in a gate must say `higher-is-better`.
pub fn direction_known(canonical: &str) -> bool {
    is_bounded(canonical)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trec_eval_names_map_to_ours() {
        for (te, ours) in [
            ("ndcg_cut_10", "ndcg@10"),
            ("recall_5", "recall@5"),
            ("P_5", "p@5"),
            ("recip_rank", "mrr"),
            ("success_5", "hit@5"),
            ("map", "map"),
            ("map_cut_100", "ap@100"),
            ("Rprec", "rprec"),
        ] {
            assert_eq!(canonical(te), ours, "{te}");
        }
    }

    #[test]
    fn ir_measures_names_map_to_ours() {
        for (im, ours) in [
            ("nDCG@10", "ndcg@10"),
            ("R@5", "recall@5"),
            ("P@5", "p@5"),
            ("RR", "mrr"),
            ("RR@10", "mrr@10"),
            ("AP", "map"),
            ("AP@10", "ap@10"),
            ("Success@5", "hit@5"),
            ("MRR@5", "mrr@5"),
            ("Recall@5", "recall@5"),
        ] {
            assert_eq!(canonical(im), ours, "{im}");
        }
    }

    #[test]
    fn unknown_names_are_kept() {
        assert_eq!(canonical("latency_ms"), "latency_ms");
        assert_eq!(canonical("foo@bar"), "foo@bar");
        assert!(!is_bounded("latency_ms"));
        assert!(is_bounded("ndcg@10") && is_bounded("mrr") && is_bounded("hit@3"));
    }

    #[test]
    fn near_misses_are_suggested() {
        let known = ["ndcg", "recall", "mrr", "p"];
        assert_eq!(did_you_mean("ndgc", known), Some("ndcg"));
        assert_eq!(did_you_mean("NDCG", known), Some("ndcg"));
        assert_eq!(did_you_mean("recal", known), Some("recall"));
        assert_eq!(did_you_mean("latency", known), None);
        assert_eq!(cutoff("recall@30"), Some(30));
        assert_eq!(cutoff("map"), None);
    }

    #[test]
    fn trec_eval_measure_detection() {
        assert!(is_trec_eval_measure("ndcg_cut_10") && is_trec_eval_measure("P_5"));
        assert!(!is_trec_eval_measure("q1") && !is_trec_eval_measure("nDCG@10"));
    }
}
