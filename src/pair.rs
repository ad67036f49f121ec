//! Pair stage: baseline × candidate by query id, strictly. A query in one file but not the other,
//! a missing metric value, or conflicting group/slice tags is an error naming the file, the line
//! and the first few ids (then a count); `missing = "intersect"` keeps only the shared queries
//! and says how many were dropped.

mod ids;
pub mod replicates;

use std::collections::{BTreeMap, BTreeSet};

use crate::config::Missing;
use crate::error::{few_at, quoted, Error, Result};
use crate::input::fasthash::{SeededMap, SeededSet};
use crate::load::{IdColumn, MetricTable, Row, Rows};
use crate::model::PairingInfo;
use ids::Ids;

/// One metric's paired values, aligned with `Paired::ids`.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricPair {
    pub baseline: Vec<f64>,
    pub candidate: Vec<f64>,
}

#[derive(Debug, Clone)]
pub struct Paired {
    /// Query ids in byte order.
    pub ids: IdColumn,
    /// Dense group index per query (None: the query has no group).
    pub group_of: Vec<Option<u32>>,
    pub group_names: Vec<String>,
    /// tag → value → member query indices (ascending).
    pub tags: BTreeMap<String, BTreeMap<String, Vec<u32>>>,
    pub metrics: BTreeMap<String, MetricPair>,
    pub info: PairingInfo,
    pub warnings: Vec<String>,
    /// For the report's notes (rows of the queries file naming unjudged queries).
    pub notes: Vec<String>,
    /// `tag=value` → queries of the trusted side (the baseline, tagged by it or the queries
    /// file) in that slice, before intersecting; empty under `missing = "error"`, where every
    /// baseline query is paired.
    pub trusted_sizes: BTreeMap<String, usize>,
    /// Every replicate run when a side has several (`replicates::attach`); None: one run each.
    pub replicates: Option<replicates::Replicates>,
}

/// Metric names present in both tables.
pub fn shared_metrics(base: &MetricTable, cand: &MetricTable) -> Vec<String> {
    base.metrics
        .keys()
        .filter(|m| cand.metrics.contains_key(*m))
        .cloned()
        .collect()
}

/// Pairs the two tables on `metrics` (which both must have). `queries` adds group/slice tags.
pub fn pair(
    base: &MetricTable,
    cand: &MetricTable,
    queries: Option<(&Rows, &str)>,
    missing: Missing,
    metrics: &[String],
) -> Result<Paired> {
    pair_with(base, cand, queries, missing, metrics, &BTreeSet::new())
}

/// [`pair`], where `unjudged` are ids a run ranked that its qrels do not judge: rows of the
/// queries file naming them are counted in a note, not refused as unknown.
pub fn pair_with(
    base: &MetricTable,
    cand: &MetricTable,
    queries: Option<(&Rows, &str)>,
    missing: Missing,
    metrics: &[String],
    unjudged: &BTreeSet<&str>,
) -> Result<Paired> {
    // The id maps (if a miss built them) are dropped before the columns and labels are built
    // (at 10M queries they are 400 MB each).
    let (shared, only_b, only_c, unmatched) = {
        let b_at = Ids::new(&base.rows);
        let c_at = Ids::new(&cand.rows);
        let only_b = one_sided(base, &c_at);
        let only_c = one_sided(cand, &b_at);
        refuse_respelled(base, cand, &only_b, &only_c)?;
        if only_b.len() == base.rows.len() && !base.rows.is_empty() {
            return Err(no_overlap(base, cand, &only_b, &only_c));
        }
        if missing == Missing::Error {
            refuse_one_sided(base, cand, &only_b, &only_c)?;
        }
        let (unmatched, unjudged, unevaluated) =
            unmatched_rows(base, cand, queries, (&b_at, &c_at), missing, unjudged)?;
        (
            shared_rows(base, &c_at),
            only_b,
            only_c,
            (unmatched, unjudged, unevaluated),
        )
    };
    let (unmatched, unjudged, unevaluated) = unmatched;
    if shared.is_empty() {
        return Err(Error::input(
            &cand.source,
            0,
            format!("no query id in common with {}", base.source),
        ));
    }

    let mut out_metrics = BTreeMap::new();
    for m in metrics {
        let b = column(base, m, shared.iter().map(|s| s.0 as usize))?;
        let c = column(cand, m, shared.iter().map(|s| s.1 as usize))?;
        out_metrics.insert(
            m.clone(),
            MetricPair {
                baseline: b,
                candidate: c,
            },
        );
    }
    let Labels {
        tags,
        group_names,
        group_of,
    } = merge_labels(base, cand, queries, &shared)?;

    let warnings = dropped_warnings(&only_b, &only_c, &unmatched);
    let mut notes = unjudged_note(queries, &unjudged);
    notes.extend(unevaluated_note(queries, &unevaluated));
    let info = pairing_info(base, cand, missing, shared.len(), &only_b, &only_c);
    let trusted_sizes = match missing {
        Missing::Error => BTreeMap::new(),
        Missing::Intersect => trusted_sizes(base, queries),
    };
    Ok(Paired {
        notes,
        trusted_sizes,
        ids: paired_ids(base, &shared),
        group_of,
        group_names,
        tags,
        metrics: out_metrics,
        info,
        warnings,
        replicates: None,
    })
}

