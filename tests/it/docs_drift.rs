//! The docs and the binary agree, and these tests fail when they drift apart:
//! - every flag of every subcommand's clap definition is in that command's flag table;
//! - every key `--dump-config` prints (set or listed as not set) is in docs/gate-file.md, and
//!   every key the gate-file parser accepts (asked of the binary: an unknown key's error lists
//!   the accepted ones) is in `--dump-config`;
//! - every `action.yml` input and output is in docs/github.md's tables.

use crate::support;
use support::TestContext;

use std::collections::BTreeSet;
use std::path::Path;

use clap::CommandFactory;

fn doc(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The rows of the Markdown tables in `text` (lines starting with `|`).
fn table_rows(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.trim_start().starts_with('|'))
        .collect()
}

/// True when `word` stands in `line` as itself: not followed by a letter, digit or `-` (so
/// `--export-html` is not found in `--export-html-x`).
fn has_word(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(at, _)| {
        let next = line[at + word.len()..].chars().next();
        let prev = line[..at].chars().next_back();
        !next.is_some_and(|c| c.is_alphanumeric() || c == '-')
            && !prev.is_some_and(|c| c.is_alphanumeric() || c == '-')
    })
}

#[test]
fn every_flag_of_every_subcommand_is_in_its_flag_table() {
    // Where each command's flags are documented.
    let tables = [
        ("check", vec!["docs/gate-file.md", "docs/github.md"]),
        ("compare", vec!["docs/gate-file.md"]),
        ("init", vec!["docs/gate-file.md"]),
        ("plan", vec!["docs/gate-file.md"]),
        ("label-plan", vec!["docs/judges.md"]),
        ("eval", vec!["docs/eval.md"]),
        ("aa", vec!["docs/noise.md"]),
        ("baseline fetch", vec!["docs/github.md"]),
        ("ledger record", vec!["docs/github.md"]),
        ("anchor write", vec!["docs/github.md"]),
        ("partial", vec!["docs/shards.md"]),
        ("merge", vec!["docs/shards.md"]),
    ];
    let cli = rag_gate::cli::Cli::command();
    let mut missing = Vec::new();
    let mut seen = BTreeSet::new();
    // Commands with subcommands of their own (`baseline fetch`) stand for those.
    let mut commands: Vec<(String, &clap::Command)> = Vec::new();
    // `completions` and `man` print generated text (their arguments are in their --help).
    let generated = ["completions", "man"];
    for sub in cli
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && !generated.contains(&s.get_name()))
    {
        if sub.has_subcommands() {
            for s in sub.get_subcommands() {
                commands.push((format!("{} {}", sub.get_name(), s.get_name()), s));
            }
        } else {
            commands.push((sub.get_name().to_string(), sub));
        }
    }
    for (name, sub) in commands {
        let name = name.as_str();
        seen.insert(name.to_string());
        let files = &tables
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no flag table named for the subcommand {name}"))
            .1;
        let texts: Vec<String> = files.iter().map(|f| doc(f)).collect();
        let rows: Vec<&str> = texts.iter().flat_map(|t| table_rows(t)).collect();
        for arg in sub.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            if ["help", "version"].contains(&long) {
                continue;
            }
            let flag = format!("--{long}");
            if !rows.iter().any(|r| has_word(r, &flag)) {
                missing.push(format!("{name} {flag} (in {})", files.join(" or ")));
            }
        }
    }
    assert_eq!(
        seen.len(),
        tables.len(),
        "a subcommand without a flag table"
    );
    assert!(
        missing.is_empty(),
        "flags missing from the docs' flag tables:\n{}",
        missing.join("\n")
    );
}

