//! The gate file can make rag-gate read the paths it names and nothing else: no includes, no
//! shell, no environment or `~` expansion, no globbing. Paths in messages are the user's own, as
//! written (relative to the gate file's folder), never expanded or made absolute.

use crate::support;

use std::path::Path;

use support::output::Out;
use support::TestContext;

/// A folder with b.jsonl and c.jsonl (equal), where `HOME` is the folder and `B` is `b.jsonl`.
fn with_home_and_b() -> TestContext {
    let ctx = TestContext::new().env("B", "b.jsonl");
    let home = ctx.path().to_path_buf();
    let ctx = ctx.env("HOME", home);
    let dir = ctx.path();
    let mut b = String::new();
    for i in 0..40 {
        b.push_str(&format!(
            "{{\"query_id\":\"q{i}\",\"ndcg@10\":{}}}\n",
            (i % 10) as f64 / 10.0
        ));
    }
    std::fs::write(dir.join("b.jsonl"), &b).unwrap();
    std::fs::write(dir.join("c.jsonl"), &b).unwrap();
    ctx
}

/// The gate file as text, `extra` on its first line (its errors are asserted by line and column).
fn literal(baseline: &str, extra: &str) -> String {
    format!("{extra}\n[inputs]\nbaseline = {baseline:?}\ncandidate = \"c.jsonl\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.1\n")
}

#[test]
fn shell_syntax_in_paths_is_a_file_name_not_a_command() {
    let ctx = with_home_and_b();
    for (path, marker) in [
        ("$(touch pwned1)", "pwned1"),
        ("`touch pwned2`", "pwned2"),
        ("b.jsonl; touch pwned3", "pwned3"),
        ("b.jsonl && touch pwned4", "pwned4"),
        ("| touch pwned5", "pwned5"),
    ] {
        ctx.gate(literal(path, ""));
        let Out {
            code, stderr: err, ..
        } = ctx.check(&[]);
        assert_eq!(code, Some(2), "{path}: {err}");
        assert!(
            err.starts_with("error: gate.toml:3:12: [inputs] baseline: ")
                && err.contains(&format!("[inputs] baseline: {path}: opening: No such file")),
            "{path}: {err}"
        );
        assert!(!ctx.path().join(marker).exists(), "{path} ran a command");
    }
}

