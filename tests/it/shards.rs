//! `rag-gate partial` and `merge` through the binary: the merged report of the shards'
//! summaries is the one-machine `check` report byte for byte (text and JSON), at the query and
//! the group unit, for 8 shards, for other partitionings and in any order; what does not merge
//! is refused by name (exit 2).

use crate::support;

use support::output::assert_contains;
use support::TestContext;

/// One query's row: (id, group, language, baseline ndcg, candidate ndcg, baseline recall,
/// candidate recall).
type Row = (String, usize, &'static str, f64, f64, f64, f64);

/// 100 groups of 1 to 5 queries; the candidate moves about a third of them, some down.
fn rows() -> Vec<Row> {
    let mut out = Vec::new();
    for g in 0..100usize {
        for t in 0..1 + (g * 7) % 5 {
            let k = out.len();
            let x = ((k * 37) % 101) as f64 / 100.0;
            let lang = ["en", "de", "ko"][(g * 5 + t) % 3];
            let moved = match k % 3 {
                0 => 0.0,
                1 => 0.05 * (((k * 13) % 7) as f64 - 2.0) / 3.0,
                _ => -0.01,
            };
            let c = (x + moved).clamp(0.0, 1.0);
            let r = (((k * 11) % 4) as f64) / 4.0;
            let rc = if k % 5 == 0 { (r + 0.25).min(1.0) } else { r };
            out.push((format!("g{g}-t{t}"), g, lang, x, c, r, rc));
        }
    }
    out
}

/// The two sides' JSONL lines of `rows`.
fn files(rows: &[&Row]) -> (String, String) {
    let (mut b, mut c) = (String::new(), String::new());
    for (id, g, lang, x, cx, r, cr) in rows {
        let head = format!(
            "\"query_id\": \"{id}\", \"group\": \"conv{g}\", \"slices\": {{\"lang\": \"{lang}\"}}"
        );
        b.push_str(&format!(
            "{{{head}, \"ndcg@10\": {x}, \"recall@5\": {r}}}\n"
        ));
        c.push_str(&format!(
            "{{{head}, \"ndcg@10\": {cx}, \"recall@5\": {cr}}}\n"
        ));
    }
    (b, c)
}

fn gate_text(unit: &str) -> String {
    format!(
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n\
         [bootstrap]\nresamples = 1000\nunit = \"{unit}\"\nmethod = \"percentile\"\nweights = \"keyed\"\n\
         [slices]\nby = [\"lang\"]\ncritical = [\"lang=ko\"]\nmin-queries = 10\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\nmax-loss-rate = 0.5\nslices = \"critical\"\n\
         [[gate]]\nmetric = \"recall@5\"\nfail-if-significant-drop = 0.01\nmin-mean = 0.3\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-change = 0.05\n"
    )
}

/// The whole data and the gate file written; `check`'s text and JSON reports.
fn whole(ctx: &TestContext, unit: &str) -> (String, String) {
    let all = rows();
    let (b, c) = files(&all.iter().collect::<Vec<_>>());
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    ctx.gate(gate_text(unit));
    let out = ctx.check(&[]);
    out.verdict();
    let text = out.stdout;
    let json = ctx.check(&["--format", "json"]).stdout;
    (text, json)
}

/// Writes shard k's files for every shard `shard_of(group)` names, runs `partial` on each and
/// returns the summaries' file names (in shard order).
fn partials(
    ctx: &TestContext,
    name: &str,
    shards: usize,
    shard_of: impl Fn(usize) -> usize,
) -> Vec<String> {
    let all = rows();
    (0..shards)
        .map(|k| {
            let mine: Vec<&Row> = all.iter().filter(|r| shard_of(r.1) == k).collect();
            let (b, c) = files(&mine);
            summary(ctx, &format!("{name}-{k}"), (b, c))
        })
        .collect()
}

/// Writes `{name}-b.jsonl` and `{name}-c.jsonl`, runs `partial` on them and returns the
/// summary's file name, `{name}.json`.
fn summary(ctx: &TestContext, name: &str, (b, c): (String, String)) -> String {
    let (bf, cf, sf) = (
        format!("{name}-b.jsonl"),
        format!("{name}-c.jsonl"),
        format!("{name}.json"),
    );
    ctx.write(&bf, b);
    ctx.write(&cf, c);
    ctx.run(&[
        "partial",
        "gate.toml",
        "--baseline",
        &bf,
        "--candidate",
        &cf,
        "-o",
        &sf,
    ])
    .expect(0);
    sf
}

fn merged(ctx: &TestContext, summaries: &[String], extra: &[&str]) -> String {
    let mut args = vec!["merge", "gate.toml"];
    args.extend(summaries.iter().map(String::as_str));
    args.extend(extra);
    let out = ctx.run(&args);
    assert!(matches!(out.code, Some(0 | 1)), "{}", out.stderr);
    out.stdout
}

fn eight_shards_equal_check_at(unit: &str) {
    let ctx = TestContext::new();
    let (text, json) = whole(&ctx, unit);
    let s = partials(&ctx, "by-group", 8, |g| (g * 2654435761) % 8);
    assert_eq!(merged(&ctx, &s, &[]), text);
    assert_eq!(merged(&ctx, &s, &["--format", "json"]), json);
    assert_contains(&text, "lang=ko");
}

#[test]
fn eight_shards_merge_to_the_check_report_at_the_query_unit() {
    eight_shards_equal_check_at("query");
}

#[test]
fn eight_shards_merge_to_the_check_report_at_the_group_unit() {
    eight_shards_equal_check_at("group");
}

#[test]
fn any_partitioning_and_any_order_give_the_same_report() {
    let ctx = TestContext::new();
    let (text, _) = whole(&ctx, "group");
    let mut by_range = partials(&ctx, "range", 3, |g| g / 34);
    by_range.reverse();
    assert_eq!(merged(&ctx, &by_range, &[]), text);
    // One shard holding everything, and shards of very different sizes (one holds one group).
    assert_eq!(merged(&ctx, &partials(&ctx, "one", 1, |_| 0), &[]), text);
    let uneven = partials(&ctx, "uneven", 5, |g| if g == 7 { 4 } else { g % 4 });
    assert_eq!(merged(&ctx, &uneven, &[]), text);
}

#[test]
fn a_group_split_across_shards_is_refused_by_name() {
    let ctx = TestContext::new();
    whole(&ctx, "group");
    let all = rows();
    let mut shards = Vec::new();
    for k in 0..2 {
        // conv1 has two queries: one in each shard.
        let mine: Vec<&Row> = all
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 2 == k)
            .map(|(_, r)| r)
            .collect();
        shards.push(summary(&ctx, &format!("s{k}"), files(&mine)));
    }
    let out = ctx
        .run(&["merge", "gate.toml", &shards[0], &shards[1]])
        .expect(2);
    assert_contains(&out.stderr, "s1.json: group \"conv");
    assert_contains(&out.stderr, "is also in s0.json");
    assert!(out.stdout.is_empty());
}

