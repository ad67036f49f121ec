//! Gate-file parsing and validation: defaults, and errors that name line, column and key.

use super::*;

fn parse(text: &str) -> Result<Config> {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("prod.toml");
    std::fs::write(&p, text).unwrap();
    load(&p)
        .map_err(|e| Error::Config(e.to_string().replace(&p.display().to_string(), "prod.toml")))
}

const MIN: &str = "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n";

#[test]
fn the_issue_example_parses_with_defaults() {
    let text = format!(
        "{MIN}queries = \"q.jsonl\"\n[bootstrap]\nunit = \"group\"\n[slices]\nby = [\"domain\"]\ncritical = [\"risk=compliance\"]\n\
         [[gate]]\nmetric = \"recall@5\"\nmin-mean = 0.95\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\nmax-loss-rate = 0.25\nslices = \"critical\"\n"
    );
    let c = parse(&text).unwrap();
    assert_eq!(c.id, "prod");
    assert_eq!(
        (
            c.bootstrap.resamples,
            c.bootstrap.seed,
            c.bootstrap.confidence
        ),
        (10_000, 17, 0.95)
    );
    assert_eq!(c.bootstrap.unit, Unit::Group);
    assert_eq!(c.slices.min_queries, 30);
    assert_eq!(c.gates.len(), 2);
    assert_eq!(c.gates[1].slices, GateSlices::Critical);
    assert_eq!(c.gates[1].max_drop, Some(0.01));
    assert!(c.inputs.baseline.path.ends_with("b.jsonl"));
    let dumped = dump(&c, None);
    assert!(
        dumped.contains("resamples = 10000") && dumped.contains("min-queries = 30"),
        "{dumped}"
    );
    // The dump is itself a valid gate file with the same meaning.
    let again = parse(&dumped).unwrap();
    assert_eq!(dump(&again, None), dumped);
}

#[test]
fn errors_name_line_column_and_key() {
    let cases = [
        (format!("{MIN}[bootstrap]\nconfidence = 1.5\n"), "prod.toml:5:14: [bootstrap] confidence = 1.5: expected a number strictly between 0 and 1"),
        (format!("{MIN}[bootstrap]\nresamples = 0\n"), "prod.toml:5:13: [bootstrap] resamples = 0: expected 1 to 10000000"),
        (format!("{MIN}[bootstrap]\nresamples = 1000000000000\n"), "prod.toml:5:13: [bootstrap] resamples = 1000000000000"),
        (format!("{MIN}[bootstrap]\nresample = 10\n"), "prod.toml:5:1: unknown field `resample`"),
        (format!("{MIN}[bootstrap]\nseed = \"x\"\n"), "prod.toml:5:8: invalid type: string \"x\", expected i64"),
        (format!("{MIN}[bootstrap]\nunit = \"topic\"\n"), "prod.toml:5:8: unknown variant `topic`"),
        (format!("{MIN}[[gate]]\nmetric = \"ndcg@10\"\n"), "prod.toml:4:1: [[gate]] #1 (ndcg@10) has no rule"),
        (format!("{MIN}[[gate]]\nmetric = \"m\"\nmax-loss-rate = 2.0\nhigher-is-better = true\n"), "prod.toml:6:17: [[gate]] #1 (m): max-loss-rate must be a share"),
        (format!("{MIN}[[gate]]\nmetric = \"m\"\nmin-mean = 0.5\nslices = \"some\"\nhigher-is-better = true\n"), "prod.toml:7:10: [[gate]] #1: slices must be"),
        (format!("{MIN}[slices]\ncritical = [\"compliance\"]\n"), "prod.toml:5:13: slice \"compliance\": expected `all` or `tag=value`"),
        ("[inputs]\nbaseline = \"b\"\n".to_string(), "prod.toml:1:1: missing field `candidate`"),
        ("[inputs]\nbaseline = { run = \"r\" }\ncandidate = \"c\"\n".to_string(), "prod.toml:2:12: a `run` input needs `qrels"),
        ("[inputs]\nbaseline = { paht = \"r\" }\ncandidate = \"c\"\n".to_string(), "prod.toml:2:12: [inputs] baseline: unknown key `paht`"),
        ("[inputs\n".to_string(), "prod.toml:1:8:"),
        (format!("{MIN}[[gate]]\nmetric = \"latency_ms\"\nmax-drop = 10.0\n"), "prod.toml:5:10: [[gate]] #1 (latency_ms): is a higher latency_ms better or worse?"),
        (format!("{MIN}[gate]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n"), "prod.toml:4:1: `[gate]` is a single table; write `[[gate]]`"),
        (format!("{MIN}[policy]\nmax-k = 5\n[[gate]]\nmetric = \"recall@30\"\nmin-mean = 0.5\n"), "prod.toml:7:10: [[gate]] #1 (recall@30): cutoff 30 is above [policy] max-k = 5"),
    ];
    for (text, want) in cases {
        let e = parse(&text).unwrap_err().to_string();
        assert!(e.starts_with(want), "got:\n{e}\nwant prefix:\n{want}");
        assert!(e.contains(" | "), "no caret snippet: {e}");
    }
}

