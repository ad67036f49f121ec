//! The folded parts of the Markdown report and its footer: the worst per-query regressions
//! (one row per metric and query, with the slices it regressed on and, for runs, how its
//! relevant documents moved), the protocol, the warnings, and the one-line footer.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::text::{code, escape, fmt_pct, name, signed4};
use crate::model::{Comparison, Regression, Report};
use crate::report::text::fmt_p;
use crate::report::words::rank_move;

/// Rows per metric in the worst-regressions table.
const WORST_PER_METRIC: usize = 15;
/// Document moves shown per query.
const MOVES_PER_QUERY: usize = 4;

/// One regressed query of one metric, with every slice it was among the worst of.
struct Worst<'a> {
    q: &'a Regression,
    slices: Vec<&'a str>,
    oriented: f64,
}

/// The worst regressions of each metric, deduplicated across slices, worst first.
fn worst_by_metric(cs: &[Comparison]) -> BTreeMap<&str, Vec<Worst<'_>>> {
    let mut by: BTreeMap<&str, BTreeMap<&str, Worst<'_>>> = BTreeMap::new();
    for c in cs {
        let sign = if c.higher_is_better { 1.0 } else { -1.0 };
        let queries = by.entry(c.metric.as_str()).or_default();
        for q in &c.worst {
            let slices = &mut queries
                .entry(q.query_id.as_str())
                .or_insert_with(|| Worst {
                    q,
                    slices: Vec::new(),
                    oriented: sign * q.delta,
                })
                .slices;
            // A metric read under two statistics lists the same slice twice.
            if !slices.contains(&c.slice.as_str()) {
                slices.push(c.slice.as_str());
            }
        }
    }
    by.into_iter()
        .filter(|(_, qs)| !qs.is_empty())
        .map(|(m, qs)| {
            let mut v: Vec<Worst<'_>> = qs.into_values().collect();
            v.sort_by(|a, b| {
                a.oriented
                    .total_cmp(&b.oriented)
                    .then_with(|| a.q.query_id.cmp(&b.q.query_id))
            });
            (m, v)
        })
        .collect()
}

pub(super) fn worst(s: &mut String, cs: &[Comparison]) {
    let by = worst_by_metric(cs);
    if by.is_empty() {
        return;
    }
    let queries: usize = by.values().map(Vec::len).sum();
    let _ = writeln!(
        s,
        "<details><summary>Worst per-query regressions ({queries} quer{} in {} metric{}, \
         each once with the slices it regressed on)</summary>\n",
        if queries == 1 { "y" } else { "ies" },
        by.len(),
        if by.len() == 1 { "" } else { "s" }
    );
    for (metric, rows) in by {
        let why = rows.iter().any(|w| !w.q.moves.is_empty());
        let _ = writeln!(s, "{}\n", code(metric));
        s.push_str("| query | baseline → candidate | Δ | slices |");
        s.push_str(if why {
            " why |\n|---|---|--:|---|---|\n"
        } else {
            "\n|---|---|--:|---|\n"
        });
        for w in rows.iter().take(WORST_PER_METRIC) {
            let slices: Vec<String> = w.slices.iter().map(|s| name(s)).collect();
            let _ = write!(
                s,
                "| {} | {:.4} → {:.4} | {} | {} |",
                name(&w.q.query_id),
                w.q.baseline,
                w.q.candidate,
                signed4(w.q.delta),
                slices.join(", ")
            );
            if why {
                let mut moves: Vec<String> =
                    w.q.moves
                        .iter()
                        .take(MOVES_PER_QUERY)
                        .map(|m| escape(&rank_move(m)))
                        .collect();
                if w.q.moves.len() > MOVES_PER_QUERY {
                    moves.push(format!("{} more moves", w.q.moves.len() - MOVES_PER_QUERY));
                }
                let _ = write!(s, " {} |", moves.join("; "));
            }
            s.push('\n');
        }
        if rows.len() > WORST_PER_METRIC {
            let _ = writeln!(
                s,
                "\n_… and {} more queries._",
                rows.len() - WORST_PER_METRIC
            );
        }
        s.push('\n');
    }
    s.push_str("</details>\n\n");
}

