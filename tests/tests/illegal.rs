//! Illegal commands change nothing (DESIGN.md principle 8), for every game in
//! the registry (`xenolog_engine::games::REGISTRY`), so a game added later is
//! covered by being registered.
//!
//! From battle positions reached by random legal play (with take-backs, so
//! some positions sit on a line with entries after them and a new command
//! there would start a branch), each game is given commands of five kinds:
//!
//! - **random JSON**: nested objects and arrays, strings, huge and negative
//!   numbers, unicode, deep nesting, and JSON shaped like the game's commands
//!   (its variant and field names, random contents);
//! - **random bytes** that are not JSON, read as a `play --script` line is
//!   read (and their text given as a command name);
//! - **legal at another moment**: commands that were legal at another position
//!   of this battle or of another battle of the same game, given by any seat;
//! - **legal, one field mutated**: a unit id out of range, a hex off the map, a
//!   card not in hand, a key dropped or added, an array grown or emptied;
//! - **entered dice** (dice mode "entered"): a legal command with one die too
//!   few (refused as "more dice"), one too many, or a face out of range (0, 7
//!   on a d6, 255, sides + 1), and random dice lists; and dice as JSON a
//!   script line may carry (negatives, 256, fractions, strings).
//!
//! A refused command must leave the battle exactly as it was: the state at the
//! cursor (hash of its JSON), the log (number of entries, the chain hash at the
//! last entry and at the cursor), the cursor, the current branch and the
//! branches. Its message must read in words (no Rust `Debug` noise). A command
//! that is accepted (a random one can be legal) is committed and play goes on
//! from the new position; every battle is verified at its end. A panic
//! anywhere fails the test with the seed, the game and the command.
//!
//! Two levels:
//!
//! 1. the engine's [`Battle`] (`prepare_json` then `commit`), fast: CI runs a
//!    few thousand commands in debug; the million runs in release with
//!    `XENOLOG_ILLEGAL=1000000 cargo test --release -p xenolog-tests --test tests
//!    illegal::a_million -- --ignored --nocapture` (the figures it prints are in
//!    RELIABILITY.md);
//! 2. the store's [`Campaign::play`] on a real file in a temporary folder:
//!    after a refusal the campaign file and its `-wal` and `-shm` are byte for
//!    byte as before, and the battle read back from disk equals the one in
//!    memory.
//!
//! Every run is a seeded loop; `XENOLOG_ILLEGAL_SEED` replays one.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{Map, Value, json};
use xenolog_engine::games::{Entry, REGISTRY};
use xenolog_engine::{
    Actor, Battle, Branch, BranchId, Die, EntryId, LegalCommand, PendingKind, PlayError,
    RuleErrorKind,
};
use xenolog_saves::{Campaign, DiceMode, SaveError};
use xenolog_tests::compat::state_hash;

// A small seeded generator (the engine's SplitMix64), so that a failure
// is replayed from the seed it prints.
use xenolog_engine::rng::SplitMix64 as Rng;

/// What a battle looks like from outside: everything a refused command
/// must leave as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Look {
    entries: usize,
    last_chain: Option<[u8; 16]>,
    cursor: Option<EntryId>,
    cursor_chain: Option<[u8; 16]>,
    cursor_state_hash: Option<[u8; 16]>,
    /// Hash of the state at the cursor as JSON (the live state, not a record).
    state: String,
    branch: BranchId,
    branches: Vec<Branch>,
    corruption: Option<EntryId>,
}

fn look(b: &dyn Battle) -> Look {
    let rec = |id: EntryId| &b.records()[id as usize];
    Look {
        entries: b.records().len(),
        last_chain: b.records().last().map(|r| r.chain),
        cursor: b.cursor(),
        cursor_chain: b.cursor().map(|c| rec(c).chain),
        cursor_state_hash: b.cursor().map(|c| rec(c).state_hash),
        state: state_hash(b, b.cursor()),
        branch: b.current_branch(),
        branches: b.branches().to_vec(),
        corruption: b.corruption(),
    }
}

/// The kinds of command given, for the tally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    RandomJson,
    ShapedJson,
    Bytes,
    OtherMoment,
    OtherSeat,
    Mutated,
    WrongDice,
    RandomDice,
}

const KINDS: [Kind; 8] = [
    Kind::RandomJson,
    Kind::ShapedJson,
    Kind::Bytes,
    Kind::OtherMoment,
    Kind::OtherSeat,
    Kind::Mutated,
    Kind::WrongDice,
    Kind::RandomDice,
];

/// One command to give: who, what, which dice, and what must happen.
#[derive(Clone, Debug)]
struct Try {
    kind: Kind,
    actor: Actor,
    command: Value,
    dice: Option<Vec<u8>>,
    /// The refusal the rules must give, when it is known in advance.
    expect: Option<RuleErrorKind>,
}

