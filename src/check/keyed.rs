//! `[bootstrap] weights = "keyed"`: `check`, `partial` and `merge` on one path. The data (whole,
//! or one shard) are loaded, paired and sliced as `check` does, then summarised
//! (`resample::keyed`); the report is read from a summary alone (`report`), so `check` on the
//! whole data and `merge` of any shards' summaries give the same report, byte for byte.

use std::collections::{BTreeMap, BTreeSet};

use super::{
    build_report, direction_notes, load_inputs, pair_inputs, refuse_unsupported_confidence,
    wanted_metrics, Analysis, Findings,
};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::model::looks::{AttemptExtra, Earlier};
use crate::model::summary::{Summary, SUMMARY_FORMAT, SUMMARY_VERSION};
use crate::model::{PairingInfo, Report};
use crate::{pair, resample, slices, verdict};

/// What every keyed report says of its resampling.
const KEYED_NOTE: &str = "keyed weights ([bootstrap] weights = \"keyed\"): each unit's resampling weights and sign flips come from the seed and its id, values summed exactly on a 2^-32 grid, so rag-gate merge of any shards gives this report; percentile interval, no close-call re-run";

/// SHA-256 of the gate file's text: what a summary was computed under.
pub fn fingerprint(cfg: &Config) -> String {
    crate::protocol::sha256_hex(cfg.source.text.as_bytes())
}

/// The summary of the inputs the gate file names (`partial` points them at a shard). With
/// `shard`, a slice the gate file names but these queries lack is left out (another shard may
/// hold it; `merge` checks the whole); else it is refused as `check` refuses it.
pub fn summarize(cfg: &Config, shard: bool) -> Result<(Summary, pair::Paired)> {
    refuse_unsupported_confidence(cfg)?;
    let inputs = load_inputs(cfg, &wanted_metrics(cfg))?;
    let (base, cand) = (&inputs.base.table, &inputs.cand.table);
    let shared = pair::shared_metrics(base, cand);
    let metrics = super::choose_metrics(cfg, base, cand, &shared)?;
    refuse_unbounded(cfg, &metrics)?;
    let (paired, _, _) = pair_inputs(cfg, &inputs, &metrics, &Earlier::default())?;
    let slices = match shard {
        true => slices::build_present(cfg, &paired),
        false => slices::build(cfg, &paired)?,
    };
    let settings = resample::Settings::from_config(cfg);
    let mut groups: Vec<String> = paired.group_names.clone();
    groups.sort();
    let notes = super::gather_notes(cfg, &inputs, &metrics, &shared, (&paired.notes, Vec::new()));
    let summary = Summary {
        format: SUMMARY_FORMAT.into(),
        version: SUMMARY_VERSION,
        gate_fingerprint: fingerprint(cfg),
        seed: cfg.bootstrap.seed,
        resamples: cfg.bootstrap.resamples,
        unit: cfg.bootstrap.unit.as_str().into(),
        baseline_queries: paired.info.baseline_queries as u64,
        candidate_queries: paired.info.candidate_queries as u64,
        paired: paired.info.paired as u64,
        queries_digest: queries_digest(&paired.ids),
        has_groups: !paired.group_names.is_empty(),
        groups,
        tags: paired
            .tags
            .iter()
            .map(|(t, v)| (t.clone(), v.keys().cloned().collect()))
            .collect(),
        warnings: paired.warnings.clone(),
        notes: notes
            .into_iter()
            .filter(|n| !direction_notes(cfg, &metrics).contains(n))
            .collect(),
        slices: resample::keyed::summarize(&paired, &slices, &metrics, &settings),
        metrics,
    };
    Ok((summary, paired))
}

/// SHA-256 of the query ids, sorted, each followed by a newline.
fn queries_digest(ids: &crate::load::IdColumn) -> String {
    let mut sorted: Vec<&str> = ids.iter().collect();
    sorted.sort_unstable();
    let text: String = sorted.iter().flat_map(|id| [*id, "\n"]).collect();
    crate::protocol::sha256_hex(text.as_bytes())
}

/// A compared metric not bounded to [0, 1] is refused by name: its grid would need its range.
fn refuse_unbounded(cfg: &Config, metrics: &[String]) -> Result<()> {
    let unbounded: Vec<&String> = metrics
        .iter()
        .filter(|m| !crate::metric_names::is_bounded(&crate::metric_names::canonical(m)))
        .collect();
    match unbounded.first() {
        None => Ok(()),
        Some(m) => Err(cfg.error_at(
            &cfg.bootstrap.weights_span,
            format!(
                "[bootstrap] weights = \"keyed\": metric {} is not bounded to [0, 1] (keyed sums round each value once to a grid of 2^-32 that only a known range makes exact); leave it out with [report] metrics",
                crate::error::quoted(m)
            ),
        )),
    }
}

