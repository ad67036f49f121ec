//! The HTML report opened in a real browser (Debian's headless `chromium`): it renders
//! with no console message, its forest plots have one row per comparison, hostile names from
//! the inputs stay text, and its Content-Security-Policy stops a script that got into the page
//! (a copy without the policy shows the harness would see the script run).
//!
//! Without chromium on PATH (or `RAG_GATE_CHROMIUM`) these tests say so and pass, unless
//! `RAG_GATE_REQUIRE_BROWSER` is set, as `.ci/run` does (it installs chromium).

use crate::support;
use support::TestContext;

use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("RAG_GATE_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("chromium"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var_os("RAG_GATE_REQUIRE_BROWSER").is_none(),
            "RAG_GATE_REQUIRE_BROWSER is set but chromium is not on PATH (apt-get install -y chromium)"
        );
        eprintln!(
            "chromium not found: the browser tests did not run (apt-get install -y chromium)"
        );
    }
    found
}

/// What the browser made of `page`: the DOM after loading and the console messages.
struct Rendered {
    dom: String,
    console: Vec<String>,
}

fn render(browser: &Path, page: &Path) -> Rendered {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    Rendered {
        dom: String::from_utf8_lossy(&out.stdout).into_owned(),
        console: stderr
            .lines()
            .filter(|l| l.contains(":CONSOLE"))
            .map(str::to_string)
            .collect(),
    }
}

/// The page's own title (the first `<title>`; the SVG plots have titles of their own).
fn title(dom: &str) -> &str {
    let start = dom.find("<title>").unwrap() + "<title>".len();
    &dom[start..start + dom[start..].find("</title>").unwrap()]
}

const HOSTILE: [&str; 2] = [
    "<img src=x onerror=\\\"document.title='pwned'\\\">",
    "</svg><script>document.title='pwned'</script>",
];

/// 60 queries in three slices (two with hostile names), a small drop on one of them; the
/// HTML and JSON reports of `check`.
fn report(ctx: &TestContext) -> serde_json::Value {
    let (mut b, mut c, mut q) = (String::new(), String::new(), String::new());
    for i in 0..60 {
        let lang = match i % 3 {
            0 => "en",
            1 => HOSTILE[0],
            _ => HOSTILE[1],
        };
        let x = 0.5 + 0.01 * (i % 5) as f64;
        let drop = if i % 3 == 1 { 0.03 } else { 0.0 };
        b.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"ndcg@10\": {x}, \"recall@5\": {x}}}\n"
        ));
        c.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"ndcg@10\": {}, \"recall@5\": {x}}}\n",
            x - drop
        ));
        q.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"slices\": {{\"lang\": \"{lang}\"}}}}\n"
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    ctx.write("q.jsonl", q);
    ctx.write(
        "gate.toml",
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\nqueries = \"q.jsonl\"\n\
         [bootstrap]\nresamples = 300\n[slices]\nby = [\"lang\"]\nmin-queries = 10\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\nslices = [\"all\", \"lang=en\"]\n",
    );
    let out = ctx.run(&[
        "check",
        "gate.toml",
        "--export-html",
        "r.html",
        "--export-json",
        "r.json",
    ]);
    assert!(matches!(out.code, Some(0 | 1)), "{}", out.stderr);
    serde_json::from_str(&ctx.read("r.json")).unwrap()
}

#[test]
fn the_html_report_renders_cleanly_with_a_row_per_comparison_and_names_as_text() {
    let Some(browser) = chromium() else { return };
    let ctx = TestContext::new();
    let json = report(&ctx);
    let page = ctx.path().join("r.html");
    let r = render(&browser, &page);
    assert!(r.console.is_empty(), "console messages: {:#?}", r.console);
    assert!(
        title(&r.dom).starts_with("rag-gate fail"),
        "{}",
        title(&r.dom)
    );
    let comparisons = json["comparisons"].as_array().unwrap().len();
    assert_eq!(comparisons, 2 * 4, "2 metrics × (all + 3 slices)");
    let rows = r.dom.matches("<g class=\"row").count();
    assert_eq!(rows, comparisons, "forest-plot rows");
    // The hostile names are in the page as text: no element came out of them.
    assert!(
        !r.dom.contains("<img") && !r.dom.contains("<script"),
        "{}",
        r.dom
    );
    assert!(!r.dom.contains("pwned</title>"));
    assert!(
        r.dom.contains("&lt;img src=x onerror="),
        "the name is shown as text"
    );
    assert!(
        r.dom.contains("&lt;/svg&gt;&lt;script&gt;"),
        "the name is shown as text"
    );
}

#[test]
fn the_content_security_policy_stops_a_script_that_got_into_the_page() {
    let Some(browser) = chromium() else { return };
    let ctx = TestContext::new();
    report(&ctx);
    let html = ctx.read("r.html");
    assert!(html.contains(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'"
    ));
    let script = "<main><script>document.title='SCRIPT RAN'</script>";
    let injected = html.replacen("<main>", script, 1);
    let with_policy = ctx.write("injected.html", &injected);
    let r = render(&browser, &with_policy);
    assert!(
        title(&r.dom).starts_with("rag-gate fail"),
        "the script ran: {}",
        title(&r.dom)
    );
    assert!(
        r.console
            .iter()
            .any(|l| l.contains("Content Security Policy") && l.contains("blocked")),
        "{:#?}",
        r.console
    );
    // The control: the same page without the policy runs the script, so the check above would
    // see one that ran.
    let start = injected
        .find("<meta http-equiv=\"Content-Security-Policy\"")
        .unwrap();
    let end = start + injected[start..].find("/>").unwrap() + 2;
    let without = format!("{}{}", &injected[..start], &injected[end..]);
    let control = ctx.write("control.html", without);
    assert_eq!(title(&render(&browser, &control).dom), "SCRIPT RAN");
}