/// The warnings of `missing = "intersect"`: queries dropped, rows of the queries file unmatched.
fn dropped_warnings(
    only_b: &[(String, usize)],
    only_c: &[(String, usize)],
    unmatched: &AtLines,
) -> Vec<String> {
    let mut warnings = Vec::new();
    if !only_b.is_empty() || !only_c.is_empty() {
        warnings.push(format!(
            "missing = \"intersect\": dropped {} only in the baseline and {} only in the candidate",
            crate::numbers::count(only_b.len(), "query", "queries"),
            only_c.len()
        ));
    }
    if !unmatched.is_empty() {
        warnings.push(format!(
            "missing = \"intersect\": {} of the queries file {} no query (first: {})",
            crate::numbers::count(unmatched.len(), "row", "rows"),
            if unmatched.len() == 1 {
                "matches"
            } else {
                "match"
            },
            few_at(unmatched, 3)
        ));
    }
    warnings
}

/// The note on rows of the queries file that name unjudged queries (ignored and counted).
fn unjudged_note(queries: Option<(&Rows, &str)>, unjudged: &AtLines) -> Vec<String> {
    match (queries, unjudged.is_empty()) {
        (Some((_, q_src)), false) => vec![format!(
            "{}: {} of queries in the run but not in the qrels (unjudged) ignored: {}",
            q_src,
            crate::numbers::count(unjudged.len(), "row", "rows"),
            few_at(unjudged, 3)
        )],
        _ => Vec::new(),
    }
}

/// The note on rows of a queries file that lists more queries than either side has (a topics
/// file of which only some were judged and evaluated): ignored and counted.
fn unevaluated_note(queries: Option<(&Rows, &str)>, rows: &AtLines) -> Vec<String> {
    match (queries, rows.is_empty()) {
        (Some((_, q_src)), false) => vec![format!(
            "{}: {} naming a query neither side has (topics not evaluated, e.g. unjudged) ignored: {}",
            q_src,
            crate::numbers::count(rows.len(), "row", "rows"),
            few_at(rows, 3)
        )],
        _ => Vec::new(),
    }
}

/// Whether the queries file has a row for every query of both tables: then its other rows
/// name queries neither side evaluated (a topics file), not misspelt ids of these.
fn covers_both(queries: Option<(&Rows, &str)>, base: &MetricTable, cand: &MetricTable) -> bool {
    let Some((rows, _)) = queries else {
        return false;
    };
    let q_at = Ids::new(rows);
    [base, cand].iter().all(|t| {
        t.rows
            .ids()
            .iter()
            .enumerate()
            .all(|(i, id)| q_at.find(id, i).is_some())
    })
}

