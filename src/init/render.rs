//! The gate file `init` writes, and the lines on stderr that say what it guessed.

use std::fmt::Write as _;

use super::{margins, Design, Groups};
use crate::config::{DEFAULT_CONFIDENCE, DEFAULT_MIN_GROUPS, DEFAULT_MIN_QUERIES, DEFAULT_SEED};
use crate::model::Comparison;

/// A TOML string (quoted and escaped).
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The comparisons on `all`, one per metric.
fn overall(d: &Design) -> impl Iterator<Item = &Comparison> {
    d.report.comparisons.iter().filter(|c| c.slice == "all")
}

/// Why a slice cannot be judged by `check`'s defaults, or None when it can.
fn too_small(c: &Comparison) -> Option<String> {
    if c.n < DEFAULT_MIN_QUERIES {
        return Some(format!(
            "{}: below min-queries = {DEFAULT_MIN_QUERIES}, a gate there is judged on a wide interval, with a warning",
            crate::numbers::count(c.n, "query", "queries")
        ));
    }
    let groups = c.effective_groups?;
    (groups < DEFAULT_MIN_GROUPS as f64).then(|| {
        format!("{groups:.1} effective groups: below min-groups = {DEFAULT_MIN_GROUPS}, a gate there is judged on the small-sample cluster interval, wide at so few groups, with a warning")
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
    if let Some(why) = all.and_then(too_small) {
        let _ = writeln!(
            s,
            "# Too few for the statistical rules: {why}; every pull request that moves a query\n\
             # fails as not judged (two identical files pass as untouched). Add queries.\n"
        );
    }
    inputs(&mut s, d);
    bootstrap(&mut s, d);
    slices(&mut s, d);
    let critical = critical(d);
    verdict(&mut s, d, &critical);
    for c in overall(d) {
        gate(&mut s, d, c, &critical);
    }
    s
}

/// The comparisons a gate on `metric` reads: `all`, then every critical slice.
fn gated<'a>(d: &'a Design, metric: &str, critical: &[String]) -> Vec<&'a Comparison> {
    let mut out: Vec<&Comparison> = d
        .report
        .comparisons
        .iter()
        .filter(|c| c.metric == metric && c.slice == "all")
        .collect();
    out.extend(
        d.report
            .comparisons
            .iter()
            .filter(|c| c.metric == metric && critical.contains(&c.slice)),
    );
    out
}

/// `[verdict]`: the guarantee, and the blind spot when some gate's worst cost exceeds its
/// margin.
fn verdict(s: &mut String, d: &Design, critical: &[String]) {
    s.push_str(
        "[verdict]\n\
         # regular: the calibrated interval on every pull request; a change that moves nothing\n\
         # passes as untouched. distribution-free (release gates): also a bound that assumes\n\
         # nothing about the losses a sample did not show (docs/gate-file.md#verdict).\n\
         guarantee = \"regular\"\n",
    );
    // The gates whose worst cost exceeds their margin, by (slice, resolution, margin).
    let mut over: std::collections::BTreeMap<(String, String, String), Vec<&str>> =
        Default::default();
    for c in overall(d).filter(|c| margins::bounded(&c.metric)) {
        let g = gated(d, &c.metric, critical);
        let Some((p, at)) = margins::coarsest(&g) else {
            continue;
        };
        let m = margins::margin(&g);
        if p > m {
            let key = (
                format!(
                    "{} of the {} {} on {}",
                    crate::numbers::percent(p),
                    margins::units(at),
                    unit_words(d),
                    at.slice
                ),
                format!("{p:.3}"),
                format!("{m}"),
            );
            over.entry(key).or_default().push(c.metric.as_str());
        }
    }
    for ((share, cost, m), metrics) in &over {
        let named = if metrics.len() > 3 {
            format!("{}, … ({} gates)", metrics[..3].join(", "), metrics.len())
        } else {
            metrics.join(", ")
        };
        let needs = m
            .parse::<f64>()
            .ok()
            .and_then(|m| crate::verdict::resolution::units_closing(m, 1.0, DEFAULT_CONFIDENCE))
            .map_or(String::new(), |k| format!("{k} {}", unit_words(d)));
        let _ = writeln!(
            s,
            "# Blind spot: a change touching fewer than {share} can leave none of\n\
             # them moved, at a worst cost of {cost}, above the margin {m} of {named}.\n\
             # Not distribution-free on this set: its bound would stay {cost} below the\n\
             # mean when nothing moved, failing every unchanged pull request; it needs\n\
             # {needs} for the margin {m}. check warns until you accept the blind spot\n\
             # (or add queries):\n\
             # accept-blind-spot = true"
        );
    }
    s.push('\n');
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
        margins::round_up(c.mde)
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

/// The unit's plural as the comments say it.
fn unit_words(d: &Design) -> &'static str {
    if d.groups == Groups::None {
        "queries"
    } else {
        "groups"
    }
}

