//! Thin entry point: parse the command line, install the output layer (`terminal`), run, print
//! the report, map the outcome to an exit code. Standard output carries the report only, passed
//! through the final guard (`safe_text::printable`); everything else goes to stderr through
//! `terminal`, status lines as they happen. Only rag-gate's own workflow commands
//! (`safe_text::Command`) are printed as built.

mod terminal;

use clap::{CommandFactory, FromArgMatches};
use rag_gate::safe_text::printable;

fn main() {
    let colour = terminal::color_flag(std::env::args_os());
    let matches = rag_gate::cli::Cli::command().color(colour).get_matches();
    let cli = rag_gate::cli::Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let term = terminal::Terminal::new(&cli.terminal);
    rag_gate::status::install(Box::new(term.clone()));
    match rag_gate::run(cli) {
        Ok(outcome) => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(printable(&outcome.stdout).as_bytes());
            let _ = out.flush();
            for line in &outcome.stderr {
                term.returned(line);
            }
            std::process::exit(outcome.exit_code);
        }
        Err(rag_gate::Error::Noted(err, lines)) => {
            term.error(&err.to_string());
            for line in &lines {
                term.returned(line);
            }
            std::process::exit(err.exit_code());
        }
        Err(err) => {
            term.error(&err.to_string());
            std::process::exit(err.exit_code());
        }
    }
}
