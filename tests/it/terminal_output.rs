//! What reaches the terminal besides the report, through the binary: standard output holds the
//! report and nothing else, status lines go to stderr (`-q` silences them, `-v` adds the
//! steps), colour on stderr follows `--color`, NO_COLOR and CLICOLOR_FORCE, and nothing drawn
//! for a terminal (colour, progress) reaches a pipe unasked.

use crate::support;

use support::{Out, TestContext};

const ESC: char = '\u{1b}';

/// The shipped example's `check` with `args`, in an empty environment; both streams UTF-8.
fn example(ctx: &TestContext, args: &[&str]) -> Out {
    ctx.check_example(args).utf8()
}

#[test]
fn with_output_to_a_file_stdout_is_empty_and_the_file_holds_the_report_byte_for_byte() {
    let ctx = TestContext::new().env_clear();
    let file = ctx.join("report.txt");
    let o = example(&ctx, &["-o", file.to_str().unwrap()]);
    assert_eq!(o.code, Some(1), "{}", o.stderr);
    assert_eq!(o.stdout, "", "stdout is for the report only");
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert!(
        lines[0].starts_with("rag-gate prod: FAIL: "),
        "{}",
        o.stderr
    );
    assert_eq!(lines[1], format!("report written to {}", file.display()));
    assert!(
        !o.stderr.contains(ESC),
        "no colour in a pipe: {:?}",
        o.stderr
    );

    let o = example(&ctx, &[]);
    assert_eq!(o.code, Some(1));
    assert_eq!(o.stderr, "", "no status line when the report is on stdout");
    assert_eq!(ctx.read("report.txt"), o.stdout);
}

#[test]
fn quiet_silences_status_lines_and_keeps_warnings_and_errors() {
    let ctx = TestContext::new().env_clear();
    let file = ctx.join("report.json");
    let o = example(
        &ctx,
        &["-q", "--format", "json", "-o", file.to_str().unwrap()],
    );
    assert_eq!(
        (o.code, o.stdout.as_str(), o.stderr.as_str()),
        (Some(1), "", "")
    );
    assert!(ctx.read("report.json").starts_with('{'));

    // A warning (the comment cannot be posted without a token) still shows under -q.
    let o = example(&ctx, &["--quiet", "--comment=best-effort"]);
    assert_eq!(o.code, Some(1));
    assert!(o.stderr.starts_with("warning: "), "{}", o.stderr);
    assert!(!o.stderr.contains("report written"), "{}", o.stderr);

    let o = TestContext::new()
        .run(&["-q", "check", "no-such-gate.toml"])
        .utf8();
    assert_eq!(o.code, Some(2));
    assert!(
        o.stderr.starts_with("error: no-such-gate.toml"),
        "{}",
        o.stderr
    );
}

#[test]
fn verbose_says_each_step_and_quiet_with_verbose_is_a_usage_error() {
    let ctx = TestContext::new().env_clear();
    let o = example(&ctx, &["-v"]);
    assert_eq!(o.code, Some(1));
    assert!(o.stdout.starts_with("rag-gate prod: FAIL"), "{}", o.stdout);
    assert!(o.stderr.contains(": 480 rows, 3 metrics"), "{}", o.stderr);
    assert!(
        o.stderr.contains(
            "paired 480 queries; bootstrap: 3 metrics × 9 slices, 10000 resamples, seed 17"
        ),
        "{}",
        o.stderr
    );
    let plain = example(&ctx, &[]).stdout;
    assert_eq!(o.stdout, plain, "-v never changes the report");

    let o = example(&ctx, &["-q", "-v"]);
    assert_eq!(o.code, Some(2));
    assert!(
        o.stderr
            .contains("'--quiet' cannot be used with '--verbose'"),
        "{}",
        o.stderr
    );
}

#[test]
fn colour_follows_the_flag_then_no_color_then_clicolor_force() {
    // The context runs without the runner's NO_COLOR and CLICOLOR_FORCE; each case sets its own.
    let ctx = TestContext::new();
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
        let o = Out::of(
            ctx.command()
                .args(["check", "no-such-gate.toml"])
                .args(flags)
                .envs(env.iter().copied()),
        )
        .utf8();
        let (stdout, stderr) = (o.stdout, o.stderr);
        assert_eq!(
            (o.code, stdout.as_str()),
            (Some(2), ""),
            "{flags:?} {env:?}"
        );
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
    let ctx = TestContext::new().env_clear();
    let always = example(&ctx, &["--color", "always"]).stdout;
    let plain = example(&ctx, &[]).stdout;
    assert_eq!(always, plain);
    assert!(!always.contains(ESC));
}

#[test]
fn init_says_what_it_guessed_and_wrote_unless_quiet() {
    let ctx = TestContext::new();
    let examples = support::repo("examples");
    let init = |out: &str, quiet: bool| {
        let mut cmd = ctx.command();
        cmd.arg("init")
            .arg("--baseline")
            .arg(examples.join("baseline.jsonl"))
            .arg("--candidate")
            .arg(examples.join("candidate.jsonl"))
            .arg("-o")
            .arg(ctx.join(out));
        if quiet {
            cmd.arg("-q");
        }
        let o = Out::of(&mut cmd).utf8();
        (o.code, o.stdout, o.stderr)
    };
    let (code, stdout, stderr) = init("loud.toml", false);
    assert_eq!((code, stdout.as_str()), (Some(0), ""), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines.len() >= 2, "{stderr}");
    assert!(lines.iter().all(|l| l.starts_with("init: ")), "{stderr}");
    assert!(
        lines.last().unwrap().contains("init: wrote "),
        "the guesses first: {stderr}"
    );

    let (code, stdout, stderr) = init("quiet.toml", true);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (Some(0), "", ""));
    assert_eq!(
        ctx.read("quiet.toml"),
        ctx.read("loud.toml"),
        "-q changes no written byte"
    );
}
