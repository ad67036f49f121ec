//! HTML renderer (`--export-html FILE`): one self-contained page, inline CSS and SVG, no
//! script and nothing fetched from elsewhere. The verdict and its reason, a forest plot per
//! metric (`html/plot.rs`), then the gates, every comparison and the worst regressions (with
//! the rank movement of their relevant documents when the inputs were runs), the protocol and
//! the warnings. The page is well-formed XML (XHTML syntax), so tests can parse it.
//!
//! Every piece of user text goes through [`esc`]; the SVG's text nodes are escaped by the `svg`
//! crate. No timestamps: same report, same bytes.

mod plot;
mod style;

use std::fmt::Write;

use crate::model::{Comparison, GateStatus, Report, Verdict};
use crate::report::text::fmt_p;
use crate::report::words::rank_move;

use style::CSS;

/// HTML-escapes text for element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // The shared name cleaning: control, bidi and invisible characters as visible
            // escapes (`\u{1b}`), so the page stays well-formed and nothing is reordered.
            c if crate::safe_text::needs_escape(c) => out.extend(c.escape_debug()),
            c => out.push(c),
        }
    }
    out
}

/// A name (query id, slice, metric, gate id) for HTML: cut like every shown name
/// ([`crate::safe_text::cut_marked`]), then escaped.
pub fn esc_name(s: &str) -> String {
    esc(&crate::safe_text::cut_marked(s))
}

/// `+0.0123`, `−0.0310` (a real minus sign), `0.0000`.
fn signed(x: f64, digits: usize) -> String {
    let t = format!("{:.*}", digits, x.abs());
    if t.bytes().all(|b| b == b'0' || b == b'.') {
        t
    } else if x < 0.0 {
        format!("−{t}")
    } else {
        format!("+{t}")
    }
}

/// The report runs no script and loads nothing: only its own inline styles (and `data:` images)
/// are allowed, so a name from the inputs that slipped past escaping still could not run.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

pub fn render(r: &Report) -> String {
    let mut s = String::new();
    let (class, icon, word) = match r.verdict {
        Verdict::Pass => ("pass", "✅", "pass"),
        Verdict::Untouched => ("pass", "✅", "untouched"),
        Verdict::Fail => ("fail", "❌", "fail"),
        Verdict::Inconclusive => ("inconclusive", "🟠", "inconclusive"),
    };
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\"/>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\
         <title>rag-gate {word}: {}</title><style>{CSS}</style></head>\n<body><main>\n",
        esc_name(&r.gate_id)
    );
    let headline = crate::model::headline_reason(&r.headline);
    let _ = writeln!(
        s,
        "<h1 class=\"{class}\">{icon} rag-gate {word}: {}</h1>",
        esc(headline)
    );
    let failed = r.gates.iter().filter(|g| g.fails_build).count();
    let _ = writeln!(
        s,
        "<p class=\"facts\">gate <b>{}</b> · {failed} of {} gate checks failed · {} · seed {} · {} resamples · {} {}% interval · unit {}</p>",
        esc_name(&r.gate_id),
        r.gates.len(),
        esc(&super::words::paired_count(r)),
        r.seed,
        r.resamples,
        esc(&super::words::method(r)),
        (r.confidence * 1000.0).round() / 10.0,
        esc(&r.unit)
    );
    for line in super::words::resolution_lines(r) {
        let _ = writeln!(s, "<p class=\"facts\">{}</p>", esc(&line));
    }
    if let Some(b) = &r.baseline {
        let _ = writeln!(s, "<p class=\"facts\">baseline: {}</p>", esc(&b.line));
    }
    s.push_str(&super::looks::html(r, esc));
    forests(&mut s, r);
    gates(&mut s, r);
    judged(&mut s, r);
    s.push_str(&crate::report::ties::html(r, esc));
    s.push_str(&crate::report::judge::html(r, esc));
    comparisons(&mut s, r);
    s.push_str(&super::anchor::html(r, esc));
    s.push_str(&super::probe::html(r, esc));
    s.push_str(&super::efficiency::html(r, esc));
    worst(&mut s, r);
    protocol(&mut s, r);
    s.push_str("</main></body></html>\n");
    s
}