/// Queries per `tag=value` on the trusted side: every baseline query, tagged by the baseline or
/// the queries file.
fn trusted_sizes(base: &MetricTable, queries: Option<(&Rows, &str)>) -> BTreeMap<String, usize> {
    let empty = Rows::default();
    let q_at = Ids::new(queries.map_or(&empty, |(rows, _)| rows));
    let mut sizes: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut tags: Vec<(&str, &str)> = Vec::new();
    for (i, r) in base.rows.iter().enumerate() {
        tags.clear();
        let q = q_at.row(r.query_id, i);
        for (t, v) in r
            .slices
            .iter()
            .chain(q.into_iter().flat_map(|q| q.slices.iter()))
        {
            if !tags.iter().any(|(seen, _)| *seen == t) {
                tags.push((t, v));
            }
        }
        for &tv in &tags {
            *sizes.entry(tv).or_default() += 1;
        }
    }
    sizes
        .into_iter()
        .map(|((t, v), n)| (format!("{t}={v}"), n))
        .collect()
}

/// With `missing = "error"`: a query in one file only is an error naming the file and ids.
fn refuse_one_sided(
    base: &MetricTable,
    cand: &MetricTable,
    only_b: &[(String, usize)],
    only_c: &[(String, usize)],
) -> Result<()> {
    for (side, other, lacking) in [(cand, base, only_b), (base, cand, only_c)] {
        if !lacking.is_empty() {
            return Err(Error::input(
                &side.source,
                0,
                format!(
                    "lacks {} {} that {} has: {}; pair them, or set missing = \"intersect\" in [inputs]",
                    lacking.len(),
                    plural(lacking.len(), "query", "queries"),
                    other.source,
                    few_at(lacking, 5)
                ),
            ));
        }
    }
    Ok(())
}

/// (baseline row, candidate row) of every shared query, in id byte order: each id is looked up
/// once here, not once per metric and stage. Eight bytes a query; a baseline sorted by id
/// needs no sort.
fn shared_rows(base: &MetricTable, c_at: &Ids) -> Vec<(u32, u32)> {
    let ids = base.rows.ids();
    let mut shared: Vec<(u32, u32)> = ids
        .iter()
        .enumerate()
        .filter_map(|(i, id)| c_at.find(id, i).map(|j| (i as u32, j as u32)))
        .collect();
    let id = |s: &(u32, u32)| ids.get(s.0 as usize);
    if !shared.windows(2).all(|w| id(&w[0]) < id(&w[1])) {
        shared.sort_unstable_by(|a, b| id(a).cmp(id(b)));
    }
    shared
}

/// The paired ids in the order of `shared`, in one buffer.
fn paired_ids(base: &MetricTable, shared: &[(u32, u32)]) -> IdColumn {
    let id = |s: &(u32, u32)| base.rows.id(s.0 as usize);
    let bytes = shared.iter().map(|s| id(s).len()).sum();
    let mut ids = IdColumn::with_capacity(shared.len(), bytes);
    shared.iter().for_each(|s| ids.push(id(s)));
    ids
}

/// The slice tags and groups of the paired queries.
struct Labels {
    tags: BTreeMap<String, BTreeMap<String, Vec<u32>>>,
    group_names: Vec<String>,
    group_of: Vec<Option<u32>>,
}

/// Per query: merges the tags and group of every place that names it (they must agree).
/// Everything here borrows from the tables; only new tag names and values are copied.
fn merge_labels(
    base: &MetricTable,
    cand: &MetricTable,
    queries: Option<(&Rows, &str)>,
    shared: &[(u32, u32)],
) -> Result<Labels> {
    let empty = Rows::default();
    let q_at = Ids::new(queries.map_or(&empty, |(rows, _)| rows));
    let q_src = queries.map_or("", |(_, s)| s);
    let mut tags: BTreeMap<String, BTreeMap<String, Vec<u32>>> = BTreeMap::new();
    let mut group_set: SeededSet<&str> = SeededSet::default();
    let mut group_raw: Vec<Option<&str>> = Vec::with_capacity(shared.len());
    let mut merged: Vec<(&str, Place)> = Vec::new();
    let sources = trusted_sources(&base.source, queries.map(|(_, s)| s));
    for (i, &(bi, ci)) in shared.iter().enumerate() {
        let (bi, ci) = (bi as usize, ci as usize);
        let id = base.rows.id(bi);
        let trusted = [
            Some((base.source.as_str(), base.rows.row(bi))),
            q_at.row(id, bi).map(|r| (q_src, r)),
        ];
        merged.clear();
        let group = merge_places(id, trusted, &mut merged)?;
        refuse_candidate_labels(
            id,
            (&cand.source, cand.rows.row(ci)),
            &merged,
            group,
            &sources,
        )?;
        for &(tag, (val, _, _)) in &merged {
            let values = match tags.get_mut(tag) {
                Some(v) => v,
                None => tags.entry(tag.to_string()).or_default(),
            };
            match values.get_mut(val) {
                Some(members) => members.push(i as u32),
                None => {
                    values.insert(val.to_string(), vec![i as u32]);
                }
            }
        }
        let g = group.map(|(g, _, _)| g);
        if let Some(g) = g {
            group_set.insert(g);
        }
        group_raw.push(g);
    }
    // Dense group indices in name order, so they do not depend on file order.
    let mut group_set: Vec<&str> = group_set.into_iter().collect();
    group_set.sort_unstable();
    let group_names: Vec<String> = group_set.iter().map(|g| g.to_string()).collect();
    let rank: SeededMap<&str, u32> = group_set
        .iter()
        .enumerate()
        .map(|(i, g)| (*g, i as u32))
        .collect();
    let group_of = group_raw.iter().map(|g| g.map(|g| rank[g])).collect();
    Ok(Labels {
        tags,
        group_names,
        group_of,
    })
}

