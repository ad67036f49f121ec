//! `rag-gate eval`'s entry point: flags (`cli::EvalArgs`) into `EvalOptions`, evaluate, render, write
//! through `outputs::write` (checked against every file it reads). Notes about left-out queries go to stderr; only main prints.

use std::path::PathBuf;

use crate::atomic::is_stdout;
use crate::cli::EvalArgs;
use crate::error::{few, Error, Result};
use crate::eval::ann::evaluate_ann;
use crate::eval::metrics::{Kind, Metric, NAMES_HELP};
use crate::eval::output::{render_rows, summary_json, RowFormat};
use crate::eval::{evaluate, holes, EvalOptions, EvalSummary, Evaluation, TableColumns};
use crate::outcome::Outcome;
use crate::outputs::{refuse_clobbering, Output, Reads};

pub fn run(args: &EvalArgs) -> Result<Outcome> {
    let ms =
        Metric::parse_list(&args.metrics).map_err(|e| Error::Usage(format!("--metrics: {e}")))?;
    let opts = options(args, &ms);
    let reads = reads(args);
    let planned = planned(args);
    let named: Vec<(&str, &std::path::Path)> =
        planned.iter().map(|(f, p)| (*f, p.as_path())).collect();
    refuse_clobbering(&named, &reads)?;
    let ev = evaluate_either(args, &ms, &opts)?;
    let mut stderr = left_out_notes(&ev.summary);
    stderr.extend(tie_notes(&ev.summary));
    stderr.extend(piped_run_note(args, &ev.summary));
    stderr.extend(crate::eval::engine::shallow_note(
        &ev.summary.run,
        &ev.summary,
    ));
    stderr.extend(crate::eval::engine::disagree_warning(
        &ev.summary.run,
        &ev.summary.scores_disagree,
    ));
    let mut out = Outcome {
        stderr: stderr.into_iter().map(Into::into).collect(),
        ..Outcome::default()
    };
    write_rows(args, &ev, &reads, &mut out)?;
    Ok(out)
}

/// The evaluation options the flags give.
fn options(args: &EvalArgs, ms: &[Metric]) -> EvalOptions {
    EvalOptions {
        rel_level: args.rel_level,
        gain: args.gain,
        order: args.order,
        empty_gold: args.empty_gold,
        qrels_format: args.qrels_format,
        run_format: args.run_format,
        corpus: args.corpus.clone(),
        chunk_map: args.chunk_map.clone(),
        unjudged_depth: match args.holes {
            Some(_) => holes_depth(ms),
            None => 0,
        },
        optimistic: false,
        judged_only: args.judged_only,
        keep_ranks: false,
        columns: TableColumns::from_roles(&args.columns),
        qrels_columns: TableColumns::from_roles(&args.qrels_columns),
        withheld: Default::default(),
    }
}

/// `ann-recall@k` against `--exact-run`, or every other metric against `--qrels`.
fn evaluate_either(args: &EvalArgs, ms: &[Metric], opts: &EvalOptions) -> Result<Evaluation> {
    let shown = |p: &PathBuf| p.display().to_string();
    let ann = ms.iter().any(|m| m.kind == Kind::AnnRecall);
    match (&args.exact_run, &args.qrels, ann) {
        (Some(exact), _, true) => {
            evaluate_ann(&args.run, &shown(&args.run), exact, &shown(exact), ms, opts)
        }
        (None, _, true) => Err(Error::Usage(
            "--metrics: ann-recall@k needs --exact-run FILE".into(),
        )),
        (_, Some(q), false) => evaluate(q, &shown(q), &args.run, &shown(&args.run), ms, opts),
        (_, None, false) => Err(Error::Usage(format!(
            "--qrels FILE is needed for {NAMES_HELP} (all but ann-recall@k)"
        ))),
    }
}

