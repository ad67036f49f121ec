//! Whether each side's retrieved documents meet the qrels at the gated cutoffs, from the
//! judged@k columns (a run's evaluation, or a metric file that carries them). A side whose
//! judged@k is 0 on every paired query has nothing judged in any gated top k: every gated
//! metric is 0 there and a gate on it would compare nothing, so it is an input error (exit 2)
//! naming the file. A side with far less judged than the other (its mean judged@k below half
//! the other's and below [`LOW_SHARE`], or a fifth of the queries with nothing judged in its top
//! k where the other's has some) gets a warning naming both shares and those queries: the usual
//! cause is doc ids written another way for part of the run.

use std::collections::BTreeMap;

use crate::error::{few, Error, Result};
use crate::load::MetricTable;

/// One side's judged@k by query id.
type Judged<'a> = [(&'a str, f64)];

/// A side's mean judged@k below this (and below half the other side's) gets a warning.
pub const LOW_SHARE: f64 = 0.5;

/// The judged@k values of `t` over `ids` (rows without a value left out).
fn values<'a>(
    t: &'a MetricTable,
    col: &str,
    ids: &crate::load::IdColumn,
) -> Option<Vec<(&'a str, f64)>> {
    let column = t.metrics.get(col)?;
    let wanted: std::collections::BTreeSet<&str> = ids.iter().collect();
    Some(
        t.rows
            .ids()
            .iter()
            .zip(column.iter())
            .filter(|(id, _)| wanted.contains(id))
            .filter_map(|(id, v)| Some((id, v?)))
            .collect(),
    )
}

fn mean(v: &[(&str, f64)]) -> f64 {
    v.iter().map(|(_, x)| x).sum::<f64>() / v.len().max(1) as f64
}

/// [`check`] at the gate file's gated cutoffs.
pub fn for_gates(
    cfg: &crate::config::Config,
    sides: [(&str, &MetricTable); 2],
    ids: &crate::load::IdColumn,
) -> Result<Vec<String>> {
    let mut ks: Vec<usize> = super::gated(cfg).values().flatten().copied().collect();
    ks.sort_unstable();
    ks.dedup();
    check(sides, &ks, ids)
}

/// The error for a side with nothing judged in any gated top k, or the warnings for a side
/// with much less judged than the other. `ks` are the gated cutoffs; `ids` the paired queries.
pub fn check(
    sides: [(&str, &MetricTable); 2],
    ks: &[usize],
    ids: &crate::load::IdColumn,
) -> Result<Vec<String>> {
    let mut warnings = Vec::new();
    for k in ks {
        let col = format!("judged@{k}");
        let got: Vec<Option<Vec<(&str, f64)>>> =
            sides.iter().map(|(_, t)| values(t, &col, ids)).collect();
        for ((side, t), v) in sides.iter().zip(&got) {
            match v {
                Some(v) if !v.is_empty() && v.iter().all(|(_, x)| *x == 0.0) => {
                    return Err(Error::input(
                        &t.source,
                        0,
                        format!(
                            "the {side}'s {col} is 0 on every one of the {} paired queries: no document in any top {k} is in the qrels, so every gated metric is 0 and a gate would compare nothing; the usual cause is doc ids written another way than the qrels' (a prefix such as \"msmarco_passage_\", case, zero padding): `rag-gate eval` on the run names the ids",
                            v.len()
                        ),
                    ));
                }
                _ => {}
            }
        }
        if let [Some(b), Some(c)] = &got[..] {
            warnings.extend(low_side(sides, (b, c), &col));
        }
    }
    Ok(warnings)
}

/// The queries with nothing judged in `lv` where `hv` has some.
fn nothing_judged<'a>(lv: &[(&'a str, f64)], hv: &[(&str, f64)]) -> Vec<&'a str> {
    let other: BTreeMap<&str, f64> = hv.iter().copied().collect();
    lv.iter()
        .filter(|(q, x)| *x == 0.0 && other.get(q).is_some_and(|&o| o > 0.0))
        .map(|(q, _)| *q)
        .collect()
}

