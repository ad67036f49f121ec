//! Entry points of `check` and `compare`: flags → configuration → analysis → outputs → Outcome.

use crate::check::{analyze, analyze_full, exit_code, write_outputs, Outputs};
use crate::cli::{CheckArgs, CompareArgs, OutputArgs};
use crate::config::{self, *};
use crate::error::{Error, Result};
use crate::outcome::Outcome;
use crate::outputs::{refuse_clobbering, Reads};

/// Every file `check` or `compare` reads: the gate file, both sides and their replicates (each
/// with its protocol sidecar), the queries and qrels files, `[eval]` corpus and chunk map, the
/// `[noise]` file and quarantine list. An output may be none of them (`outputs`).
fn reads(cfg: &Config, gate_file: Option<&std::path::Path>) -> Result<Reads> {
    let mut r = Reads::default();
    if let Some(g) = gate_file {
        r.add("gate file", g);
    }
    let i = &cfg.inputs;
    r.add_with_sidecar("baseline", &i.baseline.path);
    r.add_with_sidecar("candidate", &i.candidate.path);
    for s in &i.baseline_more {
        r.add_with_sidecar("baseline replicate", &s.path);
    }
    for s in &i.candidate_more {
        r.add_with_sidecar("candidate replicate", &s.path);
    }
    if let Some(q) = &i.queries {
        r.add("queries file", &q.path);
    }
    if let Some(q) = &i.qrels {
        r.add("qrels file", &q.path);
    }
    if cfg.eval.is_some() {
        let (opts, _) = crate::eval::gate_input::eval_options(cfg)?;
        if let Some(c) = &opts.corpus {
            r.add("[eval] corpus", c);
        }
        if let Some(c) = &opts.chunk_map {
            r.add("[eval] chunk-map", c);
        }
    }
    if let Some(n) = &cfg.noise.file {
        r.add("[noise] file", &n.path);
    }
    if let Some(q) = &cfg.noise.quarantine {
        r.add("[noise] quarantine list", &q.path);
    }
    for (side, c) in ["baseline", "candidate"]
        .iter()
        .zip(cfg.efficiency.cards.iter().flatten())
    {
        r.add(format!("[efficiency] {side} run card"), &c.path);
    }
    Ok(r)
}

/// The files the flags ask `check` / `compare` to write, with the flag that names each.
fn planned<'a>(
    o: &'a OutputArgs,
    holes: Option<&'a std::path::Path>,
) -> Vec<(&'static str, &'a std::path::Path)> {
    [
        ("--output", o.output.as_deref()),
        ("--export-json", o.export_json.as_deref()),
        ("--export-markdown", o.export_markdown.as_deref()),
        ("--export-html", o.export_html.as_deref()),
        ("--holes", holes),
    ]
    .into_iter()
    .filter_map(|(flag, p)| p.map(|p| (flag, p)))
    .collect()
}

fn outputs(o: &OutputArgs) -> Outputs {
    Outputs {
        format: o.format,
        output: o.output.clone(),
        export_json: o.export_json.clone(),
        export_markdown: o.export_markdown.clone(),
        extra: Vec::new(),
        export_html: o.export_html.clone(),
    }
}

/// `rag-gate check`: the gate file with the command line's overrides, `--dump-config` or the
/// analysis, the report files, then publishing; exit 1 when the gate fails. A run that stops
/// with an error under `--comment` marks this gate's PR comment stale.
pub fn check(args: &CheckArgs) -> Result<Outcome> {
    let result = check_gate(args);
    let off = args.publish.comment == crate::publish::CommentMode::Off;
    match result {
        Err(e) if !off && !matches!(e, Error::Publish(_)) => {
            let key = config::load(&args.gate_file).map_or_else(
                |_| config::default_comment_key(&args.gate_file),
                |c| config::comment_key(&c, &args.gate_file),
            );
            let env = crate::publish::GithubEnv::from_process(&args.publish.token_env);
            let lines = crate::publish::mark_stale(&key, &e.to_string(), &args.publish, &env);
            if lines.is_empty() {
                Err(e)
            } else {
                Err(Error::Noted(Box::new(e), lines))
            }
        }
        r => r,
    }
}

fn check_gate(args: &CheckArgs) -> Result<Outcome> {
    let mut cfg = config::load(&args.gate_file)?;
    apply_check_flags(&mut cfg, args)?;
    // [eval] is checked even when no input is a run, so a typo there is never silent.
    let eval = crate::eval::gate_input::eval_settings(&cfg)?;
    let reads = reads(&cfg, Some(&args.gate_file))?;
    refuse_clobbering(&planned(&args.output, args.holes.as_deref()), &reads)?;
    if args.dump_config {
        return Ok(Outcome {
            stdout: config::dump(&cfg, Some(crate::eval::gate_input::eval_table(&eval))),
            ..Default::default()
        });
    }
    if let Some(h) = &args.holes {
        refuse_holes_without_runs(&cfg, h)?;
    }
    let analysis = analyze_full(&cfg)?;
    let report = analysis.report;
    let mut outs = outputs(&args.output);
    if let Some(h) = &args.holes {
        outs.extra.push((
            "--holes",
            h.clone(),
            crate::eval::holes::render(&analysis.holes),
        ));
    }
    let stdout = write_outputs(&report, &outs, &reads)?;
    // After the files are written: job summary, outputs, annotations, the sticky PR comment.
    let env = crate::publish::GithubEnv::from_process(&args.publish.token_env);
    let report_path = args
        .output
        .export_json
        .as_deref()
        .or(args.output.output.as_deref())
        .filter(|p| !crate::atomic::is_stdout(p));
    let publish = crate::publish::PublishArgs {
        comment_key: Some(config::comment_key(&cfg, &args.gate_file)),
        ..args.publish.clone()
    };
    let stderr = crate::publish::publish(&report, report_path, &publish, &env)?;
    Ok(Outcome {
        stdout,
        stderr,
        exit_code: exit_code(report.verdict),
    })
}

