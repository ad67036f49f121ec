//! Qrels × run → per-query rows and the summary, with the policies of trec_eval -c made
//! explicit: queries in the qrels but not in the run are scored as an empty ranking (all 0);
//! queries only in the run are ignored and counted; queries without a relevant doc follow
//! `--empty-gold` (`rag-gate eval`: kept with 0 as trec_eval does at every `-l`; `check`'s
//! default: excluded and listed); when no query is left, means are null. Rows and means follow query-id byte order (trec_eval -q's order).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Serialize;

use super::judged::unjudged_docs;
use super::metrics::{Judged, Kind, Metric, UNJUDGED};
use super::qrels::{Corpus, Qrels, QueryQrels};
use super::run::{for_each_query, ChunkMap, RunSpec};
use super::ties::{summarise, tie_values, QueryTies, TieSummary, TieValues};
use super::{EmptyGold, EvalOptions, Format, Gain, Order, Role};
use crate::error::{Error, Result};
use crate::model::RelevantRank;
use crate::protocol::Protocol;

/// One evaluated query.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueryResult {
    pub qid: String,
    /// 1-based line where the query first appears in the qrels.
    pub line: usize,
    /// R: relevant docs at the relevance level.
    pub num_rel: usize,
    /// One value per metric, in the requested order.
    pub values: Vec<f64>,
    /// Relevant docs within each metric's cutoff (used for pooled recall).
    pub hits: Vec<usize>,
    /// `(rank, doc)` of the unjudged docs in the top `EvalOptions::unjudged_depth`.
    pub unjudged: Vec<(usize, String)>,
    /// With `EvalOptions::optimistic` (for the judged bounds): the grades of the top
    /// `unjudged_depth` ranked docs ([`UNJUDGED`] for none) and the ideal gains, highest first;
    /// empty otherwise.
    #[serde(skip)]
    pub top_rels: Vec<i32>,
    #[serde(skip)]
    pub ideal_gains: Vec<f64>,
    /// The query's qrels hold a judgment ≤ 0 (a judged non-relevant document).
    #[serde(skip)]
    pub has_nonrelevant: bool,
    /// With `EvalOptions::keep_ranks`: where the run ranked each relevant doc (sorted by doc
    /// id), so a report can say why a query regressed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub relevant: Vec<RelevantRank>,
    /// Tied-score groups in the query's ranking (`ties.rs`).
    #[serde(skip)]
    pub tie_groups: usize,
    /// The values under the least and most favourable order of the tied documents; None when
    /// no tied group mixes grades (every order gives `values`).
    #[serde(skip)]
    pub ties: Option<TieValues>,
}

/// The rank of each of the query's relevant docs (rel ≥ `level`) in `docs`, sorted by doc id:
/// one pass over the ranking (a search of the ranking per relevant doc was quadratic in depth).
fn relevant_ranks(q: &QueryQrels, docs: &[&[u8]], level: i32) -> Vec<RelevantRank> {
    let mut first: crate::input::fasthash::SeededMap<&[u8], usize> = Default::default();
    for (i, d) in docs.iter().enumerate() {
        if q.judged.get(*d).is_some_and(|&rel| rel >= level) {
            first.entry(*d).or_insert(i + 1);
        }
    }
    let mut out: Vec<RelevantRank> = q
        .judged
        .iter()
        .filter(|(_, &rel)| rel >= level)
        .map(|(doc, &rel)| RelevantRank {
            doc: String::from_utf8_lossy(doc).into_owned(),
            rel,
            rank: first.get(doc.as_slice()).copied(),
        })
        .collect();
    out.sort_by(|a, b| a.doc.cmp(&b.doc));
    out
}

/// Every policy that shaped the numbers, recorded in the output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Policies {
    pub qrels_format: Format,
    pub run_format: Format,
    pub order: Order,
    pub order_rule: &'static str,
    pub rel_level: i32,
    pub gain: Gain,
    pub empty_gold: EmptyGold,
    pub missing_from_run: &'static str,
    pub run_only: &'static str,
    pub duplicate_docs: &'static str,
    pub corpus: Option<String>,
    pub chunk_map: Option<String>,
}

