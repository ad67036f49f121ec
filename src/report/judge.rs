//! The judge section of a check's report (text, Markdown, HTML): who the judge is, its agreement
//! with the humans (the confusion table of grades, Cohen's κ, its errors on each side's top-k
//! documents), and per gated metric × slice the human-only, judge-only and corrected deltas side
//! by side, and with `plant-key` how often it called the planted pairs relevant. Every renderer
//! returns "" when the report has no judge.

use std::fmt::Write;

use crate::model::{DeltaInterval, JudgeReport, JudgedDelta, Report};
use crate::numbers::signed;
use crate::safe_text::shown;

const DELTA_HEADS: [&str; 7] = [
    "metric on slice",
    "human only",
    "judge only",
    "corrected (PPI++)",
    "λ · labelled / unlabelled",
    "worth (human labels)",
    "judge − human (labelled)",
];

const SIDE_HEADS: [&str; 4] = [
    "side",
    "judge alone calls relevant",
    "humans alone call relevant",
    "net generosity",
];

const PLANTED_HEADS: [&str; 3] = ["planted pairs", "the judge called relevant", "no label"];

/// One row per kind of planted pair: k of n called relevant with its interval.
fn planted_rows(j: &JudgeReport) -> Vec<Vec<String>> {
    let Some(p) = &j.planted else {
        return Vec::new();
    };
    p.kinds
        .iter()
        .map(|k| {
            vec![
                match k.kind.as_str() {
                    "keyword-stuffing" => "keyword stuffing (query words in an irrelevant passage)",
                    _ => "instruction to the assessor in an irrelevant passage",
                }
                .to_string(),
                format!(
                    "{} of {} at grade ≥ {} [{:.1}%, {:.1}%]",
                    k.relevant,
                    k.labelled,
                    p.relevance_level,
                    100.0 * k.ci[0],
                    100.0 * k.ci[1]
                ),
                (k.planted - k.labelled).to_string(),
            ]
        })
        .collect()
}

fn interval(d: &Option<DeltaInterval>) -> String {
    d.map_or("—".into(), |d| {
        format!(
            "{} [{}, {}] (n={})",
            signed(d.delta),
            signed(d.ci[0]),
            signed(d.ci[1]),
            d.units
        )
    })
}

fn delta_row(d: &JudgedDelta) -> Vec<String> {
    let (corrected, weight, worth) = match (&d.corrected, &d.not_judged) {
        (Some(c), _) => (
            format!(
                "{} [{}, {}]",
                signed(c.delta),
                signed(c.ci[0]),
                signed(c.ci[1])
            ),
            format!("{:.2} · {} / {}", c.lambda, c.labelled, c.unlabelled),
            c.worth_labelled
                .map_or("—".into(), |w| format!("{w:.1} (of {})", c.labelled)),
        ),
        (None, Some(why)) => (format!("not judged: {why}"), "—".into(), "—".into()),
        (None, None) => ("—".into(), "—".into(), "—".into()),
    };
    vec![
        format!("{} on {}", shown(&d.metric), shown(&d.slice)),
        interval(&d.human),
        interval(&d.judge_only),
        corrected,
        weight,
        worth,
        interval(&d.judge_minus_human),
    ]
}

fn side_rows(j: &JudgeReport) -> Vec<Vec<String>> {
    j.agreement
        .sides
        .iter()
        .map(|s| {
            vec![
                s.side.clone(),
                format!("{} of {} top-k slots", s.judge_only_relevant, s.slots),
                format!("{} of {}", s.human_only_relevant, s.slots),
                s.net_generosity.map_or("—".into(), signed),
            ]
        })
        .collect()
}

/// The confusion table: one row per human grade, one column per judge grade.
fn confusion_rows(j: &JudgeReport) -> (Vec<String>, Vec<Vec<String>>) {
    let a = &j.agreement;
    let mut heads = vec!["human \\ judge".to_string()];
    heads.extend(a.grades.iter().map(|g| g.to_string()));
    let rows = a
        .grades
        .iter()
        .zip(&a.confusion)
        .map(|(g, row)| {
            let mut r = vec![g.to_string()];
            r.extend(row.iter().map(|n| n.to_string()));
            r
        })
        .collect();
    (heads, rows)
}