/// What the margin needs on the gated slices for 80% power: "about 1,240 queries on all" (with
/// the slice that needs the most when it is not `all`), or why it cannot be said.
fn needs_words(d: &Design, gated: &[&Comparison], margin: f64) -> String {
    let unit = unit_words(d);
    let each: Vec<(usize, &Comparison)> = gated
        .iter()
        .filter_map(|c| Some((margins::needed(c, margin)?, *c)))
        .collect();
    let Some(all) = gated.first() else {
        return String::new();
    };
    let Some((n_all, _)) = each.iter().find(|(_, c)| c.slice == "all") else {
        return format!(
            "nothing moved between these files, so the {unit} this margin needs cannot be\n\
             # said from them (rag-gate plan on a pair that differs, or an A/A run, says it)"
        );
    };
    let today = margins::units(all);
    let mut words = format!(
        "80% power at this margin (a change as noisy as this pair passes 4 times in 5) needs\n\
         # about {n_all} {unit} on all (today {today})"
    );
    let worst = each
        .iter()
        .filter(|(_, c)| c.slice != "all")
        .max_by_key(|(n, _)| *n);
    if let Some((n, c)) = worst {
        let _ = write!(
            words,
            " and {n} on {} (today {})",
            c.slice,
            margins::units(c)
        );
    }
    words
}

/// The resolution of the gated slices in words, with the worst cost against the margin.
fn resolution_words(d: &Design, gated: &[&Comparison], margin: f64) -> String {
    let Some((p, at)) = margins::coarsest(gated) else {
        return String::new();
    };
    let unit = unit_words(d);
    let cost = if margins::bounded(&at.metric) {
        let verdict = if p > margin {
            "above the margin:\n# see [verdict]"
        } else {
            "within the margin"
        };
        format!("a worst cost of {p:.3} ({verdict})")
    } else {
        format!(
            "a worst cost of {} × the most one unit can lose (max-unit-loss)",
            crate::numbers::percent(p)
        )
    };
    format!(
        "resolution: a change touching fewer than {} of the {} {unit} on {} can\n\
         # leave none of them moved on a pull request, at {cost}",
        crate::numbers::percent(p),
        margins::units(at),
        at.slice
    )
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
    let g = gated(d, &c.metric, critical);
    let m = margins::margin(&g);
    let why = if margins::bounded(&c.metric) {
        "the drop your users would notice (teams write 0.01-0.02 on a [0, 1] metric)"
    } else {
        "5% of the baseline's mean: the rise or drop your users would notice, in the metric's units"
    };
    let _ = writeln!(
        s,
        "# Margin: {why};\n# a decision, not a measurement: write yours. On these files:\n\
         # {}.\n# {}.",
        needs_words(d, &g, m),
        resolution_words(d, &g, m)
    );
    let _ = writeln!(s, "max-drop = {m}");
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
    for c in overall(d) {
        if !crate::metric_names::direction_known(&c.metric) {
            lines.push(format!(
                "init: {}: direction unknown, guessed higher-is-better = {}",
                c.metric,
                !lower_is_better_guess(&c.metric)
            ));
        }
        let g = gated(d, &c.metric, &critical);
        let m = margins::margin(&g);
        let needs = match g.first().and_then(|all| margins::needed(all, m)) {
            Some(n) => format!("80% power needs about {n} {} on all", unit_words(d)),
            None => "nothing moved: the size it needs is not measured".into(),
        };
        let res = margins::coarsest(&g).map_or(String::new(), |(p, at)| {
            format!(
                "; resolution {} on {}",
                crate::numbers::percent(p),
                at.slice
            )
        });
        lines.push(format!("init: {}: max-drop = {m} ({needs}{res})", c.metric));
    }
    lines.push(format!(
        "init: {} critical slices (those check can judge at its default sizes)",
        critical.len()
    ));
    lines
}