/// The aggregate: counts, who was left out and why, means and pooled recall.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalSummary {
    pub qrels: String,
    pub run: String,
    pub metrics: Vec<String>,
    pub queries_in_qrels: usize,
    pub evaluated: usize,
    /// Queries without a relevant doc, left out (`--empty-gold exclude`).
    pub excluded: Vec<String>,
    /// Queries with no doc at `--rel-level` but graded judgments (some grade > 0), kept because
    /// an nDCG metric is asked for: nDCG scores them by their grades (as trec_eval `-l` does),
    /// the binary metrics score 0 (R = 0).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub graded_only: Vec<String>,
    /// Queries with no doc at `--rel-level`, kept by `--empty-gold zero` (trec_eval's rule):
    /// the binary metrics 0 (R = 0), nDCG by the grades.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub no_relevant: Vec<String>,
    /// Evaluated queries the run has no ranking for: scored as an empty ranking.
    pub missing_from_run: Vec<String>,
    /// Queries in the run but not in the qrels: ignored.
    pub run_only_ignored: usize,
    /// Their ids (for `check`: a queries file may list them; they are unjudged, not unknown).
    #[serde(skip)]
    pub run_only: Vec<String>,
    /// Queries whose list has scores that disagree with its order, kept in list order
    /// (`--order given`, JSONL's default), in run order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scores_disagree: Vec<String>,
    /// The longest ranking of any query of the run (a cutoff past it sees no more documents).
    pub deepest: usize,
    /// Macro means over evaluated queries; null when none is evaluated.
    pub means: BTreeMap<String, Option<f64>>,
    /// Σ hits@k / Σ R over evaluated queries, for each recall@k.
    pub pooled: BTreeMap<String, Option<f64>>,
    pub policies: Policies,
    /// Tie sensitivity per metric (`ties.rs`); absent with `--order given` and with a chunk
    /// map, where no tie is assessed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ties: Option<TieSummary>,
    /// The protocol fingerprint (not for ann-recall, which has no qrels).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<Protocol>,
}

#[derive(Debug, Clone)]
pub struct Evaluation {
    pub metrics: Vec<Metric>,
    pub rows: Vec<QueryResult>,
    pub summary: EvalSummary,
}

fn score(
    q: &QueryQrels,
    (rels, groups): (&[i32], &[(u32, u32)]),
    docs: &[&[u8]],
    ms: &[Metric],
    opts: &EvalOptions,
    qid: &str,
) -> QueryResult {
    let level = opts.rel_level;
    let exponential = opts.gain == Gain::Exponential;
    let mut grades: Vec<i32> = q.judged.values().copied().filter(|&r| r > 0).collect();
    grades.sort_unstable_by(|a, b| b.cmp(a));
    let j0 = Judged {
        rels,
        num_rel: q.num_rel(level),
        ideal_gains: &[],
        rel_level: level,
        exponential,
    };
    let ideal: Vec<f64> = grades.iter().map(|&g| j0.gain(g)).collect();
    let j = Judged {
        ideal_gains: &ideal,
        ..j0
    };
    QueryResult {
        qid: qid.to_string(),
        line: q.line,
        num_rel: j.num_rel,
        values: ms.iter().map(|&m| j.value(m)).collect(),
        hits: ms
            .iter()
            .map(|m| j.hits(m.k.unwrap_or(rels.len())))
            .collect(),
        unjudged: unjudged_docs(rels, docs, opts.unjudged_depth),
        top_rels: match opts.optimistic {
            true => rels[..rels.len().min(opts.unjudged_depth)].to_vec(),
            false => Vec::new(),
        },
        ideal_gains: match opts.optimistic {
            true => ideal.clone(),
            false => Vec::new(),
        },
        has_nonrelevant: q.judged.values().any(|&g| g <= 0),
        relevant: Vec::new(),
        tie_groups: groups.len(),
        ties: match groups.is_empty() {
            true => None,
            false => tie_values(&j, groups, ms),
        },
    }
}

