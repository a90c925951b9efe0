//! The "then" the position-file tests of every game share (included with
//! `#[path]`): a table of files, each refused in words containing its text.

/// Then each file `refuse` reads is refused, in words containing its text;
/// a case that fails names its file.
pub fn then_each_refused(refuse: impl Fn(&str) -> String, cases: &[(&str, &str)]) {
    for (file, says) in cases {
        let e = refuse(file);
        assert!(
            e.contains(says),
            "{file:?}: refused, but not saying {says:?}: {e}"
        );
    }
}
