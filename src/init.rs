//! `rag-gate init`: a commented gate file from the user's own two per-query metric files (and
//! optionally a queries file), which `check` accepts as is and passes when the two files are
//! the same. It measures the pair the way `compare` does, then proposes: a `max-drop` gate per
//! metric with the margin a team writes (`margins`), beside it the units that margin needs for
//! 80% power and the set's resolution, the guarantee (`[verdict]`), the unit (groups when the
//! files give them or the ids carry them), and the slices from the tags with their sizes (those
//! too small to judge commented out). It never overwrites a file, and says on stderr what it
//! guessed (status lines: `-q` silences them).

mod margins;
mod render;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clap::Parser;

use crate::cli::{Cli, Command, InitArgs};
use crate::error::{Error, Result};
use crate::load::{self, Row, Rows};
use crate::model::Report;
use crate::outcome::Outcome;
use crate::outputs::Reads;

/// Patterns tried on the ids when no group is given: multi-turn ids such as `conv7<::>turn2`,
/// `conv-007-t2`, `conv7_turn2`.
const GROUP_PATTERNS: [&str; 2] = ["^(.*)<::>", r"^(.+)[-_:#/]t(?:urn)?\d+$"];

/// Where the groups come from, as the gate file will say it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Groups {
    None,
    /// The queries file or the metric files carry a group per query.
    Given,
    /// `[inputs] group-from-id`, from the flag (`guessed` false) or found in the ids.
    FromIds {
        pattern: String,
        guessed: bool,
    },
}

/// What `init` found in the files, and the measured pair: what the renderer writes from.
pub(crate) struct Design {
    /// The inputs as the gate file names them (relative to its folder).
    pub baseline: String,
    pub candidate: String,
    pub queries: Option<String>,
    pub groups: Groups,
    /// Slice tag → its values, from the queries file and the baseline's rows.
    pub tags: BTreeMap<String, BTreeSet<String>>,
    pub report: Report,
}

/// `rag-gate init`: measure, render, then write the new file (or print it).
pub fn run(args: &InitArgs) -> Result<Outcome> {
    let out = args
        .output
        .as_deref()
        .filter(|p| !crate::atomic::is_stdout(p));
    if let Some(p) = out {
        if std::fs::symlink_metadata(p).is_ok() {
            return Err(Error::Usage(format!(
                "-o {}: the file exists; init never overwrites a file (nothing was written): give a new path",
                p.display()
            )));
        }
    }
    let mut reads = Reads::default();
    reads.add_with_sidecar("baseline", &args.baseline);
    reads.add_with_sidecar("candidate", &args.candidate);
    if let Some(q) = &args.queries {
        reads.add("queries file", q);
    }
    if let Some(p) = out {
        crate::outputs::refuse_clobbering(&[("-o", p)], &reads)?;
    }
    let design = measure(args, out)?;
    let text = render::gate_file(&design);
    // What init guessed and what it wrote are status lines (stderr, as they happen; -q
    // silences them).
    for line in render::guesses(&design) {
        crate::status::info(&line);
    }
    let stdout = match out {
        Some(p) => {
            let output = crate::outputs::Output {
                flag: "-o",
                path: p,
                text: &text,
            };
            crate::outputs::write(&[output], &reads)?;
            crate::status::info(&format!(
                "init: wrote {}; run it with: rag-gate check {}",
                p.display(),
                p.display()
            ));
            String::new()
        }
        None => {
            crate::status::info(
                "init: the paths are relative to the current folder: save the file here, or use -o FILE",
            );
            text
        }
    };
    Ok(Outcome {
        stdout,
        stderr: Vec::new(),
        exit_code: crate::outcome::EXIT_PASS,
    })
}

/// Reads the tags and groups, then measures the pair as `compare` would with them.
fn measure(args: &InitArgs, out: Option<&Path>) -> Result<Design> {
    let shown = |p: &Path| p.display().to_string();
    let base = load::load_metrics(
        &args.baseline,
        &shown(&args.baseline),
        None,
        "query_id",
        &load::ColumnMap::default(),
    )?;
    let queries = match &args.queries {
        Some(q) => load::load_queries(q, &shown(q))?,
        None => Rows::default(),
    };
    let rows = || base.rows.iter().chain(queries.iter());
    let groups = groups(args, &base.rows, rows().any(|r| r.group.is_some()))?;
    let tags = tags(rows());
    let report = analyze(args, &groups, &tags)?;
    let folder = out.map(|p| p.parent().unwrap_or(Path::new("")));
    let written = |p: &Path| written_path(p, folder);
    Ok(Design {
        baseline: written(&args.baseline)?,
        candidate: written(&args.candidate)?,
        queries: args.queries.as_deref().map(written).transpose()?,
        groups,
        tags,
        report,
    })
}