/// The largest grade the exponential gain 2^rel − 1 accepts: 2^100 ≈ 1.3e30, so even 2^32
/// ranked docs of that grade sum to a finite DCG (2^1024 is already infinite).
pub const MAX_EXPONENTIAL_GRADE: i32 = 100;

fn check_exponential_grades(qrels: &super::qrels::Qrels, shown: &str) -> Result<()> {
    for (qid, q) in &qrels.queries {
        if let Some(&g) = q
            .judged
            .values()
            .filter(|&&g| g > MAX_EXPONENTIAL_GRADE)
            .max()
        {
            return Err(Error::input(
                shown,
                q.line,
                format!(
                    "query {} has a grade {g}: with --gain exponential (2^rel − 1) grades above \
                     {MAX_EXPONENTIAL_GRADE} overflow; expected grades 0 to {MAX_EXPONENTIAL_GRADE}, or --gain linear",
                    crate::error::quoted(qid)
                ),
            ));
        }
    }
    Ok(())
}

/// Every value is finite where it is made: a NaN or infinite metric never leaves eval.
fn check_finite(rows: &[QueryResult], ms: &[Metric], shown: &str) -> Result<()> {
    for r in rows {
        if let Some(j) = r.values.iter().position(|v| !v.is_finite()) {
            return Err(Error::input(
                shown,
                r.line,
                format!(
                    "query {}: {} is {}, not a finite number (grades too large?)",
                    crate::error::quoted(&r.qid),
                    ms[j],
                    r.values[j]
                ),
            ));
        }
    }
    Ok(())
}

/// Reads qrels and run and scores every judged query. See the module header for the policies.
pub fn evaluate(
    qrels_path: &Path,
    qrels_shown: &str,
    run_path: &Path,
    run_shown: &str,
    ms: &[Metric],
    opts: &EvalOptions,
) -> Result<Evaluation> {
    check_request(ms, opts)?;
    let (corpus, chunks) = corpus_and_chunks(opts)?;
    let (qrels_format, run_format, order) =
        formats_and_order(opts, (qrels_path, qrels_shown), (run_path, run_shown))?;
    let qrels = read_qrels(qrels_path, qrels_shown, qrels_format, corpus.as_ref(), opts)?;
    let empty = excluded_queries(&qrels, ms, opts, qrels_shown)?;
    let excluded = empty.excluded;
    let spec = RunSpec {
        format: run_format,
        order,
        chunks: chunks.as_ref(),
        corpus: corpus.as_ref(),
        columns: opts.columns.clone(),
    };
    let Scored {
        mut rows,
        run_only,
        met,
        disagree,
        sightings,
        deepest,
    } = score_run(&qrels, &excluded, run_path, run_shown, &spec, ms, opts)?;
    let missing = score_missing(&qrels, &excluded, &mut rows, ms, opts);
    super::overlap::refuse_ids_that_never_meet(
        &super::overlap::Sides::of(&qrels, qrels_shown, run_shown, met),
        &missing,
        &run_only,
        &qrels,
    )?;
    super::doc_meeting::refuse_docs_that_never_meet(&sightings, &qrels, (qrels_shown, run_shown))?;
    let rows: Vec<QueryResult> = rows.into_values().collect();
    check_finite(&rows, ms, qrels_shown)?;
    let (means, pooled) = means_and_pooled(ms, &rows);
    let mut protocol = fingerprint(
        &qrels,
        &rows,
        (corpus.as_ref(), chunks.as_ref()),
        ms,
        opts,
        order,
        (run_path, run_shown, run_format),
    )?;
    // Labels with a judge sidecar beside them are that judge's: part of the fingerprint.
    protocol.judge = crate::load::judge::beside(qrels_path, qrels_shown)?.map(|s| s.identity());
    let summary = EvalSummary {
        qrels: qrels_shown.to_string(),
        run: run_shown.to_string(),
        metrics: ms.iter().map(Metric::to_string).collect(),
        queries_in_qrels: qrels.queries.len(),
        evaluated: rows.len(),
        excluded: excluded.into_iter().collect(),
        graded_only: empty.graded_only,
        no_relevant: empty.kept,
        missing_from_run: missing,
        run_only_ignored: run_only.len(),
        run_only: run_only.into_iter().collect(),
        scores_disagree: disagree,
        deepest,
        means,
        pooled,
        ties: ties_assessed(order, opts).then(|| tie_summary(ms, &rows)),
        policies: policies(opts, qrels_format, run_format, order),
        protocol: Some(protocol),
    };
    Ok(Evaluation {
        metrics: ms.to_vec(),
        rows,
        summary,
    })
}

