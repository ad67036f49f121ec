//! Renderers of `rag-gate plan` (`crate::model::plan::PlanReport`): text, Markdown, JSON.

use crate::model::plan::{PlanReport, PlanResolution, PlanRow, PlanStream};
use crate::numbers::{count, plain};
use crate::safe_text::shown;

/// Output format of `plan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanFormat {
    Text,
    Markdown,
    Json,
}

crate::choice!(PlanFormat {
    Text => "text",
    Markdown => "markdown",
    Json => "json",
});

pub fn render(r: &PlanReport, format: PlanFormat) -> String {
    match format {
        PlanFormat::Text => text(r),
        PlanFormat::Markdown => markdown(r),
        PlanFormat::Json => {
            let mut s = serde_json::to_string_pretty(r).expect("the plan always serialises");
            s.push('\n');
            s
        }
    }
}

/// "80%", "97.5%": a share with the decimals it needs.
fn percent(share: f64) -> String {
    let p = 100.0 * share;
    if (p - p.round()).abs() < 1e-9 {
        format!("{p:.0}%")
    } else {
        crate::numbers::percent(share)
    }
}

/// "320 queries" or "40 groups".
fn units(r: &PlanReport, n: usize) -> String {
    match r.unit.as_str() {
        "group" => count(n, "group", "groups"),
        _ => count(n, "query", "queries"),
    }
}

/// The rule and what it is planned for: "max-drop 0.0100", "fail-if-significant-drop 0.0000
/// (catch a drop of 0.0200)".
fn rule(row: &PlanRow) -> String {
    match row.drop {
        Some(d) => format!(
            "{} {} (catch a drop of {})",
            row.rule,
            plain(row.margin),
            plain(d)
        ),
        None => format!("{} {}", row.rule, plain(row.margin)),
    }
}

/// "needs 320 queries (interval 240–450)" or "no size: …".
fn needed(r: &PlanReport, row: &PlanRow) -> String {
    let Some(n) = row.needed else {
        return "no size can be planned".into();
    };
    let mut s = format!("needs {}", units(r, n));
    if let Some(q) = row.needed_queries {
        s.push_str(&format!(" (about {})", count(q, "query", "queries")));
    }
    match row.needed_interval {
        Some([lo, hi]) => s.push_str(&format!(", interval {lo}–{hi}")),
        None => s.push_str(", no interval (too few values to bound the variance)"),
    }
    s
}

/// Today's size and whether it is enough.
fn today(r: &PlanReport, row: &PlanRow) -> String {
    let size = row.groups.unwrap_or(row.queries);
    let verdict = match (row.needed, row.enough) {
        (None, _) => "",
        (Some(_), true) => ": enough",
        (Some(_), false) => ": short",
    };
    format!("today {}{verdict}", units(r, size))
}

/// What today's size can do, in words.
fn detectable(row: &PlanRow, power: f64) -> String {
    let p = percent(power);
    if row.moved == 0 || !(row.detectable > 0.0 && row.detectable.is_finite()) {
        return "today nothing moved between the two sides: no spread to measure what a change \
                could pass at (an identical pull request passes as untouched)"
            .into();
    }
    match row.rule.as_str() {
        "fail-if-significant-drop" => format!(
            "today it catches drops ≥ {} ({p} of the time)",
            plain(row.detectable)
        ),
        _ => format!(
            "today a change of nothing passes {p} of the time from a margin of {}",
            plain(row.detectable)
        ),
    }
}

/// The measured facts of a row: spread, moved units, design effect, discordance, p floor.
fn facts(row: &PlanRow) -> String {
    let mut parts = vec![
        format!("sd of the deltas {}", plain(row.sd)),
        format!("se {}", plain(row.se)),
        format!(
            "moved {} of {}",
            row.moved,
            row.groups.unwrap_or(row.queries)
        ),
        format!("sign-flip p floor {}", p_floor(row.p_floor)),
    ];
    if let Some(d) = row.design_effect {
        parts.push(format!("design effect {d:.2}"));
    }
    if let Some(i) = row.icc {
        parts.push(format!("ICC {i:.2}"));
    }
    if let Some(k) = row.discordant {
        let mut s = format!("{} discordant (0/1)", k);
        if let Some(n) = row.discordant_needed {
            s.push_str(&format!(", {n} needed"));
        }
        parts.push(s);
    }
    if let Some(k) = row.moved_needed {
        parts.push(format!("the sign-flip test needs ≥ {k} moved"));
    }
    parts.join(" · ")
}

/// A p floor: 4 decimals, or a power of ten below 0.0001.
fn p_floor(p: f64) -> String {
    if p >= 1e-4 {
        plain(p)
    } else {
        format!("{p:.1e}")
    }
}

fn header(r: &PlanReport) -> Vec<String> {
    vec![
        format!(
            "unit: {} · power {} · confidence {} · {} gated {} (Holm's family)",
            r.unit,
            percent(r.power),
            percent(r.confidence),
            r.family,
            if r.family == 1 {
                "comparison"
            } else {
                "comparisons"
            }
        ),
        format!("spread from {}", r.source),
    ]
}