/// `--seed` and `--resamples` over the gate file's (in the gate file's ranges), and today's date
/// for quarantine expiry when there is a quarantine list.
fn apply_check_flags(cfg: &mut config::Config, args: &CheckArgs) -> Result<()> {
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
    if cfg.noise.quarantine.is_some() {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 86_400) as i64;
        cfg.noise.today = Some(crate::noise::quarantine::today(args.today.as_deref(), now)?);
    }
    Ok(())
}

/// `--holes PATH` only when both inputs are runs.
fn refuse_holes_without_runs(cfg: &Config, h: &std::path::Path) -> Result<()> {
    let runs = [&cfg.inputs.baseline, &cfg.inputs.candidate]
        .iter()
        .all(|i| matches!(i.kind, InputKind::Run));
    if !runs {
        return Err(Error::Usage(format!(
            "--holes {}: needs both inputs to be runs ({{ run = \"...\" }}); per-query metric files do not say which documents were ranked",
            h.display()
        )));
    }
    Ok(())
}

pub fn compare(args: &CompareArgs) -> Result<Outcome> {
    check_sampling_flags(args.confidence, args.resamples, args.tie_epsilon)?;
    let here = std::path::Path::new("");
    let spec = |p: &std::path::Path| InputSpec {
        path: resolve(here, &p.display().to_string()),
        written: p.display().to_string(),
        kind: InputKind::Metrics {
            format: args.input_format.map(Into::into),
            id_column: args.id_column.clone(),
        },
        span: None,
    };
    let cfg = Config {
        id: "compare".into(),
        inputs: Inputs {
            baseline: spec(&args.baseline),
            candidate: spec(&args.candidate),
            baseline_more: args.baseline_replicates.iter().map(|p| spec(p)).collect(),
            candidate_more: args.candidate_replicates.iter().map(|p| spec(p)).collect(),
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
        slices: Slices::reported_by(&args.by),
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
            lower_is_better: args
                .lower_is_better
                .iter()
                .map(|m| crate::metric_names::canonical(m))
                .collect(),
        },
        eval: None,
        protocol: ProtocolSettings::default(),
        judged: JudgedSettings::default(),
        gates: Vec::new(),
        noise: NoiseSettings::default(),
        policy: Policy::default(),
        efficiency: compare_cards(args),
        warnings: Vec::new(),
        source: SourceText {
            shown: "command line".into(),
            text: String::new(),
        },
    };
    let reads = reads(&cfg, None)?;
    refuse_clobbering(&planned(&args.output, None), &reads)?;
    let mut report = analyze(&cfg).map_err(in_compare_words)?;
    for w in report.warnings.iter_mut().chain(report.notes.iter_mut()) {
        *w = compare_words(std::mem::take(w));
    }
    let stdout = write_outputs(&report, &outputs(&args.output), &reads)?;
    Ok(Outcome {
        stdout,
        stderr: Vec::new(),
        exit_code: crate::outcome::EXIT_PASS,
    })
}

/// `compare --baseline-card --candidate-card`: the Efficiency section without gates.
fn compare_cards(args: &CompareArgs) -> Efficiency {
    let (Some(b), Some(c)) = (&args.baseline_card, &args.candidate_card) else {
        return Efficiency::default();
    };
    let spec = |p: &std::path::Path| InputSpec {
        path: p.to_path_buf(),
        written: p.display().to_string(),
        kind: InputKind::Metrics {
            format: None,
            id_column: String::new(),
        },
        span: None,
    };
    Efficiency {
        cards: Some([spec(b), spec(c)]),
        gates: Vec::new(),
    }
}

/// The shared stages word their hints for the gate file; `compare` has flags instead. Each
/// hint a stage gives and the flag that does the same in `compare`.
const COMPARE_WORDS: [(&str, &str); 7] = [
    (
        "; set id-column in the gate file",
        "; pass --id-column NAME",
    ),
    (
        "(set format = \"csv\" or \"tsv\")",
        "(pass --input-format csv or --input-format tsv)",
    ),
    (
        "set format = \"jsonl\" | \"csv\" | \"tsv\" | \"trec-eval\" | \"ir-measures\"",
        "pass --input-format jsonl|csv|tsv|trec-eval|ir-measures",
    ),
    (
        "or set missing = \"intersect\" in [inputs]",
        "or pass --missing intersect",
    ),
    ("[slices] by: ", "--by: "),
    ("[bootstrap] unit = \"group\"", "--unit group"),
    ("or use unit = \"query\"", "or pass --unit query"),
];

/// A message from the shared stages in `compare`'s words (its flags, never gate-file keys).
fn compare_words(m: String) -> String {
    COMPARE_WORDS
        .iter()
        .fold(m, |m, (gate, flag)| m.replace(gate, flag))
        .replace("[report] metrics: ", "--metric ")
        .replace(
            "missing = \"intersect\": dropped",
            "--missing intersect: dropped",
        )
}

/// An error from the shared stages, in `compare`'s words.
fn in_compare_words(e: Error) -> Error {
    let words = compare_words;
    match e {
        Error::Input { path, line, msg } => Error::Input {
            path,
            line,
            msg: words(msg),
        },
        Error::Config(m) => Error::Config(words(m)),
        other => other,
    }
}
