//! The release archives, as three readers expect them: the release workflow names one per target
//! of its matrix, scripts/release-archive.sh packs it, and cargo-binstall
//! (`[package.metadata.binstall]` in Cargo.toml) downloads and unpacks it. Each target's archive
//! name and binary path, rendered from the binstall templates, must be the workflow's name and a
//! file the script really packs, beside the README and both licence texts.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_norway::Value as Yaml;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// (target, archive extension) of every build in release.yml's matrix.
fn release_targets() -> Vec<(String, String)> {
    let wf: Yaml = serde_norway::from_str(&read(".github/workflows/release.yml")).unwrap();
    let build = &wf["jobs"]["build"];
    let archive = build["env"]["ARCHIVE"].as_str().unwrap();
    assert_eq!(
        archive, "rag-gate-${{ matrix.target }}.${{ matrix.archive }}",
        "release.yml names its archives another way"
    );
    build["strategy"]["matrix"]["include"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|m| {
            let s = |k: &str| m[k].as_str().unwrap().to_string();
            (s("target"), s("archive"))
        })
        .collect()
}

/// The binstall templates of Cargo.toml rendered for `target`: (pkg-url, bin-dir).
fn binstall(target: &str) -> (String, String) {
    let doc: toml::Table = toml::from_str(&read("Cargo.toml")).unwrap();
    let package = &doc["package"];
    let meta = &package["metadata"]["binstall"];
    let text = |v: &toml::Value, k: &str| v.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let fmt = meta["overrides"]
        .get(target)
        .and_then(|o| text(o, "pkg-fmt"))
        .or_else(|| text(meta, "pkg-fmt"))
        .unwrap();
    let suffix = match fmt.as_str() {
        "tgz" => ".tar.gz",
        "zip" => ".zip",
        other => panic!("pkg-fmt {other}: release.yml makes .tar.gz and .zip only"),
    };
    let exe = if target.contains("windows") {
        ".exe"
    } else {
        ""
    };
    let render = |t: String| {
        t.replace("{ repo }", package["repository"].as_str().unwrap())
            .replace("{ version }", package["version"].as_str().unwrap())
            .replace("{ target }", target)
            .replace("{ archive-suffix }", suffix)
            .replace("{ bin }", "rag-gate")
            .replace("{ binary-ext }", exe)
    };
    (
        render(text(meta, "pkg-url").unwrap()),
        render(text(meta, "bin-dir").unwrap()),
    )
}

#[test]
fn binstall_downloads_the_archive_release_yml_names() {
    let doc: toml::Table = toml::from_str(&read("Cargo.toml")).unwrap();
    let (repo, version) = (
        doc["package"]["repository"].as_str().unwrap(),
        doc["package"]["version"].as_str().unwrap(),
    );
    let targets = release_targets();
    assert_eq!(targets.len(), 5, "{targets:?}");
    for (target, ext) in targets {
        let (url, _) = binstall(&target);
        assert_eq!(
            url,
            format!("{repo}/releases/download/v{version}/rag-gate-{target}.{ext}")
        );
    }
}

fn archive_files(target: &str, out: &Path) -> Vec<String> {
    let fake = out.join("rag-gate-binary");
    std::fs::write(&fake, b"#!/bin/sh\n").unwrap();
    let made = Command::new("bash")
        .arg(root().join("scripts/release-archive.sh"))
        .args([target.as_ref(), fake.as_os_str(), out.as_os_str()])
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let archive = String::from_utf8(made.stdout).unwrap().trim().to_string();
    assert!(
        Path::new(&format!("{archive}.sha256")).is_file(),
        "no checksum beside {archive}"
    );
    let listed = Command::new("tar")
        .arg("-tzf")
        .arg(&archive)
        .output()
        .unwrap();
    assert!(listed.status.success(), "{listed:?}");
    String::from_utf8(listed.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim_end_matches('/').to_string())
        .collect()
}

#[cfg(unix)]
#[test]
fn the_archive_holds_the_binary_where_binstall_looks_and_the_licences() {
    for (target, ext) in release_targets() {
        if ext != "tar.gz" {
            continue; // the .zip of Windows holds the same files (one script packs both)
        }
        let dir = tempfile::tempdir().unwrap();
        let files = archive_files(&target, dir.path());
        let (_, bin_dir) = binstall(&target);
        let folder = format!("rag-gate-{target}");
        for want in [
            bin_dir,
            format!("{folder}/README.md"),
            format!("{folder}/LICENSE-MIT"),
            format!("{folder}/LICENSE-APACHE"),
            format!("{folder}/share/man/man1/rag-gate.1"),
        ] {
            assert!(files.contains(&want), "{target}: no {want} in {files:?}");
        }
    }
}

#[test]
fn both_licence_texts_are_at_the_root() {
    let doc: toml::Table = toml::from_str(&read("Cargo.toml")).unwrap();
    assert_eq!(
        doc["package"]["license"].as_str(),
        Some("MIT OR Apache-2.0")
    );
    assert!(read("LICENSE-MIT").starts_with("MIT License"));
    assert!(read("LICENSE-APACHE").contains("Apache License\n                        Version 2.0"));
}