/// The qrels, read under the corpus's id map and the options' columns; grades checked for an
/// exponential gain.
fn read_qrels(
    path: &Path,
    shown: &str,
    format: Format,
    corpus: Option<&Corpus>,
    opts: &EvalOptions,
) -> Result<Qrels> {
    let mut qrels =
        super::qrels::read_qrels_mapped(path, shown, format, corpus, &opts.qrels_columns)?;
    qrels.withhold(&opts.withheld);
    if opts.gain == Gain::Exponential {
        check_exponential_grades(&qrels, shown)?;
    }
    Ok(qrels)
}

/// The corpus and the chunk map the options name (each read once, when given).
pub(crate) fn corpus_and_chunks(opts: &EvalOptions) -> Result<(Option<Corpus>, Option<ChunkMap>)> {
    let corpus = opts
        .corpus
        .as_deref()
        .map(|p| Corpus::read(p, &p.display().to_string()))
        .transpose()?;
    let chunks = opts
        .chunk_map
        .as_deref()
        .map(|p| ChunkMap::read(p, &p.display().to_string()))
        .transpose()?;
    Ok((corpus, chunks))
}

/// The qrels and run formats (the flags, else recognised from content and name) and the
/// ranking order (the flag, else the run format's default: by score where there are scores).
fn formats_and_order(
    opts: &EvalOptions,
    (qrels_path, qrels_shown): (&Path, &str),
    (run_path, run_shown): (&Path, &str),
) -> Result<(Format, Format, Order)> {
    let qrels_format = Format::resolve(qrels_path, qrels_shown, Role::Qrels, opts.qrels_format)?;
    let run_format = Format::resolve(run_path, run_shown, Role::Run, opts.run_format)?;
    let order = run_order(opts, (run_path, run_shown), run_format)?;
    Ok((qrels_format, run_format, order))
}

/// A run's ranking order: `--order` (`[eval] order`), else its format's default (by score where
/// there are scores; a Parquet run's from its columns).
pub(super) fn run_order(
    opts: &EvalOptions,
    (path, shown): (&Path, &str),
    format: Format,
) -> Result<Order> {
    Ok(match (opts.order, format) {
        (Some(o), _) => o,
        (None, Format::Parquet) => super::run_parquet::default_order(path, shown, &opts.columns)?,
        (None, f) => f.default_order(),
    })
}

/// Scores every judged, not excluded query the run lacks as an empty ranking (trec_eval -c)
/// and returns their ids.
fn score_missing(
    qrels: &Qrels,
    excluded: &BTreeSet<String>,
    rows: &mut BTreeMap<String, QueryResult>,
    ms: &[Metric],
    opts: &EvalOptions,
) -> Vec<String> {
    let mut missing = Vec::new();
    for (qid, q) in &qrels.queries {
        if !excluded.contains(qid) && !rows.contains_key(qid) {
            missing.push(qid.clone());
            let mut row = score(q, (&[], &[]), &[], ms, opts, qid);
            if opts.keep_ranks {
                row.relevant = relevant_ranks(q, &[], opts.rel_level);
            }
            rows.insert(qid.clone(), row);
        }
    }
    missing
}

