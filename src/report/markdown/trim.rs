//! Trimming by importance, never by position: when the report does not fit, the per-query
//! detail and the forest plot go first, then comparison rows (least important first: the rest,
//! then changed rows, then gated ones; rows of a failed gate stay), then warnings, then changed
//! rows, then gated rows that passed. Failed gates and the footer always stay.

use std::collections::BTreeMap;

use crate::model::{Comparison, Label, Report};

/// What a rendering shows. `full` shows everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Detail {
    pub per_query: bool,
    pub forest: bool,
    /// Rows of the all-comparisons table, by importance.
    pub all_rows: usize,
    pub warnings: usize,
    pub changed_rows: usize,
    /// Gated rows that did not fail (failed ones are always shown).
    pub other_gated: usize,
}

impl Detail {
    pub fn full(r: &Report) -> Detail {
        Detail {
            per_query: true,
            forest: true,
            all_rows: r.comparisons.len(),
            warnings: r.warnings.len(),
            changed_rows: r.comparisons.len(),
            other_gated: r.gates.len(),
        }
    }

    pub fn is_full(&self, r: &Report) -> bool {
        *self == Detail::full(r)
    }

    /// The next smaller rendering, or None when nothing more can go.
    pub fn smaller(mut self) -> Option<Detail> {
        let halve = |n: &mut usize| {
            if *n == 0 {
                false
            } else {
                *n /= 2;
                true
            }
        };
        if self.per_query {
            self.per_query = false;
        } else if self.forest {
            self.forest = false;
        } else if !(halve(&mut self.all_rows)
            || halve(&mut self.warnings)
            || halve(&mut self.changed_rows)
            || halve(&mut self.other_gated))
        {
            return None;
        }
        Some(self)
    }
}

/// Importance of each comparison: 0 a failed gate is on it, 1 gated, 2 changed beyond its
/// margin, 3 the rest. Computed once per report.
pub(super) struct Ranks(Vec<u8>);

impl Ranks {
    pub fn new(r: &Report) -> Ranks {
        let mut gated: BTreeMap<(&str, &str, &str), bool> = BTreeMap::new();
        for g in &r.gates {
            let failed = gated
                .entry((g.metric.as_str(), g.statistic.as_str(), g.slice.as_str()))
                .or_default();
            *failed |= g.fails_build;
        }
        let rank = |c: &Comparison| match gated.get(&(
            c.metric.as_str(),
            c.statistic.as_str(),
            c.slice.as_str(),
        )) {
            Some(true) => 0,
            Some(false) => 1,
            None if changed(c.label) => 2,
            None => 3,
        };
        Ranks(r.comparisons.iter().map(rank).collect())
    }
}

pub(super) fn changed(l: Option<Label>) -> bool {
    matches!(l, Some(Label::Worse | Label::Better))
}

/// Keeps the `keep` most important of `items` (ties by position) and returns them in position
/// order.
fn keep_most_important(mut items: Vec<(u8, usize)>, keep: usize) -> Vec<usize> {
    items.sort();
    items.truncate(keep);
    let mut v: Vec<usize> = items.into_iter().map(|(_, i)| i).collect();
    v.sort_unstable();
    v
}

/// Indices of the comparisons the all-comparisons table shows.
pub(super) fn all_rows(ranks: &Ranks, keep: usize) -> Vec<usize> {
    let items = ranks.0.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    keep_most_important(items, keep)
}

/// Indices of the changed comparisons shown (worse before better), and how many changed.
pub(super) fn changed_rows(r: &Report, ranks: &Ranks, keep: usize) -> (Vec<usize>, usize) {
    let items: Vec<(u8, usize)> = (0..r.comparisons.len())
        .filter(|&i| changed(r.comparisons[i].label))
        .map(|i| {
            let worse = r.comparisons[i].label == Some(Label::Worse);
            (ranks.0[i] + if worse { 0 } else { 4 }, i)
        })
        .collect();
    let total = items.len();
    let mut kept = keep_most_important(items, keep);
    // Worse before better, each in report order.
    kept.sort_by_key(|&i| (r.comparisons[i].label != Some(Label::Worse), i));
    (kept, total)
}

/// Indices of the gated rows shown: every failed one, and `others` of the rest (those on
/// changed comparisons first).
pub(super) fn gated_rows(r: &Report, others: usize) -> Vec<usize> {
    let failed = r.gates.iter().filter(|g| g.fails_build).count();
    let items = (0..r.gates.len())
        .map(|i| {
            let g = &r.gates[i];
            let rank = if g.fails_build {
                0
            } else if changed(Some(g.label)) {
                1
            } else {
                2
            };
            (rank, i)
        })
        .collect();
    keep_most_important(items, failed + others)
}
