//! A judge's agreement with the human labels, beside the judged-coverage code: on the (query,
//! document) pairs both graded, the confusion table of grades and Cohen's κ (Cohen 1960,
//! "A coefficient of agreement for nominal scales") three ways: binary at the relevance level
//! (relevant or not, what a binary metric reads), linear-weighted on the grades (Cohen 1968,
//! "Weighted kappa": a judge one grade off is partly right; weights |i − j| over the grades'
//! positions, as scikit-learn's `cohen_kappa_score(weights="linear")`) and unweighted on the
//! grades (every disagreement alike); per side how the judge errs on the
//! documents that side ranked in its top k (does it call the candidate's documents relevant
//! where the humans did not, more than the baseline's?). Pure: counts in, counts out.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{Agreement, SideAgreement};

/// Grades by query id, then by document id.
pub type Grades = BTreeMap<String, BTreeMap<String, i32>>;

/// The confusion table and the three κ of the pairs both `human` and `judge` graded, binary at
/// relevance `level`; `sides` empty.
pub fn agreement(human: &Grades, judge: &Grades, level: i32) -> Agreement {
    let mut pairs: Vec<(i32, i32)> = Vec::new();
    for (q, docs) in human {
        let Some(j) = judge.get(q) else { continue };
        for (d, &h) in docs {
            if let Some(&g) = j.get(d) {
                pairs.push((h, g));
            }
        }
    }
    let grades: Vec<i32> = pairs
        .iter()
        .flat_map(|&(h, j)| [h, j])
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let at = |g: i32| grades.binary_search(&g).expect("a grade seen");
    let mut confusion = vec![vec![0usize; grades.len()]; grades.len()];
    let mut binary = vec![vec![0usize; 2]; 2];
    for &(h, j) in &pairs {
        confusion[at(h)][at(j)] += 1;
        binary[usize::from(h >= level)][usize::from(j >= level)] += 1;
    }
    Agreement {
        pairs: pairs.len(),
        relevance_level: level,
        kappa_binary: kappa(&binary),
        kappa_linear: weighted_kappa(&confusion),
        kappa: kappa(&confusion),
        grades,
        confusion,
        sides: Vec::new(),
    }
}

/// Linear-weighted κ = 1 − Σ w_ij O_ij / Σ w_ij E_ij with w_ij = |i − j| (positions in the
/// table) and E the table expected by chance from its margins; None with no pair or no
/// disagreement possible by chance.
pub fn weighted_kappa(confusion: &[Vec<usize>]) -> Option<f64> {
    let n: usize = confusion.iter().flatten().sum();
    if n == 0 {
        return None;
    }
    let k = confusion.len();
    let row: Vec<f64> = confusion
        .iter()
        .map(|r| r.iter().sum::<usize>() as f64)
        .collect();
    let col: Vec<f64> = (0..k)
        .map(|j| confusion.iter().map(|r| r[j]).sum::<usize>() as f64)
        .collect();
    let (mut observed, mut chance) = (0.0, 0.0);
    for i in 0..k {
        for j in 0..k {
            let w = i.abs_diff(j) as f64;
            observed += w * confusion[i][j] as f64;
            chance += w * row[i] * col[j] / n as f64;
        }
    }
    (chance > 0.0).then(|| 1.0 - observed / chance)
}

/// Cohen's κ = (p_o − p_e) / (1 − p_e) of a square confusion table; None with no pair or when
/// chance agreement is 1 (one grade only).
pub fn kappa(confusion: &[Vec<usize>]) -> Option<f64> {
    let n: usize = confusion.iter().flatten().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let observed = (0..confusion.len()).map(|i| confusion[i][i]).sum::<usize>() as f64 / n;
    let chance: f64 = (0..confusion.len())
        .map(|i| {
            let row: usize = confusion[i].iter().sum();
            let col: usize = confusion.iter().map(|r| r[i]).sum();
            (row as f64 / n) * (col as f64 / n)
        })
        .sum();
    (chance < 1.0).then(|| (observed - chance) / (1.0 - chance))
}

/// One side's errors on its top-k documents graded by both: `judge_relevant` and
/// `human_relevant` are the (query, document) pairs of the side's top k relevant to the judge and
/// to the humans (at `level`), on the queries both graded; `slots` is k × those queries.
pub fn side(
    name: &str,
    (human, judge): (&Grades, &Grades),
    judge_relevant: &[(String, String)],
    human_relevant: &[(String, String)],
    level: i32,
    slots: usize,
) -> SideAgreement {
    let grade = |g: &Grades, q: &str, d: &str| g.get(q).and_then(|m| m.get(d)).copied();
    let judge_only = judge_relevant
        .iter()
        .filter(|(q, d)| grade(human, q, d).is_some_and(|h| h < level))
        .count();
    let human_only = human_relevant
        .iter()
        .filter(|(q, d)| grade(judge, q, d).is_some_and(|j| j < level))
        .count();
    let n = slots;
    SideAgreement {
        side: name.to_string(),
        slots,
        judge_only_relevant: judge_only,
        human_only_relevant: human_only,
        net_generosity: (n > 0).then(|| (judge_only as f64 - human_only as f64) / n as f64),
    }
}

