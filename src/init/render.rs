//! The gate file `init` writes, and the lines on stderr that say what it guessed.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{Design, Groups};
use crate::config::{
    DEFAULT_CONFIDENCE, DEFAULT_MIN_GROUPS, DEFAULT_MIN_MOVED, DEFAULT_MIN_QUERIES,
    DEFAULT_PRACTICAL_TIE, DEFAULT_SEED,
};
use crate::model::Comparison;

/// A TOML string (quoted and escaped).
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// `x` rounded up to two significant digits, as written: 0.03771 → "0.038".
pub(crate) fn round_up(x: f64) -> String {
    let digits = (1 - x.log10().floor() as i32).max(0);
    let scale = 10f64.powi(digits);
    format!("{:.*}", digits as usize, (x * scale - 1e-9).ceil() / scale)
}

/// The comparisons on `all`, one per metric.
fn overall(d: &Design) -> impl Iterator<Item = &Comparison> {
    d.report.comparisons.iter().filter(|c| c.slice == "all")
}

/// Why a slice cannot be judged by `check`'s defaults, or None when it can.
fn too_small(c: &Comparison) -> Option<String> {
    if c.n < DEFAULT_MIN_QUERIES {
        return Some(format!(
            "{}: below min-queries = {DEFAULT_MIN_QUERIES}, a gate there is not judged",
            crate::numbers::count(c.n, "query", "queries")
        ));
    }
    let groups = c.effective_groups?;
    (groups < DEFAULT_MIN_GROUPS as f64).then(|| {
        format!("{groups:.1} effective groups: below min-groups = {DEFAULT_MIN_GROUPS}, a gate there is not judged")
    })
}

/// The critical slices: every slice of a reported tag that `check` can judge.
fn critical(d: &Design) -> Vec<String> {
    let first = overall(d).next().map(|c| c.metric.clone());
    d.report
        .comparisons
        .iter()
        .filter(|c| Some(&c.metric) == first.as_ref() && c.slice != "all")
        .filter(|c| too_small(c).is_none())
        .map(|c| c.slice.clone())
        .collect()
}

/// The size of a comparison in words: "480 queries, 160 groups".
fn size(c: &Comparison) -> String {
    match c.groups {
        Some(g) if c.effective_groups.is_some() => format!(
            "{}, {}",
            crate::numbers::count(c.n, "query", "queries"),
            crate::numbers::count(g, "group", "groups")
        ),
        _ => crate::numbers::count(c.n, "query", "queries"),
    }
}

/// The whole gate file.
pub(super) fn gate_file(d: &Design) -> String {
    let mut s = String::new();
    let all = overall(d).next();
    let _ = writeln!(
        s,
        "# rag-gate gate file, written by `rag-gate init` from the files below ({}).",
        all.map_or_else(|| "no metric".into(), size)
    );
    s.push_str(
        "# Every value is a proposal measured on these files: read the comments, then run it:\n\
         #   rag-gate check THIS_FILE   (exit 0 pass, 1 a gate failed, 2 bad input)\n\
         # Paths are relative to this file's folder. Every key: docs/gate-file.md.\n\n",
    );
    inputs(&mut s, d);
    bootstrap(&mut s, d);
    slices(&mut s, d);
    let critical = critical(d);
    let idle = idle(d);
    for c in overall(d) {
        let mut block = String::new();
        gate(&mut block, d, c, &critical);
        match idle.get(&c.metric) {
            Some(why) => {
                let _ = writeln!(s, "# Not written as a gate: {why}.");
                for line in block.lines() {
                    let sep = if line.is_empty() || line.starts_with('#') {
                        ""
                    } else {
                        "# "
                    };
                    let _ = writeln!(s, "{sep}{line}");
                }
            }
            None => s.push_str(&block),
        }
    }
    s
}

/// Nothing moved, on enough units that no unseen change could carry a drop past the practical
/// tie: `check` passes it as a proven no-op.
fn no_op_proven(c: &Comparison) -> bool {
    use crate::judge::{moving_units, no_op};
    let alpha = 1.0 - DEFAULT_CONFIDENCE;
    let u = no_op::unseen(moving_units(c), c.value_range, DEFAULT_PRACTICAL_TIE, alpha);
    c.moved == 0 && no_op::proven(&u, DEFAULT_PRACTICAL_TIE)
}

