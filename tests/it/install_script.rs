//! The Action's install step (`scripts/install-rag-gate.sh`) against a fake release served from
//! 127.0.0.1: the archive for each runner OS/arch, the committed SHA-256 checked, a tampered
//! archive refused, a version with no release a clear error, the second run from the tool cache.
//!
//! Each test lays out its own copy of the action (the script, a Cargo.toml with version 9.9.9,
//! `dist/checksums/v9.9.9.sha256`) and a release folder that a small HTTP server serves; the
//! "binaries" are shell scripts that print their target. Needs bash, curl, tar, zip, unzip and
//! sha256sum (all on Linux CI runners and on this project's machine).

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::thread;

const VERSION: &str = "9.9.9";
const TARGETS: [(&str, &str, &str); 5] = [
    ("Linux", "X64", "x86_64-unknown-linux-musl"),
    ("Linux", "ARM64", "aarch64-unknown-linux-musl"),
    ("macOS", "X64", "x86_64-apple-darwin"),
    ("macOS", "ARM64", "aarch64-apple-darwin"),
    ("Windows", "X64", "x86_64-pc-windows-msvc"),
];

/// Serves files under `root` over HTTP/1.0 on 127.0.0.1 and records every requested path.
struct Server {
    base: String,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start(root: PathBuf) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&requests);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let mut stream = stream.unwrap();
                let mut line = String::new();
                BufReader::new(&stream).read_line(&mut line).unwrap();
                let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
                log.lock().unwrap().push(path.clone());
                let file = root.join(path.trim_start_matches('/'));
                let reply = match fs::read(&file) {
                    Ok(body) if file.is_file() => {
                        let head =
                            format!("HTTP/1.0 200 OK\r\nContent-Length: {}\r\n\r\n", body.len());
                        [head.into_bytes(), body].concat()
                    }
                    _ => b"HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n".to_vec(),
                };
                let _ = stream.write_all(&reply);
            }
        });
        Server { base, requests }
    }

    fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

/// A copy of the action, a fake release of it, and the runner's folders.
struct Fixture {
    dir: tempfile::TempDir,
    server: Server,
}