#[test]
fn summaries_of_another_gate_file_or_version_are_refused_naming_the_file() {
    let ctx = TestContext::new();
    whole(&ctx, "query");
    let s = partials(&ctx, "p", 2, |g| g % 2);
    // Another seed: another gate file.
    ctx.gate(gate_text("query").replace("resamples = 1000", "resamples = 1000\nseed = 3"));
    let out = ctx.run(&["merge", "gate.toml", &s[0], &s[1]]).expect(2);
    assert_contains(&out.stderr, "p-0.json: computed under another gate file");
    ctx.gate(gate_text("query"));
    let text = ctx
        .read(&s[1])
        .replacen("\"version\":1,", "\"version\":99,", 1);
    ctx.write(&s[1], text);
    let out = ctx.run(&["merge", "gate.toml", &s[0], &s[1]]).expect(2);
    assert_contains(&out.stderr, "p-1.json: not a rag-gate summary of version 1");
    ctx.write("junk.json", "{\"a\": 1}\n");
    let out = ctx
        .run(&["merge", "gate.toml", &s[0], "junk.json"])
        .expect(2);
    assert_contains(&out.stderr, "junk.json");
    // A shard given twice would count its queries twice.
    let out = ctx.run(&["merge", "gate.toml", &s[0], &s[0]]).expect(2);
    assert_contains(&out.stderr, "p-0.json: the same queries as p-0.json");
}

