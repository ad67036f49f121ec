//! The binary's output layer (declared by `main.rs`, not part of the library): the only code
//! that writes to stderr. It is the [`rag_gate::status::Sink`] `main` installs: status lines go
//! out as they happen (each line written whole, unbuffered), `-q` drops them, `-v` adds the
//! verbose ones; progress bars (indicatif) are drawn only when stderr is a terminal and `-q` is
//! off, and only for work that is still running after [`SHOW_AFTER`], so quick runs, CI logs and
//! pipes never see one. Colour (`--color`, NO_COLOR, CLICOLOR_FORCE) marks `error:`, `warning:`
//! and `note:` on stderr; standard output (the report) is never coloured.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anstyle::{AnsiColor, Style};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use rag_gate::cli::{ColorWhen, TerminalArgs};
use rag_gate::safe_text::{printable, Line};
use rag_gate::status::{Bar, Level, Sink, Unit};

/// A bar appears only for work still running this long after it started.
const SHOW_AFTER: Duration = Duration::from_millis(400);

/// What the flags, the environment and stderr decided.
#[derive(Clone)]
pub struct Terminal {
    quiet: bool,
    verbose: bool,
    colour: bool,
    /// Present when progress may be drawn (stderr is a terminal, no `-q`).
    bars: Option<MultiProgress>,
}

/// Whether stderr is coloured: `--color always|never` win; under `auto`, a non-empty NO_COLOR
/// turns colour off, a CLICOLOR_FORCE other than `0` turns it on, else a terminal that is not
/// `TERM=dumb` gets colour (no-color.org, the CLICOLOR convention).
pub fn colour(
    when: ColorWhen,
    stderr_is_terminal: bool,
    env: impl Fn(&str) -> Option<String>,
) -> bool {
    let set = |k: &str| env(k).filter(|v| !v.is_empty());
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto if set("NO_COLOR").is_some() => false,
        ColorWhen::Auto if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") => true,
        ColorWhen::Auto => stderr_is_terminal && set("TERM").as_deref() != Some("dumb"),
    }
}

/// The `--color` the command line asks for, read before clap parses it (clap's own help and
/// usage errors follow it too); the last one wins, an unknown value is left to clap.
pub fn color_flag(args: impl Iterator<Item = std::ffi::OsString>) -> clap::ColorChoice {
    let mut choice = clap::ColorChoice::Auto;
    let mut args = args.skip(1).peekable();
    while let Some(a) = args.next() {
        let value = match a.to_str() {
            Some("--") => break,
            Some("--color") => args.peek().and_then(|v| v.to_str()).map(str::to_string),
            Some(s) => s.strip_prefix("--color=").map(str::to_string),
            None => None,
        };
        match value.as_deref() {
            Some("always") => choice = clap::ColorChoice::Always,
            Some("never") => choice = clap::ColorChoice::Never,
            Some("auto") => choice = clap::ColorChoice::Auto,
            _ => {}
        }
    }
    choice
}

impl Terminal {
    pub fn new(args: &TerminalArgs) -> Self {
        let tty = std::io::stderr().is_terminal();
        let bars = (tty && !args.quiet)
            .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()));
        Terminal {
            quiet: args.quiet,
            verbose: args.verbose,
            colour: colour(args.color, tty, |k| std::env::var(k).ok()),
            bars,
        }
    }

    /// An error on stderr (always shown).
    pub fn error(&self, msg: &str) {
        let text = format!("error: {}", printable(msg));
        self.write(&self.painted(&text));
    }

    /// A line a command returned for stderr (a warning or note, or rag-gate's own workflow
    /// command, printed as built): always shown.
    pub fn returned(&self, line: &Line) {
        match line {
            Line::Text(_) => self.write(&self.painted(&line.shown())),
            Line::Command(_) => self.write(&line.shown()),
        }
    }

    /// One whole line on stderr, above any bar being drawn.
    fn write(&self, line: &str) {
        let put = || {
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err, "{line}");
            let _ = err.flush();
        };
        match &self.bars {
            Some(m) => m.suspend(put),
            None => put(),
        }
    }

    /// `line` with its `error:`, `warning:` or `note:` prefix coloured when colour is on.
    fn painted(&self, line: &str) -> String {
        let styles = [
            ("error:", AnsiColor::Red),
            ("warning:", AnsiColor::Yellow),
            ("note:", AnsiColor::Cyan),
        ];
        let found = styles.iter().find(|(p, _)| line.starts_with(p));
        match found {
            Some((prefix, c)) if self.colour => {
                let style = Style::new().bold().fg_color(Some((*c).into()));
                format!("{style}{prefix}{style:#}{}", &line[prefix.len()..])
            }
            _ => line.to_string(),
        }
    }
}