/// The metrics whose gate `check` could not judge on these files (fewer than min-moved units
/// moved on `all`), with the reason; written commented out so the file's first check judges
/// what it can. When every metric is so, none is left out (the check then says why).
pub(crate) fn idle(d: &Design) -> BTreeMap<String, String> {
    let unit = if d.groups == Groups::None {
        "queries"
    } else {
        "groups"
    };
    let idle: BTreeMap<String, String> = overall(d)
        .filter(|c| c.moved < DEFAULT_MIN_MOVED && !no_op_proven(c))
        .map(|c| {
            let why = format!(
                "only {} {unit} moved between these files, and check judges a max-drop pass\n\
                 # on at least min-moved = {DEFAULT_MIN_MOVED} moved (or, with none moved, on enough {unit} to\n\
                 # prove a no-op): uncomment it when a change moves more, or set [slices] min-moved lower",
                c.moved
            );
            (c.metric.clone(), why)
        })
        .collect();
    if idle.len() == overall(d).count() {
        return BTreeMap::new();
    }
    idle
}

fn inputs(s: &mut String, d: &Design) {
    s.push_str(
        "[inputs]\n# Per-query metrics of main (baseline) and of the pull request (candidate).\n",
    );
    let _ = writeln!(s, "baseline  = {}", quoted(&d.baseline));
    let _ = writeln!(s, "candidate = {}", quoted(&d.candidate));
    if let Some(q) = &d.queries {
        let _ = writeln!(
            s,
            "# Group and slice tags per query.\nqueries   = {}",
            quoted(q)
        );
    }
    if let Groups::FromIds { pattern, guessed } = &d.groups {
        let how = if *guessed {
            "guessed from the ids (every id matches)"
        } else {
            "from --group-from-id"
        };
        let _ = writeln!(
            s,
            "# A query's group is the capture of this regex on its id, {how}.\ngroup-from-id = {}",
            quoted(pattern)
        );
    }
    s.push('\n');
}

fn bootstrap(s: &mut String, d: &Design) {
    s.push_str("[bootstrap]\n");
    let _ = writeln!(
        s,
        "seed = {DEFAULT_SEED}   # the same seed gives the same report, byte for byte"
    );
    if d.report.unit == "group" {
        let groups = overall(d).find_map(|c| c.groups).unwrap_or(0);
        let _ = writeln!(
            s,
            "# {groups} groups: the queries of one group are not independent, so whole groups are\n\
             # resampled (and the margins below are measured at this unit).\nunit = \"group\""
        );
    } else {
        s.push_str("# No groups found: every query is its own unit. Give groups (a queries file or\n# group-from-id) when several queries share a conversation or a document.\nunit = \"query\"\n");
    }
    s.push('\n');
}

fn slices(s: &mut String, d: &Design) {
    let reported: Vec<&String> = d
        .tags
        .iter()
        .filter(|(_, v)| v.len() >= 2)
        .map(|(t, _)| t)
        .collect();
    if reported.is_empty() {
        s.push_str("# [slices]: the files carry no tag with two or more values; add tags in a queries\n# file ({\"query_id\", \"group\", \"slices\": {\"domain\": \"legal\"}}) to gate subsets.\n\n");
        return;
    }
    s.push_str("[slices]\n# Every value of these tags is reported as a slice.\n");
    let list: Vec<String> = reported.iter().map(|t| quoted(t)).collect();
    let _ = writeln!(s, "by = [{}]", list.join(", "));
    for (tag, values) in d.tags.iter().filter(|(_, v)| v.len() < 2) {
        let one = values.iter().next().map_or("", String::as_str);
        let _ = writeln!(s, "# {tag}: one value ({one}) only, the same as all");
    }
    s.push_str(
        "# Critical slices: the gates with slices = \"critical\" apply to each, besides all.\n\
         # Sizes and detectable drops (80% power) are measured on these files; slices too small\n\
         # to judge are commented out. Keep the ones a regression must never hide in.\n\
         critical = [\n",
    );
    let first = overall(d).next().map(|c| c.metric.clone());
    for c in d
        .report
        .comparisons
        .iter()
        .filter(|c| Some(&c.metric) == first.as_ref() && c.slice != "all")
    {
        match too_small(c) {
            None => {
                let _ = writeln!(
                    s,
                    "  {},   # {}; {}",
                    quoted(&c.slice),
                    size(c),
                    drops(d, &c.slice)
                );
            }
            Some(why) => {
                let _ = writeln!(s, "  # {},   # {why}", quoted(&c.slice));
            }
        }
    }
    s.push_str("]\n\n");
}

/// "detectable drop: ndcg@10 0.041, recall@5 0.05" on one slice.
fn drops(d: &Design, slice: &str) -> String {
    let each: Vec<String> = d
        .report
        .comparisons
        .iter()
        .filter(|c| c.slice == slice)
        .map(|c| format!("{} {}", c.metric, mde_words(c)))
        .collect();
    format!("detectable drop {}", each.join(", "))
}