/// Notes for stderr on the queries the evaluation left out or scored 0.
fn left_out_notes(s: &EvalSummary) -> Vec<String> {
    let mut notes = Vec::new();
    if !s.excluded.is_empty() {
        notes.push(format!(
            "note: {} without a relevant doc excluded (--empty-gold exclude): {}",
            queries(s.excluded.len()),
            few(&s.excluded, 5)
        ));
    }
    if !s.no_relevant.is_empty() {
        notes.push(format!(
            "note: {} with no doc at rel >= {} kept (--empty-gold zero, trec_eval's rule): their binary metrics are 0 (R = 0), nDCG by their grades; --empty-gold exclude leaves them out: {}",
            queries(s.no_relevant.len()),
            s.policies.rel_level,
            few(&s.no_relevant, 5)
        ));
    }
    if !s.graded_only.is_empty() {
        notes.push(format!(
            "note: {} with no doc at rel >= {} but graded judgments kept for nDCG (scored by their grades, as trec_eval -l does); their binary metrics are 0 (R = 0): {}",
            queries(s.graded_only.len()),
            s.policies.rel_level,
            few(&s.graded_only, 5)
        ));
    }
    if !s.missing_from_run.is_empty() {
        notes.push(format!(
            "note: {} absent from the run scored 0: {}",
            queries(s.missing_from_run.len()),
            few(&s.missing_from_run, 5)
        ));
    }
    if s.run_only_ignored > 0 {
        notes.push(format!(
            "note: {} only in the run ignored (not in the reference)",
            queries(s.run_only_ignored)
        ));
    }
    if s.evaluated == 0 {
        notes.push("note: no query evaluated: every mean is null".into());
    }
    notes
}

/// One note per metric whose value depends on the order of tied scores for some query: how
/// many queries, and the mean between the least and most favourable orders (the summary JSON's
/// `ties` has the figures at full precision).
pub fn tie_notes(s: &EvalSummary) -> Vec<String> {
    let Some(t) = &s.ties else {
        return Vec::new();
    };
    t.metrics
        .iter()
        .filter(|m| m.queries_depending > 0)
        .filter_map(|m| {
            let (mean, lo, hi) = (m.mean?, m.worst_mean?, m.best_mean?);
            let d = crate::numbers::range_digits(lo, hi);
            Some(format!(
                "note: ties: {} depends on the order of tied scores for {} of {}: mean {mean:.d$} \
                 with trec_eval's order (docid descending), {lo:.d$} to {hi:.d$} from the least \
                 to the most favourable order of tied documents (summary JSON: ties)",
                m.metric,
                m.queries_depending,
                queries(t.evaluated)
            ))
        })
        .collect()
}

/// A run on standard input is read once, by the run reader, so its ir_metadata header (if it has
/// one) is not read and the fingerprint has no run context: said, so it is not lost silently.
/// The same for a pipe by another name (`/dev/stdin`, `/dev/fd/0`, a FIFO): any run that is not
/// a regular file.
fn piped_run_note(args: &EvalArgs, s: &EvalSummary) -> Option<String> {
    let p = s.protocol.as_ref()?;
    if !p.run_context.is_empty() {
        return None;
    }
    let came = if crate::input::open::is_stdin(&args.run) {
        "on standard input".to_string()
    } else if std::fs::metadata(&args.run).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        // A folder is a Parquet table (ir_metadata headers are for text runs): not a pipe.
        format!(
            "through a pipe or device ({})",
            crate::safe_text::one_line(&args.run.display().to_string())
        )
    } else {
        return None;
    };
    Some(format!(
        "note: the run came {came}, which is read once: an ir_metadata header in it (tag, \
         method, model) is not read, so the fingerprint has no run context; give the run as a \
         file to keep it"
    ))
}