/// Counts per game.
#[derive(Clone, Debug, Default)]
struct Tally {
    given: u64,
    refused: u64,
    accepted: u64,
    /// Refusals by why: "not a command", or the rule error's kind.
    why: BTreeMap<String, u64>,
    by_kind: BTreeMap<String, (u64, u64)>,
    battles: u64,
    positions: u64,
    /// The first refusal of each why, in words, to be read by a person.
    examples: BTreeMap<String, String>,
    seconds: f64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.given += other.given;
        self.refused += other.refused;
        self.accepted += other.accepted;
        for (k, v) in &other.why {
            *self.why.entry(k.clone()).or_default() += v;
        }
        for (k, (r, a)) in &other.by_kind {
            let e = self.by_kind.entry(k.clone()).or_default();
            e.0 += r;
            e.1 += a;
        }
        self.battles += other.battles;
        self.positions += other.positions;
        self.seconds += other.seconds;
    }

    fn example(&mut self, why: &str, message: &str) {
        if !self.examples.contains_key(why) {
            let mut m = message.to_owned();
            if m.len() > 300 {
                let cut = (0..=300)
                    .rev()
                    .find(|&i| m.is_char_boundary(i))
                    .unwrap_or(0);
                m.truncate(cut);
                m.push_str("...");
            }
            self.examples.insert(why.to_owned(), m);
        }
    }

    fn count(&mut self, kind: Kind, refused: Option<String>) {
        self.given += 1;
        let e = self.by_kind.entry(format!("{kind:?}")).or_default();
        match refused {
            Some(why) => {
                self.refused += 1;
                e.0 += 1;
                *self.why.entry(why).or_default() += 1;
            }
            None => {
                self.accepted += 1;
                e.1 += 1;
            }
        }
    }
}

/// Why a play was refused, for the tally.
fn why(e: &PlayError) -> String {
    match e {
        PlayError::BadCommand { .. } => "not a command".into(),
        PlayError::Rule(r) => format!("{:?}", r.kind),
    }
}

/// The part of a message outside quotes: what Xenolog wrote, not what the
/// player typed and the message repeats.
fn unquoted(message: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<char> = None;
    for c in message.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '`' || c == '"' => quote = Some(c),
            None => out.push(c),
        }
    }
    out
}

/// Whether a refusal reads in words: not empty, and no Rust `Debug` output
/// (`Some(..)`, `None`, `Point { x: .. }`, `GroupId(3)`) outside quotes.
fn unreadable(message: &str) -> Option<String> {
    if message.trim().is_empty() {
        return Some("the message is empty".into());
    }
    let text = unquoted(message);
    for noise in ["Some(", "None", "Ok(", "Err(", "{ "] {
        if text.contains(noise) {
            return Some(format!("it contains `{noise}`"));
        }
    }
    // Counting that does not read: "1 dice were", "rolls only 0".
    let words: Vec<&str> = text.split_whitespace().collect();
    for w in words.windows(2) {
        if matches!((w[0], w[1]), ("1", "dice") | ("only", "0")) {
            return Some(format!("it says `{} {}`", w[0], w[1]));
        }
    }
    // A type name followed by `(` or ` {`: `Hex(415)`, `Point { x`.
    let chars: Vec<char> = text.chars().collect();
    for (i, w) in chars.windows(2).enumerate() {
        let starts_word = i == 0 || !chars[i - 1].is_alphanumeric();
        if starts_word && w[0].is_ascii_uppercase() {
            let end = chars[i..]
                .iter()
                .position(|c| !c.is_alphanumeric() && *c != '_')
                .map_or(chars.len(), |p| i + p);
            let word: String = chars[i..end].iter().collect();
            let camel = word.chars().skip(1).any(|c| c.is_ascii_uppercase())
                && word.chars().any(|c| c.is_ascii_lowercase());
            if camel && matches!(chars.get(end), Some('(' | '{')) {
                return Some(format!("it contains the type name `{word}`"));
            }
        }
    }
    None
}

// ---- generators ----

/// Strings a game's commands use: variant names, field names, unit ids,
/// card names. Shaped JSON and mutations draw on them.
#[derive(Default)]
struct Vocab {
    words: Vec<String>,
    /// Legal commands seen (in this battle and others of the game), with
    /// the seat that could give them.
    seen: Vec<(Actor, Value)>,
}

impl Vocab {
    fn learn(&mut self, rng: &mut Rng, legal: &[LegalCommand]) {
        for l in legal {
            if self.seen.len() < 400 {
                self.seen.push((l.actor, l.command.clone()));
            } else if rng.chance(8) {
                let i = rng.below(self.seen.len());
                self.seen[i] = (l.actor, l.command.clone());
            }
            self.harvest(&l.command);
        }
    }

    fn add(&mut self, s: &str) {
        if self.words.len() < 300 && !self.words.iter().any(|w| w == s) {
            self.words.push(s.to_owned());
        }
    }

    fn harvest(&mut self, v: &Value) {
        match v {
            Value::String(s) => self.add(s),
            Value::Object(m) => {
                for (k, v) in m {
                    self.add(k);
                    self.harvest(v);
                }
            }
            Value::Array(a) => a.iter().for_each(|v| self.harvest(v)),
            _ => {}
        }
    }
}

const ODD_STRINGS: &[&str] = &[
    "",
    " ",
    "\u{0}",
    "é",
    "日本語",
    "🛸👽",
    "\u{202e}gnirts",
    "a\nb",
    "-1",
    "1e400",
    "null",
    "SC99",
    "X1",
    "unit",
    "card",
    "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ",
];

fn odd_number(rng: &mut Rng) -> Value {
    match rng.below(16) {
        0 => json!(0),
        1 => json!(-1),
        2 => json!(255),
        3 => json!(256),
        4 => json!(65_535),
        5 => json!(65_536),
        6 => json!(u32::MAX),
        7 => json!(u64::MAX),
        8 => json!(i64::MIN),
        9 => json!(1e300),
        10 => json!(-1e300),
        11 => json!(0.5),
        12 => json!(-0.0),
        13 => json!(1e-300),
        14 => json!(9_007_199_254_740_993u64),
        _ => json!(rng.below(40) as i64 - 10),
    }
}

