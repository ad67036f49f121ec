//! Thin entry point: parse the command line, run, print, map the outcome to an exit code.
//! Everything printed passes the final guard (`safe_text::printable`); only rag-gate's own
//! workflow commands (`safe_text::Command`) are printed as built.

use clap::Parser;
use rag_gate::safe_text::printable;

fn main() {
    let cli = rag_gate::cli::Cli::parse();
    match rag_gate::run(cli) {
        Ok(outcome) => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(printable(&outcome.stdout).as_bytes());
            let _ = out.flush();
            for line in &outcome.stderr {
                eprintln!("{}", line.shown());
            }
            std::process::exit(outcome.exit_code);
        }
        Err(rag_gate::Error::Noted(err, lines)) => {
            eprintln!("error: {}", printable(&err.to_string()));
            for line in &lines {
                eprintln!("{}", line.shown());
            }
            std::process::exit(err.exit_code());
        }
        Err(err) => {
            eprintln!("error: {}", printable(&err.to_string()));
            std::process::exit(err.exit_code());
        }
    }
}