#[test]
fn paths_are_relative_to_the_gate_file() {
    assert_eq!(
        resolve(Path::new("gates"), "../examples/b.jsonl"),
        PathBuf::from("examples/b.jsonl")
    );
    assert_eq!(
        resolve(Path::new(""), "./b.jsonl"),
        PathBuf::from("b.jsonl")
    );
    assert_eq!(
        resolve(Path::new("/a/gates"), "/abs/b"),
        PathBuf::from("/abs/b")
    );
}

#[test]
fn statistics_keys_parse_and_round_trip() {
    let text = format!(
        "{MIN}[bootstrap]\nmethod = \"bca\"\n[report]\npractical-tie = 0.02\n\
         [[gate]]\nmetric = \"latency_ms\"\nstatistic = \"p95\"\nhigher-is-better = false\nfail-if-significant-drop = 25.0\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\nfail-if-significant-drop = 0.0\n"
    );
    let c = parse(&text).unwrap();
    assert_eq!(c.bootstrap.method, Method::Bca);
    assert_eq!(c.report.practical_tie, 0.02);
    assert_eq!(c.gates[0].statistic, Statistic::P95);
    assert!(!c.gates[0].higher_is_better);
    assert_eq!(c.gates[0].fail_if_significant_drop, Some(25.0));
    assert_eq!(c.gates[1].statistic, Statistic::Mean);
    let dumped = dump(&c, None);
    assert!(
        dumped.contains("method = \"bca\"") && dumped.contains("statistic = \"p95\""),
        "{dumped}"
    );
    assert_eq!(dump(&parse(&dumped).unwrap(), None), dumped);
}

#[test]
fn one_metric_may_be_gated_by_two_statistics() {
    let text = format!(
        "{MIN}[[gate]]\nmetric = \"m\"\nmin-mean = 1.0\nhigher-is-better = false\n\
         [[gate]]\nmetric = \"m\"\nstatistic = \"p95\"\nmax-mean = 2.0\nhigher-is-better = false\n"
    );
    let c = parse(&text).unwrap();
    let read: Vec<_> = c.gates.iter().map(|g| g.statistic).collect();
    assert_eq!(read, [Statistic::Mean, Statistic::P95]);
}

