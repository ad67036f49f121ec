//! Thin entry point: parse the command line, run, print, map the outcome to an exit code.

use clap::Parser;

fn main() {
    let cli = rag_gate::cli::Cli::parse();
    match rag_gate::run(cli) {
        Ok(outcome) => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(outcome.stdout.as_bytes());
            let _ = out.flush();
            for line in &outcome.stderr {
                eprintln!("{line}");
            }
            std::process::exit(outcome.exit_code);
        }
        Err(err) => {
            eprintln!("error: {err}");
            std::process::exit(err.exit_code());
        }
    }
}