/// `check` with keyed weights: the whole data's summary, read as `merge` reads one.
pub fn analyze(cfg: &Config) -> Result<Analysis> {
    let (summary, paired) = summarize(cfg, false)?;
    Ok(Analysis {
        report: report(cfg, &summary)?,
        holes: Vec::new(),
        probe_batch: Vec::new(),
        own: super::attempts::own_values(&paired),
        extra: AttemptExtra::default(),
    })
}

/// The slices the gate file names that no shard holds, refused as `check` refuses them.
fn refuse_missing_slices(cfg: &Config, s: &Summary) -> Result<()> {
    for (tag, span) in &cfg.slices.by {
        if !s.tags.contains_key(tag) {
            return Err(cfg.error_at(
                span,
                format!(
                    "[slices] by: no query of any shard has the tag {}",
                    crate::error::quoted(tag)
                ),
            ));
        }
    }
    for (name, span) in &cfg.slices.critical {
        if !s.slices.contains_key(name) {
            return Err(cfg.error_at(
                span,
                format!(
                    "critical slice {}: no query of any shard has it",
                    crate::error::quoted(name)
                ),
            ));
        }
    }
    Ok(())
}

/// The protocol check of the gate file's own inputs: their `FILE.protocol.json` fingerprints
/// (a shard's rows carry none), read where the report is made, by `check` and `merge` alike.
fn whole_protocol(cfg: &Config, metrics: &[String]) -> Result<crate::model::ProtocolReport> {
    let read = |spec: &crate::config::InputSpec| {
        crate::load::protocol::read_sidecar(&spec.path, &spec.shown())
    };
    let (b, c) = (read(&cfg.inputs.baseline)?, read(&cfg.inputs.candidate)?);
    crate::protocol::verify::verify(
        cfg.protocol.require,
        &side("baseline", &cfg.inputs.baseline, b.as_ref()),
        &side("candidate", &cfg.inputs.candidate, c.as_ref()),
        metrics,
    )
}

/// A side of the protocol check: a metric file (never evaluated here).
fn side<'a>(
    name: &'a str,
    spec: &'a crate::config::InputSpec,
    protocol: Option<&'a crate::protocol::Protocol>,
) -> crate::protocol::verify::Side<'a> {
    crate::protocol::verify::Side {
        name,
        written: &spec.written,
        protocol,
        evaluated_here: false,
    }
}

/// The report of a summary (the whole data's, or the shards' merged).
pub fn report(cfg: &Config, s: &Summary) -> Result<Report> {
    refuse_missing_slices(cfg, s)?;
    let settings = resample::Settings::from_config(cfg);
    let mut comparisons =
        resample::keyed_read::comparisons(&s.slices, &s.metrics, s.has_groups, &settings);
    let cut = resample::range::clamped_note(&resample::range::clamp_intervals(&mut comparisons));
    verdict::label_comparisons(&mut comparisons);
    let mut found = Findings::judged(verdict::judge(cfg, &comparisons)?, cut, Default::default());
    found
        .warnings
        .extend(verdict::resolution::resolution(cfg, &comparisons, &found.gates).1);
    found.comparisons = comparisons;
    let protocol = whole_protocol(cfg, &s.metrics)?;
    let context = Some(&protocol.baseline_context).filter(|c| !c.is_empty());
    let baseline = crate::provenance::assess::assess(cfg, context)?;
    let mut warnings = super::setup_warnings(cfg, &protocol);
    warnings.extend(s.warnings.iter().cloned());
    warnings.extend(baseline.warnings);
    warnings.append(&mut found.warnings);
    found.warnings = warnings;
    let mut notes = s.notes.clone();
    notes.push(KEYED_NOTE.into());
    notes.extend(direction_notes(cfg, &s.metrics));
    notes.append(&mut found.notes);
    found.notes = notes;
    let pairing = PairingInfo {
        missing_policy: "error".into(),
        baseline_queries: s.baseline_queries as usize,
        candidate_queries: s.candidate_queries as usize,
        paired: s.paired as usize,
        dropped_baseline_only: 0,
        dropped_candidate_only: 0,
        dropped_examples: Vec::new(),
        baseline_unranked: 0,
        candidate_unranked: 0,
    };
    let mut report = build_report(cfg, pairing, found, protocol, None)?;
    report.baseline = Some(baseline.info);
    Ok(report)
}

