//! What every command-line test drives the `xenolog` binary with: real
//! processes, real files.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

pub fn xenolog(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(args)
        .output()
        .expect("the xenolog binary runs")
}

pub fn xenolog_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(args)
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
}
