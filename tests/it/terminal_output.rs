//! What reaches the terminal besides the report, through the binary: standard output holds the
//! report and nothing else, status lines go to stderr (`-q` silences them, `-v` adds the
//! steps), colour on stderr follows `--color`, NO_COLOR and CLICOLOR_FORCE, and nothing drawn
//! for a terminal (colour, progress) reaches a pipe unasked.

use crate::support;

use support::cli::{check_example, rag_gate};

const ESC: char = '\u{1b}';

fn run(cmd: &mut assert_cmd::Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn with_output_to_a_file_stdout_is_empty_and_the_file_holds_the_report_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.txt");
    let (code, stdout, stderr) = run(check_example().arg("-o").arg(&file));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout, "", "stdout is for the report only");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines[0].starts_with("rag-gate prod: FAIL: "), "{stderr}");
    assert_eq!(lines[1], format!("report written to {}", file.display()));
    assert!(!stderr.contains(ESC), "no colour in a pipe: {stderr:?}");

    let (code, on_stdout, stderr) = run(&mut check_example());
    assert_eq!(code, 1);
    assert_eq!(stderr, "", "no status line when the report is on stdout");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), on_stdout);
}

#[test]
fn quiet_silences_status_lines_and_keeps_warnings_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.json");
    let (code, stdout, stderr) = run(check_example()
        .args(["-q", "--format", "json", "-o"])
        .arg(&file));
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (1, "", ""));
    assert!(std::fs::read_to_string(&file).unwrap().starts_with('{'));

    // A warning (the comment cannot be posted without a token) still shows under -q.
    let (code, _, stderr) = run(check_example().args(["--quiet", "--comment=best-effort"]));
    assert_eq!(code, 1);
    assert!(stderr.starts_with("warning: "), "{stderr}");
    assert!(!stderr.contains("report written"), "{stderr}");

    let (code, _, stderr) = run(rag_gate().args(["-q", "check", "no-such-gate.toml"]));
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: no-such-gate.toml"), "{stderr}");
}

#[test]
fn verbose_says_each_step_and_quiet_with_verbose_is_a_usage_error() {
    let (code, stdout, stderr) = run(check_example().arg("-v"));
    assert_eq!(code, 1);
    assert!(stdout.starts_with("rag-gate prod: FAIL"), "{stdout}");
    assert!(stderr.contains(": 480 rows, 3 metrics"), "{stderr}");
    assert!(
        stderr.contains(
            "paired 480 queries; bootstrap: 3 metrics × 9 slices, 10000 resamples, seed 17"
        ),
        "{stderr}"
    );
    let (_, plain, _) = run(&mut check_example());
    assert_eq!(stdout, plain, "-v never changes the report");

    let (code, _, stderr) = run(check_example().args(["-q", "-v"]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("'--quiet' cannot be used with '--verbose'"),
        "{stderr}"
    );
}

#[test]
fn colour_follows_the_flag_then_no_color_then_clicolor_force() {
    let missing = || {
        let mut cmd = rag_gate();
        cmd.env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .args(["check", "no-such-gate.toml"]);
        cmd
    };
    let red_error = "\u{1b}[1m\u{1b}[31merror:\u{1b}[0m no-such-gate.toml";
    // (flags, environment, whether the error is coloured)
    type Case = (
        &'static [&'static str],
        &'static [(&'static str, &'static str)],
        bool,
    );
    let cases: [Case; 7] = [
        (&[], &[], false),
        (&["--color", "always"], &[], true),
        (&["--color=always"], &[("NO_COLOR", "1")], true),
        (&["--color", "never"], &[("CLICOLOR_FORCE", "1")], false),
        (&[], &[("CLICOLOR_FORCE", "1")], true),
        (&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")], false),
        (&["--color", "auto"], &[("CLICOLOR_FORCE", "0")], false),
    ];
    for (flags, env, coloured) in cases {
        let mut cmd = missing();
        cmd.args(flags).envs(env.iter().copied());
        let (code, stdout, stderr) = run(&mut cmd);
        assert_eq!((code, stdout.as_str()), (2, ""), "{flags:?} {env:?}");
        if coloured {
            assert!(
                stderr.starts_with(red_error),
                "{flags:?} {env:?}: {stderr:?}"
            );
        } else {
            assert!(!stderr.contains(ESC), "{flags:?} {env:?}: {stderr:?}");
            assert!(stderr.starts_with("error: no-such-gate.toml"), "{stderr:?}");
        }
    }
}

#[test]
fn the_report_is_never_coloured() {
    let (_, always, _) = run(check_example().args(["--color", "always"]));
    let (_, plain, _) = run(&mut check_example());
    assert_eq!(always, plain);
    assert!(!always.contains(ESC));
}

#[test]
fn init_says_what_it_guessed_and_wrote_unless_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let init = |out: &str, quiet: bool| {
        let mut cmd = rag_gate();
        cmd.arg("init")
            .arg("--baseline")
            .arg(examples.join("baseline.jsonl"))
            .arg("--candidate")
            .arg(examples.join("candidate.jsonl"))
            .arg("-o")
            .arg(dir.path().join(out));
        if quiet {
            cmd.arg("-q");
        }
        run(&mut cmd)
    };
    let (code, stdout, stderr) = init("loud.toml", false);
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines.len() >= 2, "{stderr}");
    assert!(lines.iter().all(|l| l.starts_with("init: ")), "{stderr}");
    assert!(
        lines.last().unwrap().contains("init: wrote "),
        "the guesses first: {stderr}"
    );

    let (code, stdout, stderr) = init("quiet.toml", true);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));
    let read = |f: &str| std::fs::read_to_string(dir.path().join(f)).unwrap();
    assert_eq!(
        read("quiet.toml"),
        read("loud.toml"),
        "-q changes no written byte"
    );
}
