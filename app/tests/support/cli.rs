//! What every command-line test drives the `xenolog` binary with: real
//! processes, real files.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The trust book the tests' `xenolog` keeps (issue 30 item 9), so no test
/// writes into the user's data folder.
pub fn trust_book() -> PathBuf {
    std::env::temp_dir().join("xenolog-tests-trusted.json")
}

pub fn xenolog(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(args)
        .env("XENOLOG_TRUST_BOOK", trust_book())
        .output()
        .expect("the xenolog binary runs")
}

pub fn xenolog_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(args)
        .env("XENOLOG_TRUST_BOOK", trust_book())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Its standard output; the test fails with both streams if it failed.
pub fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "expected success, got {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Then `text` contains every one of `parts` (the test fails showing it all).
pub fn assert_says_all(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "no {part:?} in:\n{text}");
    }
}

/// Then its standard error says `text` (the test fails showing all of it).
pub fn assert_stderr_says(o: &Output, text: &str) {
    assert!(stderr(o).contains(text), "{}", stderr(o));
}

/// `verb` on battle `id` of the campaign `file` with `more` arguments, which
/// must succeed: its output.
pub fn on_battle(file: &str, verb: &str, id: &str, more: &[&str]) -> String {
    let mut args = vec![verb, file, "--battle", id];
    args.extend_from_slice(more);
    ok(&xenolog(&args))
}

/// A new campaign file in a folder of its own.
pub struct Camp {
    pub dir: tempfile::TempDir,
    pub file: PathBuf,
}

impl Camp {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("club.xenolog");
        ok(&xenolog(&["new", file.to_str().unwrap()]));
        Self { dir, file }
    }

    pub fn f(&self) -> &str {
        self.file.to_str().unwrap()
    }

    /// The campaign's folder (other files of a test go beside it).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Given a new battle started with these arguments of `battle`: its id.
    pub fn start_battle(&self, args: &[&str]) -> String {
        ok(&self.try_battle(args)).trim().to_owned()
    }

    /// When `battle` is run with these arguments (it may be refused).
    pub fn try_battle(&self, args: &[&str]) -> Output {
        let mut all = vec!["battle", self.f()];
        all.extend_from_slice(args);
        xenolog(&all)
    }

    /// When `play` reads these command `lines` (JSON, one a line) for battle
    /// `id` from its standard input.
    pub fn play(&self, id: &str, lines: &str) -> Output {
        xenolog_stdin(&["play", self.f(), "--battle", id, "--script", "-"], lines)
    }

    /// `verb` on battle `id` with `more` arguments, which must succeed: its
    /// output.
    pub fn on_battle(&self, verb: &str, id: &str, more: &[&str]) -> String {
        on_battle(self.f(), verb, id, more)
    }

    /// Given a file `name` beside the campaign holding `text`: its path.
    pub fn write_beside(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// When `autoplay` plays up to `steps` commands of battle `id`: its output.
    pub fn autoplay(&self, id: &str, steps: &str) -> String {
        self.on_battle("autoplay", id, &["--steps", steps])
    }

    /// `autoplay` with the bot's own `seed`.
    pub fn autoplay_seeded(&self, id: &str, steps: &str, seed: &str) -> String {
        self.on_battle("autoplay", id, &["--steps", steps, "--seed", seed])
    }

    /// `verify` of battle `id`, which must pass: its output.
    pub fn verify(&self, id: &str) -> String {
        self.on_battle("verify", id, &[])
    }

    /// `picture` of battle `id` written to `out`, which must succeed.
    pub fn picture(&self, id: &str, out: &Path) -> String {
        self.on_battle("picture", id, &["--out", out.to_str().unwrap()])
    }
}