fn forests(s: &mut String, r: &Report) {
    if r.comparisons.is_empty() {
        return;
    }
    s.push_str("<section><h2>Forest plots</h2>\n<p class=\"legend\">Each row: the slice's Δ (candidate − baseline) and its interval. Solid line: zero. Dashed tick: a max-drop gate's allowed drop. <span class=\"k-gated\">●</span> gated, <span class=\"k-failing\">●</span> a gate fails.</p>\n");
    let mut start = 0;
    while start < r.comparisons.len() {
        let first = &r.comparisons[start];
        let len = r.comparisons[start..]
            .iter()
            .take_while(|c| c.metric == first.metric && c.statistic == first.statistic)
            .count();
        let cs = &r.comparisons[start..start + len];
        let _ = writeln!(
            s,
            "<h3>{}</h3>",
            name_html(&first.metric, &first.statistic, first.statistic_in_name)
        );
        let _ = writeln!(s, "{}", plot::forest(cs, &r.gates));
        start += len;
    }
    s.push_str("</section>\n");
}

/// A comparison's name: the metric as code, then its statistic when the metric is compared
/// under several ("<code>latency_ms</code> p95").
fn name_html(metric: &str, statistic: &str, statistic_in_name: bool) -> String {
    if statistic_in_name {
        format!("<code>{}</code> {}", esc_name(metric), esc(statistic))
    } else {
        format!("<code>{}</code>", esc_name(metric))
    }
}

fn gates(s: &mut String, r: &Report) {
    if r.gates.is_empty() {
        return;
    }
    s.push_str("<section><h2>Gates</h2>\n<table><thead><tr><th>#</th><th>metric</th><th>slice</th><th>rule</th><th>value</th><th>threshold</th><th>result</th><th>label</th><th>p (Holm)</th><th>why</th></tr></thead><tbody>\n");
    let on = crate::model::OnIndex::new(&r.comparisons, &r.gates);
    for g in &r.gates {
        let result = match (g.status, g.fails_build) {
            (GateStatus::Pass, _) => "pass",
            (GateStatus::Fail, _) => "fail",
            (GateStatus::TooSmall, false) => "not judged (too small)",
            (GateStatus::TooSmall, true) => "fail (not judged: too small)",
            (GateStatus::Untouched, _) => "untouched",
            (GateStatus::Inconclusive, _) => "inconclusive",
        };
        let class = if g.fails_build {
            " class=\"failing\""
        } else {
            ""
        };
        let stat = on
            .comparison_of(g)
            .map_or("mean", |k| r.comparisons[k].statistic.as_str());
        let (value, threshold) = match g.rule.as_str() {
            "min-mean" => (
                format!("{} {:.4}", esc(stat), g.value),
                format!("≥ {:.4}", g.threshold),
            ),
            "max-mean" => (
                format!("{} {:.4}", esc(stat), g.value),
                format!("≤ {:.4}", g.threshold),
            ),
            "max-loss-rate" => (
                format!("loss share {:.1}%", 100.0 * g.value),
                format!("≤ {:.1}%", 100.0 * g.threshold),
            ),
            "max-drift" => (
                format!("vs anchor: CI bound {}", signed(g.value, 4)),
                signed(g.threshold, 4),
            ),
            _ => (
                format!("CI bound {}", signed(g.value, 4)),
                signed(g.threshold, 4),
            ),
        };
        let _ = writeln!(
            s,
            "<tr{class}><td>{}</td><td>{}</td><td>{}</td><td class=\"nowrap\">{}</td><td class=\"num\">{value}</td><td class=\"num\">{threshold}</td><td>{result}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            g.gate,
            name_html(&g.metric, &g.statistic, g.statistic_in_name),
            esc_name(&g.slice),
            esc(&g.rule),
            g.label.as_str(),
            esc(&fmt_p(g.p_adjusted)),
            esc(&g.detail)
        );
    }
    s.push_str("</tbody></table></section>\n");
}

