//! The line format shared by every dimx data file and by players' scenario
//! files: one statement per line, words separated by spaces, `"double quoted"`
//! words may hold spaces, and `#` starts a comment. Errors name the line.

use std::fmt;

/// A problem in a data or scenario file, with the line it is on (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// 0 when the problem is with the file as a whole.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

/// One non-empty line: its number and its words.
#[derive(Clone, Debug)]
pub struct Line {
    pub no: usize,
    pub words: Vec<String>,
}

impl Line {
    /// An error about this line.
    pub fn err(&self, message: impl Into<String>) -> TextError {
        TextError {
            line: self.no,
            message: message.into(),
        }
    }

    /// The word at `i`, or an error saying what was expected there.
    pub fn word(&self, i: usize, what: &str) -> Result<&str, TextError> {
        self.words
            .get(i)
            .map(String::as_str)
            .ok_or_else(|| self.err(format!("'{}' needs {what}", self.words[0])))
    }

    /// The word at `i` as a number in `lo..=hi`.
    pub fn number(&self, i: usize, what: &str, lo: i64, hi: i64) -> Result<i64, TextError> {
        let w = self.word(i, what)?;
        parse_number(w)
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| {
                self.err(format!(
                    "'{w}' is not a valid {what} (a whole number from {lo} to {hi})"
                ))
            })
    }

    /// The number after word `*i`, from `lo` to `hi`, for a marker that
    /// takes a value (`mp 4`); `*i` moves onto it.
    pub fn value_after(&self, i: &mut usize, what: &str, lo: u8, hi: u8) -> Result<u8, TextError> {
        *i += 1;
        Ok(self.number(*i, what, i64::from(lo), i64::from(hi))? as u8)
    }

    /// Refuse words after position `n`.
    pub fn at_most(&self, n: usize) -> Result<(), TextError> {
        match self.words.get(n) {
            Some(extra) => Err(self.err(format!(
                "unexpected '{extra}' after '{}'",
                self.words[..n].join(" ")
            ))),
            None => Ok(()),
        }
    }
}

fn parse_number(w: &str) -> Option<i64> {
    w.parse::<i64>().ok()
}

/// Split a file into lines of words.
pub fn lines(text: &str) -> Result<Vec<Line>, TextError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let words = crate::games::words::words(raw).map_err(|m| TextError {
            line: no,
            message: m.into(),
        })?;
        if !words.is_empty() {
            out.push(Line { no, words });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_quotes_and_comments() {
        let ls = lines("a b \"c d\" # note\n\n  # only a comment\nx \"\"\n").unwrap();
        assert_eq!(ls.len(), 2);
        assert_eq!(ls[0].words, vec!["a", "b", "c d"]);
        assert_eq!(ls[1].no, 4);
        assert_eq!(ls[1].words, vec!["x", ""]);
        let e = lines("ok\nname \"open").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().starts_with("line 2: a quoted text"));
    }

    #[test]
    fn numbers_are_checked_against_their_range() {
        let ls = lines("turn 25").unwrap();
        let e = ls[0].number(1, "turn", 1, 30).unwrap();
        assert_eq!(e, 25);
        let err = ls[0].number(1, "turn", 1, 19).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1: '25' is not a valid turn (a whole number from 1 to 19)"
        );
    }
}