fn who(j: &JudgeReport) -> String {
    let settings: Vec<String> = j.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let a = &j.agreement;
    let k = |k: Option<f64>| k.map_or("unknown".into(), |k| format!("{k:.3}"));
    format!(
        "judge {} (prompt {}, {}{}), labels {}; rules read the {} delta; Cohen's κ with the humans on {} pairs: binary (relevant at grade ≥ {}) {}, linear-weighted on grades {}, unweighted on grades {}; {}, min-labelled {}",
        shown(&j.model),
        shown(&j.prompt_hash),
        shown(&j.date),
        if settings.is_empty() { String::new() } else { format!(", {}", settings.join(", ")) },
        shown(&j.qrels),
        j.gate_on,
        a.pairs,
        a.relevance_level,
        k(a.kappa_binary),
        k(a.kappa_linear),
        k(a.kappa),
        j.min_kappa.map_or("no κ floor (min-kappa unset)".into(), |m| format!("min-kappa {m} on the binary κ")),
        j.min_labelled
    ) + &j.sample.as_ref().map_or(String::new(), |s| format!(
        "; the labelled units were drawn by the sample {} and are weighted by 1/inclusion probability",
        shown(s)
    ))
}

/// Lines for the terminal report, or "".
pub fn text(r: &Report, table: fn(&[&str], &[Vec<String>]) -> String) -> String {
    let Some(j) = &r.judge else {
        return String::new();
    };
    // Names are cut where they are put in a cell (`shown`); a cell of rag-gate's own words is
    // only kept on one line, never cut.
    let safe = |rows: Vec<Vec<String>>| -> Vec<Vec<String>> {
        rows.into_iter()
            .map(|r| r.iter().map(|c| crate::safe_text::one_line(c)).collect())
            .collect()
    };
    let mut s = format!("\nJudge: {}\n", crate::safe_text::one_line(&who(j)));
    let rows = safe(j.deltas.iter().map(delta_row).collect());
    s.push_str(&table(&DELTA_HEADS, &rows));
    let (heads, rows) = confusion_rows(j);
    let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
    s.push_str(&table(&heads, &rows));
    s.push_str(&table(&SIDE_HEADS, &safe(side_rows(j))));
    if j.planted.is_some() {
        s.push_str(&table(&PLANTED_HEADS, &planted_rows(j)));
    }
    s
}

fn md_table(s: &mut String, heads: &[&str], rows: &[Vec<String>], escape: &dyn Fn(&str) -> String) {
    let _ = writeln!(
        s,
        "| {} |",
        heads
            .iter()
            .map(|h| escape(h))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(s, "|{}", "---|".repeat(heads.len()));
    for r in rows {
        let cells: Vec<String> = r.iter().map(|c| escape(c)).collect();
        let _ = writeln!(s, "| {} |", cells.join(" | "));
    }
    s.push('\n');
}

/// A Markdown block (ending in a blank line), or "".
pub fn markdown(r: &Report, escape: impl Fn(&str) -> String) -> String {
    let Some(j) = &r.judge else {
        return String::new();
    };
    let mut s = format!(
        "<details><summary>Judge: human-only, judge-only and corrected deltas</summary>\n\n{}\n\n",
        escape(&who(j))
    );
    let rows: Vec<Vec<String>> = j.deltas.iter().map(delta_row).collect();
    md_table(&mut s, &DELTA_HEADS, &rows, &escape);
    let (heads, rows) = confusion_rows(j);
    let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
    md_table(&mut s, &heads, &rows, &escape);
    md_table(&mut s, &SIDE_HEADS, &side_rows(j), &escape);
    if j.planted.is_some() {
        md_table(&mut s, &PLANTED_HEADS, &planted_rows(j), &escape);
    }
    s.push_str("</details>\n\n");
    s
}

fn html_table(s: &mut String, heads: &[&str], rows: &[Vec<String>], esc: fn(&str) -> String) {
    s.push_str("<table><thead><tr>");
    for h in heads {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>\n");
    for r in rows {
        s.push_str("<tr>");
        for c in r {
            let _ = write!(s, "<td>{}</td>", esc(c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
}

/// An HTML `<section>`, or "".
pub fn html(r: &Report, esc: fn(&str) -> String) -> String {
    let Some(j) = &r.judge else {
        return String::new();
    };
    let mut s = format!(
        "<section><h2>Judge</h2>\n<p class=\"facts\">{}</p>\n",
        esc(&who(j))
    );
    let rows: Vec<Vec<String>> = j.deltas.iter().map(delta_row).collect();
    html_table(&mut s, &DELTA_HEADS, &rows, esc);
    let (heads, rows) = confusion_rows(j);
    let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
    html_table(&mut s, &heads, &rows, esc);
    html_table(&mut s, &SIDE_HEADS, &side_rows(j), esc);
    if j.planted.is_some() {
        html_table(&mut s, &PLANTED_HEADS, &planted_rows(j), esc);
    }
    s.push_str("</section>\n");
    s
}