#[test]
fn what_does_not_merge_is_refused_by_name() {
    let ctx = TestContext::new();
    whole(&ctx, "query");
    let keyed = gate_text("query");
    for (from, to, said) in [
        (
            "method = \"percentile\"",
            "method = \"bootstrap-t\"",
            "method = \"bootstrap-t\" does not merge",
        ),
        (
            "method = \"percentile\"",
            "method = \"bca\"",
            "method = \"bca\" does not merge",
        ),
        (
            "max-change = 0.05",
            "max-change = 0.05\nstatistic = \"p95\"",
            "is a quantile",
        ),
        (
            "[slices]",
            "[verdict]\nguarantee = \"distribution-free\"\n[slices]",
            "distribution-free",
        ),
        (
            "candidate = \"c.jsonl\"",
            "candidate = \"c.jsonl\"\nmissing = \"intersect\"",
            "missing = \"intersect\"",
        ),
    ] {
        ctx.gate(keyed.replace(from, to));
        let out = ctx.check(&[]).expect(2);
        assert_contains(&out.stderr, "weights = \"keyed\"");
        assert_contains(&out.stderr, said);
    }
    // An unbounded metric in the files is named, gated or not.
    let (b, c) = (ctx.read("b.jsonl"), ctx.read("c.jsonl"));
    let with_latency = |t: &str| t.replace("\"recall@5\"", "\"latency_ms\": 12.5, \"recall@5\"");
    ctx.write("b.jsonl", with_latency(&b));
    ctx.write("c.jsonl", with_latency(&c));
    ctx.gate(&keyed);
    let out = ctx.check(&[]).expect(2);
    assert_contains(
        &out.stderr,
        "metric \"latency_ms\" is not bounded to [0, 1]",
    );
    // partial and merge need keyed weights.
    ctx.gate(keyed.replace("weights = \"keyed\"\n", ""));
    let out = ctx
        .run(&[
            "partial",
            "gate.toml",
            "--baseline",
            "b.jsonl",
            "--candidate",
            "c.jsonl",
            "-o",
            "s.json",
        ])
        .expect(2);
    assert_contains(&out.stderr, "partial needs [bootstrap] weights = \"keyed\"");
    assert!(!ctx.join("s.json").exists());
}

#[test]
fn shards_that_disagree_on_metrics_or_lack_a_critical_slice_are_refused() {
    let ctx = TestContext::new();
    whole(&ctx, "query");
    let all = rows();
    let write = |name: &str, rows: &[&Row], extra: bool| {
        let (mut b, mut c) = files(rows);
        if extra {
            b = b.replace("\"ndcg@10\"", "\"hit@1\": 1, \"ndcg@10\"");
            c = c.replace("\"ndcg@10\"", "\"hit@1\": 1, \"ndcg@10\"");
        }
        summary(&ctx, name, (b, c))
    };
    let even: Vec<&Row> = all.iter().filter(|r| r.1 % 2 == 0).collect();
    let odd: Vec<&Row> = all.iter().filter(|r| r.1 % 2 == 1).collect();
    let (a, b) = (write("m0", &even, true), write("m1", &odd, false));
    let out = ctx.run(&["merge", "gate.toml", &a, &b]).expect(2);
    assert_contains(&out.stderr, "m1.json: metrics [\"ndcg@10\", \"recall@5\"] ≠ [\"hit@1\", \"ndcg@10\", \"recall@5\"] of the first summary");
    // A shard alone that holds no query of the critical slice lang=ko.
    let no_ko: Vec<&Row> = all.iter().filter(|r| r.2 != "ko").collect();
    let s = write("noko", &no_ko, false);
    let out = ctx.run(&["merge", "gate.toml", &s]).expect(2);
    assert_contains(
        &out.stderr,
        "critical slice \"lang=ko\": no query of any shard has it",
    );
}