impl Sink for Terminal {
    fn line(&self, level: Level, text: &str) {
        let shown = match level {
            Level::Info => !self.quiet,
            Level::Verbose => self.verbose,
        };
        if shown {
            self.write(&self.painted(&printable(text)));
        }
    }

    fn start(&self, what: &str, total: u64, unit: Unit) -> Box<dyn Bar> {
        let Some(multi) = self.bars.as_ref().filter(|_| total > 0) else {
            return Box::new(Hidden);
        };
        Box::new(Delayed {
            multi: multi.clone(),
            what: rag_gate::safe_text::shown(what),
            total,
            unit,
            started: Instant::now(),
            done: Default::default(),
            bar: Mutex::new(None),
        })
    }
}

/// A bar that is never drawn (not a terminal, `-q`, or work of unknown size).
struct Hidden;

impl Bar for Hidden {
    fn advance(&self, _: u64) {}
}

/// A bar drawn once its work has run for [`SHOW_AFTER`]; cleared when done.
struct Delayed {
    multi: MultiProgress,
    what: String,
    total: u64,
    unit: Unit,
    started: Instant,
    done: std::sync::atomic::AtomicU64,
    bar: Mutex<Option<Arc<ProgressBar>>>,
}

impl Bar for Delayed {
    fn advance(&self, n: u64) {
        use std::sync::atomic::Ordering;
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        let Ok(mut bar) = self.bar.lock() else {
            return;
        };
        match bar.as_ref() {
            Some(b) => b.set_position(done.min(self.total)),
            None if self.started.elapsed() >= SHOW_AFTER && done < self.total => {
                let b = self.multi.add(ProgressBar::new(self.total));
                b.set_style(style(self.unit));
                b.set_message(self.what.clone());
                b.set_position(done);
                *bar = Some(Arc::new(b));
            }
            None => {}
        }
    }
}

impl Drop for Delayed {
    fn drop(&mut self) {
        if let Ok(Some(b)) = self.bar.get_mut().map(Option::take) {
            b.finish_and_clear();
            self.multi.remove(&b);
        }
    }
}

fn style(unit: Unit) -> ProgressStyle {
    let template = match unit {
        Unit::Bytes => "{msg:30!} [{bar:30}] {bytes}/{total_bytes} ({eta})",
        Unit::Steps => "{msg:30!} [{bar:30}] {pos}/{len} ({eta})",
    };
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn no_color_wins_over_a_terminal_and_the_flag_wins_over_no_color() {
        assert!(colour(ColorWhen::Auto, true, env(&[])));
        assert!(!colour(ColorWhen::Auto, false, env(&[])));
        assert!(!colour(ColorWhen::Auto, true, env(&[("NO_COLOR", "1")])));
        assert!(colour(ColorWhen::Auto, true, env(&[("NO_COLOR", "")])));
        assert!(colour(ColorWhen::Always, false, env(&[("NO_COLOR", "1")])));
        assert!(!colour(
            ColorWhen::Never,
            true,
            env(&[("CLICOLOR_FORCE", "1")])
        ));
        assert!(colour(
            ColorWhen::Auto,
            false,
            env(&[("CLICOLOR_FORCE", "1")])
        ));
        assert!(!colour(
            ColorWhen::Auto,
            false,
            env(&[("CLICOLOR_FORCE", "0")])
        ));
        assert!(!colour(ColorWhen::Auto, true, env(&[("TERM", "dumb")])));
    }

    #[test]
    fn the_color_flag_is_read_before_parsing() {
        let args = |v: &[&str]| v.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
        let of = |v: &[&str]| color_flag(args(v).into_iter());
        assert_eq!(
            of(&["rg", "check", "--color", "never"]),
            clap::ColorChoice::Never
        );
        assert_eq!(
            of(&["rg", "--color=always", "check"]),
            clap::ColorChoice::Always
        );
        assert_eq!(
            of(&["rg", "check", "--", "--color=always"]),
            clap::ColorChoice::Auto
        );
        assert_eq!(of(&["rg", "check"]), clap::ColorChoice::Auto);
    }
}