/// One query's tags (into `merged`) and group from every trusted place that names it (the
/// baseline and the queries file); a tag or group given two different values is a conflict
/// naming both places.
fn merge_places<'a>(
    id: &str,
    places: [Option<(&'a str, Row<'a>)>; 2],
    merged: &mut Vec<(&'a str, Place<'a>)>,
) -> Result<Option<Place<'a>>> {
    let mut group: Option<Place> = None;
    for (src, row) in places.into_iter().flatten() {
        for (tag, val) in row.slices.iter() {
            let new = (val, src, row.line);
            match merged.iter().find(|(t, _)| *t == tag) {
                Some((_, old)) if old.0 != val => {
                    return Err(conflict(
                        id,
                        &format!("slice tag {}", quoted(tag)),
                        new,
                        *old,
                    ))
                }
                Some(_) => {}
                None => merged.push((tag, new)),
            }
        }
        if let Some(g) = row.group {
            let new = (g, src, row.line);
            match group {
                Some(old) if old.0 != g => return Err(conflict(id, "group", new, old)),
                Some(_) => {}
                None => group = Some(new),
            }
        }
    }
    Ok(group)
}

/// "b.jsonl" or "b.jsonl or q.jsonl": where slice tags and groups may come from.
fn trusted_sources(base: &str, queries: Option<&str>) -> String {
    match queries {
        Some(q) => format!("{base} or {q}"),
        None => base.to_string(),
    }
}

/// The candidate's file is written by the pull request, so it may not choose which slice or group
/// a query is in (a fork could move queries into a critical slice and dilute it): every tag and
/// the group it gives must be the trusted side's, else an error naming the query.
fn refuse_candidate_labels(
    id: &str,
    (src, row): (&str, Row),
    trusted: &[(&str, Place)],
    group: Option<Place>,
    sources: &str,
) -> Result<()> {
    let rule = "slice tags and groups come from the queries file or the baseline, never the \
                candidate; drop it from the candidate or give it there";
    let here =
        |what: String, val: &str| format!("query {}: {what} is {} here", quoted(id), quoted(val));
    for (tag, val) in row.slices.iter() {
        let what = format!("slice tag {}", quoted(tag));
        match trusted.iter().find(|(t, _)| *t == tag) {
            Some((_, old)) if old.0 == val => {}
            Some((_, old)) => {
                return Err(Error::input(
                    src,
                    row.line,
                    format!(
                        "{} but {} in {}:{}; {rule}",
                        here(what, val),
                        quoted(old.0),
                        old.1,
                        old.2
                    ),
                ))
            }
            None => {
                return Err(Error::input(
                    src,
                    row.line,
                    format!(
                        "{} but {sources} leaves it untagged; {rule}",
                        here(what, val)
                    ),
                ))
            }
        }
    }
    if let Some(g) = row.group {
        let tail = match group {
            Some(old) if old.0 == g => return Ok(()),
            Some(old) => format!("{} in {}:{}", quoted(old.0), old.1, old.2),
            None => format!("{sources} gives it no group"),
        };
        return Err(Error::input(
            src,
            row.line,
            format!("{} but {tail}; {rule}", here("group".into(), g)),
        ));
    }
    Ok(())
}

