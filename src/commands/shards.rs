//! `rag-gate partial` (one shard's summary) and `rag-gate merge` (the report of the shards'
//! summaries added): the keyed path of `check` cut in two (`check::keyed`).

use std::path::Path;

use crate::check::{exit_code, keyed, write_outputs};
use crate::cli::{MergeArgs, PartialArgs};
use crate::config::{self, Config, InputSpec, Weights};
use crate::error::{Error, Result};
use crate::model::summary::Summary;
use crate::outcome::Outcome;
use crate::outputs::refuse_clobbering;

/// The gate file, refused unless it asks for keyed weights (the only weights that merge).
fn keyed_config(gate_file: &Path, command: &str) -> Result<Config> {
    let cfg = config::load(gate_file)?;
    if cfg.bootstrap.weights != Weights::Keyed {
        return Err(cfg.error_at(
            &cfg.bootstrap.weights_span,
            format!("{command} needs [bootstrap] weights = \"keyed\" (a unit's weights from its id, so shards add up to the whole); this gate file draws them by position"),
        ));
    }
    Ok(cfg)
}

/// `spec` pointed at `path` (as given on the command line), keeping its format and columns.
fn shard_spec(spec: &InputSpec, path: &Path) -> InputSpec {
    InputSpec {
        path: path.to_path_buf(),
        written: path.display().to_string(),
        kind: spec.kind.clone(),
        span: spec.span.clone(),
    }
}

/// `rag-gate partial`: the shard's summary, written as JSON.
pub fn partial(args: &PartialArgs) -> Result<Outcome> {
    let mut cfg = keyed_config(&args.gate_file, "partial")?;
    cfg.inputs.baseline = shard_spec(&cfg.inputs.baseline, &args.baseline);
    cfg.inputs.candidate = shard_spec(&cfg.inputs.candidate, &args.candidate);
    match (&cfg.inputs.queries, &args.queries) {
        (Some(q), Some(p)) => cfg.inputs.queries = Some(shard_spec(q, p)),
        (None, Some(_)) => {
            return Err(Error::Usage(
                "partial --queries: the gate file has no [inputs] queries, so the shard's queries file would not be read as check reads the whole".into(),
            ))
        }
        (Some(q), None) => {
            return Err(Error::Usage(format!(
                "partial: the gate file reads a queries file ({}); give the shard's with --queries",
                q.written
            )))
        }
        (None, None) => {}
    }
    let reads = crate::commands::reads(&cfg, Some(&args.gate_file))?;
    refuse_clobbering(&[("--output", args.output.as_path())], &reads)?;
    let (summary, _) = keyed::summarize(&cfg, true)?;
    let json = serde_json::to_string(&summary).expect("a summary serialises") + "\n";
    if crate::atomic::is_stdout(&args.output) {
        return Ok(Outcome {
            stdout: json,
            ..Default::default()
        });
    }
    crate::atomic::write_atomic(&args.output, json.as_bytes())?;
    Ok(Outcome::default())
}

/// A summary file, read whole.
fn read_summary(path: &Path) -> Result<(String, Summary)> {
    let shown = path.display().to_string();
    let text = crate::load::source::read_text(path, &shown, "a rag-gate summary (JSON)")?;
    let summary = serde_json::from_str(&text).map_err(|e| Error::Input {
        path: shown.clone(),
        line: e.line(),
        msg: format!("not a rag-gate summary (from `rag-gate partial -o`): {e}"),
    })?;
    Ok((shown, summary))
}

/// `rag-gate merge`: the summaries added and read as `check` reads the whole data's.
pub fn merge(args: &MergeArgs) -> Result<Outcome> {
    let mut cfg = keyed_config(&args.gate_file, "merge")?;
    if args.output.details {
        cfg.report.details = true;
    }
    let mut reads = crate::outputs::Reads::default();
    reads.add("gate file", &args.gate_file);
    for s in &args.summaries {
        reads.add("summary", s);
    }
    refuse_clobbering(&crate::commands::planned(&args.output, None, None), &reads)?;
    let summaries = args
        .summaries
        .iter()
        .map(|p| read_summary(p))
        .collect::<Result<Vec<_>>>()?;
    let merged = keyed::merge(&cfg, summaries)?;
    let report = keyed::report(&cfg, &merged)?;
    let stdout = write_outputs(&report, &crate::commands::outputs(&args.output), &reads)?;
    Ok(Outcome {
        stdout,
        stderr: Vec::new(),
        exit_code: exit_code(report.verdict, &report.on_inconclusive),
    })
}