fn mde_words(c: &Comparison) -> String {
    if c.mde.is_finite() && c.mde > 0.0 {
        round_up(c.mde)
    } else {
        "unmeasured (nothing moved)".into()
    }
}

/// Guessed for a metric rag-gate does not know: lower is better for time and cost names.
fn lower_is_better_guess(metric: &str) -> bool {
    let m = metric.to_ascii_lowercase();
    [
        "latency", "time", "cost", "_ms", "duration", "tokens", "price",
    ]
    .iter()
    .any(|w| m.contains(w))
}

/// The margin of a metric's gate: the largest detectable drop over the gated slices, and the
/// slice that sets it; None when no spread was measured (nothing moved).
pub(crate) fn margin<'a>(
    d: &'a Design,
    metric: &str,
    critical: &'a [String],
) -> Option<(f64, &'a str)> {
    d.report
        .comparisons
        .iter()
        .filter(|c| c.metric == metric && (c.slice == "all" || critical.contains(&c.slice)))
        .filter(|c| c.mde.is_finite() && c.mde > 0.0)
        .map(|c| (c.mde, c.slice.as_str()))
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

fn gate(s: &mut String, d: &Design, c: &Comparison, critical: &[String]) {
    let _ = writeln!(s, "[[gate]]\nmetric   = {}", quoted(&c.metric));
    if !crate::metric_names::direction_known(&c.metric) {
        let lower = lower_is_better_guess(&c.metric);
        let _ = writeln!(
            s,
            "# rag-gate does not know this metric's direction: guessed from its name.\nhigher-is-better = {}",
            !lower
        );
    }
    match margin(d, &c.metric, critical) {
        Some((m, at)) => {
            let se = if c.se.is_finite() { c.se } else { 0.0 };
            let _ = writeln!(
                s,
                "# Margin: the drop this set can detect with 80% power on {at} (standard error of the\n\
                 # mean delta {se:.4} on all, {}); a smaller margin fails a no-op change more than\n\
                 # one time in five. Raise it to the drop your users would notice, never lower.",
                size(c)
            );
            let _ = writeln!(s, "max-drop = {}", round_up(m));
            let _ = writeln!(
                s,
                "# fail-if-significant-drop = {}   # instead: fail only on a proven drop beyond it",
                round_up(m)
            );
        }
        None => {
            let _ = writeln!(
                s,
                "# Margin: nothing moved between these files, so no spread was measured: the practical\n\
                 # tie until a real change shows the noise.\nmax-drop = {DEFAULT_PRACTICAL_TIE}"
            );
        }
    }
    if !critical.is_empty() {
        s.push_str("slices   = \"critical\"   # on all and on every critical slice\n");
    }
    s.push('\n');
}

/// What `init` guessed, one line each, for stderr.
pub(super) fn guesses(d: &Design) -> Vec<String> {
    let mut lines = Vec::new();
    let all = overall(d).next();
    let size = all.map_or_else(|| "nothing".into(), size);
    match &d.groups {
        Groups::FromIds { pattern, guessed: true } => lines.push(format!(
            "init: guessed the groups from the ids with group-from-id = {}: {size}; check that it is what a group means here",
            quoted(pattern)
        )),
        Groups::FromIds { .. } | Groups::Given => {
            lines.push(format!("init: unit = \"group\" ({size})"));
        }
        Groups::None => lines.push(format!(
            "init: unit = \"query\": no groups in the files nor in the ids ({size})"
        )),
    }
    let critical = critical(d);
    let idle = idle(d);
    for c in overall(d) {
        if !crate::metric_names::direction_known(&c.metric) {
            lines.push(format!(
                "init: {}: direction unknown, guessed higher-is-better = {}",
                c.metric,
                !lower_is_better_guess(&c.metric)
            ));
        }
        let proposed = match margin(d, &c.metric, &critical) {
            Some((m, at)) => format!("{} (the detectable drop on {at})", round_up(m)),
            None => format!("{DEFAULT_PRACTICAL_TIE} (nothing moved: no spread measured)"),
        };
        match idle.get(&c.metric) {
            Some(_) => lines.push(format!(
                "init: {}: max-drop = {proposed}, written commented out: only {} moved (check judges a pass on {DEFAULT_MIN_MOVED})",
                c.metric, c.moved
            )),
            None => lines.push(format!("init: {}: max-drop = {proposed}", c.metric)),
        }
    }
    lines.push(format!(
        "init: {} critical slices (those check can judge at its default sizes)",
        critical.len()
    ));
    lines
}