fn odd_string(rng: &mut Rng, vocab: &Vocab) -> String {
    match rng.below(6) {
        0 | 1 => rng.pick(&vocab.words).cloned().unwrap_or_default(),
        2 => ODD_STRINGS[rng.below(ODD_STRINGS.len())].to_owned(),
        3 => {
            // A word of the game, one character changed or added.
            let mut w: Vec<char> = rng
                .pick(&vocab.words)
                .cloned()
                .unwrap_or_default()
                .chars()
                .collect();
            let c = char::from_u32(0x20 + rng.below(0x2000) as u32).unwrap_or('?');
            if w.is_empty() || rng.chance(2) {
                w.push(c);
            } else {
                let i = rng.below(w.len());
                w[i] = c;
            }
            w.into_iter().collect()
        }
        4 => (0..rng.below(12))
            .map(|_| char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('\u{fffd}'))
            .collect(),
        _ => "x".repeat(1 + rng.below(5000)),
    }
}

/// A random JSON value, `depth` levels at most (deep nesting is its own case).
fn random_json(rng: &mut Rng, vocab: &Vocab, depth: u32) -> Value {
    let leaf = depth == 0 || rng.chance(3);
    if leaf {
        return match rng.below(5) {
            0 => Value::Null,
            1 => Value::Bool(rng.chance(2)),
            2 | 3 => odd_number(rng),
            _ => Value::String(odd_string(rng, vocab)),
        };
    }
    if rng.chance(2) {
        Value::Array(
            (0..rng.below(5))
                .map(|_| random_json(rng, vocab, depth - 1))
                .collect(),
        )
    } else {
        let mut m = Map::new();
        for _ in 0..rng.below(5) {
            m.insert(odd_string(rng, vocab), random_json(rng, vocab, depth - 1));
        }
        Value::Object(m)
    }
}

/// Nesting a few hundred levels deep: arrays, or objects keyed by a word of
/// the game (so that the first level names a real command).
fn deep_json(rng: &mut Rng, vocab: &Vocab) -> Value {
    let levels = 1 + rng.below(600);
    let key = rng.pick(&vocab.words).cloned().unwrap_or_default();
    let mut v = random_json(rng, vocab, 1);
    for _ in 0..levels {
        v = if rng.chance(2) {
            Value::Array(vec![v])
        } else {
            json!({ key.clone(): v })
        };
    }
    v
}

/// JSON shaped like a command of the game: one of its words as the variant,
/// with fields of its words holding random values.
fn shaped_json(rng: &mut Rng, vocab: &Vocab) -> Value {
    let word = |rng: &mut Rng| rng.pick(&vocab.words).cloned().unwrap_or_default();
    let variant = word(rng);
    match rng.below(4) {
        0 => Value::String(variant),
        1 => json!({ variant: random_json(rng, vocab, 2) }),
        _ => {
            let mut fields = Map::new();
            for _ in 0..1 + rng.below(4) {
                let v = if rng.chance(2) {
                    odd_number(rng)
                } else {
                    random_json(rng, vocab, 2)
                };
                fields.insert(word(rng), v);
            }
            json!({ variant: fields })
        }
    }
}

/// Random bytes that are not JSON (mostly), as a script line would hold them.
fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    let n = rng.below(64);
    let mut b: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
    let head: &[u8] = match rng.below(4) {
        0 => b"{\"actor\":0,\"command\":",
        1 => b"{\"roll\":{\"dice\":",
        _ => b"",
    };
    b.splice(0..0, head.iter().copied());
    b
}

/// Count the nodes of a JSON value.
fn nodes(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(nodes).sum(),
        Value::Object(m) => m.values().map(nodes).sum(),
        _ => 0,
    }
}

/// Change the `k`-th node of `v` (in pre-order) into something near it that
/// is most likely wrong: a number out of range, another string, a key
/// dropped or added, an array emptied or grown.
fn mutate_node(rng: &mut Rng, vocab: &Vocab, v: &mut Value, k: &mut usize) -> bool {
    if *k == 0 {
        *v = match std::mem::take(v) {
            Value::Number(n) => match rng.below(4) {
                0 => n
                    .as_i64()
                    .map(|i| json!(i.saturating_add(1)))
                    .unwrap_or(json!(-1)),
                1 => n
                    .as_i64()
                    .map(|i| json!(i.saturating_sub(1)))
                    .unwrap_or(json!(0)),
                2 => json!(n.as_i64().unwrap_or(0).saturating_mul(1000)),
                _ => odd_number(rng),
            },
            Value::String(s) => match rng.below(3) {
                0 => Value::String(odd_string(rng, vocab)),
                1 => Value::String(format!("{s}{}", rng.below(100))),
                _ => odd_number(rng),
            },
            Value::Bool(b) => Value::Bool(!b),
            Value::Null => match rng.below(3) {
                0 => odd_number(rng),
                1 => Value::String(odd_string(rng, vocab)),
                _ => json!([]),
            },
            Value::Array(mut a) => {
                match rng.below(4) {
                    0 => a.clear(),
                    1 if !a.is_empty() => {
                        let i = rng.below(a.len());
                        a.push(a[i].clone());
                    }
                    2 if !a.is_empty() => {
                        a.remove(rng.below(a.len()));
                    }
                    _ => a.push(random_json(rng, vocab, 1)),
                }
                Value::Array(a)
            }
            Value::Object(mut m) => {
                if !m.is_empty() && rng.chance(2) {
                    let key = m
                        .keys()
                        .nth(rng.below(m.len()))
                        .cloned()
                        .unwrap_or_default();
                    m.remove(&key);
                } else {
                    m.insert(odd_string(rng, vocab), random_json(rng, vocab, 1));
                }
                Value::Object(m)
            }
        };
        return true;
    }
    *k -= 1;
    match v {
        Value::Array(a) => a.iter_mut().any(|c| mutate_node(rng, vocab, c, k)),
        Value::Object(m) => m.values_mut().any(|c| mutate_node(rng, vocab, c, k)),
        _ => false,
    }
}

