//! `.ci/run` is the pull-request workflow on one machine: its steps are the jobs of
//! .github/workflows/ci.yml in the workflow's order (the browser job runs inside its last step,
//! the whole suite with `RAG_GATE_REQUIRE_BROWSER=1`, and so do the core job's feature-gate tests,
//! with `RAG_GATE_CORE_BIN` naming the core binary), and every script and cargo command a job
//! runs, `.ci/run` runs too. The differences docs/development.md gives are named here: the
//! fuzz targets are checked, not built and replayed, the MSRV toolchain checks rather than
//! builds (and only where rustup has it), and the wheel is built with the tests' profile
//! settings, so the test build links its library.

use serde_norway::Value as Yaml;

fn read(rel: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Shell text as logical lines (continuations joined), trimmed, spaces collapsed, without
/// comments, blank lines and `2>/dev/null`.
fn logical_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut acc = String::new();
    for line in text.lines() {
        let line = line.trim();
        match line.strip_suffix('\\') {
            Some(body) => acc.push_str(body),
            None => {
                acc.push_str(line);
                let joined = acc.replace("2>/dev/null", "");
                let joined = joined.split_whitespace().collect::<Vec<_>>().join(" ");
                if !joined.is_empty() && !joined.starts_with('#') {
                    out.push(joined);
                }
                acc.clear();
            }
        }
    }
    out
}

/// The jobs of ci.yml in file order, each with the commands of its `run:` steps that run a
/// check (cargo, a script, python3); toolchain set-up lines are not compared.
fn workflow_jobs() -> Vec<(String, Vec<String>)> {
    let wf: Yaml = serde_norway::from_str(&read(".github/workflows/ci.yml")).unwrap();
    let jobs = wf["jobs"].as_mapping().expect("ci.yml has jobs");
    jobs.iter()
        .map(|(id, job)| {
            let runs = job["steps"]
                .as_sequence()
                .unwrap()
                .iter()
                .filter_map(|s| s.get("run").and_then(Yaml::as_str))
                .flat_map(logical_lines)
                .filter(|l| {
                    ["cargo ", "bash scripts/", "python3 "]
                        .iter()
                        .any(|p| l.starts_with(p))
                })
                .collect();
            (id.as_str().unwrap().to_string(), runs)
        })
        .collect()
}

/// The step groups of `.ci/run` in order: the word before the colon of each `step "…"` line.
fn local_groups(script: &str) -> Vec<String> {
    let mut groups: Vec<String> = Vec::new();
    for line in logical_lines(script) {
        let Some(name) = line.strip_prefix("step \"") else {
            continue;
        };
        let group = name.split(':').next().unwrap().to_string();
        if groups.last() != Some(&group) {
            groups.push(group);
        }
    }
    groups
}

#[test]
fn the_local_run_has_the_workflows_jobs_in_the_workflows_order() {
    let script = read(".ci/run");
    let jobs: Vec<String> = workflow_jobs().into_iter().map(|(id, _)| id).collect();
    let want: Vec<&str> = jobs
        .iter()
        .map(String::as_str)
        .filter(|j| *j != "browser")
        .collect();
    assert_eq!(
        local_groups(&script),
        want,
        ".ci/run's steps against ci.yml's jobs"
    );
    assert_eq!(jobs.last().map(String::as_str), Some("tests"), "{jobs:?}");
}

#[test]
fn every_command_of_a_job_is_run_by_the_local_run() {
    let script = read(".ci/run");
    let local = logical_lines(&script);
    let runs = |cmd: &str| local.iter().any(|l| l.starts_with(cmd));
    let mut missing = Vec::new();
    for (job, commands) in workflow_jobs() {
        for cmd in commands {
            let found = match (job.as_str(), cmd.as_str()) {
                // The MSRV toolchain checks every target where rustup has it.
                ("msrv", "cargo \"+$MSRV\" build --locked --all-targets") => {
                    runs("cargo \"+$msrv\" check --locked --all-targets")
                }
                // The browser test is part of the whole suite, with a missing browser a failure.
                ("browser", c) if c.contains("report_browser::") => {
                    runs("export RAG_GATE_REQUIRE_BROWSER=1")
                        && runs("cargo nextest run --locked --no-fail-fast")
                }
                // The core binary's feature-gate tests run in the whole suite, which gets the
                // binary's path (tests/it/core_build.rs).
                ("core", c) if c.contains("core_build::") => {
                    runs("export RAG_GATE_CORE_BIN=")
                        && runs("cargo nextest run --locked --no-fail-fast")
                }
                // The wheel built with the tests' profile settings, so the test build reuses its
                // library (docs/development.md); `the_wheel_is_built_as_the_tests_are` holds them
                // equal.
                ("packaging", c) => local.iter().any(|l| {
                    l.strip_suffix(c)
                        .is_some_and(|env| env.starts_with("CARGO_PROFILE_DEV_"))
                }),
                // The fuzz targets type-checked, not built and replayed (docs/development.md).
                ("fuzz", "bash scripts/fuzz-build.sh") => {
                    runs("bash scripts/fuzz-build.sh --check")
                }
                (_, c) => local.iter().any(|l| l == c),
            };
            if !found {
                missing.push(format!("{job}: {cmd}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "run by ci.yml, not by .ci/run:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_tests_step_builds_as_the_tests_job_does() {
    let wf: Yaml = serde_norway::from_str(&read(".github/workflows/ci.yml")).unwrap();
    let script = read(".ci/run");
    for key in ["CARGO_PROFILE_DEV_OPT_LEVEL", "CARGO_PROFILE_DEV_DEBUG"] {
        let level = wf["jobs"]["tests"]["env"][key].as_str();
        let exported = logical_lines(&script).into_iter().find_map(|l| {
            l.strip_prefix(&format!("export {key}="))
                .map(str::to_string)
        });
        assert_eq!(
            level,
            exported.as_deref(),
            "the tests' {key} in ci.yml and .ci/run"
        );
        assert!(level.is_some(), "the tests job sets no {key}");
    }
}

/// The settings `.ci/run` exports for the tests, written before the wheel's build: the
/// library the wheel builds is then the one the test build links, not a second build of it.
#[test]
fn the_wheel_is_built_as_the_tests_are() {
    let lines = logical_lines(&read(".ci/run"));
    let exported: Vec<String> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("export CARGO_PROFILE_DEV_"))
        .map(|l| format!("CARGO_PROFILE_DEV_{l}"))
        .collect();
    let wheel = lines
        .iter()
        .find_map(|l| l.strip_suffix(" bash scripts/check-packaging.sh"))
        .expect(".ci/run builds the wheel with the tests' settings");
    let mut wheel: Vec<&str> = wheel.split(' ').collect();
    let mut tests: Vec<&str> = exported.iter().map(String::as_str).collect();
    wheel.sort_unstable();
    tests.sort_unstable();
    assert_eq!(wheel, tests, "the wheel's settings and the tests'");
}
