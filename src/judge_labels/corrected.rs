//! The corrected analysis as the report's comparisons carry it with `gate-on = "corrected"`: one
//! analysis per row. The delta, interval and p-value are the prediction-powered ones; the count
//! is every query the judge scored (human-labelled and judge-only); each side's mean is its own
//! prediction-powered mean at the delta's λ (so candidate − baseline is the corrected delta);
//! win/tie/loss, the moved units and the worst regressions read each query under the best
//! labels it has: the humans' where it is human-labelled, the judge's elsewhere.

use std::collections::BTreeMap;

use crate::model::{Comparison, CorrectedDelta, Regression};
use crate::pair::Paired;
use crate::resample::Settings;
use crate::slices::Slice;
use crate::stats::describe::win_tie_loss;
use crate::stats::ppi;

/// One query's values of a metric on each side, and its group (its index without groups).
#[derive(Debug, Clone, Copy)]
pub struct Val {
    pub b: f64,
    pub c: f64,
    pub g: usize,
}

impl Val {
    pub fn d(&self) -> f64 {
        self.c - self.b
    }
}

pub type ById = BTreeMap<String, Val>;

/// Per-query values of `metric` on a slice.
pub fn values_by_id(p: &Paired, slices: &[Slice], slice: &str, metric: &str) -> ById {
    let Some(s) = slices.iter().find(|s| s.name == slice) else {
        return BTreeMap::new();
    };
    let Some(m) = p.metrics.get(metric) else {
        return BTreeMap::new();
    };
    s.members
        .iter()
        .map(|&i| {
            let i = i as usize;
            let g = p.group_of[i].map_or(i, |g| g as usize);
            let v = Val {
                b: m.baseline[i],
                c: m.candidate[i],
                g,
            };
            (p.ids[i].to_string(), v)
        })
        .collect()
}

/// The judge's queries split into labelled ones (human and judge values) and unlabelled ones
/// (the judge's). With the group unit a group is labelled when each of its queries has a human
/// value; the query unit reads each query on its own, whatever groups the queries file names.
pub struct Split {
    pub labelled: Vec<(String, Val, Val)>,
    pub unlabelled: Vec<(String, Val)>,
    /// With `[judge] sample`: each labelled query's inclusion probability, in `labelled`'s order.
    pub probability: Option<Vec<f64>>,
}

impl Split {
    pub fn new(
        human: &ById,
        judge: &ById,
        grouped: bool,
        drawn: Option<&BTreeMap<String, f64>>,
    ) -> Split {
        let mut complete: BTreeMap<usize, bool> = BTreeMap::new();
        for (id, v) in judge {
            *complete.entry(v.g).or_insert(true) &= human.contains_key(id);
        }
        let mut out = Split {
            labelled: vec![],
            unlabelled: vec![],
            probability: None,
        };
        for (id, &jv) in judge {
            match human.get(id) {
                Some(&hv) if !grouped || complete[&jv.g] => out.labelled.push((id.clone(), hv, jv)),
                _ => out.unlabelled.push((id.clone(), jv)),
            }
        }
        // Validated when the sample was read: every labelled query has one (NaN would refuse).
        out.probability = drawn.map(|d| {
            out.labelled
                .iter()
                .map(|(id, _, _)| d.get(id).copied().unwrap_or(f64::NAN))
                .collect()
        });
        out
    }

    /// Human deltas, the judge's on the same queries, and their groups.
    pub fn labelled_deltas(&self) -> (Vec<f64>, Vec<f64>, Vec<usize>) {
        let y = self.labelled.iter().map(|(_, h, _)| h.d()).collect();
        let yh = self.labelled.iter().map(|(_, _, j)| j.d()).collect();
        let g = self.labelled.iter().map(|(_, _, j)| j.g).collect();
        (y, yh, g)
    }

    /// The judge's deltas on the unlabelled queries, and their groups.
    pub fn unlabelled_deltas(&self) -> (Vec<f64>, Vec<usize>) {
        let u = self.unlabelled.iter().map(|(_, j)| j.d()).collect();
        let g = self.unlabelled.iter().map(|(_, j)| j.g).collect();
        (u, g)
    }

