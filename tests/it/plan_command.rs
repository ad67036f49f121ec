//! `rag-gate plan`: the units each gated rule needs, from the gate file's own inputs. Its
//! figures agree with `check`'s (the detectable drop is the report's MDE), a 0/1 metric is
//! planned from its discordant pairs, a slice where nothing moved or few moved says so, every
//! format renders, bad input is exit 2, and `check`'s "too small" and "for want of data" lines
//! point to `plan` with the number.

use crate::support;
use support::{Out, TestContext};

use std::path::Path;

use serde_json::Value;
use support::output::{assert_contains, assert_input_error, comparison, warnings};

/// `rag-gate plan --pull-requests 0 GATE ARGS`, run in the context's folder.
fn plan_once(ctx: &TestContext, gate: &Path, args: &[&str]) -> Out {
    Out::of(
        ctx.command()
            .args(["plan", "--pull-requests", "0"])
            .arg(gate)
            .args(args),
    )
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `rag-gate plan ARGS` run from the repository root.
fn plan(args: &[&str]) -> support::Out {
    Out::of(
        TestContext::new()
            .cwd(repo())
            .command()
            .arg("plan")
            .args(args)
            .args(["--pull-requests", "0"]),
    )
}

fn rows(v: &Value) -> &Vec<Value> {
    v["rows"].as_array().unwrap()
}

#[test]
fn on_the_example_every_format_renders_and_the_text_is_stable() {
    let text = plan(&["gates/prod.toml"]);
    assert_eq!(text.code, Some(0), "{}", text.stderr);
    insta::assert_snapshot!("example_plan_text", text.stdout);
    let md = plan(&["gates/prod.toml", "--format", "markdown"]);
    assert_eq!(md.code, Some(0), "{}", md.stderr);
    insta::assert_snapshot!("example_plan_markdown", md.stdout);
    let json = plan(&["gates/prod.toml", "--format", "json"]);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["schema"], "rag-gate-plan/1");
    assert_eq!(v["unit"], "group");
    // ndcg@10 max-drop on all and on the critical slice; the min-mean and loss-rate rules have
    // no size to plan and say so.
    assert_eq!(rows(&v).len(), 2);
    assert_eq!(v["not_planned"].as_array().unwrap().len(), 4);
}

#[test]
fn the_detectable_drop_is_checks_mde_and_the_units_reach_the_margin() {
    let v: Value =
        serde_json::from_str(&plan(&["gates/prod.toml", "--format", "json"]).stdout).unwrap();
    let report = TestContext::new()
        .env_clear()
        .check_example(&["--format", "json"])
        .expect(1)
        .json();
    for row in rows(&v) {
        let slice = row["slice"].as_str().unwrap();
        let c = comparison(&report, "ndcg@10", slice);
        let (plan_mde, check_mde) = (
            row["detectable"].as_f64().unwrap(),
            c["mde"].as_f64().unwrap(),
        );
        assert!(
            (plan_mde - check_mde).abs() < 1e-9,
            "{slice}: {plan_mde} vs {check_mde}"
        );
        // Group unit: se scales as 1/√G, so the groups needed are about G·(MDE/m)², a little
        // fewer where today's df is small (its t quantiles are wider than at the planned size),
        // and at most 15% more on these 15–120 groups from averaging the power over the pilot's
        // own uncertainty on the variance (the kurtosis read at its upper limit).
        let (g, need) = (
            row["groups"].as_f64().unwrap(),
            row["needed"].as_f64().unwrap(),
        );
        let m = row["margin"].as_f64().unwrap();
        let rough = g * (check_mde / m).powi(2);
        assert!(
            need <= 1.15 * rough + 1.0 && need >= 0.8 * rough,
            "{slice}: {need} vs {rough}"
        );
        let [lo, hi] = [0, 1].map(|i| row["needed_interval"][i].as_f64().unwrap());
        assert!(lo < need && need < hi, "{row}");
        assert_eq!(row["enough"], false);
    }
}