/// Metrics and options that cannot be evaluated against qrels are usage errors.
fn check_request(ms: &[Metric], opts: &EvalOptions) -> Result<()> {
    if let Some(m) = ms.iter().find(|m| m.kind == Kind::AnnRecall) {
        return Err(Error::Usage(format!("{m} compares an ANN run with an exact run, not with qrels: evaluate it on its own with --exact-run")));
    }
    if opts.rel_level < 1 {
        return Err(Error::Usage(format!(
            "--rel-level must be at least 1, got {}",
            opts.rel_level
        )));
    }
    Ok(())
}

/// The queries without a relevant doc, by policy: those `--empty-gold exclude` leaves out (an
/// error under `error`), those kept only for their graded gold, and those `zero` keeps.
///
/// A query's gold is empty when no asked metric has a relevant doc for it: the binary metrics
/// count docs at rel ≥ `--rel-level`, nDCG counts every grade > 0 (its gain is the grade,
/// whatever the level: trec_eval's `-l` does not change nDCG). So under `--rel-level 2` a query
/// judged only 1 is kept when nDCG is asked for, with trec_eval's values: nDCG by its grades,
/// the binary metrics 0. Under `zero` (trec_eval's own rule) every such query is kept.
fn excluded_queries(
    qrels: &Qrels,
    ms: &[Metric],
    opts: &EvalOptions,
    shown: &str,
) -> Result<EmptyGoldQueries> {
    let level = opts.rel_level;
    let graded = ms.iter().any(|m| m.kind == Kind::Ndcg);
    let mut out = EmptyGoldQueries::default();
    for (qid, q) in &qrels.queries {
        if q.num_rel(level) > 0 {
            continue;
        }
        match opts.empty_gold {
            EmptyGold::Zero => out.kept.push(qid.clone()),
            _ if graded && q.judged.values().any(|&g| g > 0) => out.graded_only.push(qid.clone()),
            EmptyGold::Exclude => {
                out.excluded.insert(qid.clone());
            }
            EmptyGold::Error => {
                return Err(Error::input(shown, q.line, format!("query {qid:?} has no relevant doc (rel >= {level}); --empty-gold zero|exclude says what to do with it")));
            }
        }
    }
    Ok(out)
}

/// The queries with no relevant doc at the level, by what the policy does with them.
#[derive(Default)]
struct EmptyGoldQueries {
    excluded: BTreeSet<String>,
    graded_only: Vec<String>,
    kept: Vec<String>,
}

/// Scores every judged, non-excluded query of the run; also returns the run-only query ids.
fn score_run(
    qrels: &Qrels,
    excluded: &BTreeSet<String>,
    run_path: &Path,
    run_shown: &str,
    spec: &RunSpec,
    ms: &[Metric],
    opts: &EvalOptions,
) -> Result<Scored> {
    let mut rows: BTreeMap<String, QueryResult> = BTreeMap::new();
    let mut run_only: BTreeSet<String> = BTreeSet::new();
    let mut met = 0usize;
    let mut disagree: Vec<String> = Vec::new();
    let mut rels: Vec<i32> = Vec::new();
    let mut sightings = super::doc_meeting::Sightings::default();
    let mut deepest = 0usize;
    for_each_query(run_path, run_shown, spec, &mut |r| {
        deepest = deepest.max(r.docs.len());
        if r.scores_disagree && !disagree.iter().any(|q| q == r.qid) {
            disagree.push(r.qid.to_string());
        }
        let Some(q) = qrels.queries.get(r.qid) else {
            run_only.insert(r.qid.to_string());
            return Ok(());
        };
        met += 1;
        sightings.see(r.qid, &r.docs, q);
        if excluded.contains(r.qid) {
            return Ok(());
        }
        rels.clear();
        // A judged grade never equals the unjudged mark (trec_eval reads i32::MIN as any grade ≤ 0).
        rels.extend(
            r.docs
                .iter()
                .map(|d| q.judged.get(*d).map_or(UNJUDGED, |&g| g.max(UNJUDGED + 1))),
        );
        let condensed: Vec<&[u8]>;
        let mut groups = r.ties;
        let docs: &[&[u8]] = match opts.judged_only {
            false => &r.docs,
            true => {
                // Condensed list (trec_eval -J): the docs without a judgment, and those judged
                // -1 (trec_eval's "in the pool, not judged"), leave the ranking first.
                let kept = |g: i32| g != UNJUDGED && g != -1;
                condensed = r
                    .docs
                    .iter()
                    .zip(&rels)
                    .filter(|(_, &g)| kept(g))
                    .map(|(d, _)| *d)
                    .collect();
                let keep: Vec<bool> = rels.iter().map(|&g| kept(g)).collect();
                groups = super::ties::condense(&groups, &keep);
                rels.retain(|&g| kept(g));
                &condensed
            }
        };
        let mut row = score(q, (&rels, &groups), docs, ms, opts, r.qid);
        if opts.keep_ranks {
            row.relevant = relevant_ranks(q, docs, opts.rel_level);
        }
        rows.insert(r.qid.to_string(), row);
        Ok(())
    })?;
    Ok(Scored {
        rows,
        run_only,
        met,
        disagree,
        sightings,
        deepest,
    })
}