#[test]
fn no_variable_tilde_or_glob_expansion() {
    let ctx = with_home_and_b();
    // HOME and B point at the folder and b.jsonl; the paths must still be taken literally.
    for path in [
        "$B",
        "${B}",
        "~/b.jsonl",
        "$HOME/b.jsonl",
        "b.*",
        "b.json?",
        "[b].jsonl",
        "%B%",
    ] {
        ctx.gate(literal(path, ""));
        let Out {
            code, stderr: err, ..
        } = ctx.check(&[]);
        assert_eq!(code, Some(2), "{path}: {err}");
        assert!(
            err.starts_with("error: gate.toml:3:12: [inputs] baseline: ")
                && err.contains(&format!("[inputs] baseline: {path}: opening: No such file")),
            "{path} was expanded: {err}"
        );
    }
    // The literal name works.
    ctx.gate(literal("b.jsonl", ""));
    let Out {
        code, stderr: err, ..
    } = ctx.check(&[]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn no_includes_or_extends() {
    let ctx = with_home_and_b();
    std::fs::write(ctx.path().join("other.toml"), "[bootstrap]\nseed = 1\n").unwrap();
    for extra in [
        "include = \"other.toml\"",
        "extends = \"other.toml\"",
        "import = [\"other.toml\"]",
        "[include]\npath = \"other.toml\"",
    ] {
        ctx.gate(literal("b.jsonl", extra));
        let Out {
            code, stderr: err, ..
        } = ctx.check(&[]);
        assert_eq!(code, Some(2), "{extra}: {err}");
        assert!(
            err.starts_with("error: gate.toml:1:") && err.contains("unknown field"),
            "{extra}: {err}"
        );
    }
}

/// Paths are shown as written, relative to the gate file's folder: never made absolute, never
/// resolved through symlinks. `..` is allowed (the user named it) and shown as given.
#[test]
fn paths_in_messages_are_the_users_own() {
    let ctx = with_home_and_b();
    let sub = ctx.path().join("gates");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(
        sub.join("g.toml"),
        literal("../missing.jsonl", "").replace("\"c.jsonl\"", "\"../c.jsonl\""),
    )
    .unwrap();
    let err = ctx.check_file("gates/g.toml", &[]).expect(2).stderr;
    assert!(
        err.starts_with(
            "error: gates/g.toml:3:12: [inputs] baseline: missing.jsonl: opening: No such file"
        ),
        "{err}"
    );
    assert!(!err.contains(&ctx.path().display().to_string()), "{err}");
    std::fs::write(
        sub.join("g.toml"),
        literal("../b.jsonl", "").replace("\"c.jsonl\"", "\"../c.jsonl\""),
    )
    .unwrap();
    let v = ctx
        .check_file("gates/g.toml", &["--format", "json"])
        .expect(0)
        .json();
    assert_eq!(
        v["inputs"]["baseline"], "../b.jsonl",
        "the report shows the path as written"
    );
}

/// The only places in the core that touch the file system, the environment or other processes:
/// reading an input (`load::source`, and `input/`, the floor below `load/` and `eval/` that opens
/// files, folders of part files and gzip with its limits), writing a report (`atomic`) and
/// checking that no output is an input (`outputs`: file identities only, never contents). A new
/// one must be added here on purpose. (`eval` and its command, `publish` and the forges are
/// checked by their owners: runs/qrels are inputs the gate file names; publishing and the baseline fetch read the
/// GitHub environment.)
#[test]
fn the_core_reads_only_through_load_source_and_runs_nothing() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let rel = p.strip_prefix(&root).unwrap().display().to_string();
            let text = std::fs::read_to_string(&p).unwrap();
            // Unit tests at the bottom of a file may write fixtures.
            let code = text.split("#[cfg(test)]").next().unwrap();
            // page_rows.rs asks for huge pages on its own allocation: that one libc call (a
            // memory hint, no file, no program) and nothing else from libc.
            let code = match rel.as_str() {
                "stats/page_rows.rs" => code.replace(
                    "libc::madvise(ptr as *mut libc::c_void, len, libc::MADV_HUGEPAGE)",
                    "",
                ),
                _ => code.to_string(),
            };
            for needle in [
                "process::Command",
                "Command::new",
                "std::env::var",
                "env::var(",
                "libc::",
                "system(",
            ] {
                // The forges' clients read their CI's variables and tokens (forge/gitlab/env.rs);
                // checkout.rs reads the CI checkout's folder (GITHUB_WORKSPACE, CI_PROJECT_DIR).
                // The binary's output layer reads NO_COLOR, CLICOLOR_FORCE and TERM (colour only).
                let colour_only = rel == "terminal.rs" && needle.contains("env::var");
                if code.contains(needle)
                    && !colour_only
                    && !rel.starts_with("publish")
                    && !rel.starts_with("forge/github")
                    && !rel.starts_with("forge/gitlab")
                    && rel != "checkout.rs"
                {
                    found.push(format!("{rel}: {needle}"));
                }
            }
            if rel.starts_with("eval")
                || rel == "commands/eval.rs"
                || rel.starts_with("publish")
                || rel.starts_with("forge/github")
                || rel.starts_with("input")
                || rel.ends_with("tests.rs")
            {
                continue;
            }
            for needle in [
                "fs::read",
                "File::open",
                "fs::metadata",
                "OpenOptions",
                "read_dir",
                "include_str!",
                "include_bytes!",
            ] {
                // atomic.rs writes every output: it looks at the destination (symlink, device,
                // mode) and opens pipes and devices for writing.
                // outputs.rs compares the identities (device, inode, link target) of outputs and
                // inputs: metadata and read_link only, never a file's contents.
                let identity_only = rel == "outputs.rs"
                    && (needle == "fs::metadata"
                        || !code.replace("fs::read_link", "").contains(needle));
                if code.contains(needle)
                    && rel != "load/source.rs"
                    && rel != "atomic.rs"
                    && !identity_only
                {
                    found.push(format!("{rel}: {needle}"));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "new ways to read files or run programs: {found:?}"
    );
}