/// `check GATE --dump-config` on a gate file with metric-file inputs (the [eval] keys then
/// appear as not set).
fn dump(ctx: &TestContext) -> String {
    ctx.write("b.jsonl", "{\"query_id\": \"q1\", \"ndcg@10\": 0.5}\n");
    ctx.write("c.jsonl", "{\"query_id\": \"q1\", \"ndcg@10\": 0.5}\n");
    ctx.write("gate.toml",
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n",
    );
    let out = ctx.run(&["check", "gate.toml", "--dump-config"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    out.stdout
}

/// The keys a dump names: `key = …` lines and the "not set" comment lines.
fn dump_keys(dump: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for line in dump.lines() {
        if let Some((k, _)) = line.split_once(" = ") {
            if !line.starts_with('#') {
                keys.insert(k.trim().to_string());
            }
        }
        if let Some((_, list)) = line.strip_prefix("# ").and_then(|l| l.split_once("]: ")) {
            keys.extend(list.split(", ").map(|k| k.trim().to_string()));
        }
        if let Some(list) = line.strip_prefix("# top level: ") {
            keys.extend(list.split(", ").map(|k| k.trim().to_string()));
        }
    }
    keys
}

#[test]
fn every_dumped_key_is_in_the_gate_file_docs() {
    let ctx = TestContext::new();
    let keys = dump_keys(&dump(&ctx));
    assert!(keys.contains("resamples") && keys.contains("max-k") && keys.contains("corpus"));
    let rows = doc("docs/gate-file.md");
    let rows = table_rows(&rows);
    let missing: Vec<&String> = keys
        .iter()
        .filter(|k| {
            !rows
                .iter()
                .any(|r| r.contains(&format!("`{k}")) || r.contains(&format!(" {k}`")))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "--dump-config keys not in docs/gate-file.md's tables: {missing:?}"
    );
}

/// The keys the parser accepts in a section, from its error for an unknown key ("expected one
/// of `a`, `b`" / "expected `a` or `b`").
fn accepted(ctx: &TestContext, gate: &str) -> Vec<String> {
    ctx.write("probe.toml", gate);
    let out = ctx.run(&["check", "probe.toml", "--dump-config"]);
    assert_eq!(out.code, Some(2), "{gate}");
    let (_, list) = out
        .stderr
        .lines()
        .next()
        .unwrap()
        .split_once("expected ")
        .unwrap_or_else(|| panic!("{}", out.stderr));
    list.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn every_key_the_parser_accepts_is_in_dump_config() {
    let ctx = TestContext::new();
    let keys = dump_keys(&dump(&ctx));
    let inputs = "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n";
    let gate = "[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n";
    let mut probes = vec![
        format!("[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\nbogus-key = 1\n{gate}"),
        format!("[inputs]\nbaseline = {{ path = \"b.jsonl\", bogus-key = 1 }}\ncandidate = \"c.jsonl\"\n{gate}"),
        format!("{inputs}{gate}bogus-key = 1\n"),
    ];
    for section in [
        "bootstrap",
        "slices",
        "report",
        "noise",
        "eval",
        "protocol",
        "judged",
        "policy",
        "baseline",
        "efficiency",
    ] {
        probes.push(format!("{inputs}[{section}]\nbogus-key = 1\n{gate}"));
    }
    let mut missing = Vec::new();
    let mut all = BTreeSet::new();
    for p in &probes {
        for k in accepted(&ctx, p) {
            if !keys.contains(&k) {
                missing.push(k.clone());
            }
            all.insert(k);
        }
    }
    assert!(all.len() > 40, "{all:?}");
    assert!(
        missing.is_empty(),
        "keys the parser accepts that --dump-config never names: {missing:?}"
    );
}

/// The names under `inputs:` or `outputs:` of action.yml (two-space indented `name:` lines).
fn action_names(yml: &str, section: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in yml.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            inside = line.trim_end() == format!("{section}:");
            continue;
        }
        if inside && line.starts_with("  ") && !line.starts_with("   ") {
            if let Some(name) = line.trim().strip_suffix(':') {
                out.push(name.to_string());
            }
        }
    }
    out
}

#[test]
fn every_action_input_and_output_is_in_the_github_docs() {
    let yml = doc("action.yml");
    let github = doc("docs/github.md");
    let rows = table_rows(&github);
    for section in ["inputs", "outputs"] {
        let names = action_names(&yml, section);
        assert!(!names.is_empty(), "no {section} in action.yml");
        let missing: Vec<&String> = names
            .iter()
            .filter(|n| !rows.iter().any(|r| r.contains(&format!("`{n}`"))))
            .collect();
        assert!(
            missing.is_empty(),
            "action.yml {section} not in docs/github.md's tables: {missing:?}"
        );
    }
}

#[test]
fn help_texts_say_what_each_command_does() {
    let help = |cmd: &str| TestContext::new().run(&[cmd, "--help"]).stdout;
    assert!(help("eval").contains("judged@k"), "{}", help("eval"));
    let aa = help("aa");
    assert!(!aa.contains("a gate failed"), "{aa}");
    assert!(
        aa.contains("1  they do (Holm over metric × slice): the instrument is broken"),
        "{aa}"
    );
}

/// Every repository path (`docs/…`, `gates/…`, `examples/…`) named in `text`, without a
/// trailing `#anchor` or sentence punctuation.
fn named_paths(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for root in ["docs/", "gates/", "examples/", "calibration/", "bench/"] {
        for (at, _) in text.match_indices(root) {
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '/' || c == '_' || c == '-') {
                continue;
            }
            let path: String = text[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || "_-./".contains(*c))
                .collect();
            let path = path.trim_end_matches(['.', '-', '/']);
            if path.len() > root.len() {
                out.insert(path.to_string());
            }
        }
    }
    out
}

/// Every command's long help, nested commands too.
fn all_help(cmd: &mut clap::Command, out: &mut Vec<(String, String)>) {
    out.push((
        cmd.get_name().to_string(),
        cmd.render_long_help().to_string(),
    ));
    for sub in cmd.get_subcommands_mut() {
        all_help(sub, out);
    }
}

#[test]
fn every_docs_path_named_in_help_texts_the_man_pages_and_the_readme_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts = Vec::new();
    all_help(&mut rag_gate::cli::Cli::command(), &mut texts);
    texts.push(("README.md".into(), doc("README.md")));
    let man = root.join("packaging/data/share/man/man1");
    for e in std::fs::read_dir(&man).unwrap() {
        let p = e.unwrap().path();
        texts.push((
            p.display().to_string(),
            std::fs::read_to_string(&p).unwrap(),
        ));
    }
    let mut checked = 0;
    let mut missing = Vec::new();
    for (what, text) in &texts {
        // Man pages escape hyphens (`\-`); the help text wraps nothing inside a path.
        let text = text.replace("\\-", "-");
        for p in named_paths(&text) {
            checked += 1;
            if !root.join(&p).exists() {
                missing.push(format!("{what}: {p}"));
            }
        }
    }
    assert!(
        checked > 10,
        "only {checked} paths found: the scan is broken"
    );
    assert!(missing.is_empty(), "named but absent: {missing:#?}");
    assert_eq!(
        named_paths("see docs/eval.md#columns, docs/a-b.md. and xdocs/no.md"),
        BTreeSet::from(["docs/eval.md".to_string(), "docs/a-b.md".to_string()])
    );
}