/// Writes the rows (or the summary) where the flags say: `-o FILE` with its sidecar and the
/// holes stub, or stdout; `--summary` puts the summary on stdout instead of the rows.
fn write_rows(args: &EvalArgs, ev: &Evaluation, reads: &Reads, out: &mut Outcome) -> Result<()> {
    let summary_only = args.format == RowFormat::Json;
    let rows = if summary_only {
        summary_json(ev)?
    } else {
        render_rows(ev, args.format)?
    };
    let holes = args.holes.as_ref().map(|_| holes_text(ev)).transpose()?;
    match args.output.as_ref().filter(|p| !is_stdout(p)) {
        Some(path) => write_with_sidecar(path, &rows, ev, args.holes.as_deref(), holes, reads)?,
        None => {
            if let (Some(h), Some(text)) = (&args.holes, &holes) {
                let holes = Output {
                    flag: "--holes",
                    path: h,
                    text,
                };
                crate::outputs::write(&[holes], reads)?;
            }
            if !args.summary || summary_only {
                out.stdout = rows;
            }
        }
    }
    if args.summary && !summary_only {
        if args.output.as_deref().is_some_and(is_stdout) {
            return Err(Error::Usage(
                "-o - and --summary: both would go to standard output; give -o FILE".into(),
            ));
        }
        out.stdout = summary_json(ev)?;
    }
    Ok(())
}

/// The largest cutoff of `ms` (the whole ranking when one has none).
fn holes_depth(ms: &[Metric]) -> usize {
    ms.iter()
        .map(|m| m.k.unwrap_or(usize::MAX))
        .max()
        .unwrap_or(0)
}

fn holes_text(ev: &Evaluation) -> Result<String> {
    holes::render(&holes::collect(ev.rows.iter().flat_map(|r| {
        r.unjudged
            .iter()
            .map(|(rank, d)| (r.qid.clone(), d.clone(), "run".to_string(), *rank))
    })))
}

/// Writes the rows to `path` and their protocol to `path.protocol.json` (and the holes stub),
/// all renamed into place together. The sidecar carries the rows' SHA-256, so a sidecar that
/// no longer describes its file is refused by `check`.
fn write_with_sidecar(
    path: &std::path::Path,
    rows: &str,
    ev: &Evaluation,
    holes_path: Option<&std::path::Path>,
    holes: Option<String>,
    reads: &Reads,
) -> Result<()> {
    let sidecar = ev.summary.protocol.as_ref().map(|p| {
        let mut p = p.clone();
        // The hash of the bytes as written (`outputs::write` guards them).
        let written = crate::safe_text::printable(rows);
        p.rows_sha256 = Some(crate::protocol::sha256_hex(written.as_bytes()));
        let mut s = serde_json::to_string_pretty(&p).expect("the protocol always serialises");
        s.push('\n');
        s
    });
    let sidecar_path = crate::protocol::sidecar_path(path);
    fn out<'a>(flag: &'a str, path: &'a std::path::Path, text: &'a str) -> Output<'a> {
        Output { flag, path, text }
    }
    let mut files = vec![out("-o", path, rows)];
    if let Some(s) = &sidecar {
        files.push(out("-o's protocol sidecar", &sidecar_path, s));
    }
    if let (Some(h), Some(text)) = (holes_path, &holes) {
        files.push(out("--holes", h, text));
    }
    crate::outputs::write(&files, reads)
}

/// "1 query", "3 queries".
fn queries(n: usize) -> String {
    if n == 1 {
        "1 query".into()
    } else {
        format!("{n} queries")
    }
}

/// Every file the evaluation reads (an output may be none of them).
fn reads(args: &EvalArgs) -> Reads {
    let mut r = Reads::default();
    r.add("--run file", &args.run);
    for (what, p) in [
        ("--qrels file", &args.qrels),
        ("--corpus file", &args.corpus),
        ("--chunk-map file", &args.chunk_map),
        ("--exact-run file", &args.exact_run),
    ] {
        if let Some(p) = p {
            r.add(what, p);
        }
    }
    r
}

/// The files the flags ask eval to write: `-o FILE` and its protocol sidecar, `--holes FILE`.
fn planned(args: &EvalArgs) -> Vec<(&'static str, PathBuf)> {
    let mut out = Vec::new();
    if let Some(o) = args.output.as_ref().filter(|p| !is_stdout(p)) {
        out.push(("-o", o.clone()));
        out.push(("-o's protocol sidecar", crate::protocol::sidecar_path(o)));
    }
    if let Some(h) = &args.holes {
        out.push(("--holes", h.clone()));
    }
    out
}
