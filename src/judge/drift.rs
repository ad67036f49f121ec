//! `max-drift = b`: the candidate against the approved anchor, and the inherited-drift rule.
//!
//! The drift test is `max-drop`'s non-inferiority test on the pair (anchor, candidate): the
//! interval's worse bound of candidate − anchor must stay within −b (an intersection–union test
//! over the gated slices, Berger 1982, so no multiplicity adjustment; its false pass at the
//! budget's edge is `max-drop`'s, calibrated in calibration/results.txt).
//!
//! Never permanently red: a change that fails the drift test passes anyway when it is shown
//! not to add to the drift, that is when the interval of its own paired delta against the
//! baseline (candidate − baseline) has its worse bound at or above zero: `max-drop`'s
//! non-inferiority test with margin 0 (one-sided, (1 − confidence)/2 = 2.5% at the default), with
//! `max-drop`'s min-moved guard. The drift is then main's (inherited): it passes with a warning
//! naming the merges that spent the budget. A no-op (no unit moved: identical results, the
//! candidate's drift main's on every query) passes; a change that
//! truly adds any drift passes at most 2.5% of the time; a change with no effect but per-query
//! noise must show it (it passes as often as its interval's low bound lands at or above zero).
//! Otherwise it fails: `crossed` when main itself was within the budget, `added` when main had
//! spent it. docs/statistics.md ("Drift against an anchor") has the simulated rates and their
//! command. Point estimates never decide.

use crate::model::history::{DriftRow, DriftStatus, Interval, Spend};
use crate::model::{Comparison, GateResult, GateStatus};
use crate::numbers::{percent, plain, signed};
use crate::safe_text::shown;

/// The three pairs one drift row reads: candidate − anchor, baseline − anchor, candidate −
/// baseline, each with its judged `max-drop`-style result where there is one.
pub struct Pairs<'a> {
    /// The drift test on candidate − anchor (a `max-drop` result of the anchor analysis).
    pub result: &'a GateResult,
    pub candidate: &'a Comparison,
    /// The same test on baseline − anchor: did main spend the budget?
    pub main_result: Option<&'a GateResult>,
    pub main: &'a Comparison,
    /// This change's own comparison against the baseline.
    pub change: &'a Comparison,
}

fn interval(c: &Comparison) -> Interval {
    Interval {
        estimate: c.estimate,
        ci: c.ci,
    }
}

/// An interval oriented so that negative is worse.
fn worse_is_negative(i: Interval, higher_is_better: bool) -> Interval {
    if higher_is_better {
        i
    } else {
        Interval {
            estimate: -i.estimate,
            ci: [-i.ci[1], -i.ci[0]],
        }
    }
}

/// "#812 −0.0040, #820 −0.0030 (+2 more)", or "no merge recorded".
pub fn spent_words(spent: &[Spend]) -> String {
    if spent.is_empty() {
        return "no recorded merge".into();
    }
    let one = |s: &Spend| match s.pr {
        Some(pr) => format!("#{pr} {}", signed(s.delta)),
        None => format!(
            "{} {}",
            shown(s.commit.get(..7).unwrap_or(&s.commit)),
            signed(s.delta)
        ),
    };
    let mut words: Vec<String> = spent.iter().take(8).map(one).collect();
    if spent.len() > 8 {
        words.push(format!("+{} more", spent.len() - 8));
    }
    words.join(", ")
}

/// The words of a drift decision: the drift against the anchor, main's, and this change's.
struct Words {
    head: String,
    main: String,
    change: String,
}

fn words(p: &Pairs, budget: f64, anchor: &str, spent: &str, used: f64) -> Words {
    // Shown as measured (a rise of a lower-is-better metric is a positive delta), as every
    // other interval in the report.
    let [drift, main, change] = [p.candidate, p.main, p.change].map(interval);
    let ci = |i: Interval| {
        format!(
            "{} [{}, {}]",
            signed(i.estimate),
            signed(i.ci[0]),
            signed(i.ci[1])
        )
    };
    Words {
        head: format!(
            "drifted {} from anchor {anchor} (budget {})",
            ci(drift),
            plain(budget)
        ),
        main: format!(
            "spent by {spent}: main − anchor {} ({} of the budget)",
            ci(main),
            percent(used)
        ),
        change: format!("its own delta {}", ci(change)),
    }
}