/// A 0/1 metric: `n` queries, `k` of them discordant (alternating 1 → 0 and 0 → 1).
fn hits(ctx: &TestContext, n: usize, k: usize, gate: &str) -> std::path::PathBuf {
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..n {
        let (x, y) = match i {
            i if i < k && i % 2 == 0 => (1, 0),
            i if i < k => (0, 1),
            i if i % 3 == 0 => (0, 0),
            _ => (1, 1),
        };
        b.push_str(&format!("{{\"query_id\":\"q{i:04}\",\"hit@10\":{x}}}\n"));
        c.push_str(&format!("{{\"query_id\":\"q{i:04}\",\"hit@10\":{y}}}\n"));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    ctx.write(
        "gate.toml",
        format!("[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n\n{gate}"),
    )
}

#[test]
fn a_binary_metric_is_planned_from_its_discordant_pairs() {
    let ctx = TestContext::new();
    let gate = hits(
        &ctx,
        200,
        40,
        "[[gate]]\nmetric = \"hit@10\"\nmax-drop = 0.05\n",
    );
    let out = plan_once(&ctx, &gate, &["--format", "json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let row = &rows(&v)[0];
    assert_eq!(row["discordant"], 40);
    // σ² = p_d = 0.2 under a true change of 0: the plug-in size is 0.2·(t + t)²/0.05², 629 at
    // df 628 ((1.963736 + 0.841927)² · 80 = 629.5). The plan carries the uncertainty of p_d on
    // 200 pairs (Wilson's interval) and the interval's own width: a few percent more.
    let n = row["needed"].as_u64().unwrap();
    assert!((629..=700).contains(&n), "{n}");
    // The discordant pairs that size brings at today's rate: a fifth.
    let d = row["discordant_needed"].as_u64().unwrap();
    assert_eq!(d, (n as f64 * 0.2).ceil() as u64);
    // Wilson on 40/200 bounds the rate to [0.150, 0.261]: the interval's ends are the sizes at
    // those rates (the spread known there), so they stand in that ratio, 1.74, around n.
    let [lo, hi] = [0, 1].map(|i| row["needed_interval"][i].as_f64().unwrap());
    assert!(lo < n as f64 && (n as f64) < hi, "{lo} {n} {hi}");
    assert!((hi / lo - 0.261 / 0.150).abs() < 0.06, "{lo} {hi}");
}

#[test]
fn fail_if_significant_drop_is_planned_to_catch_twice_its_margin_or_the_drop_given() {
    let ctx = TestContext::new();
    let gate = hits(
        &ctx,
        200,
        40,
        "[[gate]]\nmetric = \"hit@10\"\nfail-if-significant-drop = 0.03\n",
    );
    let run = |extra: &[&str]| {
        let out = Out::of(
            ctx.command()
                .arg("plan")
                .arg(&gate)
                .args(["--format", "json"])
                .args(extra),
        );
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        serde_json::from_str::<Value>(&out.stdout).unwrap()
    };
    let v = run(&[]);
    let row = &rows(&v)[0];
    assert_eq!(row["drop"], 0.06);
    // One comparison at α = 0.05: the sign-flip test needs 6 moved units.
    assert_eq!(row["moved_needed"], 6);
    let default_n = row["needed"].as_u64().unwrap();
    let v = run(&["--drop", "0.1"]);
    let bigger = rows(&v)[0]["needed"].as_u64().unwrap();
    assert!(bigger < default_n, "{bigger} vs {default_n}");
    // A drop at the margin never fires reliably: no size, and the note says why.
    let v = run(&["--drop", "0.03"]);
    let row = &rows(&v)[0];
    assert!(row["needed"].is_null());
    assert_contains(
        &row["notes"][0].to_string(),
        "never fires the rule reliably",
    );
}

#[test]
fn nothing_moved_or_few_moved_is_said() {
    let ctx = TestContext::new();
    let gate = hits(
        &ctx,
        60,
        0,
        "[[gate]]\nmetric = \"hit@10\"\nmax-drop = 0.02\n",
    );
    let out = plan_once(&ctx, &gate, &[]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    // Nothing moved: no spread to plan from, and no "from a margin of 0.0000".
    assert_contains(&out.stdout, "no size can be planned");
    assert_contains(&out.stdout, "no unit moved");
    assert_contains(&out.stdout, "today nothing moved between the two sides");
    assert!(
        !out.stdout.contains("from a margin of 0.0000"),
        "{}",
        out.stdout
    );
    // The resolution of 60 queries: 1 − 0.025^(1/60) = 5.97%, a worst cost above 0.02; a drop
    // of 0.02 carried by the fewest queries hides 0.98^60 = 29.8% of the time.
    assert_contains(&out.stdout, "resolution 6.0% of 60 queries");
    assert_contains(&out.stdout, "goes unseen 29.8% of the time");
    let gate = hits(
        &ctx,
        60,
        6,
        "[[gate]]\nmetric = \"hit@10\"\nmax-drop = 0.05\n",
    );
    let out = plan_once(&ctx, &gate, &[]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_contains(&out.stdout, "planned from only 6 units that moved");
}

#[test]
fn bad_input_is_exit_2_with_nothing_printed() {
    let ctx = TestContext::new();
    let missing = ctx.run(&["plan", "nope.toml"]);
    assert_input_error(&missing, &["nope.toml"]);
    let gate = ctx.write("g.toml", "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-dorp = 0.01\n");
    let typo = plan_once(&ctx, &gate, &[]);
    assert_input_error(&typo, &["max-dorp"]);
    let gate = hits(
        &ctx,
        40,
        10,
        "[[gate]]\nmetric = \"hit@10\"\nmax-drop = 0.05\n",
    );
    for (flag, value, want) in [
        ("--power", "1.2", "--power 1.2"),
        ("--drop", "0", "--drop 0:"),
    ] {
        let out = plan_once(&ctx, &gate, &[flag, value]);
        assert_input_error(&out, &[want]);
    }
    // An input that does not parse: the file and the line, as for check.
    std::fs::write(
        ctx.path().join("c.jsonl"),
        "{\"query_id\": \"q0000\", \"hit@10\": }\n",
    )
    .unwrap();
    let out = plan_once(&ctx, &gate, &[]);
    assert_input_error(&out, &["c.jsonl:1:", "not valid JSON"]);
}

#[test]
fn checks_too_small_and_want_of_data_lines_point_to_plan() {
    let ctx = TestContext::new();
    // 40 queries, 10 moved, min-queries 50: too small on all.
    let gate = hits(
        &ctx,
        40,
        10,
        "[slices]\nmin-queries = 50\non-small-slice = \"fail\"\n\n[[gate]]\nmetric = \"hit@10\"\nmax-drop = 0.05\n",
    );
    let report = Out::of(
        ctx.command()
            .arg("check")
            .arg(&gate)
            .args(["--format", "json"])
            .env_clear(),
    )
    .expect(1)
    .json();
    let w = warnings(&report).join("\n");
    assert_contains(&w, "not judged");
    assert_contains(&w, "`rag-gate plan` puts max-drop 0.0500 at about");
    // Large enough to judge but too few to prove no harm: "perhaps for want of data".
    let gate = hits(
        &ctx,
        60,
        20,
        "[[gate]]\nmetric = \"hit@10\"\nmax-drop = 0.05\n",
    );
    let report = Out::of(
        ctx.command()
            .arg("check")
            .arg(&gate)
            .args(["--format", "json"])
            .env_clear(),
    )
    .expect(1)
    .json();
    let w = warnings(&report).join("\n");
    assert_contains(
        &w,
        "perhaps for want of data; `rag-gate plan` puts max-drop 0.0500 at about",
    );
    let plan = plan_once(&ctx, &gate, &["--format", "json"]);
    let v: Value = serde_json::from_str(&plan.stdout).unwrap();
    let n = rows(&v)[0]["needed"].as_u64().unwrap();
    // check's number is plan's (up to the discordance-based variance plan uses for 0/1).
    let said: u64 = w
        .split("at about ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap();
    assert!((said as f64 / n as f64 - 1.0).abs() < 0.05, "{said} vs {n}");
}

#[test]
fn it_predicts_friction_amber_and_escape_on_the_gate_files_own_pair() {
    // 60 queries of a 0/1 metric, 6 moved, max-drop 0.05: honest pull requests (the sides
    // swapped per query) and regressions at the margin, judged as check judges them.
    let ctx = TestContext::new();
    let gate = hits(
        &ctx,
        60,
        6,
        "[[gate]]\nmetric = \"hit@10\"\nmax-drop = 0.05\n",
    );
    let out = Out::of(
        ctx.command()
            .args(["plan", "--pull-requests", "20", "--format", "json"])
            .arg(&gate),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let st = &v["stream"];
    assert_eq!(st["sets"], 20);
    for key in ["friction", "amber", "escape_green", "escape_amber"] {
        let x = st[key].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&x), "{key} {x}");
        // Shares of 20 pull requests.
        assert!((x * 20.0 - (x * 20.0).round()).abs() < 1e-9, "{key} {x}");
    }
    let text = Out::of(
        ctx.command()
            .args(["plan", "--pull-requests", "20"])
            .arg(&gate),
    );
    assert_contains(&text.stdout, "friction: an honest one");
    assert_contains(&text.stdout, "escape: a regression at the margin");
    // The same seed gives the same prediction.
    let again = Out::of(
        ctx.command()
            .args(["plan", "--pull-requests", "20"])
            .arg(&gate),
    );
    assert_eq!(text.stdout, again.stdout);
}
