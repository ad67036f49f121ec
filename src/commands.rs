//! Entry points of `check` and `compare`: flags → configuration → analysis → outputs → Outcome.

use crate::check::{analyze, analyze_full, exit_code, write_outputs, Outputs};
use crate::cli::{CheckArgs, CompareArgs, OutputArgs};
use crate::config::{self, *};
use crate::error::{Error, Result};
use crate::outcome::Outcome;

/// Refuses an output path that is one of the inputs (or the gate file): the report would
/// overwrite the data it was computed from.
/// The path a file would have once written: its canonical path when it exists, else the
/// canonical folder joined with its name (so `a/../r.json` and `r.json` are one file).
fn same_file_key(p: &std::path::Path) -> std::path::PathBuf {
    if let Ok(real) = std::fs::canonicalize(p) {
        return real;
    }
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    match (std::fs::canonicalize(parent), p.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => p.to_path_buf(),
    }
}

fn refuse_overwriting_inputs(
    cfg: &Config,
    gate_file: Option<&std::path::Path>,
    o: &OutputArgs,
) -> Result<()> {
    let i = &cfg.inputs;
    let inputs: Vec<&std::path::Path> = [
        Some(&i.baseline),
        Some(&i.candidate),
        i.queries.as_ref(),
        i.qrels.as_ref(),
    ]
    .into_iter()
    .flatten()
    .map(|s| s.path.as_path())
    .chain(gate_file)
    .collect();
    let outs = [
        ("--output", &o.output),
        ("--export-json", &o.export_json),
        ("--export-markdown", &o.export_markdown),
    ];
    // Two outputs onto one file: the last write would silently win.
    let named: Vec<(&str, &std::path::Path, std::path::PathBuf)> = outs
        .iter()
        .filter_map(|(flag, out)| out.as_deref().map(|p| (*flag, p, same_file_key(p))))
        .collect();
    for (i, (flag, given, key)) in named.iter().enumerate() {
        if let Some((first, _, _)) = named[..i].iter().find(|(_, _, k)| k == key) {
            return Err(Error::Usage(format!(
                "{first} and {flag} name the same file {}; give each output its own path",
                given.display()
            )));
        }
    }
    for (flag, out) in outs {
        let Some(out) = out else { continue };
        let Ok(out_real) = std::fs::canonicalize(out) else {
            continue;
        };
        if let Some(input) = inputs
            .iter()
            .find(|p| std::fs::canonicalize(p).ok().as_ref() == Some(&out_real))
        {
            return Err(Error::Usage(format!(
                "{flag} {}: that is the input {}; refusing to overwrite it",
                out.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

fn outputs(o: &OutputArgs) -> Outputs {
    Outputs {
        format: o.format,
        output: o.output.clone(),
        export_json: o.export_json.clone(),
        export_markdown: o.export_markdown.clone(),
        extra: Vec::new(),
    }
}

pub fn check(args: &CheckArgs) -> Result<Outcome> {
    let mut cfg = config::load(&args.gate_file)?;
    if let Some(seed) = args.seed {
        // A gate file holds TOML integers (i64): a larger seed could not be written back by
        // --dump-config.
        if seed > i64::MAX as u64 {
            return Err(Error::Usage(format!(
                "--seed {seed}: expected 0 to {} (the largest seed a gate file can hold)",
                i64::MAX
            )));
        }
        cfg.bootstrap.seed = seed;
    }
    if let Some(r) = args.resamples {
        if r == 0 || r > MAX_RESAMPLES {
            return Err(Error::Usage(format!(
                "--resamples {r}: expected 1 to {MAX_RESAMPLES}"
            )));
        }
        cfg.bootstrap.resamples = r;
    }
    // [eval] is checked even when no input is a run, so a typo there is never silent.
    crate::eval::gate_input::eval_options(&cfg)?;
    refuse_overwriting_inputs(&cfg, Some(&args.gate_file), &args.output)?;
    if args.dump_config {
        return Ok(Outcome {
            stdout: config::dump(&cfg),
            ..Default::default()
        });
    }
    if let Some(h) = &args.holes {
        let same = |p: &std::path::Path| {
            std::fs::canonicalize(p).ok().is_some()
                && std::fs::canonicalize(p).ok() == std::fs::canonicalize(h).ok()
        };
        let inputs = [&cfg.inputs.baseline, &cfg.inputs.candidate]
            .into_iter()
            .chain(cfg.inputs.qrels.as_ref())
            .map(|i| i.path.as_path())
            .chain([args.gate_file.as_path()]);
        if let Some(p) = inputs.into_iter().find(|p| same(p)) {
            return Err(Error::Usage(format!(
                "--holes {}: that is the input {}; refusing to overwrite it",
                h.display(),
                p.display()
            )));
        }
        let runs = [&cfg.inputs.baseline, &cfg.inputs.candidate]
            .iter()
            .all(|i| matches!(i.kind, InputKind::Run));
        if !runs {
            return Err(Error::Usage(format!(
                "--holes {}: needs both inputs to be runs ({{ run = \"...\" }}); per-query metric files do not say which documents were ranked",
                h.display()
            )));
        }
    }
    let analysis = analyze_full(&cfg)?;
    let report = analysis.report;
    let mut outs = outputs(&args.output);
    if let Some(h) = &args.holes {
        outs.extra
            .push((h.clone(), crate::eval::holes::render(&analysis.holes)));
    }
    let stdout = write_outputs(&report, &outs)?;
    // After the files are written: job summary, outputs, annotations, the sticky PR comment.
    let env = crate::publish::GithubEnv::from_process(&args.publish);
    let report_path = args
        .output
        .export_json
        .as_deref()
        .or(args.output.output.as_deref());
    let stderr = crate::publish::publish(&report, report_path, &args.publish, &env)?;
    Ok(Outcome {
        stdout,
        stderr,
        exit_code: exit_code(report.verdict),
    })
}

pub fn compare(args: &CompareArgs) -> Result<Outcome> {
    if !(args.confidence > 0.0 && args.confidence < 1.0) {
        return Err(Error::Usage(format!(
            "--confidence {}: expected a number strictly between 0 and 1",
            args.confidence
        )));
    }
    if args.resamples == 0 || args.resamples > MAX_RESAMPLES {
        return Err(Error::Usage(format!(
            "--resamples {}: expected 1 to {MAX_RESAMPLES}",
            args.resamples
        )));
    }
    if !(args.tie_epsilon.is_finite() && args.tie_epsilon >= 0.0) {
        return Err(Error::Usage(
            "--tie-epsilon: expected a finite number ≥ 0".into(),
        ));
    }
    let here = std::path::Path::new("");
    let spec = |p: &std::path::Path| InputSpec {
        path: resolve(here, &p.display().to_string()),
        written: p.display().to_string(),
        kind: InputKind::Metrics {
            format: None,
            id_column: args.id_column.clone(),
        },
        span: None,
    };
    let cfg = Config {
        id: "compare".into(),
        inputs: Inputs {
            baseline: spec(&args.baseline),
            candidate: spec(&args.candidate),
            queries: args.queries.as_deref().map(spec),
            qrels: None,
            missing: args.missing.into(),
        },
        bootstrap: Bootstrap {
            resamples: args.resamples,
            seed: args.seed,
            confidence: args.confidence,
            unit: args.unit.into(),
            unit_span: None,
            method: args.method.into(),
        },
        slices: Slices {
            by: args.by.iter().map(|t| (t.clone(), None)).collect(),
            critical: Vec::new(),
            min_queries: 1,
            on_small_slice: OnSmallSlice::Warn,
        },
        report: ReportSettings {
            worst: args.worst,
            tie_epsilon: args.tie_epsilon,
            practical_tie: DEFAULT_PRACTICAL_TIE,
            metrics: (!args.metrics.is_empty()).then(|| {
                args.metrics
                    .iter()
                    .map(|m| (crate::metric_names::canonical(m), None))
                    .collect()
            }),
        },
        eval: None,
        protocol: ProtocolSettings::default(),
        judged: JudgedSettings::default(),
        gates: Vec::new(),
        source: SourceText {
            shown: "command line".into(),
            text: String::new(),
        },
    };
    refuse_overwriting_inputs(&cfg, None, &args.output)?;
    let report = analyze(&cfg)?;
    let stdout = write_outputs(&report, &outputs(&args.output))?;
    Ok(Outcome {
        stdout,
        stderr: Vec::new(),
        exit_code: crate::outcome::EXIT_PASS,
    })
}