/// The warning for the side with far less judged than the other: its mean judged@k below half
/// the other's and below [`LOW_SHARE`], or at least a fifth of the queries (and 3) with nothing
/// judged in its top k where the other's has some, more than twice as many as the other way.
fn low_side(
    sides: [(&str, &MetricTable); 2],
    (b, c): (&Judged, &Judged),
    col: &str,
) -> Option<String> {
    let (only_b, only_c) = (nothing_judged(b, c), nothing_judged(c, b));
    let (mb, mc) = (mean(b), mean(c));
    let low = match (only_b.len() > only_c.len(), only_c.len() > only_b.len()) {
        (true, _) => 0,
        (_, true) => 1,
        _ => usize::from(mc < mb),
    };
    let (lm, hm) = [(mb, mc), (mc, mb)][low];
    let (lonely, other) = [(&only_b, &only_c), (&only_c, &only_b)][low];
    let n = [b, c][low].len();
    let by_mean = lm < LOW_SHARE && lm < hm / 2.0;
    let by_queries = lonely.len() >= 3 && lonely.len() * 5 >= n && lonely.len() > 2 * other.len();
    if !(by_mean || by_queries) {
        return None;
    }
    let high = 1 - low;
    Some(format!(
        "the {}'s {col} is {lm:.3} against the {}'s {hm:.3} ({}): {} of {n} queries have nothing judged in the {}'s top k where the {}'s has some ({}); if its doc ids are written another way for part of the run, its figures are not comparable",
        sides[low].0,
        sides[high].0,
        sides[low].1.source,
        lonely.len(),
        sides[low].0,
        sides[high].0,
        few(lonely, 3),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(source: &str, judged: &[f64]) -> MetricTable {
        let mut rows = crate::load::Rows::default();
        for i in 0..judged.len() {
            rows.push(&format!("q{i}"), i + 1, None, Default::default());
        }
        MetricTable {
            source: source.into(),
            rows,
            metrics: [(
                "judged@10".to_string(),
                judged.iter().map(|&x| Some(x)).collect(),
            )]
            .into(),
            rounded_to: None,
        }
    }

    fn ids(n: usize) -> crate::load::IdColumn {
        (0..n).map(|i| format!("q{i}")).collect()
    }

    #[test]
    fn nothing_judged_on_one_side_is_an_error_naming_its_file() {
        let (b, c) = (table("b.jsonl", &[0.9, 0.8]), table("c.jsonl", &[0.0, 0.0]));
        let e = check([("baseline", &b), ("candidate", &c)], &[10], &ids(2)).unwrap_err();
        let e = e.to_string();
        assert!(e.contains("c.jsonl"), "{e}");
        assert!(
            e.contains("the candidate's judged@10 is 0 on every one of the 2 paired queries"),
            "{e}"
        );
    }

    #[test]
    fn a_side_with_much_less_judged_is_warned_about_with_the_queries() {
        let (b, c) = (
            table("b", &[0.9, 0.8, 0.7, 0.9]),
            table("c", &[0.0, 0.0, 0.7, 0.0]),
        );
        let w = check([("baseline", &b), ("candidate", &c)], &[10], &ids(4)).unwrap();
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].contains("the candidate's judged@10 is 0.175 against the baseline's 0.825"),
            "{w:?}"
        );
        assert!(w[0].contains("3 of 4 queries have nothing judged"), "{w:?}");
        assert!(w[0].contains("\"q0\", \"q1\", \"q3\""), "{w:?}");
        // Both low alike, or one side lower but not by half: no warning.
        let c = table("c", &[0.6, 0.5, 0.7, 0.5]);
        assert!(check([("baseline", &b), ("candidate", &c)], &[10], &ids(4))
            .unwrap()
            .is_empty());
        // A fifth of the queries with nothing judged on one side only, the means close enough.
        let b = table("b", &[0.5; 10]);
        let c = table("c", &[0.0, 0.0, 0.0, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9]);
        let w = check([("baseline", &b), ("candidate", &c)], &[10], &ids(10)).unwrap();
        assert!(
            w[0].contains("3 of 10 queries have nothing judged in the candidate's top k"),
            "{w:?}"
        );
        let c = table("c", &[0.4; 10]);
        assert!(check([("baseline", &b), ("candidate", &c)], &[10], &ids(4))
            .unwrap()
            .is_empty());
        // A column one side lacks, or no gated cutoff: nothing to say.
        assert!(check([("baseline", &b), ("candidate", &c)], &[5], &ids(4))
            .unwrap()
            .is_empty());
    }
}