    /// Each side's prediction-powered mean at weight λ: λ · mean(judge, unlabelled) +
    /// mean(human − λ · judge, labelled); with a sample, λ · mean(judge, every query) + the
    /// 1/π-weighted mean of human − λ · judge on the labelled ones (`stats::active_ppi`).
    fn side_means(&self, lambda: f64) -> (f64, f64) {
        if let Some(p) = &self.probability {
            let side = |pick: fn(&Val) -> f64| {
                let all: Vec<f64> = (self.labelled.iter().map(|(_, _, j)| pick(j)))
                    .chain(self.unlabelled.iter().map(|(_, j)| pick(j)))
                    .collect();
                let mean_all = all.iter().sum::<f64>() / all.len() as f64;
                let (s, w) = self
                    .labelled
                    .iter()
                    .zip(p)
                    .fold((0.0, 0.0), |(s, w), ((_, h, j), p)| {
                        (s + (pick(h) - lambda * pick(j)) / p, w + 1.0 / p)
                    });
                lambda * mean_all + s / w
            };
            return (side(|v| v.b), side(|v| v.c));
        }
        let side = |pick: fn(&Val) -> f64| {
            let n = self.labelled.len() as f64;
            let big_n = self.unlabelled.len() as f64;
            let imputed: f64 = self.unlabelled.iter().map(|(_, j)| pick(j)).sum::<f64>() / big_n;
            let rect: f64 = self
                .labelled
                .iter()
                .map(|(_, h, j)| pick(h) - lambda * pick(j))
                .sum::<f64>()
                / n;
            lambda * imputed + rect
        };
        (side(|v| v.b), side(|v| v.c))
    }

    /// Every query under the best labels it has: (id, value) with the humans' values where
    /// labelled, the judge's elsewhere, in id order.
    fn best(&self) -> Vec<(&str, Val)> {
        let mut v: Vec<(&str, Val)> = self
            .labelled
            .iter()
            .map(|(id, h, _)| (id.as_str(), *h))
            .chain(self.unlabelled.iter().map(|(id, j)| (id.as_str(), *j)))
            .collect();
        v.sort_by(|a, b| a.0.cmp(b.0));
        v
    }
}

/// A comparison as the corrected analysis sees it (module header).
pub fn carry(
    g: &mut Comparison,
    corr: &CorrectedDelta,
    split: &Split,
    s: &Settings,
    grouped: bool,
) {
    let best = split.best();
    let sign = if g.higher_is_better { 1.0 } else { -1.0 };
    let oriented: Vec<f64> = best.iter().map(|(_, v)| sign * v.d()).collect();
    let wtl = win_tie_loss(&oriented, s.tie_epsilon);
    let practical = win_tie_loss(&oriented, s.practical_tie.max(s.tie_epsilon));
    let (bm, cm) = split.side_means(corr.lambda);
    g.n = best.len();
    g.baseline_mean = bm;
    g.candidate_mean = cm;
    g.baseline_value = bm;
    g.candidate_value = cm;
    g.delta = corr.delta;
    g.estimate = corr.delta;
    g.ci = corr.ci;
    g.ci_mc_se = [0.0, 0.0];
    g.mc_rerun = false;
    g.p_value = ppi::p_value(corr.delta, corr.se);
    g.p_floor = 0.0;
    g.se = corr.se;
    g.df = corr.labelled.saturating_sub(1) as f64;
    g.mde = crate::stats::power::mde(g.se, g.df, s.confidence, crate::stats::power::POWER);
    (g.wins, g.ties, g.losses) = (wtl.wins, wtl.ties, wtl.losses);
    (g.practical_wins, g.practical_ties, g.practical_losses) =
        (practical.wins, practical.ties, practical.losses);
    let units = corr.labelled + corr.unlabelled;
    if g.groups.is_some() {
        g.groups = Some(if grouped {
            units
        } else {
            best.iter()
                .map(|(_, v)| v.g)
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        });
    }
    if g.effective_groups.is_some() {
        g.effective_groups = Some(units as f64);
    }
    g.moved = moved(&best, &oriented, grouped, s.tie_epsilon);
    g.worst = worst(&best, &oriented, s.worst, s.tie_epsilon);
}

/// Queries beyond the tie (or, with the group unit, the groups holding one).
fn moved(best: &[(&str, Val)], oriented: &[f64], grouped: bool, eps: f64) -> usize {
    let beyond = best.iter().zip(oriented).filter(|(_, o)| o.abs() > eps);
    match grouped {
        false => beyond.count(),
        true => beyond
            .map(|((_, v), _)| v.g)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
    }
}

/// The `keep` worst losses beyond the tie, worst first (ties by query id).
fn worst(best: &[(&str, Val)], oriented: &[f64], keep: usize, eps: f64) -> Vec<Regression> {
    let mut losses: Vec<(&str, Val, f64)> = best
        .iter()
        .zip(oriented)
        .filter(|(_, &o)| o < -eps)
        .map(|(&(id, v), &o)| (id, v, o))
        .collect();
    losses.sort_by(|a, b| a.2.total_cmp(&b.2).then_with(|| a.0.cmp(b.0)));
    losses
        .into_iter()
        .take(keep)
        .map(|(id, v, _)| Regression {
            query_id: id.to_string(),
            baseline: v.b,
            candidate: v.c,
            delta: v.d(),
            moves: Vec::new(),
        })
        .collect()
}