fn mutated(rng: &mut Rng, vocab: &Vocab, command: &Value) -> Value {
    let mut v = command.clone();
    let mut k = rng.below(nodes(&v));
    mutate_node(rng, vocab, &mut v, &mut k);
    v
}

/// Any seat: one asked, one of the battle's, the game itself, or none of them.
fn any_actor(rng: &mut Rng, b: &dyn Battle) -> Actor {
    match rng.below(6) {
        0 => Actor::SYSTEM,
        1 => Actor(rng.next_u64() as u8),
        2 | 3 => b.asked().first().map_or(Actor(0), |a| a.seat),
        _ => {
            let seats = b.seats();
            rng.pick(&seats).map_or(Actor(0), |s| s.0)
        }
    }
}

/// The dice a command rolls at the cursor with the battle's own stream
/// (sides and faces); `None` if it is refused.
fn dice_of(
    b: &dyn Battle,
    actor: Actor,
    command: &Value,
    dice: Option<Vec<u8>>,
) -> Option<Vec<Die>> {
    let p = b.prepare_json(actor, command, dice).ok()?;
    Some(match &p.kind {
        PendingKind::New { record, .. } => record.dice().to_vec(),
        PendingKind::Redo { entry } => b.records()[*entry as usize].dice().to_vec(),
    })
}

/// The dice a command takes when the players enter them, found as players
/// at a table give them: die by die, each time the rules ask for one more
/// (entered dice do not move the stream, so a command that also draws can
/// take another path than when it is rolled). Each face is the stream's
/// roll where there is one, else 1; `None` if the command is refused.
fn entered_dice(b: &dyn Battle, actor: Actor, command: &Value) -> Option<Vec<Die>> {
    let hint: Vec<u8> = dice_of(b, actor, command, None)?
        .iter()
        .map(|d| d.value)
        .collect();
    let mut faces: Vec<u8> = Vec::new();
    for _ in 0..512 {
        match b.prepare_json(actor, command, Some(faces.clone())) {
            Ok(_) => return dice_of(b, actor, command, Some(faces)),
            Err(PlayError::Rule(e)) if e.kind == RuleErrorKind::MoreDice => {
                faces.push(hint.get(faces.len()).copied().unwrap_or(1));
            }
            // The hint is out of range for this die: every earlier die
            // was taken, so it is the last one.
            Err(PlayError::Rule(e))
                if e.kind == RuleErrorKind::Dice && faces.last() != Some(&1) =>
            {
                *faces.last_mut()? = 1;
            }
            Err(_) => return None,
        }
    }
    None
}

/// A face no die with `sides` faces shows.
fn bad_face(rng: &mut Rng, sides: u8) -> u8 {
    let options = [0, 255, sides.saturating_add(1), 7, 200];
    loop {
        let f = options[rng.below(options.len())];
        if f == 0 || f > sides {
            return f;
        }
    }
}

/// Entered dice that do not fit a legal command: one too few, one too
/// many, or a face out of range; with the refusal the rules must give.
fn wrong_dice(rng: &mut Rng, b: &dyn Battle, legal: &[LegalCommand]) -> Option<Try> {
    let l = rng.pick(legal)?;
    let dice = entered_dice(b, l.actor, &l.command)?;
    let faces: Vec<u8> = dice.iter().map(|d| d.value).collect();
    let (entered, expect) = match rng.below(3) {
        0 if !faces.is_empty() => (faces[..faces.len() - 1].to_vec(), RuleErrorKind::MoreDice),
        1 if !faces.is_empty() => {
            let i = rng.below(faces.len());
            let mut f = faces.clone();
            f[i] = bad_face(rng, dice[i].sides);
            (f, RuleErrorKind::Dice)
        }
        _ => {
            let mut f = faces.clone();
            f.extend((0..1 + rng.below(3)).map(|_| 1 + rng.below(6) as u8));
            (f, RuleErrorKind::Dice)
        }
    };
    Some(Try {
        kind: Kind::WrongDice,
        actor: l.actor,
        command: l.command.clone(),
        dice: Some(entered),
        expect: Some(expect),
    })
}

/// A `dice` field as a script line might carry it, read as `play --script`
/// reads it (a list of bytes); `Err` with serde's words when it is not one.
fn script_dice(rng: &mut Rng) -> Result<Option<Vec<u8>>, String> {
    let dice: Value = match rng.below(3) {
        0 => Value::Array(
            (0..rng.below(8))
                .map(|_| match rng.below(6) {
                    0 => json!(-(1 + rng.below(6) as i64)),
                    1 => json!(256 + rng.below(1000)),
                    2 => json!(2.5),
                    3 => json!("6"),
                    _ => json!(rng.below(256)),
                })
                .collect(),
        ),
        1 => Value::Array((0..rng.below(12)).map(|_| json!(rng.below(9))).collect()),
        _ => odd_number(rng),
    };
    serde_json::from_value::<Option<Vec<u8>>>(dice).map_err(|e| e.to_string())
}