/// What scoring the run gives besides the rows.
struct Scored {
    rows: BTreeMap<String, QueryResult>,
    run_only: BTreeSet<String>,
    /// Queries of the run that the qrels have (judged, excluded or not).
    met: usize,
    disagree: Vec<String>,
    /// The run's doc ids as far as needed to say whether any met the qrels.
    sightings: super::doc_meeting::Sightings,
    /// The longest ranking of any query.
    deepest: usize,
}

/// The warning for lists whose scores disagree with their order, naming the first query.
pub fn disagree_warning(run_shown: &str, qids: &[String]) -> Option<String> {
    let first = qids.first()?;
    Some(format!(
        "warning: {run_shown}: {} scores that disagree with their list order (first: query {}); \
         they are scored in list order (--order given); `--order score` (or [eval] order = \"score\") sorts by score",
        crate::numbers::count(qids.len(), "query has", "queries have"),
        crate::error::quoted(first)
    ))
}

/// The note for metrics cut deeper than the run ranks (`recall@1000` on 100-deep runs): they
/// count only the ranked documents, as trec_eval does, so they read like a shallower cutoff.
pub fn shallow_note(run_shown: &str, s: &EvalSummary) -> Option<String> {
    let deep: Vec<&String> = s
        .metrics
        .iter()
        // judged@k is coverage, not a measure of the ranking: not named here.
        .filter(|m| !m.starts_with("judged@"))
        .filter(|m| {
            Metric::parse(m)
                .ok()
                .and_then(|m| m.k)
                .is_some_and(|k| k > s.deepest)
        })
        .collect();
    if deep.is_empty() || s.deepest == 0 {
        return None;
    }
    let k = deep
        .iter()
        .filter_map(|m| Metric::parse(m).ok()?.k)
        .max()
        .unwrap_or(s.deepest);
    Some(format!(
        "note: {run_shown} ranks at most {} a query, fewer than {} cut{} at: the documents it does not rank count as not retrieved (trec_eval does the same), so here {} read{} like a cutoff of {}; rank {k} documents a query to measure at {k}",
        crate::numbers::count(s.deepest, "document", "documents"),
        deep.iter().map(|m| m.as_str()).collect::<Vec<_>>().join(", "),
        if deep.len() == 1 { "s" } else { "" },
        if deep.len() == 1 { "it" } else { "they" },
        if deep.len() == 1 { "s" } else { "" },
        s.deepest
    ))
}

