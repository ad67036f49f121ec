//! The noise section of a check's report (text and Markdown): replicate counts and what each
//! crossed interval rests on, the noise file's floors, its flaky queries, the quarantine. Both
//! return an empty string when the report has none of them, so single-run reports do not change.

use std::fmt::Write;

use crate::model::{Comparison, NoiseReport, Quarantined, Report};
use crate::safe_text::shown;

/// Flaky ids shown per metric before "and N more" (the JSON report has them all).
const SHOWN: usize = 10;

/// Lines for the terminal report (each indented like the other sections), or "".
pub fn text(r: &Report) -> String {
    let mut s = String::new();
    let crossed: Vec<&Comparison> = r
        .comparisons
        .iter()
        .filter(|c| c.replicates.is_some())
        .collect();
    if !crossed.is_empty() {
        s.push_str("\nReplicates (run-to-run noise in the intervals)\n");
        for c in crossed {
            let x = c.replicates.as_ref().expect("filtered");
            let from = x.aa_runs.map_or(String::new(), |r| {
                format!(", the whole-run shift from the noise file's {r} A/A runs")
            });
            let _ = writeln!(
                s,
                "  {} on {}: {} baseline × {} candidate runs{from}; whole-run SE {:.4}, t on {} df (interval ×{:.3}); p: t test",
                shown(&c.metric), shown(&c.slice), x.baseline_runs, x.candidate_runs, x.run_se, df(x.df), x.t_stretch
            );
        }
    }
    let Some(n) = &r.noise else { return s };
    if let Some(file) = &n.noise_file {
        let _ = writeln!(
            s,
            "\nNoise floor ({file}, {} replicates): the A/A difference stays inside ±floor",
            n.noise_replicates.unwrap_or(0)
        );
        for f in &n.floors {
            let _ = writeln!(
                s,
                "  {} on {}: {:.4} (one run per side), {:.4} at this check's replicates",
                shown(&f.metric),
                shown(&f.slice),
                f.noise_floor,
                f.floor_here
            );
        }
        let mut flaky = String::new();
        flaky_lines(&mut flaky, n, |m, ids, more| {
            format!("  {}: {ids}{more}\n", shown(m))
        });
        if !flaky.is_empty() {
            let _ = write!(
                s,
                "\nFlaky queries ({file}: their value changes between runs)\n{flaky}"
            );
        }
    }
    if !n.quarantined.is_empty() {
        s.push_str("\nQuarantined (kept out of every comparison)\n");
        for q in &n.quarantined {
            let _ = writeln!(
                s,
                "  {}: {} (owner {}, until {}); delta {}",
                q.query_id,
                q.reason,
                q.owner,
                q.expires,
                deltas(q)
            );
        }
    }
    s
}

/// A Markdown block (ending in a blank line), or "".
pub fn markdown(r: &Report, escape: impl Fn(&str) -> String) -> String {
    let mut s = String::new();
    if let Some([b, c]) = r.noise.as_ref().and_then(|n| n.replicates) {
        let worst_df = r
            .comparisons
            .iter()
            .filter_map(|c| c.replicates.as_ref())
            .map(|x| x.df)
            .reduce(f64::min);
        let _ = writeln!(
            s,
            "**Replicates:** {b} baseline × {c} candidate runs; intervals carry the run-to-run noise (t on ≥ {} df).\n",
            worst_df.map_or("—".into(), df)
        );
    }
    s.push_str(&aa_line(r, &escape));
    let Some(n) = &r.noise else { return s };
    if let Some(file) = &n.noise_file {
        let low: Vec<String> = n
            .floors
            .iter()
            .map(|f| {
                format!(
                    "{} on {} {:.4}",
                    escape(&crate::safe_text::cut_marked(&f.metric)),
                    escape(&crate::safe_text::cut_marked(&f.slice)),
                    f.floor_here
                )
            })
            .collect();
        if !low.is_empty() {
            let _ = writeln!(
                s,
                "**Noise floor** ({}, {} replicates): {}\n",
                escape(file),
                n.noise_replicates.unwrap_or(0),
                low.join(" · ")
            );
        }
        let mut flaky = String::new();
        flaky_lines(&mut flaky, n, |m, ids, more| {
            format!("- {}: {}{}\n", escape(m), escape(&ids), more)
        });
        if !flaky.is_empty() {
            let _ = write!(
                s,
                "<details><summary>Flaky queries</summary>\n\n{flaky}\n</details>\n\n"
            );
        }
    }
    if !n.quarantined.is_empty() {
        s.push_str("**Quarantined** (out of every comparison):\n\n");
        for q in &n.quarantined {
            let _ = writeln!(
                s,
                "- `{}`: {} (owner {}, until {}); delta {}",
                escape(&crate::safe_text::cut_marked(&q.query_id)),
                escape(&q.reason),
                escape(&q.owner),
                q.expires,
                deltas(q)
            );
        }
        s.push('\n');
    }
    s
}

fn flaky_lines(s: &mut String, n: &NoiseReport, line: impl Fn(&str, String, String) -> String) {
    for (m, ids) in n.flaky.iter().filter(|(_, ids)| !ids.is_empty()) {
        let shown = ids
            .iter()
            .take(SHOWN)
            .map(|id| shown(id))
            .collect::<Vec<_>>()
            .join(", ");
        let more = if ids.len() > SHOWN {
            format!(" and {} more", ids.len() - SHOWN)
        } else {
            String::new()
        };
        s.push_str(&line(m, format!("{} flaky: {shown}", ids.len()), more));
    }
}

fn deltas(q: &Quarantined) -> String {
    q.deltas
        .iter()
        .map(|(m, d)| format!("{m} {d:+.4}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn df(x: f64) -> String {
    if x >= 1e9 {
        "∞".into()
    } else {
        format!("{x:.1}")
    }
}

/// "**Run-to-run noise:** one baseline run; …" when the mean intervals carry the A/A noise
/// file's whole-run shift, or "".
fn aa_line(r: &Report, escape: &impl Fn(&str) -> String) -> String {
    let mut s = String::new();
    let aa: Vec<&crate::model::ReplicateInfo> = r
        .comparisons
        .iter()
        .filter_map(|c| c.replicates.as_ref())
        .filter(|x| x.aa_runs.is_some())
        .collect();
    if let (Some(runs), Some(file)) = (
        aa.iter().filter_map(|x| x.aa_runs).min(),
        r.noise.as_ref().and_then(|n| n.noise_file.as_ref()),
    ) {
        let worst_df = aa
            .iter()
            .map(|x| x.df)
            .reduce(f64::min)
            .unwrap_or(f64::INFINITY);
        let _ = writeln!(
            s,
            "**Run-to-run noise:** one baseline run; the mean intervals carry the whole-run shift of {}'s {runs} A/A runs (t on ≥ {} df).\n",
            escape(file),
            df(worst_df)
        );
    }
    s
}