/// One command to try at the cursor.
fn make_try(rng: &mut Rng, b: &dyn Battle, vocab: &Vocab, legal: &[LegalCommand]) -> Try {
    let plain = |kind, actor, command| Try {
        kind,
        actor,
        command,
        dice: None,
        expect: None,
    };
    let actor = any_actor(rng, b);
    match rng.below(16) {
        0 | 1 => {
            let v = if rng.chance(8) {
                deep_json(rng, vocab)
            } else {
                random_json(rng, vocab, 4)
            };
            plain(Kind::RandomJson, actor, v)
        }
        2..=4 => plain(Kind::ShapedJson, actor, shaped_json(rng, vocab)),
        5 => {
            // Bytes read as a script line is read; when they happen to be
            // JSON they are given as the command, else their text is.
            let bytes = random_bytes(rng);
            let v = serde_json::from_slice::<Value>(&bytes)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
            plain(Kind::Bytes, actor, v)
        }
        6..=8 => match rng.pick(&vocab.seen) {
            Some((seat, c)) => {
                let who = if rng.chance(2) { *seat } else { actor };
                plain(Kind::OtherMoment, who, c.clone())
            }
            None => plain(Kind::RandomJson, actor, random_json(rng, vocab, 2)),
        },
        9 => match rng.pick(legal) {
            Some(l) => {
                let seats = b.seats();
                let other = seats
                    .iter()
                    .map(|s| s.0)
                    .chain([Actor::SYSTEM, Actor(seats.len() as u8)])
                    .filter(|&a| a != l.actor)
                    .collect::<Vec<_>>();
                let who = rng.pick(&other).copied().unwrap_or(Actor::SYSTEM);
                plain(Kind::OtherSeat, who, l.command.clone())
            }
            None => plain(Kind::ShapedJson, actor, shaped_json(rng, vocab)),
        },
        10..=12 => match rng.pick(legal) {
            Some(l) => {
                let who = if rng.chance(4) { actor } else { l.actor };
                plain(Kind::Mutated, who, mutated(rng, vocab, &l.command))
            }
            None => plain(Kind::ShapedJson, actor, shaped_json(rng, vocab)),
        },
        13 | 14 => wrong_dice(rng, b, legal).unwrap_or_else(|| {
            let mut t = plain(
                Kind::RandomDice,
                actor,
                rng.pick(legal)
                    .map_or_else(|| shaped_json(rng, vocab), |l| l.command.clone()),
            );
            t.dice = Some(
                (0..1 + rng.below(4))
                    .map(|_| rng.next_u64() as u8)
                    .collect(),
            );
            t
        }),
        _ => {
            let (who, command) = match rng.pick(legal) {
                Some(l) if rng.chance(2) => (l.actor, l.command.clone()),
                _ => (actor, shaped_json(rng, vocab)),
            };
            let dice = match script_dice(rng) {
                Ok(d) => d,
                // Refused where the script is read, before the battle sees it.
                Err(e) => {
                    check_words("", &format!("a dice field is not dice: {e}"))
                        .unwrap_or_else(|m| panic!("{m}"));
                    Some((0..rng.below(5)).map(|_| rng.next_u64() as u8).collect())
                }
            };
            Try {
                kind: Kind::RandomDice,
                actor: who,
                command,
                dice,
                expect: None,
            }
        }
    }
}

/// A message with what the player typed taken out (every string and key of
/// the command, longest first): a message may repeat the input, and the
/// input may hold anything, backticks and braces too.
fn without_input(message: &str, command: &Value) -> String {
    fn strings<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
        match v {
            Value::String(s) => out.push(s),
            Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
            Value::Object(m) => m.iter().for_each(|(k, v)| {
                out.push(k);
                strings(v, out);
            }),
            _ => {}
        }
    }
    let mut typed = Vec::new();
    strings(command, &mut typed);
    typed.sort_by_key(|s| std::cmp::Reverse(s.len()));
    let mut m = message.to_owned();
    for s in typed.into_iter().filter(|s| s.len() > 1) {
        m = m.replace(s, "");
    }
    m
}

fn check_words(context: &str, message: &str) -> Result<(), String> {
    match unreadable(message) {
        Some(why) => Err(format!(
            "{context}a refusal does not read in words ({why}): {message}"
        )),
        None => Ok(()),
    }
}

fn shown(t: &Try) -> String {
    let mut c = t.command.to_string();
    if c.len() > 600 {
        c.truncate(600);
        c.push_str("...");
    }
    format!("{:?} by seat {} dice {:?}: {c}", t.kind, t.actor.0, t.dice)
}

// ---- level 1: the engine ----

/// A run's random source at `seed` and the config it draws first.
fn seeded(entry: &Entry, seed: u64) -> (Rng, Value) {
    let mut rng = Rng(seed);
    let config = config(&mut rng, entry);
    (rng, config)
}

/// What failed, where, and how to run it again.
fn failure(run: &str, seed: u64, config: &Value, step: u64, what: &str) -> String {
    format!(
        "{run} seed {seed} config {config} at command {step}: {what}\n(replay with XENOLOG_ILLEGAL_SEED={seed})"
    )
}

/// A battle's config: the defaults, or one option set to one of its values.
fn config(rng: &mut Rng, entry: &Entry) -> Value {
    let mut m = Map::new();
    if let Some(rules) = entry.rules
        && rng.chance(2)
    {
        let options = (rules.options)();
        if let Some(o) = rng.pick(&options) {
            let values = o.kind.values();
            if let Some(v) = rng.pick(&values) {
                m.insert(o.key.to_owned(), v.clone());
            }
        }
    }
    Value::Object(m)
}

