//! The one integration-test binary of `xenolog-tests` (see the crate docs).

mod checker;
mod compat;
mod conformance;
mod fuzz_corpus;
mod golden;
mod hexwar_anchor;
mod illegal;
mod properties;

/// The files git tracks under `sub` of `dir` (as git names them, from
/// `dir`), or `None` when git does not answer with a list (not a checkout:
/// a source archive).
fn git_tracked(dir: &std::path::Path, sub: &str) -> Option<Vec<String>> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["ls-files", "-z", "--", sub])
        .output()
        .ok()?;
    (out.status.success() && !out.stdout.is_empty()).then(|| {
        out.stdout
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .collect()
    })
}
