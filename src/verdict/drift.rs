//! `max-drift = b`: the candidate against the approved anchor, and the inherited-drift rule.
//!
//! The drift test is `max-drop`'s non-inferiority test on the pair (anchor, candidate): the
//! interval's worse bound of candidate − anchor must stay within −b (an intersection–union test
//! over the gated slices, Berger 1982, so no multiplicity adjustment; its false pass at the
//! budget's edge is `max-drop`'s, calibrated in calibration/results.txt).
//!
//! Never permanently red: a change that fails the drift test passes anyway when it is shown
//! not to add to the drift, that is when its own paired delta against the baseline (candidate −
//! baseline) passes `max-drop` at margin 0 under the gate file's guarantee ([`not_adding`]):
//! the interval's worse bound at or above zero (one-sided (1 − confidence)/2 = 2.5% at the
//! default; under `distribution-free` that bound is at least as far out as the finite-sample
//! bound with an unseen query at the worst loss), or, under `regular` only, no query moved
//! (identical results: untouched, as `max-drop` reads them). The drift is then main's
//! (inherited): it passes with a warning naming the merges that spent the budget.
//!
//! What that gives, as `max-drop` at each guarantee: under `regular`, a change that truly adds
//! drift passes at most 2.5% of the time when it touches at least the stated resolution
//! p* = 1 − (α/2)^(1/n) of the queries; one touching fewer can leave none of them moved in the
//! sample and inherit (the resolution's blind spot, said in the inherited pass's words). Under
//! `distribution-free` nothing moved proves nothing (the bound reaches an unseen loss), so a
//! no-op on a spent main is `added`, not inherited: re-anchor or repair main. A change with no
//! effect but per-query noise must show it (it passes as often as its interval's low bound
//! lands at or above zero). Otherwise it fails: `crossed` when main itself was within the
//! budget, `added` when main had spent it. docs/statistics.md ("Drift against an anchor") has
//! the simulated rates and their command. Point estimates never decide.

use crate::config::Guarantee;
use crate::model::ledger::{DriftRow, DriftStatus, Interval, Spend};
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
    /// `[verdict] guarantee`: how the change's own test reads a sample where nothing moved.
    pub guarantee: Guarantee,
    /// `[bootstrap] confidence`: the resolution an inherited no-op states.
    pub confidence: f64,
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

/// Whether this change is shown not to add to the drift: `max-drop` at margin 0 on its own
/// delta against the baseline under `guarantee`, from the oriented lower bound of candidate −
/// baseline (`change_lo`, the guarantee's bound) and whether no query moved (`untouched`). Under
/// `regular` a change that moved nothing is untouched and adds nothing measured (a change
/// touching fewer than the resolution p* of the queries can hide there, as under `max-drop`);
/// under `distribution-free` only the bound decides, and it reaches past zero moves.
pub fn not_adding(change_lo: f64, untouched: bool, guarantee: Guarantee) -> bool {
    change_lo >= 0.0 || (untouched && guarantee == Guarantee::Regular)
}

/// The drift rule on its three tests: whether candidate − anchor passed the budget test,
/// whether main − anchor failed it (main has spent the budget: only the words depend on it),
/// and whether this change is shown not to add to the drift ([`not_adding`]). Judged rows only
/// (not too small).
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
    let not_adding = not_adding(change_lo, p.change.untouched, p.guarantee);
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
    // A candidate equal to the anchor is within the budget; the check reads untouched only when
    // this change itself moved nothing against the baseline.
    if r.status == GateStatus::Untouched && !p.change.untouched {
        r.status = GateStatus::Pass;
    }
    let detail = match status {
        DriftStatus::NotJudged => format!("{}: {}", w.head, r.detail),
        DriftStatus::Within => format!("{}: the worse bound is within the budget; {}", w.head, w.main),
        DriftStatus::Added => format!(
            "{}: main had spent the budget and this change may add to the drift ({} reaches below zero{}); {}",
            w.head,
            w.change,
            unproven_no_op(p),
            w.main
        ),
        DriftStatus::Inherited => {
            r.status = GateStatus::Pass;
            r.passed = true;
            r.fails_build = false;
            let why = inherited_why(p, &w.change);
            warning = Some(format!(
                "{} on {}: main has spent the {} drift budget since anchor {anchor}: {}; this change passes because {why}; review and re-anchor (`rag-gate anchor write`) or repair main",
                shown(&c.name()),
                shown(&c.slice),
                plain(budget),
                w.main,
            ));
            format!(
                "{}: inherited — the drift is main's and {why}; {}",
                w.head, w.main
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

/// Why an inherited change passes: its own interval does not reach below zero, or (regular
/// guarantee) it moved no query, with the resolution that leaves: "it moved no query among 30
/// (identical results: the candidate's drift is main's on every query measured); a change
/// touching fewer than 11.6% of the 30 queries can hide here, the gate's resolution".
fn inherited_why(p: &Pairs, change: &str) -> String {
    let c = p.change;
    if !(c.untouched && p.guarantee == Guarantee::Regular) {
        return format!("it is shown not to add to the drift ({change} does not reach below zero)");
    }
    let (units, one, many) = units_of(c);
    format!(
        "it moved no {one} among {} (identical results: the candidate's drift is main's on every {one} measured); a change touching fewer than {} of the {} can hide here, the gate's resolution (guarantee = \"distribution-free\" does not read an unchanged sample as proof)",
        crate::numbers::count(units, one, many),
        percent(crate::stats::ties::unseen_share(units, p.confidence)),
        crate::numbers::count(units, one, many),
    )
}

/// The units a comparison's moves are counted in, with their words.
fn units_of(c: &Comparison) -> (usize, &'static str, &'static str) {
    let units = super::moving_units(c);
    if units == c.n {
        (units, "query", "queries")
    } else {
        (units, "group", "groups")
    }
}

/// Under `distribution-free`, a change that moved nothing and so is not inherited: why.
fn unproven_no_op(p: &Pairs) -> String {
    if !(p.change.untouched && p.guarantee == Guarantee::DistributionFree) {
        return String::new();
    }
    let (units, one, many) = units_of(p.change);
    format!(
        ": it moved no {one} among {}, but under guarantee = \"distribution-free\" an unchanged sample does not show that a change adds nothing, since an unseen {one} could take the worst loss",
        crate::numbers::count(units, one, many)
    )
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
