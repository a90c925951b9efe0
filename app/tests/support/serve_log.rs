//! What a `xenolog serve` started by a test writes to its standard error,
//! kept in a file of its own (`/tmp/xenolog-serve-stderr-*/stderr.log`,
//! written by the process itself, so a test that stalls can be read while
//! it hangs) and shown with the test's output when the test fails: the
//! server's own words about a stall or a refusal are then there to read,
//! not lost (session 21 took a live catch to read one).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Stdio;

/// The most of a log shown with a failure: its end.
const SHOWN: usize = 32 * 1024;

pub struct ServeLog {
    /// Kept for as long as the log: the folder goes with it.
    _dir: tempfile::TempDir,
    pub path: PathBuf,
}

impl ServeLog {
    /// A new, empty log, and the standard error to give the server's
    /// process (the file itself: nothing in the test has to read it).
    pub fn new() -> (ServeLog, Stdio) {
        let dir = tempfile::Builder::new()
            .prefix("xenolog-serve-stderr-")
            .tempdir()
            .expect("a folder for the server's standard error");
        let path = dir.path().join("stderr.log");
        let file = std::fs::File::create(&path).expect("the server's standard error file");
        (ServeLog { _dir: dir, path }, Stdio::from(file))
    }

    /// Everything written so far.
    pub fn text(&self) -> String {
        std::fs::read_to_string(&self.path).unwrap_or_default()
    }

    /// The log's end, as shown with a failure.
    pub fn tail(&self) -> String {
        let text = self.text();
        if text.len() <= SHOWN {
            return text;
        }
        let mut from = text.len() - SHOWN;
        while !text.is_char_boundary(from) {
            from += 1;
        }
        format!("[... {from} bytes before ...]\n{}", &text[from..])
    }

    /// While the test is failing (its thread unwinding from a failed
    /// assertion or a deadline), the log is written into the test's output
    /// (shown with the failure), `what` naming the server; otherwise
    /// nothing.
    pub fn show_if_failing(&self, what: &str) {
        if let Some(words) = self.failing_words(what) {
            eprintln!("{words}");
        }
    }

    /// What [`ServeLog::show_if_failing`] writes: `None` unless the thread
    /// is unwinding.
    pub fn failing_words(&self, what: &str) -> Option<String> {
        std::thread::panicking().then(|| {
            format!(
                "--- {what}: its standard error ({}) ---\n{}\n--- end of {what}'s standard error ---",
                self.path.display(),
                self.tail()
            )
        })
    }
}