pub(super) fn protocol(s: &mut String, r: &Report) {
    let p = &r.pairing;
    let family = r.gates.first().map_or(0, |g| g.family_size);
    s.push_str("<details><summary>Protocol</summary>\n\n");
    let _ = writeln!(
        s,
        "- seed {} · {} resamples · {} {}% interval · resampling unit: {}",
        r.seed,
        r.resamples,
        escape(&crate::report::words::method(r)),
        fmt_pct(r.confidence),
        escape(&r.unit)
    );
    let _ = writeln!(
        s,
        "- paired {} of {} baseline / {} candidate queries (missing = {})",
        p.paired,
        p.baseline_queries,
        p.candidate_queries,
        escape(&p.missing_policy)
    );
    let _ = writeln!(
        s,
        "- baseline {} · candidate {}{}",
        escape(&r.inputs.baseline),
        escape(&r.inputs.candidate),
        r.inputs
            .queries
            .as_deref()
            .map_or(String::new(), |q| format!(" · queries {}", escape(q)))
    );
    let _ = writeln!(
        s,
        "- tie: abs(Δ) ≤ {:e}; p: {}; \
         p (Holm): adjusted over the {family} gated comparisons; MDE: smallest change detectable \
         with 80% power; margin: the label's tie band (a gate's allowed drop, else the practical \
         tie); ↻: interval recomputed with 10× resamples because a bound lay within 3 \
         Monte-Carlo standard errors of a threshold (a gate decided on it says so)",
        r.tie_epsilon,
        escape(&crate::report::words::p_test(r))
    );
    let _ = writeln!(s, "- {}", crate::model::label_legend(&r.comparisons));
    if !r.gates.is_empty() {
        s.push_str("\n| # | metric | slice | rule | p | p (Holm) | decided by |\n");
        s.push_str("|--:|---|---|---|--:|--:|---|\n");
        for g in &r.gates {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} |",
                g.gate,
                super::text::name_cell(&g.metric, &g.statistic, g.statistic_in_name),
                name(&g.slice),
                escape(&g.rule),
                fmt_p(g.p_value),
                fmt_p(g.p_adjusted),
                escape(&g.decided_by)
            );
        }
    }
    s.push_str("\n</details>\n\n");
}

/// The warnings, folded; `shown` of them (the rest counted).
pub(super) fn warnings(s: &mut String, r: &Report, shown: usize) {
    if r.warnings.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "<details><summary>⚠️ Warnings ({})</summary>\n",
        r.warnings.len()
    );
    for w in r.warnings.iter().take(shown) {
        let _ = writeln!(s, "- {}", escape(w));
    }
    if r.warnings.len() > shown {
        let _ = writeln!(
            s,
            "- … and {} more warnings, left out to fit the size limit",
            r.warnings.len() - shown
        );
    }
    s.push_str("\n</details>\n\n");
}

/// Information that is not a warning (what an evaluation counted, assumed directions), folded.
pub(super) fn notes(s: &mut String, r: &Report) {
    if r.notes.is_empty() {
        return;
    }
    let _ = writeln!(s, "<details><summary>Notes ({})</summary>\n", r.notes.len());
    for n in &r.notes {
        let _ = writeln!(s, "- {}", escape(n));
    }
    s.push_str("\n</details>\n\n");
}

/// The last line, kept whatever is trimmed: how to reproduce the numbers.
pub(super) fn footer(r: &Report, link: Option<&str>) -> String {
    let mut s = format!(
        "<sub>rag-gate · seed {} · {} resamples · {} {}% interval · unit: {}",
        r.seed,
        r.resamples,
        escape(&crate::report::words::method(r)),
        fmt_pct(r.confidence),
        escape(&r.unit)
    );
    if let Some(l) = link {
        let _ = write!(s, " · [full report]({l})");
    }
    s.push_str("</sub>\n");
    s
}