/// Give one command to `b`: a refusal must change nothing and read in
/// words, an acceptance is committed. `before` is `look(b)`. Returns the
/// refusal's why.
fn give(b: &mut dyn Battle, t: &Try, before: &Look) -> Result<Option<(String, String)>, String> {
    let context = "";
    let decided = catch_unwind(AssertUnwindSafe(|| {
        b.prepare_json(t.actor, &t.command, t.dice.clone())
    }))
    .map_err(|_| format!("{context}PANIC deciding {}", shown(t)))?;
    match decided {
        Err(e) => {
            let after = look(b);
            if after != *before {
                return Err(format!(
                    "{context}a refused command changed the battle: {e}\n{}\nbefore {before:?}\nafter {after:?}",
                    shown(t)
                ));
            }
            check_words(context, &without_input(&e.to_string(), &t.command))
                .map_err(|m| format!("{m}\n{}", shown(t)))?;
            if let Some(kind) = t.expect
                && !matches!(&e, PlayError::Rule(r) if r.kind == kind)
            {
                return Err(format!(
                    "{context}expected a refusal of kind {kind:?}, got: {e}\n{}",
                    shown(t)
                ));
            }
            Ok(Some((why(&e), e.to_string())))
        }
        Ok(pending) => {
            if let Some(kind) = t.expect {
                return Err(format!(
                    "{context}accepted a command the rules must refuse ({kind:?}): {}",
                    shown(t)
                ));
            }
            b.commit(pending)
                .map_err(|e| format!("{context}a command decided just now: {e}"))?;
            catch_unwind(AssertUnwindSafe(|| b.play_due()))
                .map_err(|_| format!("{context}PANIC in a step after {}", shown(t)))?
                .map_err(|e| format!("{context}a step of the game's own failed: {e}"))?;
            Ok(None)
        }
    }
}

/// Play one battle of `entry` from `seed`, giving `per_position` commands at
/// each position, until `budget` commands are given or the battle ends.
fn one_battle(
    entry: &Entry,
    seed: u64,
    per_position: usize,
    budget: u64,
    vocab: &mut Vocab,
    tally: &mut Tally,
) -> Result<(), String> {
    let rules = entry.rules.ok_or("not built")?;
    let (mut rng, config) = seeded(entry, seed);
    let fail = |step: u64, what: String| failure(entry.id, seed, &config, step, &what);
    let mut b = (rules.start)(seed, &config, false).map_err(|e| fail(0, e.to_string()))?;
    b.play_due().map_err(|e| fail(0, e.to_string()))?;
    tally.battles += 1;
    let start = tally.given;
    let mut ended_positions = 0;
    while tally.given - start < budget {
        tally.positions += 1;
        let mut legal = b.legal();
        vocab.learn(&mut rng, &legal);
        let mut before = look(&*b);
        for _ in 0..per_position {
            let step = tally.given - start;
            let t = make_try(&mut rng, &*b, vocab, &legal);
            let refused = give(&mut *b, &t, &before).map_err(|e| fail(step, e))?;
            if refused.is_none() {
                // Accepted: go on from the new position.
                legal = b.legal();
                before = look(&*b);
            }
            if let Some((w, m)) = &refused {
                tally.example(w, m);
            }
            tally.count(t.kind, refused.map(|r| r.0));
        }
        // Move on: a legal command, or now and then a take-back, so that
        // later positions sit on lines with entries after them.
        if legal.is_empty() || rng.chance(12) {
            if legal.is_empty() {
                ended_positions += 1;
                if ended_positions > 2 {
                    break;
                }
            }
            b.undo(1 + rng.below(4));
            continue;
        }
        let l = &legal[rng.below(legal.len())];
        let t = Try {
            kind: Kind::OtherMoment,
            actor: l.actor,
            command: l.command.clone(),
            dice: None,
            expect: None,
        };
        let here = look(&*b);
        if let Some((e, _)) = give(&mut *b, &t, &here).map_err(|e| fail(tally.given - start, e))? {
            return Err(fail(
                tally.given - start,
                format!("a legal command was refused ({e}): {}", shown(&t)),
            ));
        }
    }
    let report = b.verify();
    if !report.ok() {
        return Err(fail(tally.given - start, format!("verify: {report}")));
    }
    Ok(())
}

/// Give `total` commands spread evenly over every built game; the tally per game.
fn run_engine(total: u64, seed: u64) -> Result<Vec<(&'static str, Tally)>, String> {
    // `XENOLOG_ILLEGAL_GAMES=dimx,invasion` runs only these (to split a soak).
    let only = std::env::var("XENOLOG_ILLEGAL_GAMES").ok();
    let built: Vec<&Entry> = REGISTRY
        .iter()
        .filter(|e| e.rules.is_some())
        .filter(|e| {
            only.as_deref()
                .is_none_or(|o| o.split(',').any(|g| g == e.id))
        })
        .collect();
    let per_game = total.div_ceil(built.len() as u64);
    let mut out = Vec::new();
    for (g, entry) in built.into_iter().enumerate() {
        let mut tally = Tally::default();
        let mut vocab = Vocab::default();
        let mut battle = 0u64;
        let t = Instant::now();
        while tally.given < per_game {
            let s = seed
                .wrapping_mul(1_000_003)
                .wrapping_add((g as u64) << 40)
                .wrapping_add(battle);
            let budget = (per_game - tally.given).min(4000);
            one_battle(entry, s, 8, budget, &mut vocab, &mut tally)?;
            battle += 1;
        }
        tally.seconds = t.elapsed().as_secs_f64();
        out.push((entry.id, tally));
    }
    Ok(out)
}