/// The groups: given by the files, by `--group-from-id`, or the first pattern of
/// [`GROUP_PATTERNS`] every id matches that puts some ids together.
fn groups(args: &InitArgs, rows: &Rows, given: bool) -> Result<Groups> {
    if let Some(p) = &args.group_from_id {
        let re = regex::Regex::new(p)
            .map_err(|_| Error::Usage(format!("--group-from-id {p:?}: not a valid regex")))?;
        if re.captures_len() != 2 {
            return Err(Error::Usage(format!(
                "--group-from-id {p:?}: expected exactly one capture group, the group, e.g. \"^(.*)<::>\""
            )));
        }
        return Ok(Groups::FromIds {
            pattern: p.clone(),
            guessed: false,
        });
    }
    if given {
        return Ok(Groups::Given);
    }
    for p in GROUP_PATTERNS {
        let re = regex::Regex::new(p).expect("a valid pattern");
        let found: Option<BTreeSet<&str>> = rows
            .ids()
            .iter()
            .map(|id| re.captures(id).and_then(|c| c.get(1)).map(|g| g.as_str()))
            .collect();
        if found.is_some_and(|g| g.len() >= 2 && g.len() < rows.len()) {
            return Ok(Groups::FromIds {
                pattern: p.to_string(),
                guessed: true,
            });
        }
    }
    Ok(Groups::None)
}

/// Every slice tag and its values.
fn tags<'a>(rows: impl Iterator<Item = Row<'a>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut tags: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for row in rows {
        for (tag, value) in row.slices.iter() {
            tags.entry(tag.to_string())
                .or_default()
                .insert(value.to_string());
        }
    }
    tags
}

/// The pair measured with `compare`'s configuration: every metric, every slice of every tag
/// with two or more values, at the unit the groups say.
fn analyze(
    args: &InitArgs,
    groups: &Groups,
    tags: &BTreeMap<String, BTreeSet<String>>,
) -> Result<Report> {
    let mut argv: Vec<std::ffi::OsString> = vec!["rag-gate".into(), "compare".into()];
    argv.push(args.baseline.clone().into());
    argv.push(args.candidate.clone().into());
    if let Some(q) = &args.queries {
        argv.extend(["--queries".into(), q.clone().into_os_string()]);
    }
    if *groups != Groups::None {
        argv.extend(["--unit".into(), "group".into()]);
    }
    for (tag, values) in tags {
        if values.len() >= 2 {
            argv.extend(["--by".into(), tag.into()]);
        }
    }
    let Ok(Cli {
        command: Command::Compare(compare),
        ..
    }) = Cli::try_parse_from(argv)
    else {
        return Err(Error::Usage(
            "init: the files could not be named to the analysis".into(),
        ));
    };
    let mut cfg = crate::commands::compare_config(&compare)?;
    if let Groups::FromIds { pattern, .. } = groups {
        cfg.inputs.group_from_id = Some(regex::Regex::new(pattern).expect("checked"));
    }
    crate::check::analyze(&cfg)
}

/// `file` as the gate file names it: relative to the gate file's folder, or as given when the
/// gate file is printed (relative to the current folder).
fn written_path(file: &Path, folder: Option<&Path>) -> Result<String> {
    let Some(folder) = folder else {
        return Ok(file.display().to_string());
    };
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let canon = |p: &Path| {
        std::fs::canonicalize(p)
            .map_err(|e| Error::io(p.display().to_string(), "finding the folder", e))
    };
    let (from, to) = (canon(folder)?, canon(file)?);
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut rel = PathBuf::new();
    for _ in from.components().skip(common) {
        rel.push("..");
    }
    for c in to.components().skip(common) {
        rel.push(c);
    }
    Ok(rel.display().to_string().replace('\\', "/"))
}