/// The judged table (runs evaluated by check): coverage, the two bounds with their intervals,
/// and each gate's decision at them.
fn judged(s: &mut String, r: &Report) {
    let rows: Vec<[String; 8]> = r
        .comparisons
        .iter()
        .filter_map(|c| super::judged_row(c, &r.gates))
        .collect();
    if rows.is_empty() {
        return;
    }
    s.push_str("<section><h2>Judged coverage</h2>\n<p>One shared judgment per unjudged (query, document): the bounds are the judgments that lower / raise the delta most.</p>\n<table><thead><tr>");
    for h in super::JUDGED_HEADS {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>\n");
    for row in rows {
        s.push_str("<tr>");
        for cell in row {
            let _ = write!(s, "<td>{}</td>", esc(&cell));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></section>\n");
}

fn comparisons(s: &mut String, r: &Report) {
    if r.comparisons.is_empty() {
        return;
    }
    s.push_str("<section><h2>Comparisons</h2>\n<table><thead><tr><th>metric</th><th>slice</th><th>n</th><th>baseline</th><th>candidate</th><th>Δ</th><th>interval</th><th>p</th><th>MDE</th><th>label</th><th>win / tie / loss</th></tr></thead><tbody>\n");
    for c in &r.comparisons {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.4}</td><td class=\"num\">{:.4}</td><td class=\"num\">{}</td><td class=\"num\">[{}, {}]</td><td class=\"num\">{}</td><td class=\"num\">{:.4}</td><td class=\"l-{}\">{}</td><td class=\"num\">{} / {} / {}</td></tr>",
            name_html(&c.metric, &c.statistic, c.statistic_in_name),
            esc_name(&c.slice),
            c.n,
            c.baseline_value,
            c.candidate_value,
            signed(c.estimate, 4),
            signed(c.ci[0], 4),
            signed(c.ci[1], 4),
            esc(&fmt_p(c.p_value)),
            c.mde,
            c.label_str(),
            c.label_str(),
            c.wins,
            c.ties,
            c.losses
        );
    }
    s.push_str("</tbody></table></section>\n");
}

fn worst(s: &mut String, r: &Report) {
    // (metric, slice) of every failing gate, once: a scan of the gates per comparison was
    // quadratic in slices.
    let failing_on: std::collections::HashSet<(&str, &str)> = r
        .gates
        .iter()
        .filter(|g| g.fails_build)
        .map(|g| (g.metric.as_str(), g.slice.as_str()))
        .collect();
    let failing = |c: &Comparison| failing_on.contains(&(c.metric.as_str(), c.slice.as_str()));
    // A metric read under two statistics has one list of regressions per slice.
    let mut seen = std::collections::BTreeSet::new();
    let with: Vec<&Comparison> = r
        .comparisons
        .iter()
        .filter(|c| (c.slice == "all" || failing(c)) && !c.worst.is_empty())
        .filter(|c| seen.insert((c.metric.as_str(), c.slice.as_str())))
        .collect();
    if with.is_empty() {
        return;
    }
    s.push_str("<section><h2>Worst regressions (all queries, and slices that fail a gate)</h2>\n");
    for c in with {
        let _ = writeln!(
            s,
            "<h3><code>{}</code> · {}</h3>\n<table><thead><tr><th>query</th><th>baseline</th><th>candidate</th><th>Δ</th><th>why: how its relevant documents moved</th></tr></thead><tbody>",
            esc_name(&c.metric),
            esc_name(&c.slice)
        );
        for q in &c.worst {
            let moves: Vec<String> = q.moves.iter().map(|m| esc(&rank_move(m))).collect();
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td class=\"num\">{:.4}</td><td class=\"num\">{:.4}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                esc_name(&q.query_id),
                q.baseline,
                q.candidate,
                signed(q.delta, 4),
                moves.join("<br/>")
            );
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str("</section>\n");
}

fn protocol(s: &mut String, r: &Report) {
    let p = &r.pairing;
    let _ = writeln!(
        s,
        "<section><h2>Protocol</h2>\n<p>Seed {} · {} resamples · {} interval at {}% · resampling unit {} · tie |Δ| ≤ {:e} · paired {} of {} baseline / {} candidate queries (missing = {}) · baseline {} · candidate {}. p: {}; p (Holm): adjusted over the gated comparisons; MDE: smallest change detectable with 80% power.</p>",
        r.seed,
        r.resamples,
        esc(&super::words::method(r)),
        (r.confidence * 1000.0).round() / 10.0,
        esc(&r.unit),
        r.tie_epsilon,
        p.paired,
        p.baseline_queries,
        p.candidate_queries,
        esc(&p.missing_policy),
        esc(&r.inputs.baseline),
        esc(&r.inputs.candidate),
        esc(&super::words::p_test(r))
    );
    if !r.warnings.is_empty() {
        s.push_str("<h3>Warnings</h3>\n<ul>\n");
        for w in &r.warnings {
            let _ = writeln!(s, "<li>{}</li>", esc(w));
        }
        s.push_str("</ul>\n");
    }
    s.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
