//! `[probe]`'s runs: each side's ranking of every probe query, cut at the compared depth, read
//! by the same readers and ordering policies as an evaluated run (`[eval]` order, chunk map,
//! corpus), and the probe's protocol: both sides must rank the same query set to the same depth
//! under the same ordering, or the check is refused (exit 2, naming the gate-file key).

use std::collections::{BTreeMap, BTreeSet};

use super::run::{for_each_query, RunSpec};
use super::{Format, Order, Role};
use crate::config::{Config, InputSpec, ProbeSettings};
use crate::error::{few, Result};
use crate::model::probe::ProbeFingerprint;

/// One side's probe run.
pub struct ProbeSide {
    /// Query id → the first `keep` documents of its ranking.
    pub lists: BTreeMap<String, Vec<Box<[u8]>>>,
    /// The longest ranking read (before the cut).
    pub depth: usize,
    pub order: Order,
}

/// Reads one side's probe run (`key`: "baseline" or "candidate", the spec's key in `[probe]`),
/// keeping each ranking's first `keep` documents (all: None).
pub fn read_side(
    cfg: &Config,
    probe: &ProbeSettings,
    (key, spec): (&str, &InputSpec),
    keep: Option<usize>,
) -> Result<ProbeSide> {
    let (mut opts, _) = super::gate_input::eval_options(cfg)?;
    if let Some((name, span)) = &probe.run_format {
        use crate::choice::Choice;
        let f = Format::parse(name).ok_or_else(|| {
            cfg.error_at(
                span,
                format!("[probe] run-format = {name:?}: expected one of \"trec\", \"jsonl\", \"json\", \"msmarco\", \"llamaindex\", \"parquet\""),
            )
        })?;
        opts.run_format = Some(f);
    }
    let shown = spec.shown();
    // What the run's file says, and a file that cannot be opened, at the key that named it
    // (`gate.toml:9:13: [probe] candidate: p.txt: opening: …`), as `[inputs]` does.
    let at_key = |e: crate::Error| match e {
        crate::Error::Usage(m) => cfg.error_at(&spec.span, format!("[probe]: {m}")),
        e @ crate::Error::Io { .. } => cfg.error_at(&spec.span, format!("[probe] {key}: {e}")),
        other => other,
    };
    let format = Format::resolve(&spec.path, &shown, Role::Run, opts.run_format).map_err(at_key)?;
    let order = super::engine::run_order(&opts, (&spec.path, &shown), format)?;
    let (corpus, chunks) = super::engine::corpus_and_chunks(&opts)?;
    let run_spec = RunSpec {
        format,
        order,
        chunks: chunks.as_ref(),
        corpus: corpus.as_ref(),
        columns: opts.columns.clone(),
    };
    let mut lists = BTreeMap::new();
    let mut depth = 0;
    for_each_query(&spec.path, &shown, &run_spec, &mut |r| {
        depth = depth.max(r.docs.len());
        let cut = keep.map_or(r.docs.len(), |k| k.min(r.docs.len()));
        let docs: Vec<Box<[u8]>> = r.docs[..cut].iter().map(|d| Box::from(*d)).collect();
        lists.insert(r.qid.to_string(), docs);
        Ok(())
    })
    .map_err(at_key)?;
    Ok(ProbeSide {
        lists,
        depth,
        order,
    })
}

/// The probe's fingerprint, or the error naming what differs between the sides: the query set,
/// the depth, the ordering.
pub fn fingerprint(
    cfg: &Config,
    probe: &ProbeSettings,
    base: &ProbeSide,
    cand: &ProbeSide,
) -> Result<ProbeFingerprint> {
    let key = |what: String| {
        cfg.error_at(
            &probe.candidate.span,
            format!(
                "[probe] candidate = {:?}: {what}; the probe compares both sides on one protocol (the same queries, depth and ordering), so nothing was compared. Rank the probe queries with both retrievers at the same depth",
                probe.candidate.written
            ),
        )
    };
    let b: BTreeSet<&String> = base.lists.keys().collect();
    let c: BTreeSet<&String> = cand.lists.keys().collect();
    if b != c {
        let only_b: Vec<&&String> = b.difference(&c).collect();
        let only_c: Vec<&&String> = c.difference(&b).collect();
        return Err(key(format!(
            "its query set differs from the baseline's {:?} ({} vs {} queries; only in the baseline: {}; only in the candidate: {})",
            probe.baseline.written,
            c.len(),
            b.len(),
            if only_b.is_empty() { "none".into() } else { few(&only_b, 5) },
            if only_c.is_empty() { "none".into() } else { few(&only_c, 5) },
        )));
    }
    if base.depth != cand.depth {
        return Err(key(format!(
            "it ranks to depth {}, the baseline's {:?} to depth {}",
            cand.depth, probe.baseline.written, base.depth
        )));
    }
    if base.order != cand.order {
        return Err(key(format!(
            "its rankings are ordered by {}, the baseline's by {} (set [eval] order or [probe] run-format)",
            format!("{:?}", cand.order).to_ascii_lowercase(),
            format!("{:?}", base.order).to_ascii_lowercase()
        )));
    }
    Ok(ProbeFingerprint {
        query_set_sha256: crate::protocol::query_set_hash(base.lists.keys()),
        depth: base.depth,
        ordering: format!("{:?}", base.order).to_ascii_lowercase(),
    })
}