/// What the report says about the pairing: sizes, policy and a few dropped ids.
fn pairing_info(
    base: &MetricTable,
    cand: &MetricTable,
    missing: Missing,
    paired: usize,
    only_b: &[(String, usize)],
    only_c: &[(String, usize)],
) -> PairingInfo {
    let mut dropped: Vec<String> = only_b
        .iter()
        .chain(only_c)
        .map(|(q, _)| q.clone())
        .collect();
    dropped.sort();
    dropped.truncate(5);
    PairingInfo {
        missing_policy: match missing {
            Missing::Error => "error".into(),
            Missing::Intersect => "intersect".into(),
        },
        baseline_queries: base.rows.len(),
        candidate_queries: cand.rows.len(),
        paired,
        dropped_baseline_only: only_b.len(),
        dropped_candidate_only: only_c.len(),
        dropped_examples: dropped,
        baseline_unranked: 0,
        candidate_unranked: 0,
    }
}

/// Queries of `t` whose id is not in `other`, with their lines, in id order.
fn one_sided(t: &MetricTable, other: &Ids) -> Vec<(String, usize)> {
    let mut v: Vec<(String, usize)> = t
        .rows
        .ids()
        .iter()
        .enumerate()
        .filter(|&(i, id)| other.find(id, i).is_none())
        .map(|(i, id)| (id.to_string(), t.rows.line(i)))
        .collect();
    v.sort();
    v
}

/// `metric`'s values of `t` at the `rows` of the paired ids; every one must be present.
fn column(
    t: &MetricTable,
    metric: &str,
    rows: impl ExactSizeIterator<Item = usize>,
) -> Result<Vec<f64>> {
    let Some(col) = t.metrics.get(metric) else {
        let have: BTreeSet<&String> = t.metrics.keys().collect();
        return Err(Error::input(
            &t.source,
            0,
            format!("has no metric {} (it has: {})", quoted(metric), join(have)),
        ));
    };
    let mut out = Vec::with_capacity(rows.len());
    let mut lacking = Vec::new();
    for row in rows {
        match col.get(row) {
            Some(v) => out.push(v),
            None => lacking.push((t.rows.id(row).to_string(), t.rows.line(row))),
        }
    }
    if let Some((_, line)) = lacking.first() {
        return Err(Error::input(
            &t.source,
            *line,
            format!(
                "metric {} is missing for {} {}: {}",
                quoted(metric),
                lacking.len(),
                plural(lacking.len(), "query", "queries"),
                few_at(&lacking, 5)
            ),
        ));
    }
    Ok(out)
}

type Place<'a> = (&'a str, &'a str, usize);