fn run_ok(cmd: &mut Command) {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn sha256(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

fn archive_name(target: &str) -> String {
    if target.contains("windows") {
        format!("rag-gate-{target}.zip")
    } else {
        format!("rag-gate-{target}.tar.gz")
    }
}

/// Builds the archive for `target` the way the release lays it out: one folder
/// `rag-gate-<target>/` holding the binary (and a README).
fn build_archive(work: &Path, release: &Path, target: &str) {
    let folder = format!("rag-gate-{target}");
    let inner = work.join(&folder);
    fs::create_dir_all(&inner).unwrap();
    let exe = if target.contains("windows") {
        "rag-gate.exe"
    } else {
        "rag-gate"
    };
    fs::write(
        inner.join(exe),
        format!("#!/bin/sh\necho \"fake rag-gate for {target}\"\n"),
    )
    .unwrap();
    fs::write(inner.join("README.md"), "rag-gate\n").unwrap();
    let out = release.join(archive_name(target));
    if target.contains("windows") {
        run_ok(
            Command::new("zip")
                .arg("-qr")
                .arg(&out)
                .arg(&folder)
                .current_dir(work),
        );
    } else {
        run_ok(
            Command::new("tar")
                .arg("-czf")
                .arg(&out)
                .arg(&folder)
                .current_dir(work),
        );
    }
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let action = dir.path().join("action");
        fs::create_dir_all(action.join("scripts")).unwrap();
        fs::create_dir_all(action.join("dist/checksums")).unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/install-rag-gate.sh");
        fs::copy(script, action.join("scripts/install-rag-gate.sh")).unwrap();
        fs::write(
            action.join("Cargo.toml"),
            format!(
                "[dependencies]\nversion = \"1\"\n\n[package]\nname = \"rag-gate\"\n\
                 version = \"{VERSION}\"\nrepository = \"https://github.invalid/rag-gate\"\n"
            ),
        )
        .unwrap();

        let release = dir
            .path()
            .join("served/releases/download")
            .join(format!("v{VERSION}"));
        fs::create_dir_all(&release).unwrap();
        let work = dir.path().join("work");
        let mut sums = String::new();
        for (_, _, target) in TARGETS {
            build_archive(&work, &release, target);
            let name = archive_name(target);
            sums.push_str(&format!("{}  {name}\n", sha256(&release.join(&name))));
        }
        fs::write(
            action.join(format!("dist/checksums/v{VERSION}.sha256")),
            sums,
        )
        .unwrap();
        for sub in ["cache", "temp"] {
            fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        let server = Server::start(dir.path().join("served"));
        Fixture { dir, server }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn served(&self, target: &str) -> PathBuf {
        self.path(&format!(
            "served/releases/download/v{VERSION}/{}",
            archive_name(target)
        ))
    }

    /// Runs the script as the action's install step would on a runner with this OS and arch.
    fn install(&self, os: &str, arch: &str, version: &str) -> Output {
        Command::new("bash")
            .arg(self.path("action/scripts/install-rag-gate.sh"))
            .env("RAG_GATE_VERSION", version)
            .env(
                "RAG_GATE_DOWNLOAD_BASE",
                format!("{}/releases/download", self.server.base),
            )
            .env("RUNNER_OS", os)
            .env("RUNNER_ARCH", arch)
            .env("RUNNER_TOOL_CACHE", self.path("cache"))
            .env("RUNNER_TEMP", self.path("temp"))
            .env("GITHUB_PATH", self.path("github_path"))
            .output()
            .unwrap()
    }

    fn github_path(&self) -> String {
        fs::read_to_string(self.path("github_path")).unwrap_or_default()
    }

    fn cached(&self, target: &str) -> PathBuf {
        self.path(&format!("cache/rag-gate/{VERSION}/{target}"))
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn assert_refused(out: &Output, message: &str) {
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}{}",
        stdout(out),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(out);
    assert!(
        text.lines()
            .any(|l| l.starts_with("::error title=rag-gate install::") && l.contains(message)),
        "no ::error containing {message:?} in:\n{text}"
    );
}

#[test]
fn installs_the_archive_of_each_runner_os_and_arch() {
    let fx = Fixture::new();
    for (os, arch, target) in TARGETS {
        let out = fx.install(os, arch, "");
        assert!(out.status.success(), "{os}/{arch}: {}", stdout(&out));
        let bin = fx.cached(target);
        assert_eq!(
            fx.github_path().lines().last(),
            Some(bin.to_str().unwrap()),
            "{os}/{arch}"
        );
        let exe = if os == "Windows" {
            "rag-gate.exe"
        } else {
            "rag-gate"
        };
        let body = fs::read_to_string(bin.join(exe)).unwrap();
        assert!(
            body.contains(&format!("fake rag-gate for {target}")),
            "{os}/{arch} got {body}"
        );
        let want = format!("/releases/download/v{VERSION}/{}", archive_name(target));
        assert_eq!(fx.server.requests().last(), Some(&want));
    }
    assert_eq!(fx.server.requests().len(), TARGETS.len());
    let linux = Command::new(fx.cached("x86_64-unknown-linux-musl").join("rag-gate"))
        .output()
        .unwrap();
    assert_eq!(
        stdout(&linux),
        "fake rag-gate for x86_64-unknown-linux-musl\n"
    );
}

#[test]
fn a_tampered_archive_is_refused_and_nothing_is_installed() {
    let fx = Fixture::new();
    let target = "x86_64-unknown-linux-musl";
    let mut bytes = fs::read(fx.served(target)).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    fs::write(fx.served(target), bytes).unwrap();
    let out = fx.install("Linux", "X64", "");
    assert_refused(
        &out,
        "checksum mismatch for rag-gate-x86_64-unknown-linux-musl.tar.gz",
    );
    assert!(!fx.cached(target).exists());
    assert_eq!(fx.github_path(), "");
}

#[test]
fn a_version_without_committed_checksums_is_a_clear_error_before_any_download() {
    let fx = Fixture::new();
    let out = fx.install("Linux", "X64", "1.2.3");
    assert_refused(&out, "rag-gate 1.2.3 has no checksums in this action");
    assert_eq!(fx.server.requests(), Vec::<String>::new());
}

#[test]
fn a_version_missing_from_the_server_is_a_clear_error() {
    let fx = Fixture::new();
    fs::remove_file(fx.served("aarch64-apple-darwin")).unwrap();
    let out = fx.install("macOS", "ARM64", "v9.9.9");
    assert_refused(&out, "could not download rag-gate 9.9.9 from");
    assert_eq!(fx.github_path(), "");
}

#[test]
fn the_second_run_is_served_from_the_tool_cache() {
    let fx = Fixture::new();
    let first = fx.install("Linux", "ARM64", "");
    assert!(first.status.success(), "{}", stdout(&first));
    assert_eq!(fx.server.requests().len(), 1);
    let second = fx.install("Linux", "ARM64", "9.9.9");
    assert!(second.status.success(), "{}", stdout(&second));
    assert!(
        stdout(&second).contains("from the tool cache"),
        "{}",
        stdout(&second)
    );
    assert_eq!(
        fx.server.requests().len(),
        1,
        "the second run downloaded again"
    );
    let dir = fx.cached("aarch64-unknown-linux-musl");
    assert_eq!(
        fx.github_path().lines().collect::<Vec<_>>(),
        [dir.to_str().unwrap(); 2]
    );
}

/// `tool-cache-checked`: a binary planted in the tool cache (or a cached archive
/// altered) is never put on PATH: the hit is checked against the committed SHA-256 like a
/// download, and a mismatch is downloaded again.
#[test]
fn a_planted_tool_cache_binary_is_refused_and_downloaded_again() {
    let fx = Fixture::new();
    let target = "aarch64-unknown-linux-musl";
    let first = fx.install("Linux", "ARM64", "");
    assert!(first.status.success(), "{}", stdout(&first));
    let bin = fx.cached(target).join("rag-gate");
    let good = std::fs::read(&bin).unwrap();
    for (n, plant) in [
        (2, fx.cached(target).join("rag-gate")),
        (3, fx.cached(target).join(archive_name(target))),
    ] {
        std::fs::write(&plant, "#!/bin/sh\necho planted\n").unwrap();
        let again = fx.install("Linux", "ARM64", "");
        assert!(again.status.success(), "{}", stdout(&again));
        let out = stdout(&again);
        assert!(
            out.contains("::warning title=rag-gate install::the tool cache's rag-gate")
                && out.contains("downloading it again")
                && !out.contains("from the tool cache"),
            "{out}"
        );
        assert_eq!(fx.server.requests().len(), n, "no fresh download");
        assert_eq!(
            std::fs::read(&bin).unwrap(),
            good,
            "the planted file stayed"
        );
    }
    let hit = fx.install("Linux", "ARM64", "");
    assert!(
        stdout(&hit).contains("from the tool cache, sha256"),
        "{}",
        stdout(&hit)
    );
    assert_eq!(fx.server.requests().len(), 3);
}

#[test]
fn an_unreleased_platform_or_a_malformed_version_is_refused() {
    let fx = Fixture::new();
    assert_refused(
        &fx.install("Windows", "ARM64", ""),
        "no rag-gate release for RUNNER_OS=Windows RUNNER_ARCH=ARM64",
    );
    assert_refused(
        &fx.install("Linux", "X64", "latest"),
        "version must be a release like 0.1.0",
    );
    assert_refused(
        &fx.install("Linux", "X64", "1.2.3;rm -rf /"),
        "version must be a release like 0.1.0",
    );
    assert_eq!(fx.server.requests(), Vec::<String>::new());
}
