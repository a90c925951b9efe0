//! Tokens and invitation codes: long random secrets that are shown once, stored
//! only as their BLAKE3 hash, and never printed by `Debug` (DESIGN.md section 4).
//!
//! A token has 256 random bits and a code 100, so a fast hash without salt is
//! enough: a stolen club file opens nothing, and guessing is hopeless.

use std::fmt;

use data_encoding::{BASE32_NOPAD, BASE64URL_NOPAD};
use serde::{Deserialize, Serialize};

/// The prefix every invitation code is shown with.
pub const CODE_PREFIX: &str = "XNLG";

/// What a token or an invitation lets its holder do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Creates campaigns and battles, invites, lists and revokes tokens.
    Organiser,
    /// Plays the seats it was invited to.
    Player,
    /// Watches the public view of the battles it was invited to.
    Spectator,
}

impl Role {
    /// The word stored in the club file and sent on the wire.
    pub fn word(self) -> &'static str {
        match self {
            Role::Organiser => "organiser",
            Role::Player => "player",
            Role::Spectator => "spectator",
        }
    }

    /// The role of a stored word.
    pub fn from_word(word: &str) -> Option<Role> {
        match word {
            "organiser" => Some(Role::Organiser),
            "player" => Some(Role::Player),
            "spectator" => Some(Role::Spectator),
            _ => None,
        }
    }

    /// The token prefix that lets people and secret scanners spot a token.
    fn token_prefix(self) -> &'static str {
        match self {
            Role::Organiser => "xnl_o_",
            Role::Player => "xnl_p_",
            Role::Spectator => "xnl_v_",
        }
    }
}

/// Random bytes from the operating system's generator (never a seeded PRNG).
pub fn random_bytes<const N: usize>() -> Result<[u8; N], getrandom::Error> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes)?;
    Ok(bytes)
}

/// A bearer token: `xnl_p_` and 32 random bytes in base64url.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Token(String);

impl Token {
    /// A new random token for `role`.
    pub fn generate(role: Role) -> Result<Token, getrandom::Error> {
        let bytes: [u8; 32] = random_bytes()?;
        Ok(Token(format!(
            "{}{}",
            role.token_prefix(),
            BASE64URL_NOPAD.encode(&bytes)
        )))
    }

    /// A token as the client gave it (trimmed).
    pub fn from_text(text: &str) -> Token {
        Token(text.trim().to_owned())
    }

    /// The token itself, to show its holder once.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// What the club file keeps.
    pub fn hash(&self) -> [u8; 32] {
        *blake3::hash(self.0.as_bytes()).as_bytes()
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = self.0.get(..6).filter(|p| p.starts_with("xnl_"));
        write!(f, "Token({}…redacted)", prefix.unwrap_or(""))
    }
}

/// An invitation code: 20 base32 characters (100 bits), shown as
/// `XNLG-XXXX-XXXX-XXXX-XXXX-XXXX`, spent on first use.
#[derive(Clone, PartialEq, Eq)]
pub struct Code(String);

impl Code {
    /// A new random code.
    pub fn generate() -> Result<Code, getrandom::Error> {
        let bytes: [u8; 13] = random_bytes()?;
        let mut text = BASE32_NOPAD.encode(&bytes);
        text.truncate(20);
        Ok(Code(text))
    }

    /// A code as a person typed or pasted it: any case, with or without the
    /// `XNLG` prefix, dashes or spaces, or a whole link with the code after `#`.
    pub fn parse(text: &str) -> Option<Code> {
        let text = text.rsplit('#').next().unwrap_or(text);
        let mut plain: String = text
            .chars()
            .filter(|c| !matches!(c, '-' | ' ' | '\t'))
            .map(|c| c.to_ascii_uppercase())
            .collect();
        if plain.len() == 24 && plain.starts_with(CODE_PREFIX) {
            plain.drain(..4);
        }
        let base32 = |c: char| c.is_ascii_uppercase() || ('2'..='7').contains(&c);
        (plain.len() == 20 && plain.chars().all(base32)).then_some(Code(plain))
    }

    /// The code as people read it: `XNLG-XXXX-XXXX-XXXX-XXXX-XXXX`.
    pub fn expose(&self) -> String {
        let groups: Vec<&str> = (0..5).map(|i| &self.0[i * 4..i * 4 + 4]).collect();
        format!("{CODE_PREFIX}-{}", groups.join("-"))
    }

    /// What the club file keeps.
    pub fn hash(&self) -> [u8; 32] {
        *blake3::hash(self.0.as_bytes()).as_bytes()
    }
}

impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Code(XNLG-…redacted)")
    }
}

/// A secret as a client typed it (an invitation code before it is parsed):
/// its `Debug` shows nothing of it.
#[derive(Clone, Deserialize)]
#[serde(transparent)]
pub struct SecretText(String);

impl SecretText {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for SecretText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretText(…redacted)")
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.expose())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_of_a_token_or_a_code_never_shows_the_secret() {
        let t = Token::generate(Role::Player).unwrap();
        let shown = format!("{t:?}");
        assert_eq!(shown, "Token(xnl_p_…redacted)");
        assert!(!shown.contains(&t.expose()[6..]));
        let c = Code::generate().unwrap();
        let shown = format!("{c:?} {:?}", Some(&c));
        assert!(!shown.contains(&c.expose()[5..]), "{shown}");
    }

    #[test]
    fn a_token_has_its_role_prefix_and_256_bits() {
        let t = Token::generate(Role::Organiser).unwrap();
        assert!(t.expose().starts_with("xnl_o_"));
        assert_eq!(
            BASE64URL_NOPAD
                .decode(&t.expose().as_bytes()[6..])
                .unwrap()
                .len(),
            32
        );
        assert_ne!(t, Token::generate(Role::Organiser).unwrap());
    }

    #[test]
    fn a_code_reads_back_however_it_is_typed() {
        let c = Code::generate().unwrap();
        let shown = c.expose();
        assert_eq!(shown.len(), 29);
        assert!(shown.starts_with("XNLG-"));
        for typed in [
            shown.clone(),
            shown.to_lowercase(),
            shown.replace('-', " "),
            shown[5..].replace('-', ""),
            format!("xenolog://127.0.0.1:9000/join#{shown}"),
        ] {
            assert_eq!(Code::parse(&typed).as_ref(), Some(&c), "{typed}");
        }
        assert_eq!(Code::parse("XNLG-1111-AAAA-AAAA-AAAA-AAAA"), None);
        assert_eq!(Code::parse("XNLG-AAAA"), None);
        assert_eq!(c.hash(), Code::parse(&shown).unwrap().hash());
    }
}