/// The three numbers of the pull-request stream, in words (one line each).
fn stream_lines(st: &PlanStream) -> Vec<String> {
    vec![
        format!(
            "pull requests made from this pair, judged by every gate of the file ({} of each kind, {} resamples each; each share within ± {} at one Monte-Carlo standard error):",
            st.sets,
            st.resamples,
            crate::numbers::percent(mc_se(0.5, st.sets))
        ),
        format!(
            "  friction: an honest one (the sides swapped per unit, true delta 0) is blocked {} of the time",
            percent(st.friction)
        ),
        format!(
            "  amber: an honest one is inconclusive {} of the time",
            percent(st.amber)
        ),
        format!(
            "  escape: a regression at the margin (true delta −m on all) exits 0 {} of the time ({} green, {} amber)",
            percent(st.escape_green + st.escape_amber),
            percent(st.escape_green),
            percent(st.escape_amber)
        ),
    ]
}

/// The binomial Monte-Carlo standard error of a share `p` over `n` draws (at 0.5: the most).
fn mc_se(p: f64, n: usize) -> f64 {
    (p * (1.0 - p) / n.max(1) as f64).sqrt()
}

/// One resolution in words.
fn resolution_line(r: &PlanReport, res: &PlanResolution) -> String {
    let mut s = format!(
        "gate #{} {} on {}: resolution {} of {}: a change touching fewer can leave none moved",
        res.gate,
        shown(&res.metric),
        shown(&res.slice),
        crate::numbers::percent(res.share),
        units(r, res.units)
    );
    match (res.worst_cost, res.unseen_at_margin) {
        (Some(c), Some(u)) => {
            let over = if c > res.margin {
                "above the margin"
            } else {
                "within the margin"
            };
            s.push_str(&format!(
                ", at a worst cost of {} ({over} {}); a drop of the margin carried by the fewest units goes unseen {} of the time",
                plain(c),
                plain(res.margin),
                crate::numbers::percent(u)
            ));
        }
        _ => s.push_str(
            ", at a worst cost unknown for an unbounded metric (the most one unit can lose is not declared)",
        ),
    }
    s
}

fn text(r: &PlanReport) -> String {
    let mut out = vec![format!("rag-gate plan: {}", shown(&r.gate_file))];
    out.extend(header(r));
    if let Some(st) = &r.stream {
        out.push(String::new());
        out.extend(stream_lines(st));
    }
    if !r.resolutions.is_empty() {
        out.push(String::new());
        out.extend(r.resolutions.iter().map(|res| resolution_line(r, res)));
    }
    for row in &r.rows {
        out.push(String::new());
        out.push(format!(
            "gate #{} {} on {}, {}: {}; {}",
            row.gate,
            shown(&row.metric),
            shown(&row.slice),
            rule(row),
            needed(r, row),
            today(r, row)
        ));
        out.push(format!("  {}", detectable(row, r.power)));
        out.push(format!("  {}", facts(row)));
        out.extend(row.notes.iter().map(|n| format!("  note: {n}")));
    }
    if !r.not_planned.is_empty() {
        out.push(String::new());
        out.extend(r.not_planned.iter().map(|n| format!("not planned: {n}")));
    }
    if !r.warnings.is_empty() {
        out.push(String::new());
        out.extend(r.warnings.iter().map(|w| format!("warning: {w}")));
    }
    out.push(String::new());
    out.join("\n")
}

/// A Markdown table cell: pipes escaped, one line.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn markdown(r: &PlanReport) -> String {
    let mut out = vec![
        format!("## rag-gate plan: `{}`", cell(&shown(&r.gate_file))),
        String::new(),
    ];
    out.extend(header(r).into_iter().map(|h| format!("{h}  ")));
    out.push(String::new());
    if let Some(st) = &r.stream {
        out.extend(
            stream_lines(st)
                .into_iter()
                .map(|l| format!("- {}", cell(l.trim()))),
        );
        out.push(String::new());
    }
    for res in &r.resolutions {
        out.push(format!("- {}", cell(&resolution_line(r, res))));
    }
    if !r.resolutions.is_empty() {
        out.push(String::new());
    }
    out.push("| gate | metric | slice | rule | needed | today | today's reach |".into());
    out.push("|---:|---|---|---|---|---|---|".into());
    for row in &r.rows {
        out.push(format!(
            "| #{} | {} | {} | {} | {} | {} | {} |",
            row.gate,
            cell(&shown(&row.metric)),
            cell(&shown(&row.slice)),
            cell(&rule(row)),
            cell(&needed(r, row)),
            cell(&today(r, row)),
            cell(&detectable(row, r.power))
        ));
    }
    let details: Vec<String> = r
        .rows
        .iter()
        .flat_map(|row| {
            let head = format!(
                "- gate #{} {} on {}, {}: {}",
                row.gate,
                cell(&shown(&row.metric)),
                cell(&shown(&row.slice)),
                row.rule,
                facts(row)
            );
            std::iter::once(head).chain(row.notes.iter().map(|n| format!("  - note: {n}")))
        })
        .collect();
    out.push(String::new());
    out.extend(details);
    if !r.not_planned.is_empty() {
        out.push(String::new());
        out.extend(r.not_planned.iter().map(|n| format!("- not planned: {n}")));
    }
    if !r.warnings.is_empty() {
        out.push(String::new());
        out.extend(r.warnings.iter().map(|w| format!("> ⚠️ {w}")));
    }
    out.push(String::new());
    out.join("\n")
}