/// The share of the budget main has used (0 when main is not worse than the anchor).
fn used_share(main: &Comparison, budget: f64) -> f64 {
    let drop = -worse_is_negative(interval(main), main.higher_is_better).estimate;
    if drop > 0.0 && budget > 0.0 {
        drop / budget
    } else {
        0.0
    }
}

/// The drift rule on its three tests: whether candidate − anchor passed the budget test,
/// whether main − anchor failed it (main has spent the budget: only the words depend on it),
/// and whether this change is proven not to add to the drift (the oriented lower bound of
/// candidate − baseline ≥ 0, `max-drop` at margin 0). Judged rows only (not too small).
pub fn decide(drift_passed: bool, main_spent: bool, not_adding: bool) -> DriftStatus {
    match (drift_passed, not_adding, main_spent) {
        (true, _, _) => DriftStatus::Within,
        (false, true, _) => DriftStatus::Inherited,
        (false, false, true) => DriftStatus::Added,
        (false, false, false) => DriftStatus::Crossed,
    }
}

/// Judges one gate × slice against the anchor: the gate result (rule `max-drift`), its drift
/// row, and the warning an inherited pass carries.
pub fn judge(
    p: &Pairs,
    budget: f64,
    anchor: &str,
    spent_by: Vec<Spend>,
) -> (GateResult, DriftRow, Option<String>) {
    let c = p.candidate;
    let change_lo = worse_is_negative(interval(p.change), c.higher_is_better).ci[0];
    // A change that moved no unit (untouched) leaves the candidate's drift exactly main's on
    // every query measured: inherited.
    let not_adding = change_lo >= 0.0 || p.change.untouched;
    let main_spent = p.main_result.is_some_and(|m| m.status == GateStatus::Fail);
    let used = used_share(p.main, budget);
    let w = words(p, budget, anchor, &spent_words(&spent_by), used);
    let mut r = p.result.clone();
    r.rule = "max-drift".into();
    r.decided_by = "drift budget (max-drift)".into();
    let mut warning = None;
    let status = match r.status {
        GateStatus::TooSmall | GateStatus::Inconclusive => DriftStatus::NotJudged,
        st => decide(
            matches!(st, GateStatus::Pass | GateStatus::Untouched),
            main_spent,
            not_adding,
        ),
    };
    let detail = match status {
        DriftStatus::NotJudged => format!("{}: {}", w.head, r.detail),
        DriftStatus::Within => format!("{}: the worse bound is within the budget; {}", w.head, w.main),
        DriftStatus::Added => format!(
            "{}: main had spent the budget and this change may add to the drift ({} reaches below zero); {}",
            w.head, w.change, w.main
        ),
        DriftStatus::Inherited => {
            r.status = GateStatus::Pass;
            r.passed = true;
            r.fails_build = false;
            warning = Some(format!(
                "{} on {}: main has spent the {} drift budget since anchor {anchor}: {}; this change passes because it is shown not to add to the drift ({}); review and re-anchor (`rag-gate anchor write`) or repair main",
                shown(&c.name()),
                shown(&c.slice),
                plain(budget),
                w.main,
                w.change
            ));
            format!(
                "{}: inherited — the drift is main's and this change is shown not to add to it ({} does not reach below zero); {}",
                w.head, w.change, w.main
            )
        }
        DriftStatus::Crossed => {
            format!("{}: this change crosses the budget ({}); {}", w.head, w.change, w.main)
        }
    };
    r.detail = detail;
    let row = DriftRow {
        gate: r.gate,
        metric: c.metric.clone(),
        statistic: c.statistic.clone(),
        slice: c.slice.clone(),
        higher_is_better: c.higher_is_better,
        budget,
        candidate: interval(c),
        main: interval(p.main),
        change: interval(p.change),
        used,
        status,
        spent_by,
    };
    (r, row, warning)
}

/// "ndcg@10 on all: 62% of the 0.02 budget since anchor v1.4 — #812 −0.0040, #820 −0.0030":
/// the line every report shows per drift row.
pub fn budget_line(row: &DriftRow, anchor: &str) -> String {
    let name = if row.statistic == "mean" {
        row.metric.clone()
    } else {
        format!("{} {}", row.metric, row.statistic)
    };
    format!(
        "{} on {}: {} of the {} budget since anchor {} — {}; this change {} ({})",
        shown(&name),
        shown(&row.slice),
        percent(row.used),
        plain(row.budget),
        shown(anchor),
        spent_words(&row.spent_by),
        signed(row.change.estimate),
        row.status.as_str()
    )
}