/// Two places disagree about a query's tag or group.
fn conflict(id: &str, what: &str, new: Place, old: Place) -> Error {
    Error::input(
        new.1,
        new.2,
        format!(
            "query {}: {what} is {} here but {} in {}:{}; the files must agree",
            quoted(id),
            quoted(new.0),
            quoted(old.0),
            old.1,
            old.2
        ),
    )
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Rows of the queries file that match no query are an input error (an id with a stray space
/// would silently leave its slice), unless `missing = "intersect"` (then a warning) or the file
/// `covers` both tables (a row for every query of each: its other rows are topics neither side
/// evaluated, noted); rows whose ids are the baseline's spelled another way (`0001` for `1`)
/// are an error in every mode.
fn refuse_unmatched_queries(
    base: &MetricTable,
    cand: &MetricTable,
    queries: Option<(&Rows, &str)>,
    unmatched: &[(String, usize)],
    missing: Missing,
    covers: bool,
) -> Result<()> {
    let (Some((_, q_src)), Some(&(_, line))) = (queries, unmatched.first()) else {
        return Ok(());
    };
    let ids: Vec<&str> = unmatched.iter().map(|(q, _)| q.as_str()).collect();
    let base_ids: Vec<&str> = base.rows.ids().iter().collect();
    let pairs = crate::id_spelling::respelled(&ids, &base_ids);
    let hint = match pairs.is_empty() {
        true => {
            "fix the ids (a stray space?), or set missing = \"intersect\" in [inputs]".to_string()
        }
        false => crate::id_spelling::respelled_sentence(&pairs, q_src, &base.source),
    };
    if (missing == Missing::Error && !covers) || !pairs.is_empty() {
        return Err(Error::input(
            q_src,
            line,
            format!(
                "{} {} match no query of {} or {}: {}; {hint}",
                unmatched.len(),
                plural(unmatched.len(), "row", "rows"),
                base.source,
                cand.source,
                few_at(unmatched, 5)
            ),
        ));
    }
    Ok(())
}

type AtLines = Vec<(String, usize)>;

/// The rows of the queries file that match no query, split into those refused or warned about
/// (`refuse_unmatched_queries`), those naming unjudged queries, and, when the file covers both
/// tables under `missing = "error"`, those naming topics neither side evaluated.
fn unmatched_rows(
    base: &MetricTable,
    cand: &MetricTable,
    queries: Option<(&Rows, &str)>,
    (b_at, c_at): (&Ids, &Ids),
    missing: Missing,
    unjudged: &BTreeSet<&str>,
) -> Result<(AtLines, AtLines, AtLines)> {
    let (mut unmatched, unjudged) = unmatched_queries(queries, b_at, c_at, unjudged);
    let covers = covers_both(queries, base, cand);
    refuse_unmatched_queries(base, cand, queries, &unmatched, missing, covers)?;
    let unevaluated = match covers && missing == Missing::Error {
        true => std::mem::take(&mut unmatched),
        false => Vec::new(),
    };
    Ok((unmatched, unjudged, unevaluated))
}

/// Rows of the queries file whose id is in neither table, with their lines: those naming an
/// `unjudged` query (ranked by a run, not in its qrels), then the others.
fn unmatched_queries(
    queries: Option<(&Rows, &str)>,
    b_at: &Ids,
    c_at: &Ids,
    unjudged: &BTreeSet<&str>,
) -> (AtLines, AtLines) {
    let Some((rows, _)) = queries else {
        return Default::default();
    };
    let (unjudged, unknown): (AtLines, AtLines) = rows
        .iter()
        .enumerate()
        .filter(|&(k, r)| b_at.find(r.query_id, k).is_none() && c_at.find(r.query_id, k).is_none())
        .map(|(_, r)| (r.query_id.to_string(), r.line))
        .partition(|(id, _)| unjudged.contains(id.as_str()));
    (unknown, unjudged)
}

/// Ids only in one table that the other has spelled another way (`0001` and `1`): an error in
/// either `missing` mode (intersecting would silently drop the same queries from both sides).
fn refuse_respelled(
    base: &MetricTable,
    cand: &MetricTable,
    only_b: &[(String, usize)],
    only_c: &[(String, usize)],
) -> Result<()> {
    let b: Vec<&str> = only_b.iter().map(|(q, _)| q.as_str()).collect();
    let c: Vec<&str> = only_c.iter().map(|(q, _)| q.as_str()).collect();
    let pairs = crate::id_spelling::respelled(&b, &c);
    if pairs.is_empty() {
        return Ok(());
    }
    let line = only_c
        .iter()
        .find(|(q, _)| q == pairs[0].1)
        .map_or(0, |x| x.1);
    Err(Error::input(
        &cand.source,
        line,
        crate::id_spelling::respelled_sentence(&pairs, &base.source, &cand.source),
    ))
}

/// Not one baseline query in the candidate: an error naming ids of each.
fn no_overlap(
    base: &MetricTable,
    cand: &MetricTable,
    only_b: &[(String, usize)],
    only_c: &[(String, usize)],
) -> Error {
    Error::input(
        &cand.source,
        0,
        format!(
            "no query id in common with {}: nothing to compare ({} here, e.g. {}; {} there, e.g. {})",
            base.source,
            only_c.len(),
            few_at(only_c, 3),
            only_b.len(),
            few_at(only_b, 3)
        ),
    )
}

fn join<'a>(it: impl IntoIterator<Item = &'a String>) -> String {
    let names: Vec<String> = it.into_iter().map(|s| crate::safe_text::shown(s)).collect();
    let mut shown = names
        .iter()
        .take(10)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > 10 {
        shown.push_str(&format!(" and {} more", names.len() - 10));
    }
    shown
}

#[cfg(test)]
mod tests;