/// The summaries (each with the file it came from) added into one, after checking each was made
/// under this gate file, seed, resamples and unit, with the same metrics, and that no group lies
/// in two of them.
pub fn merge(cfg: &Config, summaries: Vec<(String, Summary)>) -> Result<Summary> {
    let settings = resample::Settings::from_config(cfg);
    let fp = fingerprint(cfg);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, (file, s)) in summaries.iter().enumerate() {
        refuse_mismatch(cfg, &fp, file, s, summaries.first().map(|(_, f)| f))?;
        if let Some((twice, _)) = summaries[..i]
            .iter()
            .find(|(_, e)| e.queries_digest == s.queries_digest && s.paired > 0)
        {
            return Err(Error::Input {
                path: file.clone(),
                line: 0,
                msg: format!(
                    "the same queries as {twice}: a shard given twice would count them twice"
                ),
            });
        }
        for g in &s.groups {
            if let Some(&j) = seen.get(g) {
                return Err(Error::Input {
                    path: file.clone(),
                    line: 0,
                    msg: format!(
                        "group {} is also in {}: a group must lie whole within one shard (partition by the group, not the query)",
                        crate::error::quoted(g),
                        summaries[j].0
                    ),
                });
            }
            seen.insert(g.clone(), i);
        }
    }
    let mut merged: Option<Summary> = None;
    for (_, s) in summaries {
        merged = Some(match merged {
            None => s,
            Some(m) => add(m, s, &settings),
        });
    }
    let mut m = merged.ok_or_else(|| Error::Usage("merge: no summary files given".into()))?;
    m.groups = seen.into_keys().collect();
    Ok(m)
}

fn add(mut a: Summary, b: Summary, settings: &resample::Settings) -> Summary {
    a.baseline_queries += b.baseline_queries;
    a.candidate_queries += b.candidate_queries;
    a.paired += b.paired;
    a.has_groups |= b.has_groups;
    for (t, vs) in b.tags {
        let set: BTreeSet<String> = a
            .tags
            .remove(&t)
            .unwrap_or_default()
            .into_iter()
            .chain(vs)
            .collect();
        a.tags.insert(t, set.into_iter().collect());
    }
    for w in b.warnings {
        if !a.warnings.contains(&w) {
            a.warnings.push(w);
        }
    }
    for n in b.notes {
        if !a.notes.contains(&n) {
            a.notes.push(n);
        }
    }
    resample::keyed_read::add_slices(&mut a.slices, b.slices, settings);
    a
}

/// A summary of another version, gate file, seed, resample count, unit or metrics than the gate file's (or the first summary's) is refused, naming its file.
fn refuse_mismatch(
    cfg: &Config,
    fp: &str,
    file: &str,
    s: &Summary,
    first: Option<&Summary>,
) -> Result<()> {
    let bad = |msg: String| Error::Input {
        path: file.to_string(),
        line: 0,
        msg,
    };
    if s.format != SUMMARY_FORMAT || s.version != SUMMARY_VERSION {
        return Err(bad(format!("not a rag-gate summary of version {SUMMARY_VERSION} (format {:?}, version {}); recompute it with this rag-gate's partial", s.format, s.version)));
    }
    if s.gate_fingerprint != fp {
        return Err(bad(format!("computed under another gate file (fingerprint {} ≠ {fp} of {}); run partial with the same gate file", s.gate_fingerprint, cfg.source.shown)));
    }
    if s.seed != cfg.bootstrap.seed
        || s.resamples != cfg.bootstrap.resamples
        || s.unit != cfg.bootstrap.unit.as_str()
    {
        return Err(bad(format!(
            "seed {}, {} resamples, unit {} ≠ the gate file's seed {}, {} resamples, unit {}",
            s.seed,
            s.resamples,
            s.unit,
            cfg.bootstrap.seed,
            cfg.bootstrap.resamples,
            cfg.bootstrap.unit.as_str()
        )));
    }
    let Some(f) = first else { return Ok(()) };
    if s.metrics != f.metrics {
        return Err(bad(format!("metrics {:?} ≠ {:?} of the first summary; every shard must have the same metric columns", s.metrics, f.metrics)));
    }
    Ok(())
}