/// The protocol fingerprint of this evaluation, with the run's ir_metadata as run context.
fn fingerprint(
    qrels: &Qrels,
    rows: &[QueryResult],
    (corpus, chunks): (Option<&Corpus>, Option<&ChunkMap>),
    ms: &[Metric],
    opts: &EvalOptions,
    order: Order,
    (run_path, run_shown, run_format): (&Path, &str, Format),
) -> Result<Protocol> {
    let rules = super::fingerprint::Rules {
        rel_level: opts.rel_level,
        gain: opts.gain,
        order,
        empty_gold: opts.empty_gold,
        chunked: chunks.is_some(),
        judged_only: opts.judged_only,
    };
    let protocol = super::fingerprint::protocol(
        qrels,
        rows.iter().map(|r| &r.qid),
        corpus,
        chunks,
        ms,
        &rules,
    );
    Ok(Protocol {
        run_context: match run_format {
            // Only a regular file is opened a second time: standard input, a pipe by another
            // name (`/dev/stdin`) or a FIFO is read once, by the run reader (reopening a FIFO
            // would wait for a writer that is gone). `eval` notes the missing context.
            Format::Trec if is_regular_file(run_path) => {
                super::ir_metadata::read_run_context(run_path, run_shown)?
            }
            _ => BTreeMap::new(),
        },
        judged_bounds: Some(
            match (opts.judged_only, rows.iter().all(|r| !r.has_nonrelevant)) {
                (true, _) => crate::protocol::BOUNDS_CONDENSED,
                (false, true) => crate::protocol::BOUNDS_POSITIVE_ONLY,
                (false, false) => crate::protocol::BOUNDS_NEED_RUNS,
            }
            .to_string(),
        ),
        ..protocol
    })
}

/// A path that names a regular file (not `-`, a pipe, a FIFO or a device).
pub(crate) fn is_regular_file(path: &Path) -> bool {
    !crate::input::open::is_stdin(path) && std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// Ties are assessed where the ranking sorts by score or rank and no chunk map folds chunks.
fn ties_assessed(order: Order, opts: &EvalOptions) -> bool {
    order != Order::Given && opts.chunk_map.is_none()
}

/// The tie sensitivity of every metric over the evaluated rows.
fn tie_summary(ms: &[Metric], rows: &[QueryResult]) -> TieSummary {
    let qs: Vec<QueryTies> = rows
        .iter()
        .map(|r| QueryTies {
            values: &r.values,
            ties: r.ties.as_ref(),
            groups: r.tie_groups,
        })
        .collect();
    summarise(ms, &qs)
}

type Means = BTreeMap<String, Option<f64>>;

/// Each metric's mean over the rows, and pooled recall (Σ hits / Σ R) for recall metrics.
fn means_and_pooled(ms: &[Metric], rows: &[QueryResult]) -> (Means, Means) {
    let n = rows.len();
    let mut means = BTreeMap::new();
    let mut pooled = BTreeMap::new();
    for (j, m) in ms.iter().enumerate() {
        let mean = (n > 0).then(|| rows.iter().map(|r| r.values[j]).sum::<f64>() / n as f64);
        means.insert(m.to_string(), mean);
        if m.kind == Kind::Recall {
            let total_r: usize = rows.iter().map(|r| r.num_rel).sum();
            let hits: usize = rows.iter().map(|r| r.hits[j]).sum();
            pooled.insert(
                m.to_string(),
                (total_r > 0).then(|| hits as f64 / total_r as f64),
            );
        }
    }
    (means, pooled)
}

/// The policies the evaluation followed, in words, for the summary.
fn policies(
    opts: &EvalOptions,
    qrels_format: Format,
    run_format: Format,
    order: Order,
) -> Policies {
    Policies {
        qrels_format,
        run_format,
        order,
        order_rule: match order {
            Order::Score => {
                "score descending as f64, ties by docid descending (byte order), like trec_eval"
            }
            Order::Rank => "rank column ascending, ties by docid descending",
            Order::Given => "the order in the file (TREC line order, JSONL list order)",
        },
        rel_level: opts.rel_level,
        gain: opts.gain,
        empty_gold: opts.empty_gold,
        missing_from_run: "scored as an empty ranking: every metric 0 (trec_eval -c)",
        run_only: "ignored and counted",
        duplicate_docs: if opts.chunk_map.is_some() {
            "chunks mapped to docs; a doc's first occurrence kept, then cutoffs"
        } else {
            "error"
        },
        corpus: opts.corpus.as_ref().map(|p| p.display().to_string()),
        chunk_map: opts.chunk_map.as_ref().map(|p| p.display().to_string()),
    }
}
