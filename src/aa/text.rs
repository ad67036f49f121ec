//! The aa command's terminal report: the A/A verdict, then per metric × slice the spread, the
//! flaky share and the noise floor, then the flaky queries.

use super::AaReport;
use crate::noise::NoiseEntry;
use crate::report::text::{fmt_p, fmt_pct, table};

pub fn render(r: &AaReport) -> String {
    let f = &r.noise;
    let mut out = header(r);
    let ci = format!("{}% CI", fmt_pct(f.confidence));
    let rows: Vec<Vec<String>> = f.entries.iter().map(entry_row).collect();
    out.push('\n');
    out.push_str(&table(
        &[
            "metric",
            "slice",
            "n",
            &format!("run-to-run sd [{ci}]"),
            "whole-run sd",
            "jitter sd",
            "flaky",
            "noise floor",
            &format!("A/A delta [{ci}]"),
            "p (Holm)",
        ],
        &rows,
    ));
    out.push_str(&format!(
        "  noise floor: two fresh single runs of this commit differ by less than this with {}% confidence (t on {} df)\n",
        fmt_pct(f.confidence),
        f.replicates - 1
    ));
    for (m, ids) in &f.flaky_queries {
        if ids.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "\nFlaky queries ({}): {}\n",
            crate::safe_text::shown(m),
            crate::error::few(ids, 20)
        ));
    }
    out
}

/// The settings line and the A/A verdict (with a caveat when each arm is one file).
fn header(r: &AaReport) -> String {
    let f = &r.noise;
    let mut out = format!(
        "rag-gate aa: {} replicates of one commit, {} · {}% · {} resamples · seed {}\n",
        f.replicates,
        crate::numbers::count(f.queries, "query", "queries"),
        fmt_pct(f.confidence),
        f.resamples,
        f.seed
    );
    let [a, b] = r.arms;
    out.push_str(&format!(
        "A/A test: files {} against {}: {}\n",
        span(1, a),
        span(a + 1, a + b),
        if r.broken {
            "the identical arms DIFFER significantly (Holm): the instrument is broken"
        } else {
            "no significant difference"
        }
    ));
    if a < 2 && b < 2 {
        out.push_str("  (one file per arm: the test cannot tell a whole-run shift from a difference; give 3 or more files)\n");
    }
    out
}

/// One metric × slice row of the noise table.
fn entry_row(e: &NoiseEntry) -> Vec<String> {
    vec![
        e.metric.clone(),
        e.slice.clone(),
        e.n.to_string(),
        format!(
            "{:.4} [{:.4}, {:.4}]",
            e.run_sd, e.run_sd_ci[0], e.run_sd_ci[1]
        ),
        format!("{:.4}", e.shift_sd),
        format!("{:.4}", e.jitter_sd),
        format!("{} ({:.1}%)", e.flaky, 100.0 * e.flaky_share),
        format!("{:.4}", e.noise_floor),
        format!(
            "{:+.4} [{:+.4}, {:+.4}]",
            e.aa_delta, e.aa_ci[0], e.aa_ci[1]
        ),
        fmt_p(e.aa_p_adjusted),
    ]
}

fn span(first: usize, last: usize) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}–{last}")
    }
}