#[test]
fn statistics_keys_are_checked() {
    let cases = [
        (format!("{MIN}[bootstrap]\nmethod = \"bc\"\n"), "prod.toml:5:10: unknown variant `bc`"),
        (format!("{MIN}[report]\npractical-tie = -1.0\n"), "prod.toml:5:17: [report] practical-tie: expected a finite number ≥ 0"),
        (format!("{MIN}[[gate]]\nmetric = \"m\"\nfail-if-significant-drop = -0.1\nhigher-is-better = true\n"), "prod.toml:6:28: [[gate]] #1 (m): fail-if-significant-drop must be a finite number ≥ 0"),
        (format!("{MIN}[[gate]]\nmetric = \"m\"\nstatistic = \"p99\"\nmin-mean = 1.0\nhigher-is-better = true\n"), "prod.toml:6:13: unknown variant `p99`"),
        (format!("{MIN}[[gate]]\nmetric = \"m\"\nmin-mean = 1.0\nhigher-is-better = true\n[[gate]]\nmetric = \"m\"\nstatistic = \"median\"\nmax-mean = 2.0\nhigher-is-better = false\n"), "prod.toml:8:1: [[gate]] #2 (m): higher-is-better must match gate #1 on the same metric (higher-is-better = true)"),
    ];
    for (text, want) in cases {
        let e = parse(&text).unwrap_err().to_string();
        assert!(e.starts_with(want), "got:\n{e}\nwant prefix:\n{want}");
    }
}

#[test]
fn replicate_lists_and_runs_tables_parse_and_dump() {
    let c = parse(
        "[inputs]\nbaseline = [\"m-1.jsonl\", { path = \"m-2.csv\" }]\ncandidate = \"c.jsonl\"\n[noise]\nfile = \"eval/noise.json\"\nquarantine = \"flaky.toml\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n",
    )
    .unwrap();
    assert!(c.inputs.baseline.path.ends_with("m-1.jsonl"));
    assert_eq!(c.inputs.baseline_more.len(), 1);
    assert!(c.inputs.baseline_more[0].path.ends_with("m-2.csv"));
    assert!(c.inputs.candidate_more.is_empty());
    assert!(c
        .noise
        .file
        .as_ref()
        .unwrap()
        .path
        .ends_with("eval/noise.json"));
    let dumped = dump(&c, None);
    assert!(
        dumped.matches("[[inputs.baseline]]").count() == 2 && dumped.contains("[noise]"),
        "{dumped}"
    );
    let r = parse(
        "[inputs]\nbaseline = { runs = [\"a.run\", \"b.run\", \"c.run\"] }\ncandidate = { run = \"d.run\" }\nqrels = \"q.txt\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n",
    )
    .unwrap();
    assert!(matches!(r.inputs.baseline.kind, InputKind::Run));
    assert_eq!(r.inputs.baseline_more.len(), 2);
    assert!(matches!(r.inputs.baseline_more[1].kind, InputKind::Run));
    // Single-run gate files dump as before: no list, no [noise].
    let one = dump(
        &parse(&format!(
            "{MIN}[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n"
        ))
        .unwrap(),
        None,
    );
    assert!(
        !one.contains("\n[noise]\n")
            && one.contains("[inputs.baseline]")
            && !one.contains("[[inputs"),
        "{one}"
    );
}

#[test]
fn bad_replicate_lists_name_the_key() {
    for (text, want) in [
        (
            "[inputs]\nbaseline = []\ncandidate = \"c\"\n",
            "[inputs] baseline: an empty list",
        ),
        (
            "[inputs]\nbaseline = [[\"a\"]]\ncandidate = \"c\"\n",
            "a replicate must be a path or a table",
        ),
        (
            "[inputs]\nbaseline = { runs = \"a\" }\ncandidate = \"c\"\nqrels = \"q\"\n",
            "`runs` must be an array of paths",
        ),
        (
            "[inputs]\nbaseline = { runs = [\"a\"], format = \"csv\" }\ncandidate = \"c\"\n",
            "`runs = [...]` takes no other key",
        ),
        (
            "[inputs]\nbaseline = [\"a\", { run = \"r\" }]\ncandidate = \"c\"\n",
            "a `run` input needs `qrels",
        ),
        (
            "[inputs]\nbaseline = \"b\"\ncandidate = \"c\"\n[noise]\nfiles = \"x\"\n",
            "unknown field `files`",
        ),
    ] {
        let e = parse(text).unwrap_err().to_string();
        assert!(e.contains(want), "{text:?}: {e}");
        assert!(e.contains("prod.toml:"), "{e}");
    }
}