/// A warning when the judge is more generous to one side's documents than to the other's: the
/// shares of each side's documents it alone calls relevant differ by a two-proportion z beyond
/// 1.96 and by at least 5 points.
pub fn favour_warning(sides: &[SideAgreement], k: usize) -> Option<String> {
    let [b, c] = sides else { return None };
    let (nb, nc) = (b.slots as f64, c.slots as f64);
    if nb == 0.0 || nc == 0.0 {
        return None;
    }
    let (pb, pc) = (
        b.judge_only_relevant as f64 / nb,
        c.judge_only_relevant as f64 / nc,
    );
    let pooled = (b.judge_only_relevant + c.judge_only_relevant) as f64 / (nb + nc);
    let se = (pooled * (1.0 - pooled) * (1.0 / nb + 1.0 / nc)).sqrt();
    if se == 0.0 || ((pc - pb) / se).abs() < 1.96 || (pc - pb).abs() < 0.05 {
        return None;
    }
    let (fav, other) = if pc > pb { (c, b) } else { (b, c) };
    let share = |s: &SideAgreement| s.judge_only_relevant as f64 / s.slots as f64;
    Some(format!(
        "the judge favours the {}: of the {}'s top-{k} documents on the queries humans and judge graded, it alone calls {} of {} top-{k} slots relevant ({:.0}%), against {} of {} of the {}'s ({:.0}%); its judge-only delta leans towards the {}",
        fav.side,
        fav.side,
        fav.judge_only_relevant,
        fav.slots,
        100.0 * share(fav),
        other.judge_only_relevant,
        other.slots,
        other.side,
        100.0 * share(other),
        fav.side
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grades(rows: &[(&str, &str, i32)]) -> Grades {
        let mut g = Grades::new();
        for &(q, d, r) in rows {
            g.entry(q.into()).or_default().insert(d.into(), r);
        }
        g
    }

    #[test]
    fn kappa_of_a_worked_table() {
        // Cohen's example shape: 20 + 15 agree of 50; p_o = 0.7, p_e = 0.5·0.6 + 0.5·0.4 = 0.5.
        let k = kappa(&[vec![20, 5], vec![10, 15]]).unwrap();
        assert!((k - 0.4).abs() < 1e-12, "{k}");
        // With two grades every disagreement is one step: the weighted κ is the unweighted one.
        let w = weighted_kappa(&[vec![20, 5], vec![10, 15]]).unwrap();
        assert!((w - 0.4).abs() < 1e-12, "{w}");
        assert_eq!(kappa(&[vec![3]]), None);
        assert_eq!(kappa(&[]), None);
    }

    #[test]
    fn confusion_counts_only_pairs_both_graded() {
        let h = grades(&[("1", "a", 1), ("1", "b", 0), ("2", "c", 2)]);
        let j = grades(&[("1", "a", 1), ("1", "b", 1), ("1", "z", 0), ("3", "c", 2)]);
        let a = agreement(&h, &j, 1);
        assert_eq!(a.pairs, 2);
        assert_eq!(a.grades, [0, 1]);
        assert_eq!(a.confusion, [vec![0, 1], vec![0, 1]]);
        // Relevant at grade ≥ 1: (0, 1) disagrees, (1, 1) agrees; chance agreement 1/2.
        assert_eq!(a.kappa_binary, Some(0.0));
    }

    #[test]
    fn a_judge_generous_to_the_candidate_is_named() {
        let mut h = Vec::new();
        let mut j = Vec::new();
        let (mut cand, mut base) = (Vec::new(), Vec::new());
        for i in 0..100 {
            let d = format!("d{i}");
            h.push(("q", d.clone(), 0));
            // The judge calls 40 of the candidate's 50 relevant, 5 of the baseline's 50.
            let generous = if i < 50 { i < 40 } else { i < 55 };
            j.push(("q", d.clone(), i32::from(generous)));
            if generous {
                let to = if i < 50 { &mut cand } else { &mut base };
                to.push(("q".to_string(), d.clone()));
            }
        }
        let owned = |v: &Vec<(&str, String, i32)>| {
            let mut g = Grades::new();
            for (q, d, r) in v {
                g.entry(q.to_string()).or_default().insert(d.clone(), *r);
            }
            g
        };
        let (hg, jg) = (owned(&h), owned(&j));
        let sides = vec![
            side("baseline", (&hg, &jg), &base, &[], 1, 50),
            side("candidate", (&hg, &jg), &cand, &[], 1, 50),
        ];
        assert_eq!(sides[1].judge_only_relevant, 40);
        let w = favour_warning(&sides, 10).unwrap();
        assert!(w.starts_with("the judge favours the candidate"), "{w}");
        assert!(favour_warning(&[sides[1].clone(), sides[1].clone()], 10).is_none());
    }
}
