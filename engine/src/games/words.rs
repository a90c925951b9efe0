//! The line format every game's data files share (Dimension X's maps,
//! chits and scenarios, Alien Invasion's factions and scenarios): words
//! separated by spaces, `"double quoted"` words may hold spaces (and may be
//! empty), and `#` outside quotes starts a comment.

/// The words of one line; an error in words when a quote is not closed.
pub fn words(raw: &str) -> Result<Vec<String>, &'static str> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_quotes = false;
    let mut quoted = false;
    for ch in raw.chars() {
        match ch {
            '"' => {
                in_quotes = !in_quotes;
                quoted = true;
            }
            '#' if !in_quotes => break,
            c if c.is_whitespace() && !in_quotes => {
                if !cur.is_empty() || quoted {
                    words.push(std::mem::take(&mut cur));
                }
                quoted = false;
            }
            c => cur.push(c),
        }
    }
    if in_quotes {
        return Err("a quoted text is not closed (missing \")");
    }
    if !cur.is_empty() || quoted {
        words.push(cur);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn quotes_hold_spaces_comments_end_the_line_and_an_open_quote_is_refused() {
        assert_eq!(
            words(r#"faction unit "U.N.I.T." # the Brigadier's"#).unwrap(),
            vec!["faction", "unit", "U.N.I.T."]
        );
        assert_eq!(words(r#"name "" x"#).unwrap(), vec!["name", "", "x"]);
        assert_eq!(
            words(r##"a "# not a comment" b"##).unwrap(),
            vec!["a", "# not a comment", "b"]
        );
        assert!(words(r#"a "open"#).is_err());
    }
}