fn print_tallies(tallies: &[(&str, Tally)], seconds: f64) {
    let mut all = Tally::default();
    println!(
        "{:<10} {:>9} {:>9} {:>9} {:>8} {:>10} {:>9}",
        "game", "given", "refused", "accepted", "battles", "positions", "seconds"
    );
    for (id, t) in tallies {
        println!(
            "{id:<10} {:>9} {:>9} {:>9} {:>8} {:>10} {:>9.1}",
            t.given, t.refused, t.accepted, t.battles, t.positions, t.seconds
        );
        println!("           refused by why: {:?}", t.why);
        println!("           (refused, accepted) by kind: {:?}", t.by_kind);
        for (w, m) in &t.examples {
            println!("           e.g. {w}: {m}");
        }
        all.add(t);
    }
    println!(
        "{:<10} {:>9} {:>9} {:>9} {:>8} {:>10}   {seconds:.1} s",
        "all", all.given, all.refused, all.accepted, all.battles, all.positions
    );
    println!("refused by why: {:?}", all.why);
}

fn seed_from_env(default: u64) -> u64 {
    std::env::var("XENOLOG_ILLEGAL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// CI's sample: 2,400 commands over every game (400 each), in debug.
#[test]
fn illegal_commands_change_nothing_in_any_game() {
    let t = Instant::now();
    let tallies = run_engine(2400, seed_from_env(16)).unwrap_or_else(|e| panic!("{e}"));
    print_tallies(&tallies, t.elapsed().as_secs_f64());
    for (id, tally) in &tallies {
        assert!(tally.refused > tally.given / 2, "{id}: {tally:?}");
        for kind in KINDS {
            assert!(
                tally.by_kind.contains_key(&format!("{kind:?}")),
                "{id}: no command of kind {kind:?} was given: {tally:?}"
            );
        }
    }
}

/// The million (or `XENOLOG_ILLEGAL` commands, spread evenly over the games
/// run; `XENOLOG_ILLEGAL_GAMES=dimx,race` runs only those), in release:
/// `XENOLOG_ILLEGAL=1000000 cargo test --release -p xenolog-tests --test tests
/// illegal::a_million -- --ignored --nocapture`.
#[test]
#[ignore = "a soak: run in release with XENOLOG_ILLEGAL=1000000"]
fn a_million_illegal_commands_change_nothing() {
    let total = std::env::var("XENOLOG_ILLEGAL")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let t = Instant::now();
    let tallies = run_engine(total, seed_from_env(1_000_016)).unwrap_or_else(|e| panic!("{e}"));
    print_tallies(&tallies, t.elapsed().as_secs_f64());
}

// ---- level 2: the store ----

/// The bytes of the campaign file and its `-wal` and `-shm`.
fn file_bytes(path: &Path) -> Vec<(PathBuf, Option<Vec<u8>>)> {
    ["", "-wal", "-shm"]
        .iter()
        .map(|suffix| {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            let p = PathBuf::from(p);
            let bytes = std::fs::read(&p).ok();
            (p, bytes)
        })
        .collect()
}

/// The dice to enter for a command in an "entered" battle.
fn dice_for(b: &dyn Battle, actor: Actor, command: &Value) -> Option<Vec<u8>> {
    entered_dice(b, actor, command).map(|d| d.iter().map(|d| d.value).collect())
}

fn store_battle(
    dir: &Path,
    entry: &Entry,
    seed: u64,
    mode: DiceMode,
    commands: u64,
    tally: &mut Tally,
) -> Result<(), String> {
    let (mut rng, config) = seeded(entry, seed);
    let run = format!("{} ({mode:?} dice)", entry.id);
    let fail = |step: u64, what: String| failure(&run, seed, &config, step, &what);
    let path = dir.join(format!("{}-{seed}.xenolog", entry.id));
    let mut c = Campaign::create(&path, "illegal").map_err(|e| fail(0, e.to_string()))?;
    let id = c
        .new_battle(entry.id, seed, &config, "", mode)
        .map_err(|e| fail(0, e.to_string()))?;
    let mut b = c.load_battle(id).map_err(|e| fail(0, e.to_string()))?;
    let mut vocab = Vocab::default();
    let entered = mode == DiceMode::Entered;
    let mut given = 0;
    tally.battles += 1;
    while given < commands {
        tally.positions += 1;
        let mut legal = b.legal();
        vocab.learn(&mut rng, &legal);
        for _ in 0..3 {
            let mut t = make_try(&mut rng, &*b, &vocab, &legal);
            // In an entered battle a command mostly comes with dice.
            if entered && t.dice.is_none() && !rng.chance(4) {
                t.dice = dice_for(&*b, t.actor, &t.command).or(Some(Vec::new()));
            }
            let before = look(&*b);
            let bytes = file_bytes(&path);
            let played = catch_unwind(AssertUnwindSafe(|| {
                c.play(id, &mut *b, t.actor, &t.command, t.dice.clone())
            }))
            .map_err(|_| fail(given, format!("PANIC in Campaign::play: {}", shown(&t))))?;
            given += 1;
            match played {
                Err(e) => {
                    let after = look(&*b);
                    if after != before {
                        return Err(fail(
                            given,
                            format!(
                                "a refused command changed the battle in memory: {e}\n{}",
                                shown(&t)
                            ),
                        ));
                    }
                    for ((p, was), (_, now)) in bytes.iter().zip(file_bytes(&path)) {
                        if *was != now {
                            return Err(fail(
                                given,
                                format!(
                                    "a refused command changed {}: {e}\n{}",
                                    p.display(),
                                    shown(&t)
                                ),
                            ));
                        }
                    }
                    check_words("", &without_input(&e.to_string(), &t.command))
                        .map_err(|m| fail(given, m))?;
                    if let Some(kind) = t.expect
                        && !matches!(&e, SaveError::Play(PlayError::Rule(r)) if r.kind == kind)
                    {
                        return Err(fail(
                            given,
                            format!("expected a refusal of kind {kind:?}, got: {e}"),
                        ));
                    }
                    let back = c.load_battle(id).map_err(|e| fail(given, e.to_string()))?;
                    // Whether reading the battle back touched the files (a
                    // fact to report, not a failure: loading may write a
                    // stale status or a rebuilt snapshot back).
                    for ((p, was), (_, now)) in bytes.iter().zip(file_bytes(&path)) {
                        if *was != now {
                            let name = p.display().to_string();
                            let suffix = name.rsplit_once('-').map_or("main", |s| s.1);
                            *tally
                                .why
                                .entry(format!("(re-reads that changed -{suffix})"))
                                .or_default() += 1;
                        }
                    }
                    if look(&*back) != after || back.records() != b.records() {
                        return Err(fail(
                            given,
                            format!(
                                "after a refusal the battle read from disk is not the one in memory: {e}"
                            ),
                        ));
                    }
                    let why = match &e {
                        SaveError::Play(p) => why(p),
                        other => format!("store: {other}"),
                    };
                    tally.example(&why, &e.to_string());
                    tally.count(t.kind, Some(why));
                }
                Ok(_) => {
                    if let Some(kind) = t.expect {
                        return Err(fail(
                            given,
                            format!("accepted what must be refused ({kind:?}): {}", shown(&t)),
                        ));
                    }
                    tally.count(t.kind, None);
                    legal = b.legal();
                }
            }
        }
        if legal.is_empty() || rng.chance(10) {
            if legal.is_empty() && rng.chance(3) {
                break;
            }
            b.undo(1 + rng.below(3));
            c.save_position(id, &*b)
                .map_err(|e| fail(given, e.to_string()))?;
            continue;
        }
        let l = &legal[rng.below(legal.len())];
        let dice = if entered {
            dice_for(&*b, l.actor, &l.command)
        } else {
            None
        };
        c.play(id, &mut *b, l.actor, &l.command, dice)
            .map_err(|e| fail(given, format!("a legal command was refused: {e}")))?;
    }
    let back = c.load_battle(id).map_err(|e| fail(given, e.to_string()))?;
    if back.records() != b.records() || look(&*back) != look(&*b) {
        return Err(fail(
            given,
            "the battle on disk is not the one in memory".into(),
        ));
    }
    let report = c
        .verify_battle(id)
        .map_err(|e| fail(given, e.to_string()))?;
    if !report.ok() {
        return Err(fail(given, format!("verify: {report}")));
    }
    Ok(())
}

/// Hundreds of commands through `Campaign::play` on real files, rolled and
/// entered dice, every game.
#[test]
fn illegal_commands_leave_the_campaign_file_as_it_was() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let seed = seed_from_env(160);
    let t = Instant::now();
    let mut tallies = Vec::new();
    for (g, entry) in REGISTRY.iter().filter(|e| e.rules.is_some()).enumerate() {
        let mut tally = Tally::default();
        let started = Instant::now();
        for (m, mode) in [DiceMode::Rolled, DiceMode::Entered]
            .into_iter()
            .enumerate()
        {
            let s = seed + (g as u64) * 10 + m as u64;
            store_battle(dir.path(), entry, s, mode, 30, &mut tally)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        tally.seconds = started.elapsed().as_secs_f64();
        tallies.push((entry.id, tally));
    }
    print_tallies(&tallies, t.elapsed().as_secs_f64());
    for (id, tally) in &tallies {
        assert!(tally.refused > 0, "{id}: {tally:?}");
    }
}

/// The words check itself: it finds `Debug` output and lets quoted input be.
#[test]
fn the_words_check_finds_debug_noise() {
    assert!(unreadable("").is_some());
    assert!(unreadable("no unit Some(\"SC1\")").is_some());
    assert!(unreadable("the target None is not in range").is_some());
    assert!(unreadable("bad point Point { x: 1.0, y: 2.0 }").is_some());
    assert!(unreadable("group GroupId(3) cannot move").is_some());
    assert!(unreadable("1 dice were entered but this command rolls no dice").is_some());
    assert!(unreadable("2 dice were entered but this command rolls only 0").is_some());
    assert!(unreadable("there is no unit SC9 on the map").is_none());
    // Input that closes a quote early is taken out before the check.
    let typed = json!("{\"actor\":0,\"command\":a`{ Some(");
    let message = format!(
        "unknown variant `{}`, expected `roll`",
        typed.as_str().unwrap()
    );
    assert!(unreadable(&message).is_some());
    assert!(unreadable(&without_input(&message, &typed)).is_none());
    assert!(unreadable("unknown variant `Some(x)`, expected `roll`").is_none());
    assert!(unreadable("invalid type: string \"GroupId(3)\", expected u8").is_none());
    assert!(unreadable("entered die number 1 is 0, but a 6-sided die shows 1 to 6").is_none());
}
