//! Shell completions and man pages, generated from the clap definitions (`cli::Cli`), so they
//! follow every flag: `rag-gate completions <shell>` and `rag-gate man [COMMAND]` print them.
//! The committed copies under `packaging/data/share/` (written by
//! `scripts/generate-manuals.sh`) ship in the release archives and the wheel;
//! tests/it/manuals.rs fails when they differ from what the binary prints.

use clap::CommandFactory;
use clap_complete::Shell;

use crate::error::{Error, Result};

/// The completion script for `shell`, for the command `rag-gate`.
pub fn completions(shell: Shell) -> String {
    let mut cmd = crate::cli::Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "rag-gate", &mut out);
    String::from_utf8(out).expect("clap_complete writes UTF-8")
}

/// The man page (roff) of `rag-gate`, or of the command `path` names (`["baseline", "fetch"]`
/// is `rag-gate-baseline-fetch(1)`), as `clap_mangen::generate_to` would write it.
pub fn man_page(path: &[String]) -> Result<String> {
    let mut cmd = crate::cli::Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut page = &cmd;
    for name in path {
        page = page
            .get_subcommands()
            .find(|s| s.get_name() == name && !s.is_hide_set())
            .ok_or_else(|| {
                Error::Usage(format!(
                    "man {}: no such command; expected one of: {}",
                    path.join(" "),
                    names(page)
                ))
            })?;
    }
    let mut out = Vec::new();
    clap_mangen::Man::new(page.clone())
        .render(&mut out)
        .expect("writing to memory cannot fail");
    Ok(String::from_utf8(out).expect("clap_mangen writes UTF-8"))
}

/// Every man page's command path, `rag-gate` itself (the empty path) first, then each visible
/// command and its own commands.
pub fn man_paths() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, at: Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(at.clone());
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            let mut next = at.clone();
            next.push(sub.get_name().to_string());
            walk(sub, next, out);
        }
    }
    let cmd = crate::cli::Cli::command().disable_help_subcommand(true);
    let mut out = Vec::new();
    walk(&cmd, Vec::new(), &mut out);
    out
}

/// One line per man page: its name (`rag-gate-baseline-fetch`), then its command's words.
pub fn man_list() -> String {
    man_paths()
        .iter()
        .map(|p| {
            let mut line = page_name(p);
            for w in p {
                line.push(' ');
                line.push_str(w);
            }
            line + "\n"
        })
        .collect()
}

/// The name of the page of `path`: `rag-gate`, `rag-gate-check`, `rag-gate-baseline-fetch`.
pub fn page_name(path: &[String]) -> String {
    std::iter::once("rag-gate")
        .chain(path.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("-")
}

fn names(cmd: &clap::Command) -> String {
    let names: Vec<&str> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(|s| s.get_name())
        .collect();
    names.join(", ")
}
