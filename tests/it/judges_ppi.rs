//! `[judge]` through the binary against independent implementations, on TREC-COVID round 2 with
//! the simulated judge of tests/data/judges: the corrected point estimate equals ppi-python's
//! (calibration/ppi_binary_reference.py) at the query unit — ten labelled queries in nine
//! conversations count as ten — and at the group unit; the three κ equal scikit-learn's
//! (calibration/sklearn_kappa.py). With `gate-on = "corrected"` (the default) every figure of a
//! mean comparison belongs to the corrected analysis.

use crate::support::{Out, TestContext};
use serde_json::Value;

fn data(name: &str) -> String {
    format!("{}/tests/data/judges/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn reference(file: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(data(file)).unwrap()).unwrap()
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn ten_labelled_queries_in_nine_conversations_are_ten_and_the_estimate_is_ppi_pythons() {
    let ctx = TestContext::new();
    let want = &reference("ppi/expected.json")["query-unit-10-in-9"];
    let r = Out::of(
        ctx.command()
            .arg("check")
            .arg(data("ppi/query-unit.toml"))
            .args(["--format", "json"]),
    )
    .expect(1)
    .json();
    let d = &r["judge"]["deltas"][0];
    assert!(d["not_judged"].is_null(), "{d}");
    let c = &d["corrected"];
    assert_eq!(c["labelled"], want["labelled_queries"]);
    assert_eq!(c["labelled"], 10);
    assert_eq!(c["unlabelled"], want["unlabelled_queries"]);
    let (got, expected) = (num(&c["delta"]), num(&want["estimate"]));
    assert!(
        (got - expected).abs() < 1e-9,
        "{got} vs ppi-python {expected}"
    );
}

#[test]
fn whole_labelled_conversations_count_as_groups_and_the_estimate_is_ppi_pythons() {
    let ctx = TestContext::new();
    let want = &reference("ppi/expected.json")["group-unit-whole"];
    let r = Out::of(
        ctx.command()
            .arg("check")
            .arg(data("ppi/group-unit.toml"))
            .args(["--format", "json"]),
    )
    .expect(1)
    .json();
    assert_eq!(r["unit"], "group");
    let c = &r["judge"]["deltas"][0]["corrected"];
    assert_eq!(c["labelled"], want["labelled_groups"]);
    assert_eq!(c["unlabelled"], want["unlabelled_groups"]);
    let (got, expected) = (num(&c["delta"]), num(&want["estimate"]));
    assert!(
        (got - expected).abs() < 1e-9,
        "{got} vs ppi-python {expected}"
    );
    // The comparison counts the queries of the corrected analysis and the groups behind them.
    let cmp = &r["comparisons"][0];
    assert_eq!(
        cmp["n"].as_u64(),
        Some(
            want["labelled_queries"].as_u64().unwrap()
                + want["unlabelled_queries"].as_u64().unwrap()
        )
    );
}

#[test]
fn the_three_kappas_equal_scikit_learns_and_are_named() {
    let ctx = TestContext::new();
    let want = &reference("kappa_reference.json")["fixture"];
    let r = Out::of(
        ctx.command()
            .arg("check")
            .arg(data("corrected.toml"))
            .args(["--format", "json"]),
    )
    .expect(1)
    .json();
    let a = &r["judge"]["agreement"];
    assert_eq!(a["pairs"], want["pairs"]);
    assert_eq!(a["confusion"], want["confusion"]);
    for (ours, theirs) in [
        ("kappa", "unweighted"),
        ("kappa_linear", "linear"),
        ("kappa_binary", "binary"),
    ] {
        let (got, expected) = (num(&a[ours]), num(&want[theirs]));
        assert!(
            (got - expected).abs() < 1e-9,
            "{ours}: {got} vs sklearn {expected}"
        );
    }
    assert_eq!(a["relevance_level"], 1);
    let out = ctx.run(&["check", &data("corrected.toml")]);
    let text = out.stdout.as_str();
    for words in [
        "binary (relevant at grade ≥ 1) 0.887",
        "linear-weighted on grades 0.900",
        "unweighted on grades 0.868",
        "no κ floor (min-kappa unset)",
    ] {
        assert!(text.contains(words), "{words:?} not in\n{text}");
    }
}

#[test]
fn an_over_grading_judge_reads_poor_unweighted_and_fair_weighted_as_scikit_learn_says() {
    use rag_gate::eval::agreement::{kappa, weighted_kappa};
    let want = &reference("kappa_reference.json")["over-grader"];
    let table: Vec<Vec<usize>> = serde_json::from_value(want["confusion"].clone()).unwrap();
    let unweighted = kappa(&table).unwrap();
    let linear = weighted_kappa(&table).unwrap();
    assert!((unweighted - num(&want["unweighted"])).abs() < 1e-9);
    assert!((linear - num(&want["linear"])).abs() < 1e-9);
    // Relevant at grade ≥ 1: grade 0 against grades 1 and 2.
    let binary = [
        [table[0][0], table[0][1] + table[0][2]],
        [
            table[1][0] + table[2][0],
            table[1][1] + table[1][2] + table[2][1] + table[2][2],
        ],
    ];
    let binary: Vec<Vec<usize>> = binary.iter().map(|r| r.to_vec()).collect();
    assert!((kappa(&binary).unwrap() - num(&want["binary"])).abs() < 1e-9);
    assert!(unweighted < 0.2 && linear > 0.3, "{unweighted} {linear}");
}

#[test]
fn a_corrected_report_is_one_analysis() {
    let ctx = TestContext::new();
    let r = Out::of(
        ctx.command()
            .arg("check")
            .arg(data("corrected.toml"))
            .args(["--format", "json"]),
    )
    .expect(1)
    .json();
    let j = &r["judge"];
    let d = &j["deltas"][0];
    let c = &d["corrected"];
    let cmp = &r["comparisons"][0];
    // Every figure of the row is the corrected analysis': n counts each query the judge scored,
    // the sides' means differ by the corrected delta, win/tie/loss cover the n queries.
    assert_eq!(cmp["n"], j["queries"]);
    assert_eq!(j["queries"], 35);
    assert_eq!(j["labelled_queries"], 12);
    assert_eq!(cmp["delta"], c["delta"]);
    assert_eq!(cmp["ci"], c["ci"]);
    let sides = num(&cmp["candidate_mean"]) - num(&cmp["baseline_mean"]);
    assert!((sides - num(&c["delta"])).abs() < 1e-12, "{cmp}");
    let counted = ["wins", "ties", "losses"]
        .iter()
        .map(|k| cmp[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(counted, 35);
    // The human-only and judge-only figures are beside it, labelled, with their own counts.
    assert_eq!(d["human"]["units"], 12);
    assert_eq!(d["judge_only"]["units"], 35);
    // The correction's worth in human labels: a judge the humans agree with is worth more.
    assert!(num(&c["worth_labelled"]) > 12.0, "{c}");
    let out = ctx.run(&["check", &data("corrected.toml")]);
    let text = out.stdout.as_str();
    assert!(
        text.contains(
            "35 queries paired under the judge's labels (12 human-labelled, 23 judge-only)"
        ),
        "{text}"
    );
    let p_line = text
        .lines()
        .find(|l| l.trim_start().starts_with("p: "))
        .unwrap();
    assert!(
        p_line.contains("normal-theory test of the judge-corrected"),
        "{p_line}"
    );
    assert!(text.contains("worth (human labels)"), "{text}");
}

/// docs/judges.md's example on the fixture: `[judge]` with `min-labelled = 10` and no
/// `gate-on` or `[slices] min-queries`: the corrected delta decides (12 human-labelled of 35
/// queries), not a "too few queries" refusal of the 12 labelled ones.
#[test]
fn the_documented_example_is_judged_by_default() {
    let ctx = TestContext::new();
    let runs = format!(
        "{}/tests/data/eval/fixtures/trec-covid-r2",
        env!("CARGO_MANIFEST_DIR")
    );
    let g = ctx.write("gate.toml",
        format!(
            "[inputs]\nbaseline = {{ run = \"{runs}/run.covidex-t5.txt\" }}\ncandidate = {{ run = \"{runs}/run.covidex-sim.txt\" }}\nqrels = \"{}\"\n\n[judge]\nqrels = \"{}\"\nmin-labelled = 10\n\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\n",
            data("human.qrels"),
            data("judge.qrels")
        ),
    );
    let r = ctx.check_file(&g, &["--format", "json"]).expect(1).json();
    assert_eq!(r["judge"]["gate_on"], "corrected");
    let gate = &r["gates"][0];
    assert_eq!(gate["status"], "fail", "{gate}");
    assert!(
        gate["detail"].as_str().unwrap().contains("judge-corrected"),
        "{gate}"
    );
    assert!(r["judge"]["min_kappa"].is_null());
    // Gating on the humans alone reads the 12 labelled queries: fewer than the default
    // `[slices] min-queries`, so they are judged on their interval with a warning saying so (the
    // docs say so); the drop is large enough to fail on 12.
    let human = ctx.write(
        "human.toml",
        std::fs::read_to_string(&g).unwrap().replace(
            "min-labelled = 10",
            "min-labelled = 10\ngate-on = \"human\"",
        ),
    );
    let r = ctx
        .check_file(&human, &["--format", "json"])
        .expect(1)
        .json();
    assert_eq!(r["gates"][0]["status"], "fail", "{}", r["gates"][0]);
    let warned = r["warnings"].as_array().unwrap().iter().any(|w| {
        w.as_str()
            .unwrap()
            .contains("judged on 12 queries, fewer than min-queries 30")
    });
    assert!(warned, "{}", r["warnings"]);
}

/// `label-plan`: per gate, the human labels its corrected gate needs at its margin and power, and
/// a seeded random batch of unlabelled queries (whole conversations with the group unit) as JSON
/// lines with each unit's inclusion probability; the same seed gives the same bytes.
#[test]
fn the_labelling_plan_sizes_each_gate_and_draws_the_next_batch() {
    let ctx = TestContext::new();
    let out = ctx.path().join("next.jsonl");
    let run = |gate: &str, batch: &str| {
        let o = Out::of(
            ctx.command()
                .args([
                    "label-plan",
                    &data(gate),
                    "--format",
                    "json",
                    "--batch",
                    batch,
                    "-o",
                ])
                .arg(&out),
        );
        assert_eq!(o.code, Some(0), "{}", o.stderr);
        let plan: Value = serde_json::from_str(&o.stdout).unwrap();
        let rows: Vec<Value> = std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (plan, rows)
    };
    let (plan, rows) = run("corrected.toml", "5");
    let g = &plan["gates"][0];
    assert_eq!(
        (g["metric"].as_str(), g["labelled"].as_u64()),
        (Some("ndcg@10"), Some(12))
    );
    assert_eq!(g["units"], 35);
    assert_eq!(g["margin"], 0.05);
    assert_eq!(
        (plan["batch"].as_u64(), plan["pool"].as_u64()),
        (Some(5), Some(23))
    );
    assert_eq!(rows.len(), 5);
    let human = std::fs::read_to_string(data("human.qrels")).unwrap();
    for r in &rows {
        let q = r["query_id"].as_str().unwrap();
        assert!(
            !human
                .lines()
                .any(|l| l.split_whitespace().next() == Some(q)),
            "{q} is labelled"
        );
        assert!((r["inclusion_probability"].as_f64().unwrap() - 5.0 / 23.0).abs() < 1e-12);
    }
    let again = run("corrected.toml", "5").1;
    assert_eq!(rows, again);
    // The group unit draws whole conversations.
    let (plan, rows) = run("ppi/group-unit.toml", "2");
    assert_eq!(plan["unit"], "group");
    assert_eq!(
        (plan["batch"].as_u64(), plan["pool"].as_u64()),
        (Some(2), Some(12))
    );
    let groups: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r["group"].as_str().unwrap()).collect();
    assert_eq!(groups.len(), 2);
    assert!(rows.len() >= 3, "{rows:?}");
    // Without [judge] there is nothing to plan: exit 2.
    let o = ctx.run(&["label-plan", &data("human.toml")]);
    assert_eq!(o.code, Some(2));
    assert!(o.stderr.contains("needs a [judge] table"));
}

/// `label-plan --assurance`: the plan reads the labelled spreads at their upper confidence limit
/// (the share of pilots for which the size gives the power), so a higher assurance never asks
/// for fewer labels; an assurance outside [0.5, 1) is exit 2, and a `--batch` above the
/// unlabelled units left draws them all and says so.
#[test]
fn the_labelling_plan_asks_more_labels_for_more_assurance() {
    let ctx = TestContext::new();
    let gate = ctx.path().join("wide.toml");
    let text = std::fs::read_to_string(data("corrected.toml"))
        .unwrap()
        .replace("max-drop = 0.05", "max-drop = 0.3")
        .replace("\"../eval/", &format!("\"{}/../eval/", data("")))
        .replace("\"human.qrels\"", &format!("{:?}", data("human.qrels")))
        .replace("\"judge.qrels\"", &format!("{:?}", data("judge.qrels")));
    std::fs::write(&gate, text).unwrap();
    let needed = |assurance: &str| {
        let o = Out::of(
            ctx.command()
                .args(["label-plan", "--format", "json", "--assurance", assurance])
                .arg(&gate),
        );
        assert_eq!(o.code, Some(0), "{}", o.stderr);
        let plan: Value = serde_json::from_str(&o.stdout).unwrap();
        assert_eq!(plan["assurance"].as_f64(), Some(assurance.parse().unwrap()));
        plan["gates"][0]["needed"]
            .as_u64()
            .expect("reachable at margin 0.3")
    };
    let (half, default, high) = (needed("0.5"), needed("0.8"), needed("0.95"));
    assert!(half < default && default < high, "{half} {default} {high}");
    for bad in ["1", "0.4", "nan"] {
        let o = Out::of(
            ctx.command()
                .args(["label-plan", "--assurance", bad])
                .arg(&gate),
        );
        assert_eq!(o.code, Some(2), "--assurance {bad}");
    }
    let o = Out::of(
        ctx.command()
            .args(["label-plan", "--format", "json", "--batch", "100"])
            .arg(&gate),
    );
    assert_eq!(o.code, Some(0));
    let plan: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(
        (plan["batch"].as_u64(), plan["pool"].as_u64()),
        (Some(23), Some(23))
    );
    assert!(
        o.stderr
            .as_str()
            .contains("--batch 100: only 23 unlabelled queries are left"),
        "{}",
        o.stderr.as_str()
    );
}

/// `label-plan` on a gate its units cannot reach promises no size: it says so, with the power
/// all but two units labelled would give and the smallest margin the power reaches, and that
/// margin is reachable. A `max-change` gate (a no-op must stay inside ±margin) needs more
/// labels than a `max-drop` gate at the same margin.
#[test]
fn the_labelling_plan_says_what_it_cannot_reach_and_plans_each_rule() {
    let ctx = TestContext::new();
    let plan = |rule: &str| {
        let text = std::fs::read_to_string(data("corrected.toml"))
            .unwrap()
            .replace("max-drop = 0.05", rule)
            .replace("\"../eval/", &format!("\"{}/../eval/", data("")))
            .replace("\"human.qrels\"", &format!("{:?}", data("human.qrels")))
            .replace("\"judge.qrels\"", &format!("{:?}", data("judge.qrels")));
        ctx.gate(text);
        let run = |format: &str| {
            ctx.run(&["label-plan", "--format", format, "gate.toml"])
                .expect(0)
                .utf8()
                .stdout
        };
        let json: Value = serde_json::from_str(&run("json")).unwrap();
        (json["gates"][0].clone(), run("text"))
    };
    let (g, text) = plan("max-drop = 0.05");
    assert_eq!(
        (g["needed"].is_null(), g["rule"].as_str()),
        (true, Some("max-drop"))
    );
    let most = g["power_at_most"].as_f64().unwrap();
    let margin = g["reachable_margin"].as_f64().unwrap();
    assert!(most > 0.0 && most < 0.8, "{g}");
    assert!(margin > 0.05, "{g}");
    assert!(
        text.contains(&format!(
            "not reachable: with all but two of the 35 labelled it passes with power about {most:.2} (has 12); power 0.8 needs a margin of {margin:.4} or more"
        )),
        "{text}"
    );
    // The margin it names is reachable; a hair below it is not.
    let (at, _) = plan(&format!("max-drop = {}", margin + 1e-9));
    assert!(at["needed"].as_u64().is_some(), "{at}");
    assert!(at["power_at_most"].is_null(), "{at}");
    let (below, _) = plan(&format!("max-drop = {}", margin - 1e-6));
    assert!(below["needed"].is_null(), "{below}");
    // Two-sided: max-change asks for more than max-drop at the same margin.
    let (drop, _) = plan("max-drop = 0.3");
    let (change, text) = plan("max-change = 0.3");
    assert_eq!(change["rule"], "max-change");
    let (d, c) = (
        drop["needed"].as_u64().unwrap(),
        change["needed"].as_u64().unwrap(),
    );
    assert!(c > d, "max-change {c}, max-drop {d}");
    assert!(
        text.contains("(max-change 0.3, 35 queries in all): needs"),
        "{text}"
    );
}

/// `label-plan` in two steps, as a team follows it: a plan that asks for more labels says its
/// size rests on the labels so far and to plan again once the batch is labelled; labelling the
/// batch's queries (their human qrels from the full judgments) and planning again reads every
/// labelled query, and a plan with enough labels no longer asks for another step.
#[test]
fn the_labelling_plan_is_followed_in_two_steps_and_the_second_reads_the_new_labels() {
    let ctx = TestContext::new();
    let full = format!(
        "{}/tests/data/eval/fixtures/trec-covid-r2/qrels.covid-round2.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let full = std::fs::read_to_string(full).unwrap();
    let human = ctx.write(
        "human.qrels",
        std::fs::read_to_string(data("human.qrels")).unwrap(),
    );
    ctx.gate(
        std::fs::read_to_string(data("corrected.toml"))
            .unwrap()
            .replace("max-drop = 0.05", "max-drop = 0.3")
            .replace("\"../eval/", &format!("\"{}/../eval/", data("")))
            .replace("\"judge.qrels\"", &format!("{:?}", data("judge.qrels"))),
    );
    let plan = |format: &str| {
        ctx.run(&[
            "label-plan",
            "--format",
            format,
            "gate.toml",
            "-o",
            "next.jsonl",
        ])
        .expect(0)
        .utf8()
        .stdout
    };
    let first: Value = serde_json::from_str(&plan("json")).unwrap();
    let g = &first["gates"][0];
    let (has, more) = (g["labelled"].as_u64().unwrap(), g["more"].as_u64().unwrap());
    assert_eq!(has, 12);
    assert!(more > 0, "{g}");
    assert_eq!(first["plan_again"], true);
    assert!(plan("text")
        .contains("once the batch is labelled, run label-plan again on all the labelled queries"),);
    // The humans label the batch: its queries' judgments join the human qrels.
    let batch: Vec<String> = std::fs::read_to_string(ctx.path().join("next.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["query_id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(batch.len() as u64, more);
    let mut labels = std::fs::read_to_string(&human).unwrap();
    for l in full.lines() {
        if batch.iter().any(|q| l.split_whitespace().next() == Some(q)) {
            labels.push_str(l);
            labels.push('\n');
        }
    }
    std::fs::write(&human, labels).unwrap();
    let second: Value = serde_json::from_str(&plan("json")).unwrap();
    let g = &second["gates"][0];
    assert_eq!(g["labelled"].as_u64(), Some(has + more), "{g}");
    let again = g["more"].as_u64().unwrap();
    assert_eq!(second["plan_again"], again > 0, "{second}");
    let text = plan("text");
    assert_eq!(text.contains("run label-plan again"), again > 0, "{text}");
    assert_eq!(
        text.contains("Nothing to label next: every gate has the queries it needs"),
        again == 0,
        "{text}"
    );
}
