//! The shell completions and man pages shipped in the release archives and the wheel
//! (packaging/data/share/) are what the binary prints from its clap definitions: a flag or a
//! command added without `bash scripts/generate-manuals.sh` fails here, naming the stale file.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clap::CommandFactory;

use crate::support::TestContext;

const COMPLETIONS: [(&str, &str); 4] = [
    ("bash", "bash-completion/completions/rag-gate"),
    ("zsh", "zsh/site-functions/_rag-gate"),
    ("fish", "fish/vendor_completions.d/rag-gate.fish"),
    ("powershell", "powershell/rag-gate.ps1"),
];

fn share() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/data/share")
}

fn printed(args: &[&str]) -> String {
    TestContext::new().run(args).expect(0).utf8().stdout
}

fn committed(rel: &str) -> String {
    std::fs::read_to_string(share().join(rel)).unwrap_or_else(|e| {
        panic!("packaging/data/share/{rel}: {e}; run `bash scripts/generate-manuals.sh`")
    })
}

fn assert_same(rel: &str, now: &str) {
    assert!(
        committed(rel) == now,
        "packaging/data/share/{rel} differs from what the binary prints: run `bash \
         scripts/generate-manuals.sh` and commit the result"
    );
}

/// The man pages the binary lists: (file under share/, the command's words).
fn pages() -> Vec<(String, Vec<String>)> {
    printed(&["man", "--list"])
        .lines()
        .map(|l| {
            let mut words = l.split(' ').map(str::to_string);
            let page = words.next().unwrap();
            (format!("man/man1/{page}.1"), words.collect())
        })
        .collect()
}

#[test]
fn every_completion_script_is_what_the_binary_prints() {
    for (shell, rel) in COMPLETIONS {
        let now = printed(&["completions", shell]);
        // Every command and flags of check and eval reach the script (fish writes `-l qrels`).
        for word in [
            "check",
            "compare",
            "eval",
            "aa",
            "baseline",
            "export-html",
            "qrels",
        ] {
            assert!(now.contains(word), "{shell} completions without {word}");
        }
        assert_same(rel, &now);
    }
}

#[test]
fn every_man_page_is_what_the_binary_prints() {
    let pages = pages();
    let names: Vec<&str> = pages.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        names,
        [
            "man/man1/rag-gate.1",
            "man/man1/rag-gate-check.1",
            "man/man1/rag-gate-compare.1",
            "man/man1/rag-gate-init.1",
            "man/man1/rag-gate-plan.1",
            "man/man1/rag-gate-label-plan.1",
            "man/man1/rag-gate-partial.1",
            "man/man1/rag-gate-merge.1",
            "man/man1/rag-gate-eval.1",
            "man/man1/rag-gate-aa.1",
            "man/man1/rag-gate-baseline.1",
            "man/man1/rag-gate-baseline-fetch.1",
            "man/man1/rag-gate-ledger.1",
            "man/man1/rag-gate-ledger-record.1",
            "man/man1/rag-gate-anchor.1",
            "man/man1/rag-gate-anchor-write.1",
            "man/man1/rag-gate-completions.1",
            "man/man1/rag-gate-man.1",
        ]
    );
    for (rel, words) in &pages {
        let mut args = vec!["man"];
        args.extend(words.iter().map(String::as_str));
        let now = printed(&args);
        assert!(now.starts_with(".ie \\n(.g .ds Aq"), "{rel} is not roff");
        assert_same(rel, &now);
    }
    let check = committed("man/man1/rag-gate-check.1");
    assert!(
        check.contains("export\\-html"),
        "rag-gate-check.1 lacks --export-html"
    );
}

#[test]
fn the_shipped_tree_holds_exactly_those_files() {
    let mut want: BTreeSet<String> = COMPLETIONS.iter().map(|(_, r)| r.to_string()).collect();
    want.extend(pages().into_iter().map(|(p, _)| p));
    let mut have = BTreeSet::new();
    let mut stack = vec![share()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(share()).unwrap();
                have.insert(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    assert_eq!(have, want, "run `bash scripts/generate-manuals.sh`");
}

#[test]
fn a_new_flag_changes_the_completions_and_the_man_page() {
    // What the drift tests above rely on: a flag added to the definitions reaches both outputs.
    let add = |c: clap::Command| {
        c.mut_subcommand("check", |s| {
            s.arg(clap::Arg::new("brand-new").long("brand-new-flag"))
        })
    };
    let mut cmd = add(rag_gate::cli::Cli::command());
    let mut out = Vec::new();
    clap_complete::generate(clap_complete::Shell::Bash, &mut cmd, "rag-gate", &mut out);
    let bash = String::from_utf8(out).unwrap();
    assert!(bash.contains("--brand-new-flag"));
    assert_ne!(bash, committed("bash-completion/completions/rag-gate"));
    let mut cmd = add(rag_gate::cli::Cli::command()).disable_help_subcommand(true);
    cmd.build();
    let check = cmd.find_subcommand("check").unwrap().clone();
    let mut out = Vec::new();
    clap_mangen::Man::new(check).render(&mut out).unwrap();
    let page = String::from_utf8(out).unwrap();
    assert!(page.contains("brand\\-new\\-flag"));
    assert_ne!(page, committed("man/man1/rag-gate-check.1"));
}

#[test]
fn man_of_an_unknown_command_names_the_commands() {
    let out = TestContext::new().run(&["man", "chekc"]).expect(2).utf8();
    let err = out.stderr;
    assert!(
        err.contains(
            "man chekc: no such command; expected one of: check, compare, init, plan, label-plan, partial, merge, eval, aa, baseline, ledger, anchor"
        ),
        "{err}"
    );
}
