//! What a command says while it runs, apart from its report: status lines for stderr ("report
//! written to …", a retry's wait) and the progress of long work (loading a big input, the
//! bootstrap). The library never prints: it hands both to the [`Sink`] that `main` installs,
//! at the moment they happen, and `main` decides what reaches the terminal (`-q`, `-v`,
//! `--color`, progress only when stderr is a terminal). Without a sink (the library used on its
//! own, unit tests) lines are dropped and progress costs nothing. Nothing here reaches a report.

use std::sync::OnceLock;

/// How much a status line matters: `-q` drops [`Level::Info`], only `-v` shows
/// [`Level::Verbose`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Shown unless `-q`: what was written where, a retry's wait.
    Info,
    /// Shown with `-v`: what each step did.
    Verbose,
}

/// What a progress bar counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Bytes,
    /// Steps of work, named by the bar ("slices").
    Steps,
}

/// Where status goes: implemented by `main` (stderr, indicatif).
pub trait Sink: Send + Sync {
    /// One status line, as it happens.
    fn line(&self, level: Level, text: &str);
    /// A bar for work of `total` units, labelled `what`; finished when the returned bar drops.
    fn start(&self, what: &str, total: u64, unit: Unit) -> Box<dyn Bar>;
}

/// One piece of long work in progress, as the sink shows it.
pub trait Bar: Send + Sync {
    /// `n` more units done.
    fn advance(&self, n: u64);
}

static SINK: OnceLock<Box<dyn Sink>> = OnceLock::new();

/// Installs the sink for the rest of the process (`main` does, once; a second call is ignored).
pub fn install(sink: Box<dyn Sink>) {
    let _ = SINK.set(sink);
}

/// A status line shown unless `-q`.
pub fn info(text: &str) {
    if let Some(s) = SINK.get() {
        s.line(Level::Info, text);
    }
}

/// A status line shown only with `-v`.
pub fn verbose(text: &str) {
    if let Some(s) = SINK.get() {
        s.line(Level::Verbose, text);
    }
}

/// Progress of one piece of long work; finished when dropped. A no-op without a sink.
pub struct Progress(Option<Box<dyn Bar>>);

impl Progress {
    /// `n` more units done.
    pub fn advance(&self, n: u64) {
        if let Some(b) = &self.0 {
            b.advance(n);
        }
    }
}

/// Starts the progress of `what` (`total` units); the sink decides whether anything is drawn.
pub fn progress(what: &str, total: u64, unit: Unit) -> Progress {
    Progress(SINK.get().map(|s| s.start(what, total, unit)))
}

/// A reader that advances `progress` by the bytes read through it.
pub struct Counted<R> {
    inner: R,
    progress: Progress,
}

impl<R> Counted<R> {
    pub fn new(inner: R, progress: Progress) -> Self {
        Counted { inner, progress }
    }
}

impl<R: std::io::Read> std::io::Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.advance(n as u64);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_counted_reader_reads_the_same_bytes() {
        let mut r = Counted::new(&b"abc\ndef\n"[..], Progress(None));
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        assert_eq!(s, "abc\ndef\n");
    }
}
