//! Entry points of `check` and `compare`: flags → configuration → analysis → outputs → Outcome;
//! `eval`'s in [`eval`].

pub mod eval;
pub mod shards;

use crate::check::{analyze, analyze_with, exit_code, write_outputs, Outputs};
use crate::cli::{CheckArgs, CompareArgs, InputFormatArg, OutputArgs};
use crate::config::{self, *};
use crate::error::{Error, Result};
use crate::outcome::Outcome;
use crate::outputs::{refuse_clobbering, Reads};

/// Every file `check` or `compare` reads: the gate file, both sides and their replicates (each
/// with its protocol sidecar), the queries and qrels files, `[eval]` corpus and chunk map, the
/// `[noise]` file and quarantine list. An output may be none of them (`outputs`).
pub(crate) fn reads(cfg: &Config, gate_file: Option<&std::path::Path>) -> Result<Reads> {
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
    if let Some(p) = &cfg.probe {
        r.add("[probe] baseline run", &p.baseline.path);
        r.add("[probe] candidate run", &p.candidate.path);
    }
    if let Some(n) = &cfg.noise.file {
        r.add("[noise] file", &n.path);
    }
    if let Some(q) = &cfg.noise.quarantine {
        r.add("[noise] quarantine list", &q.path);
    }
    if let Some(p) = crate::provenance::assess::file_of(&i.baseline.path) {
        r.add("baseline's provenance file", p);
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
pub(crate) fn planned<'a>(
    o: &'a OutputArgs,
    holes: Option<&'a std::path::Path>,
    probe_batch: Option<&'a std::path::Path>,
) -> Vec<(&'static str, &'a std::path::Path)> {
    [
        ("--output", o.output.as_deref()),
        ("--export-json", o.export_json.as_deref()),
        ("--export-markdown", o.export_markdown.as_deref()),
        ("--export-html", o.export_html.as_deref()),
        ("--export-junit", o.export_junit.as_deref()),
        ("--holes", holes),
        ("--probe-batch", probe_batch),
    ]
    .into_iter()
    .filter_map(|(flag, p)| p.map(|p| (flag, p)))
    .collect()
}

pub(crate) fn outputs(o: &OutputArgs) -> Outputs {
    Outputs {
        format: o.format,
        output: o.output.clone(),
        export_json: o.export_json.clone(),
        export_markdown: o.export_markdown.clone(),
        extra: Vec::new(),
        export_html: o.export_html.clone(),
        export_junit: o.export_junit.clone(),
    }
}

/// `rag-gate check`: the gate file with the command line's overrides, `--dump-config` or the
/// analysis, the report files, then publishing; exit 1 when the gate fails. Several gate files
/// (or a folder) are checked together (`check_many`). A run that stops with an error under
/// `--comment` marks the sticky PR comment of its gate files stale.
pub fn check(args: &CheckArgs) -> Result<Outcome> {
    let files = gate_files(args)?;
    let result = match files.as_slice() {
        [one] => check_gate(&CheckArgs {
            gate_file: one.clone(),
            more_gate_files: Vec::new(),
            ..args.clone()
        }),
        many => check_many(args, many),
    };
    let off = args.publish.comment == crate::publish::CommentMode::Off;
    match result {
        Err(e) if !off && !matches!(e, Error::Publish(_)) => {
            let mut keys: Vec<String> = files
                .iter()
                .map(|f| {
                    config::load(f).map_or_else(
                        |_| config::default_comment_key(f),
                        |c| config::comment_key(&c, f),
                    )
                })
                .collect();
            keys.sort();
            let key = keys.join("+");
            let env = crate::publish::GithubEnv::from_process(&args.publish.token_env);
            let lines =
                crate::publish::mark_stale(&key, &e.to_string(), &args.publish.settings(), &env);
            if lines.is_empty() {
                Err(e)
            } else {
                Err(Error::Noted(Box::new(e), lines))
            }
        }
        r => r,
    }
}

/// The gate files `check` was given: each path as it is, a folder standing for its `*.toml`
/// files in name order. A folder without one, or a file named twice, is a usage error.
fn gate_files(args: &CheckArgs) -> Result<Vec<std::path::PathBuf>> {
    let mut out: Vec<std::path::PathBuf> = Vec::new();
    for p in std::iter::once(&args.gate_file).chain(&args.more_gate_files) {
        if !p.is_dir() {
            out.push(p.clone());
            continue;
        }
        let found = crate::input::folder::toml_files(p)?;
        out.extend(found);
    }
    let mut seen = std::collections::BTreeSet::new();
    if let Some(twice) = out.iter().find(|p| {
        !seen.insert(config::resolve(
            std::path::Path::new(""),
            &p.to_string_lossy(),
        ))
    }) {
        return Err(Error::Usage(format!(
            "{}: the same gate file is given twice",
            twice.display()
        )));
    }
    Ok(out)
}

/// One gate file of several, analysed: its report (or, when its baseline is missing under
/// `on-missing = "warn"`, the warning), its comment key and the files it reads.
struct FileAnalysis {
    report: std::result::Result<crate::model::Report, String>,
    key: String,
    reads: Reads,
}

fn analyze_file(args: &CheckArgs, file: &std::path::Path) -> Result<FileAnalysis> {
    let mut cfg = config::load(file)?;
    apply_check_flags(&mut cfg, args)?;
    crate::eval::gate_input::eval_settings(&cfg)?;
    let reads = reads(&cfg, Some(file))?;
    let key = config::comment_key(&cfg, file);
    let report = match crate::provenance::assess::missing_baseline(&cfg)? {
        Some(msg) => Err(msg),
        None => Ok(analyze(&cfg)?),
    };
    Ok(FileAnalysis { report, key, reads })
}

/// An error of one gate file among several, naming that file when the message does not.
fn in_gate_file(file: &std::path::Path, e: Error) -> Error {
    let name = file.display().to_string();
    if e.to_string().contains(&name) {
        return e;
    }
    Error::Config(format!("{name}: {e}"))
}

/// Under `--comment`, several gate files keep no state in their combined comment: said in the
/// run, not only in the docs (a re-run of them is judged alone).
fn no_state_warning(
    args: &CheckArgs,
    files: usize,
    actions: bool,
) -> Option<crate::safe_text::Line> {
    (args.publish.comment != crate::publish::CommentMode::Off).then(|| {
        crate::publish::actions::warning(
            actions,
            &format!(
                "{files} gate files in one check keep no state in their combined comment: a \
                 re-run, an empty commit or a rebase is judged on its own attempt, not pooled \
                 with the earlier ones; check each gate file in its own `check --comment` to \
                 pool its re-runs"
            ),
        )
    })
}

/// `check a.toml b.toml …`: every file analysed first (a bad one is exit 2 naming it, before
/// anything is written or posted), then one combined report in every output, one job summary
/// and one sticky comment, and the worst verdict's exit code. Each file's id keys its section
/// and its part of the comment's state; two files with the same id are refused.
fn check_many(args: &CheckArgs, files: &[std::path::PathBuf]) -> Result<Outcome> {
    let one_file_only = [
        ("--dump-config", args.dump_config),
        ("--holes", args.holes.is_some()),
        ("--probe-batch", args.probe_batch.is_some()),
    ];
    if let Some((flag, _)) = one_file_only.iter().find(|(_, given)| *given) {
        return Err(Error::Usage(format!(
            "{flag} takes one gate file; {} were given",
            files.len()
        )));
    }
    let env = crate::publish::GithubEnv::from_process(&args.publish.token_env);
    let mut stderr: Vec<crate::safe_text::Line> = flags_without_effect(&args.publish.settings())
        .iter()
        .map(|m| crate::publish::actions::warning(env.actions, m))
        .collect();
    stderr.extend(no_state_warning(args, files.len(), env.actions));
    let mut all_reads = Reads::default();
    let mut keys: std::collections::BTreeMap<String, &std::path::Path> = Default::default();
    let mut done = Vec::new();
    for file in files {
        let one = analyze_file(args, file).map_err(|e| in_gate_file(file, e))?;
        if let Some(other) = keys.insert(one.key.clone(), file) {
            return Err(Error::Usage(format!(
                "{} and {}: both have the id {}; each gate file needs its own id (it keys its section and its comment state)",
                other.display(),
                file.display(),
                crate::safe_text::shown(&one.key)
            )));
        }
        for (what, path) in one.reads.files() {
            all_reads.add(format!("{what} of {}", file.display()), path);
        }
        match one.report {
            Ok(report) => done.push(crate::model::GateFileReport {
                file: file.display().to_string(),
                key: one.key,
                report,
            }),
            Err(msg) => stderr.push(crate::publish::actions::warning(
                env.actions,
                &format!("{}: {msg}", file.display()),
            )),
        }
    }
    refuse_clobbering(&planned(&args.output, None, None), &all_reads)?;
    if done.is_empty() {
        return Ok(Outcome {
            stderr,
            ..Default::default()
        });
    }
    let combined = crate::report::combined::combine(done);
    let stdout =
        crate::check::write_combined_outputs(&combined, &outputs(&args.output), &all_reads)?;
    let report_path = args
        .output
        .export_json
        .as_deref()
        .or(args.output.output.as_deref())
        .filter(|p| !crate::atomic::is_stdout(p));
    stderr.extend(crate::publish::publish_combined(
        &combined,
        report_path,
        &args.publish.settings(),
        &env,
    )?);
    Ok(Outcome {
        stdout,
        stderr,
        exit_code: combined
            .gate_files
            .iter()
            .map(|f| exit_code(f.report.verdict, &f.report.on_inconclusive))
            .max()
            .unwrap_or(crate::outcome::EXIT_PASS),
    })
}

fn check_gate(args: &CheckArgs) -> Result<Outcome> {
    let mut cfg = config::load(&args.gate_file)?;
    apply_check_flags(&mut cfg, args)?;
    // [eval] is checked even when no input is a run, so a typo there is never silent.
    let eval = crate::eval::gate_input::eval_settings(&cfg)?;
    let reads = reads(&cfg, Some(&args.gate_file))?;
    refuse_clobbering(
        &planned(
            &args.output,
            args.holes.as_deref(),
            args.probe_batch.as_deref(),
        ),
        &reads,
    )?;
    if args.dump_config {
        return Ok(Outcome {
            stdout: config::dump(&cfg, Some(crate::eval::gate_input::eval_table(&eval))),
            ..Default::default()
        });
    }
    refuse_batches_without_runs(&cfg, args)?;
    // A fetch that found no baseline: an error, or under on-missing = "warn" a warning and no check.
    // The summary, the step output and the sticky comment say "not checked", so an earlier ✅
    // never stands for this commit.
    if let Some(msg) = crate::provenance::assess::missing_baseline(&cfg)? {
        let env = crate::publish::GithubEnv::from_process(&args.publish.token_env);
        let publish = crate::publish::PublishArgs {
            comment_key: Some(config::comment_key(&cfg, &args.gate_file)),
            ..args.publish.settings()
        };
        let mut stderr = vec![crate::publish::actions::warning(env.actions, &msg)];
        stderr.extend(crate::publish::not_checked(&msg, &publish, &env));
        return Ok(Outcome {
            stderr,
            ..Default::default()
        });
    }
    let env = crate::publish::GithubEnv::from_process(&args.publish.token_env);
    let publish = crate::publish::PublishArgs {
        comment_key: Some(config::comment_key(&cfg, &args.gate_file)),
        ..args.publish.settings()
    };
    let (analysis, hidden, unread) = analyze_across_runs(&cfg, &publish, &env)?;
    let report = analysis.report;
    let mut outs = outputs(&args.output);
    for (flag, path, holes) in [
        ("--holes", &args.holes, &analysis.holes),
        ("--probe-batch", &args.probe_batch, &analysis.probe_batch),
    ] {
        if let Some(p) = path {
            let text = crate::eval::holes::render_for(p, holes)?;
            outs.extra.push((flag, p.clone(), text));
        }
    }
    let stdout = write_outputs(&report, &outs, &reads)?;
    // After the files are written: job summary, outputs, annotations, the sticky PR comment.
    let report_path = args
        .output
        .export_json
        .as_deref()
        .or(args.output.output.as_deref())
        .filter(|p| !crate::atomic::is_stdout(p));
    let mut stderr: Vec<crate::safe_text::Line> = flags_without_effect(&args.publish.settings())
        .iter()
        .chain(&unread)
        .map(|m| crate::publish::actions::warning(env.actions, m))
        .collect();
    stderr.extend(crate::publish::publish_with_state(
        &report,
        report_path,
        &publish,
        &env,
        hidden,
    )?);
    Ok(Outcome {
        stdout,
        stderr,
        exit_code: exit_code(report.verdict, &report.on_inconclusive),
    })
}

/// The analysis with the pull request's history: under `--comment`, the sticky comment's
/// checked state is read first, the earlier attempts of the judged commit are pooled with this
/// one, and the report gets the history of looks. Also returns the next state block for the
/// comment, and why the comment could not be read (for stderr).
fn analyze_across_runs(
    cfg: &Config,
    publish: &crate::publish::PublishArgs,
    env: &crate::publish::GithubEnv,
) -> Result<(crate::check::Analysis, Option<String>, Option<String>)> {
    let history = match publish.comment {
        crate::publish::CommentMode::Off => Default::default(),
        _ => crate::publish::across_runs::read(publish, env),
    };
    let earlier = history.earlier();
    let mut analysis = analyze_with(cfg, &earlier)?;
    let report = &mut analysis.report;
    let flipped = crate::publish::across_runs::flip_warning(&earlier, report.verdict);
    report.warnings.extend(flipped);
    let alone = crate::publish::across_runs::alone_flips(&earlier, report);
    report.warnings.extend(alone);
    let hidden = history
        .next(
            report,
            earlier.attempt.max(1),
            (&analysis.own, &analysis.extra),
        )
        .map(|mut state| {
            report.looks = crate::publish::across_runs::looks_report(&state);
            let tuning = report.looks.iter().flat_map(|l| l.tuning.clone());
            report.warnings.extend(tuning);
            let key = history.ctx.key.as_deref();
            crate::publish::state::block_within(&mut state, &history.ctx.scope, key)
        });
    Ok((analysis, hidden, history.unread))
}

/// Warnings for publish flags that do nothing without `--comment`: `--comment-mode` other than
/// the default, and `--pr`.
fn flags_without_effect(p: &crate::publish::PublishArgs) -> Vec<String> {
    use crate::publish::{CommentMode, CommentWhen};
    if p.comment != CommentMode::Off {
        return Vec::new();
    }
    let mut out = Vec::new();
    if p.comment_mode != CommentWhen::Always {
        out.push(format!(
            "--comment-mode {} has no effect without --comment: no PR comment is posted (add --comment)",
            crate::choice::Choice::name(p.comment_mode)
        ));
    }
    if let Some(n) = p.pr {
        out.push(format!(
            "--pr {n} has no effect without --comment: no PR comment is posted (add --comment)"
        ));
    }
    out
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
    cfg.report.details |= args.output.details;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let today = crate::noise::quarantine::today(args.today.as_deref(), now)?;
    // The baseline's age in the report counts to this date (the only date a report holds).
    cfg.baseline.today = Some(today);
    if cfg.noise.quarantine.is_some() {
        cfg.noise.today = Some(today);
    }
    Ok(())
}

/// `--holes` only when both inputs are runs, `--probe-batch` only with `[probe]`.
fn refuse_batches_without_runs(cfg: &Config, args: &CheckArgs) -> Result<()> {
    if let Some(h) = &args.holes {
        refuse_holes_without_runs(cfg, h)?;
    }
    if args.probe_batch.is_some() && cfg.probe.is_none() {
        return Err(Error::Usage(format!(
            "--probe-batch: {} has no [probe] (the two sides' runs on unlabelled queries), so there is no batch to write",
            args.gate_file.display()
        )));
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
    let cfg = compare_config(args)?;
    let reads = reads(&cfg, None)?;
    refuse_clobbering(&planned(&args.output, None, None), &reads)?;
    let mut report = analyze(&cfg).map_err(in_compare_words)?;
    refuse_unknown_directions(args, &mut report)?;
    in_compare_notes(&mut report);
    report.warnings.extend(not_judged_by_check(&cfg, &report));
    report
        .warnings
        .extend(unbounded_under_distribution_free(&cfg, &report));
    report.resolution = crate::verdict::resolution::of_comparisons(&cfg, &report.comparisons);
    let stdout = write_outputs(&report, &outputs(&args.output), &reads)?;
    Ok(Outcome {
        stdout,
        stderr: Vec::new(),
        exit_code: crate::outcome::EXIT_PASS,
    })
}

/// The configuration `compare`'s flags describe: no gates, every slice reported at any size.
/// `init` measures its inputs with it too.
pub fn compare_config(args: &CompareArgs) -> Result<Config> {
    check_sampling_flags(args.confidence, args.resamples, args.tie_epsilon)?;
    let spec = compare_input(args)?;
    let b_fmt = args.baseline_format.or(args.input_format);
    let c_fmt = args.candidate_format.or(args.input_format);
    Ok(Config {
        id: "compare".into(),
        inputs: Inputs {
            baseline: spec(&args.baseline, b_fmt),
            candidate: spec(&args.candidate, c_fmt),
            baseline_more: args
                .baseline_replicates
                .iter()
                .map(|p| spec(p, b_fmt))
                .collect(),
            candidate_more: args
                .candidate_replicates
                .iter()
                .map(|p| spec(p, c_fmt))
                .collect(),
            queries: args.queries.as_deref().map(|p| spec(p, args.input_format)),
            qrels: None,
            missing: args.missing.into(),
            group_from_id: None,
        },
        bootstrap: Bootstrap {
            resamples: args.resamples,
            seed: args.seed,
            confidence: args.confidence,
            unit: args.unit.into(),
            unit_span: None,
            method: args.method.into(),
            weights: Default::default(),
            weights_span: None,
            failed_attempts: 0,
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
            details: args.output.details,
        },
        eval: None,
        protocol: ProtocolSettings::default(),
        judged: JudgedSettings::default(),
        judge: None,
        gates: Vec::new(),
        noise: NoiseSettings::default(),
        policy: Policy::default(),
        baseline: BaselineSettings::default(),
        efficiency: compare_cards(args),
        anchor: None,
        probe: None,
        verdict: crate::config::VerdictSettings {
            guarantee: args.guarantee.into(),
            bound_every_mean: true,
            ..Default::default()
        },
        warnings: Vec::new(),
        source: SourceText {
            shown: "command line".into(),
            text: String::new(),
        },
    })
}

/// The report's warnings and notes in `compare`'s words; every unknown direction is given by now
/// (--higher-is-better), so no note says it was assumed.
fn in_compare_notes(report: &mut crate::model::Report) {
    let assumed = |w: &String| !w.contains(": direction unknown, its label reads a rise as better");
    report.warnings.retain(assumed);
    report.notes.retain(assumed);
    for w in report.warnings.iter_mut().chain(report.notes.iter_mut()) {
        *w = compare_words(std::mem::take(w));
    }
}

/// The comparisons below `check`'s default sizes (`min-queries`, `min-groups`), which check
/// judges only with a setup warning, in one warning: compare labels every comparison, and a
/// label on 5 groups must say so.
fn not_judged_by_check(cfg: &Config, report: &crate::model::Report) -> Option<String> {
    let strict = check_sizes(cfg);
    let small: Vec<String> = report
        .comparisons
        .iter()
        .filter_map(|c| {
            let (why, _) = crate::verdict::too_small(&strict, c)?;
            Some(format!("{} on {} ({why})", c.metric, c.slice))
        })
        .collect();
    let listed = first_three(&small)?;
    Some(format!(
        "{} below check's default sizes (min-queries {}, min-groups {}), where check judges only with a setup warning (on-small-slice = \"judge\"), so {} on few units: {listed}",
        crate::numbers::count(small.len(), "comparison is", "comparisons are"),
        crate::config::DEFAULT_MIN_QUERIES,
        crate::config::DEFAULT_MIN_GROUPS,
        if small.len() == 1 { "its label rests" } else { "their labels rest" },
    ))
}

/// Under `--guarantee distribution-free`, the compared means whose metric has no known worst
/// loss (not bounded to [0, 1]): their intervals are the regular ones, in one warning.
fn unbounded_under_distribution_free(
    cfg: &Config,
    report: &crate::model::Report,
) -> Option<String> {
    if cfg.verdict.guarantee != crate::config::Guarantee::DistributionFree {
        return None;
    }
    let mut names: Vec<String> = report
        .comparisons
        .iter()
        .filter(|c| crate::config::worst_unit_loss(&cfg.gates, &c.metric).is_none())
        .map(|c| crate::safe_text::shown(&c.metric))
        .collect();
    names.dedup();
    let listed = first_three(&names)?;
    Some(format!(
        "--guarantee distribution-free bounds the means of metrics in [0, 1] (the worst loss of one query is 1); {listed}: not bounded, so {} the regular interval and label (a gate file gives its worst loss with max-unit-loss)",
        if names.len() == 1 { "it keeps" } else { "they keep" }
    ))
}

/// `cfg` with check's default `min-queries` and `min-groups`: what `check` would judge.
fn check_sizes(cfg: &Config) -> Config {
    let mut strict = cfg.clone();
    strict.slices.min_queries = crate::config::DEFAULT_MIN_QUERIES;
    strict.slices.min_groups = crate::config::DEFAULT_MIN_GROUPS;
    strict
}

/// "a; b; c; and 2 more" (None when there is nothing to list).
fn first_three(items: &[String]) -> Option<String> {
    let shown = items.iter().take(3).cloned().collect::<Vec<_>>().join("; ");
    match items.len() {
        0 => None,
        n if n > 3 => Some(format!("{shown}; and {} more", n - 3)),
        _ => Some(shown),
    }
}

/// A compared column whose direction rag-gate does not know (not an IR metric) and that neither
/// `--lower-is-better` nor `--higher-is-better` names: a 9× latency rise must not read "better".
fn refuse_unknown_directions(args: &CompareArgs, report: &mut crate::model::Report) -> Result<()> {
    let canon = |v: &[String]| -> Vec<String> {
        v.iter()
            .map(|m| crate::metric_names::canonical(m))
            .collect()
    };
    let (lower, higher) = (canon(&args.lower_is_better), canon(&args.higher_is_better));
    if let Some(m) = lower.iter().find(|m| higher.contains(m)) {
        return Err(Error::Usage(format!(
            "--lower-is-better {m} and --higher-is-better {m}: a metric has one direction"
        )));
    }
    let unknown = |m: &str| {
        !crate::metric_names::direction_known(m)
            && !lower.iter().any(|l| l == m)
            && !higher.iter().any(|h| h == m)
    };
    let mut left_out: Vec<String> = Vec::new();
    for c in report.comparisons.iter().filter(|c| unknown(&c.metric)) {
        if !left_out.contains(&c.metric) {
            left_out.push(c.metric.clone());
        }
    }
    let Some(m) = left_out.first().map(|m| crate::safe_text::shown(m)) else {
        return Ok(());
    };
    let question = format!(
        "{m}: is a higher {m} better or worse? rag-gate knows the direction of IR metrics only; pass --lower-is-better {m} (latency, cost) or --higher-is-better {m}"
    );
    if left_out.len()
        == report
            .comparisons
            .iter()
            .map(|c| &c.metric)
            .collect::<std::collections::BTreeSet<_>>()
            .len()
    {
        return Err(Error::Usage(format!(
            "{question}, or leave it out with --metric"
        )));
    }
    // The metrics of known direction are compared; the others are left out, named, never labelled.
    report.comparisons.retain(|c| !unknown(&c.metric));
    report.warnings.push(format!(
        "not compared, direction unknown: {}; {question}",
        crate::error::few(&left_out, 8)
    ));
    Ok(())
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
            columns: Default::default(),
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
const COMPARE_WORDS: [(&str, &str); 8] = [
    (
        "; set id-column in the gate file",
        "; pass --id-column NAME",
    ),
    (
        "(set format = \"csv\" or \"tsv\")",
        "(pass --input-format csv or --input-format tsv)",
    ),
    (
        "set format = \"jsonl\" | \"csv\" | \"tsv\" | \"parquet\" | \"trec-eval\" | \"ir-measures\"",
        "pass --input-format jsonl|csv|tsv|parquet|trec-eval|ir-measures",
    ),
    (
        "or set missing = \"intersect\" in [inputs]",
        "or pass --missing intersect",
    ),
    (
        "give it as { run = \"...\" } with qrels in [inputs], or evaluate",
        "evaluate",
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
        .replace(crate::check::ONE_RUN_NO_NOISE, "one baseline run")
        .replace(
            crate::check::RUN_NOISE_ADVICE,
            "give each further run of main with --baseline-replicate FILE, or record main's run-to-run noise with `rag-gate aa` and gate with `rag-gate check` and a [noise] file",
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

/// How compare reads each of its files: the side's format flag (`--baseline-format`,
/// `--candidate-format`, else `--input-format`), `--id-column`, `--column`.
fn compare_input(
    args: &CompareArgs,
) -> Result<impl Fn(&std::path::Path, Option<InputFormatArg>) -> InputSpec + '_> {
    let columns = column_flags(&args.columns)?;
    Ok(
        move |p: &std::path::Path, format: Option<InputFormatArg>| InputSpec {
            path: resolve(std::path::Path::new(""), &p.display().to_string()),
            written: p.display().to_string(),
            kind: InputKind::Metrics {
                format: format.map(Into::into),
                id_column: args.id_column.clone(),
                columns: columns.clone(),
            },
            span: None,
        },
    )
}

/// `--column ROLE=COLUMN` flags as a column mapping: `id`, `group`, `slice:TAG`, else a metric.
fn column_flags(flags: &[String]) -> Result<crate::load::ColumnMap> {
    let mut map = crate::load::ColumnMap::default();
    for f in flags {
        let Some((role, column)) = f
            .split_once('=')
            .filter(|(r, c)| !r.is_empty() && !c.is_empty())
        else {
            return Err(Error::Usage(format!(
                "--column {f}: expected ROLE=COLUMN, e.g. id=sample_id, group=conversation_id, slice:lang=language or recall@5=context_recall"
            )));
        };
        let column = column.to_string();
        match role {
            "id" => map.id = Some(column),
            "group" => map.group = Some(column),
            _ => match role.strip_prefix("slice:") {
                Some(tag) => {
                    map.slices.insert(tag.to_string(), column);
                }
                None => {
                    map.metrics
                        .insert(crate::metric_names::canonical(role), column);
                }
            },
        }
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    /// Every gate-file hint `compare` rewrites is still a hint some stage gives: when a stage's
    /// wording changes (a new format, say), the rewrite would silently stop and `compare` would
    /// name gate-file keys it does not have.
    #[test]
    fn every_hint_compare_rewrites_is_still_given_by_a_stage() {
        fn sources(dir: &std::path::Path, out: &mut String) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    sources(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs")
                    && !path.ends_with("commands.rs")
                {
                    out.push_str(&std::fs::read_to_string(&path).unwrap());
                }
            }
        }
        let mut src = String::new();
        sources(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut src,
        );
        // The stages write their messages as Rust string literals: quotes are escaped there.
        let src = src.replace("\\\"", "\"");
        for (gate, _) in super::COMPARE_WORDS {
            assert!(src.contains(gate), "no stage says {gate:?} any more");
        }
    }
}
