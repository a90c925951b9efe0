//! The standalone file one battle is exported to, to mail it, archive it or
//! move it to another campaign.
//!
//! Layout (formats 1, 2 and 3):
//!
//! | bytes | what |
//! |---|---|
//! | 15 | the magic `XENOLOG-BATTLE\n` (so `head -1` names the file) |
//! | 4 | the format version, little-endian u32 |
//! | n | the postcard payload of that version |
//! | 32 | BLAKE3 of everything before it |
//!
//! Reading checks the magic, then the version (a newer one is refused before
//! anything else is read), then the checksum, then decodes. The entries inside
//! use the same stored form as the database: [`crate::codec::EntryV1`] in
//! format 1, [`crate::codec::EntryV2`] (with each entry's rules version) in
//! format 2. A format 1 file's entries get the battle's rules version.
//!
//! Format 3 adds a club battle's fair seed (the commitment and every seat's
//! nonce, [`xenolog_engine::fair`]) and, once the battle is over, the
//! server's revealed secret, so `xenolog verify` can check the dice were
//! fair. A battle without a fair seed is still written as format 2, so a file
//! of an ordinary battle opens in builds that read format 2.
//!
//! Format 4 adds a roster battle's campaign link (issue 30 item 9).
//!
//! Format 5 is format 4 with each branch's kind ([`BranchKind`], as the
//! campaign stores it since migration 9): a line grafted from another copy
//! of the campaign and renamed comes back as another copy's line, not as a
//! take-back. Formats 1-4 keep no kind: a reader tells the main line by its
//! place, another copy's line by its name ([`Branch::FROM_COPY`]), and
//! leaves the rest to loading ([`BranchKind::Unrecorded`]: take-back or
//! what-if by the log). A file is written in format 5 only when one of its
//! branches has a kind that reading would not give back
//! ([`kind_without_kinds`]); any other is written as before, so it still
//! opens in builds that read formats 2-4.

use serde::{Deserialize, Serialize};
use xenolog_engine::fair::{Bytes32, FairSeed, SeatNonce};
use xenolog_engine::{
    Actor, BattleMeta, Branch, BranchId, BranchKind, EntryId, EntryRecord, StoredBattle,
};

use crate::codec::{CodecError, DiceMode, EntryV1, EntryV2};

/// The first bytes of every battle file.
pub const MAGIC: &[u8; 15] = b"XENOLOG-BATTLE\n";
/// The battle file format this build writes; it reads this one and older ones.
pub const BATTLE_FILE_FORMAT: u32 = 5;

const CHECKSUM_LEN: usize = 32;
const HEADER_LEN: usize = MAGIC.len() + 4;

/// One battle as exported: everything needed to rebuild and replay it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleFile {
    /// Game, seed, rules version and config.
    pub meta: BattleMeta,
    /// The battle's title in its campaign.
    pub title: String,
    /// Whether Xenolog rolls or the players type in their dice.
    pub dice_mode: DiceMode,
    /// When the battle was started, unix seconds.
    pub created: i64,
    /// Every branch, in id order.
    pub branches: Vec<Branch>,
    /// Every entry, in id order.
    pub records: Vec<EntryRecord>,
    /// The player's position (`None`: at the setup).
    pub cursor: Option<EntryId>,
    /// The current branch.
    pub branch: BranchId,
    /// A finished club battle's revealed secret (its fair seed is in
    /// `meta.fair`); `None` for any other battle and while one is played.
    pub secret: Option<Bytes32>,
}

impl BattleFile {
    /// The battle as the engine rebuilds it (no snapshots: they are derived).
    pub fn into_stored(self) -> StoredBattle {
        StoredBattle {
            meta: self.meta,
            records: self.records,
            branches: self.branches,
            snapshots: Vec::new(),
            cursor: self.cursor,
            branch: self.branch,
        }
    }
}

/// What a roster battle's file carries for its campaign (format 4): enough
/// for another copy of the campaign (the same `uid`) to count the battle for
/// its rosters exactly as if it had been played there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignLink {
    /// The campaign's uid (kept by every copy of its file).
    pub uid: String,
    /// The campaign log entry recording the battle fought with these
    /// models: the origin that wrote it, its number there, and when.
    pub origin: String,
    pub number: u32,
    pub at: i64,
    /// Each roster model in the battle and the piece id the battle knows it by.
    pub fighters: Vec<(u32, String)>,
    /// Each fighter's recruit, in `fighters`' order: the key (origin, number)
    /// of the campaign log entry that recruited it. Another copy knows the
    /// model by it, whatever number the model has there (a merge renumbers
    /// a number both copies gave; review finding MUST 3).
    pub recruits: Vec<(String, u32)>,
    /// Each seat's roster: the seat (from 0), the roster's id and its name
    /// then (for words).
    pub rosters: Vec<(u8, u32, String)>,
}

/// Why bytes are not a battle file this build can read. Display says it in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BattleFileError {
    #[error("it is not a Xenolog battle file (it does not start with XENOLOG-BATTLE)")]
    NotABattleFile,
    #[error("it is cut short (only {0} bytes)")]
    Truncated(usize),
    #[error(
        "it was exported by a newer Xenolog (battle file format {found}; this build reads up to {ours})"
    )]
    Newer { found: u32, ours: u32 },
    #[error("it has an unknown format number {0}")]
    Unknown(u32),
    #[error("its checksum does not match: the file was damaged or changed after it was exported")]
    Checksum,
    #[error("its contents are damaged: {0}")]
    Garbled(String),
}

impl From<CodecError> for BattleFileError {
    fn from(e: CodecError) -> Self {
        BattleFileError::Garbled(e.to_string())
    }
}

/// A branch in formats 1-4: no kind.
#[derive(Serialize, Deserialize)]
struct BranchV1 {
    id: u32,
    name: String,
    parent: Option<u32>,
    fork: Option<u64>,
}

/// A branch in format 5: with its kind, as [`BranchKind::as_str`] writes it.
#[derive(Serialize, Deserialize)]
struct BranchV2 {
    id: u32,
    name: String,
    parent: Option<u32>,
    fork: Option<u64>,
    kind: String,
}

/// The kind a reader of formats 1-4 gives a branch, which keep none: the
/// main line by its place, another copy's line by its name, and the rest
/// unrecorded, for loading to work out from the log
/// (`Session::from_parts`) exactly as a branch started now is decided.
pub fn kind_without_kinds(b: &Branch) -> BranchKind {
    if b.parent.is_none() {
        BranchKind::Main
    } else if b.name.contains(Branch::FROM_COPY) {
        BranchKind::FromCopy
    } else {
        BranchKind::Unrecorded
    }
}

/// A stored branch as the engine's.
trait IntoBranch {
    fn into_branch(self) -> Result<Branch, BattleFileError>;
}

impl IntoBranch for BranchV1 {
    fn into_branch(self) -> Result<Branch, BattleFileError> {
        let mut b = Branch {
            id: self.id,
            name: self.name,
            parent: self.parent,
            fork: self.fork,
            kind: BranchKind::Unrecorded,
        };
        b.kind = kind_without_kinds(&b);
        Ok(b)
    }
}

impl IntoBranch for BranchV2 {
    fn into_branch(self) -> Result<Branch, BattleFileError> {
        let kind = match self.kind.as_str() {
            "unrecorded" => BranchKind::Unrecorded,
            k => match BranchKind::parse(Some(k)) {
                BranchKind::Unrecorded => {
                    return Err(BattleFileError::Garbled(format!(
                        "branch {} has a kind this build does not know (\"{k}\")",
                        self.id
                    )));
                }
                known => known,
            },
        };
        // The main line is the one branch from the setup of no other line.
        if (kind == BranchKind::Main) != self.parent.is_none() {
            return Err(BattleFileError::Garbled(format!(
                "branch {} is {} but {}",
                self.id,
                if kind == BranchKind::Main {
                    "the main line"
                } else {
                    kind.words()
                },
                if self.parent.is_none() {
                    "parts from no line"
                } else {
                    "parts from another line"
                }
            )));
        }
        Ok(Branch {
            id: self.id,
            name: self.name,
            parent: self.parent,
            fork: self.fork,
            kind,
        })
    }
}

/// A battle file's payload; `E` is the stored form of its entries
/// ([`EntryV1`] in format 1, [`EntryV2`] from format 2), `B` of its
/// branches ([`BranchV1`] until format 4, [`BranchV2`] with its kind in
/// format 5).
#[derive(Serialize, Deserialize)]
struct FileBody<E, B = BranchV1> {
    game: String,
    seed: u64,
    rules_version: u32,
    config: String,
    title: String,
    dice_mode: DiceMode,
    created: i64,
    branches: Vec<B>,
    records: Vec<E>,
    cursor: Option<u64>,
    branch: u32,
}

/// What format 2 adds after the body: the engine's battle options.
#[derive(Serialize, Deserialize)]
struct FileExtraV2 {
    strict: bool,
}

/// What format 3 adds after format 2's extra: a club battle's fair seed.
#[derive(Serialize, Deserialize)]
struct FileExtraV3 {
    fair: FairV3,
    secret: Option<Bytes32>,
}

#[derive(Serialize, Deserialize)]
struct FairV3 {
    scheme: u8,
    commitment: Bytes32,
    /// Seat, nonce, whether the seat was absent (the server drew it).
    nonces: Vec<(u8, Bytes32, bool)>,
}

/// What format 4 adds after format 2's extra: a fair seed, if any, and a
/// roster battle's campaign link, if any.
#[derive(Serialize, Deserialize)]
struct FileExtraV4 {
    fair: Option<FileExtraV3>,
    campaign: Option<CampaignLink>,
}

impl FileExtraV4 {
    /// The file of formats 4 and 5, with its campaign link.
    fn into_file<B: IntoBranch>(
        self,
        body: FileBody<EntryV2, B>,
        extra: FileExtraV2,
    ) -> Result<(BattleFile, Option<CampaignLink>), BattleFileError> {
        let fair = self.fair.map(|f| (f.fair.into_fair(), f.secret));
        let f = body.into_file(extra.strict, fair, |r, seq, _| r.into_record(seq))?;
        Ok((f, self.campaign))
    }
}

impl FairV3 {
    fn of(f: &FairSeed) -> Self {
        FairV3 {
            scheme: f.scheme,
            commitment: f.commitment,
            nonces: f
                .nonces
                .iter()
                .map(|n| (n.seat.0, n.nonce, n.absent))
                .collect(),
        }
    }

    fn into_fair(self) -> FairSeed {
        FairSeed {
            scheme: self.scheme,
            commitment: self.commitment,
            nonces: self
                .nonces
                .into_iter()
                .map(|(seat, nonce, absent)| SeatNonce {
                    seat: Actor(seat),
                    nonce,
                    absent,
                })
                .collect(),
        }
    }
}

impl<E, B: IntoBranch> FileBody<E, B> {
    fn into_file(
        self,
        strict: bool,
        fair: Option<(FairSeed, Option<Bytes32>)>,
        into_record: impl Fn(E, EntryId, u32) -> Result<EntryRecord, CodecError>,
    ) -> Result<BattleFile, BattleFileError> {
        let rules = self.rules_version;
        let records = self
            .records
            .into_iter()
            .enumerate()
            .map(|(i, r)| into_record(r, i as EntryId, rules))
            .collect::<Result<Vec<_>, _>>()?;
        let (fair, secret) = fair.map_or((None, None), |(f, s)| (Some(f), s));
        Ok(BattleFile {
            meta: BattleMeta {
                game: self.game,
                seed: self.seed,
                rules_version: self.rules_version,
                config: self.config,
                strict,
                fair,
            },
            title: self.title,
            dice_mode: self.dice_mode,
            created: self.created,
            branches: self
                .branches
                .into_iter()
                .map(IntoBranch::into_branch)
                .collect::<Result<_, _>>()?,
            records,
            cursor: self.cursor,
            branch: self.branch,
            secret,
        })
    }
}

/// Decode a whole payload: trailing bytes mean the file is damaged.
fn whole<'a, T: Deserialize<'a>>(payload: &'a [u8]) -> Result<T, BattleFileError> {
    let (file, rest) = postcard::take_from_bytes::<T>(payload)
        .map_err(|e| BattleFileError::Garbled(e.to_string()))?;
    if !rest.is_empty() {
        return Err(BattleFileError::Garbled(format!(
            "{} unexpected bytes after the battle",
            rest.len()
        )));
    }
    Ok(file)
}

/// The body of `file` around its entries in their stored form `E`, its
/// branches in the form `branch` gives.
fn body_of<E, B>(
    file: &BattleFile,
    records: Vec<E>,
    branch: impl Fn(&Branch) -> B,
) -> FileBody<E, B> {
    FileBody {
        game: file.meta.game.clone(),
        seed: file.meta.seed,
        rules_version: file.meta.rules_version,
        config: file.meta.config.clone(),
        title: file.title.clone(),
        dice_mode: file.dice_mode,
        created: file.created,
        branches: file.branches.iter().map(branch).collect(),
        records,
        cursor: file.cursor,
        branch: file.branch,
    }
}

/// Magic, format `version`, the postcard payload and the checksum.
fn seal_file<T: Serialize>(
    version: u32,
    payload: &T,
    size: usize,
) -> Result<Vec<u8>, BattleFileError> {
    let mut out = Vec::with_capacity(HEADER_LEN + size + CHECKSUM_LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    let mut out =
        postcard::to_extend(payload, out).map_err(|e| BattleFileError::Garbled(e.to_string()))?;
    let sum = blake3::hash(&out);
    out.extend_from_slice(sum.as_bytes());
    Ok(out)
}

/// The bytes of a battle file: format 3 for a club battle (a fair seed),
/// format 2 for any other, so those still open in builds that read format 2.
/// A secret without a fair seed is refused: it would say nothing.
pub fn write_battle_file(file: &BattleFile) -> Result<Vec<u8>, BattleFileError> {
    write_battle_file_linked(file, None)
}

/// A branch as formats 1-4 keep it.
fn branch_v1(b: &Branch) -> BranchV1 {
    BranchV1 {
        id: b.id,
        name: b.name.clone(),
        parent: b.parent,
        fork: b.fork,
    }
}

/// A branch as format 5 keeps it.
fn branch_v2(b: &Branch) -> BranchV2 {
    BranchV2 {
        id: b.id,
        name: b.name.clone(),
        parent: b.parent,
        fork: b.fork,
        kind: b.kind.as_str().to_owned(),
    }
}

/// [`write_battle_file`] with a roster battle's campaign link: format 5
/// when a branch has a kind formats 1-4 would not give back
/// ([`kind_without_kinds`]), else format 4 when there is a link, else
/// exactly what [`write_battle_file`] writes.
pub fn write_battle_file_linked(
    file: &BattleFile,
    link: Option<&CampaignLink>,
) -> Result<Vec<u8>, BattleFileError> {
    let records = file
        .records
        .iter()
        .enumerate()
        .map(|(i, r)| EntryV2::from_record(i as EntryId, r))
        .collect::<Result<Vec<_>, _>>()?;
    let size = 64 * file.records.len() + 512;
    let extra = FileExtraV2 {
        strict: file.meta.strict,
    };
    if file.meta.fair.is_none() && file.secret.is_some() {
        return Err(BattleFileError::Garbled(
            "a revealed secret without a fair seed".into(),
        ));
    }
    let fair = file.meta.fair.as_ref().map(|fair| FileExtraV3 {
        fair: FairV3::of(fair),
        secret: file.secret,
    });
    let kinds = file
        .branches
        .iter()
        .any(|b| kind_without_kinds(b) != b.kind);
    if kinds {
        let v4 = FileExtraV4 {
            fair,
            campaign: link.cloned(),
        };
        return seal_file(5, &(body_of(file, records, branch_v2), extra, v4), size);
    }
    let body = body_of(file, records, branch_v1);
    match (fair, link) {
        (None, None) => seal_file(2, &(body, extra), size),
        (Some(fair), None) => seal_file(3, &(body, extra, fair), size),
        (fair, Some(link)) => {
            let v4 = FileExtraV4 {
                fair,
                campaign: Some(link.clone()),
            };
            seal_file(4, &(body, extra, v4), size)
        }
    }
}

/// Read a battle file, checking magic, version and checksum first.
pub fn read_battle_file(bytes: &[u8]) -> Result<BattleFile, BattleFileError> {
    read_battle_file_linked(bytes).map(|(f, _)| f)
}

/// [`read_battle_file`] with the roster battle's campaign link a format 4
/// or 5 file may carry (`None` for every other file).
pub fn read_battle_file_linked(
    bytes: &[u8],
) -> Result<(BattleFile, Option<CampaignLink>), BattleFileError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(BattleFileError::NotABattleFile);
    }
    if bytes.len() < HEADER_LEN + CHECKSUM_LEN {
        return Err(BattleFileError::Truncated(bytes.len()));
    }
    let mut version = [0; 4];
    version.copy_from_slice(&bytes[MAGIC.len()..HEADER_LEN]);
    let version = u32::from_le_bytes(version);
    if version == 0 {
        return Err(BattleFileError::Unknown(0));
    }
    if version > BATTLE_FILE_FORMAT {
        return Err(BattleFileError::Newer {
            found: version,
            ours: BATTLE_FILE_FORMAT,
        });
    }
    let (head, sum) = bytes.split_at(bytes.len() - CHECKSUM_LEN);
    if blake3::hash(head).as_bytes() != sum {
        return Err(BattleFileError::Checksum);
    }
    let payload = &head[HEADER_LEN..];
    match version {
        1 => whole::<FileBody<EntryV1>>(payload)?
            .into_file(false, None, |r, seq, rules| r.into_record(seq, rules))
            .map(|f| (f, None)),
        2 => {
            let (body, extra) = whole::<(FileBody<EntryV2>, FileExtraV2)>(payload)?;
            body.into_file(extra.strict, None, |r, seq, _| r.into_record(seq))
                .map(|f| (f, None))
        }
        3 => {
            let (body, extra, fair) =
                whole::<(FileBody<EntryV2>, FileExtraV2, FileExtraV3)>(payload)?;
            let fair = Some((fair.fair.into_fair(), fair.secret));
            body.into_file(extra.strict, fair, |r, seq, _| r.into_record(seq))
                .map(|f| (f, None))
        }
        4 => {
            let (body, extra, v4) =
                whole::<(FileBody<EntryV2>, FileExtraV2, FileExtraV4)>(payload)?;
            v4.into_file(body, extra)
        }
        _ => {
            let (body, extra, v4) =
                whole::<(FileBody<EntryV2, BranchV2>, FileExtraV2, FileExtraV4)>(payload)?;
            v4.into_file(body, extra)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xenolog_engine::{Actor, Die, EntryFields};

    fn sample() -> BattleFile {
        let rec = |parent: Option<u64>, branch: u32| {
            EntryRecord::from(EntryFields {
                parent,
                branch,
                actor: Actor(0),
                command: vec![1],
                events: vec![1, 2, 0],
                dice: vec![Die { sides: 6, value: 3 }],
                entered: true,
                rng_after: 0,
                state_hash: [1; 16],
                chain: [2; 16],
                rules_version: 1,
            })
        };
        BattleFile {
            meta: BattleMeta {
                game: "race".into(),
                seed: u64::MAX - 3,
                rules_version: 1,
                config: r#"{"target":50}"#.into(),
                strict: true,
                fair: None,
            },
            title: "Skylar".into(),
            dice_mode: DiceMode::Entered,
            created: 1_700_000_000,
            branches: vec![
                Branch {
                    id: 0,
                    name: "Main".into(),
                    parent: None,
                    fork: None,
                    kind: BranchKind::Main,
                },
                Branch {
                    id: 1,
                    name: "What if".into(),
                    parent: Some(0),
                    fork: Some(0),
                    // Unrecorded: told on loading (formats 1-4 read so).
                    kind: BranchKind::Unrecorded,
                },
            ],
            records: vec![rec(None, 0), rec(Some(0), 0), rec(Some(0), 1)],
            cursor: Some(2),
            branch: 1,
            secret: None,
        }
    }

    #[test]
    fn a_battle_file_round_trips() {
        let f = sample();
        let bytes = write_battle_file(&f).unwrap();
        assert!(bytes.starts_with(b"XENOLOG-BATTLE\n\x02\x00\x00\x00"));
        assert_eq!(read_battle_file(&bytes).unwrap(), f);
    }

    #[test]
    fn every_changed_byte_is_caught() {
        let bytes = write_battle_file(&sample()).unwrap();
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x20;
            assert!(read_battle_file(&b).is_err(), "byte {i} changed unnoticed");
        }
        for cut in 0..bytes.len() {
            assert!(read_battle_file(&bytes[..cut]).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn the_checks_come_in_order_magic_version_checksum() {
        let bytes = write_battle_file(&sample()).unwrap();
        assert_eq!(
            read_battle_file(b"SQLite format 3\0 and more bytes here......."),
            Err(BattleFileError::NotABattleFile)
        );
        let mut newer = bytes.clone();
        newer[15] = 9;
        let err = read_battle_file(&newer).unwrap_err();
        assert_eq!(err, BattleFileError::Newer { found: 9, ours: 5 });
        assert!(err.to_string().contains("format 9"));
        let mut tampered = bytes.clone();
        let mid = bytes.len() / 2;
        tampered[mid] ^= 1;
        assert_eq!(read_battle_file(&tampered), Err(BattleFileError::Checksum));
    }

    /// A format 1 file, as exported until format 2, reads with every entry
    /// under the battle's rules version.
    #[test]
    fn a_format_1_file_reads_with_the_battles_rules_version() {
        let f = BattleFile {
            meta: BattleMeta {
                strict: false,
                ..sample().meta
            },
            ..sample()
        };
        let records = f
            .records
            .iter()
            .enumerate()
            .map(|(i, r)| EntryV1::from_record(i as EntryId, r).unwrap())
            .collect::<Vec<_>>();
        let bytes = seal_file(1, &body_of(&f, records, branch_v1), 0).unwrap();
        assert_eq!(read_battle_file(&bytes).unwrap(), f);
    }

    fn club() -> BattleFile {
        let secret = [7; 32];
        let (fair, seed) = FairSeed::new(
            &secret,
            vec![
                SeatNonce {
                    seat: Actor(1),
                    nonce: [2; 32],
                    absent: true,
                },
                SeatNonce {
                    seat: Actor(0),
                    nonce: [1; 32],
                    absent: false,
                },
            ],
        )
        .unwrap();
        let mut f = sample();
        f.meta.seed = seed;
        f.meta.fair = Some(fair);
        f.secret = Some(secret);
        f
    }

    /// Format 3: a club battle keeps its commitment, every seat's nonce (the
    /// absent mark too) and the revealed secret; every byte is checked.
    #[test]
    fn format_3_carries_a_club_battles_fair_seed_and_secret() {
        let f = club();
        let bytes = write_battle_file(&f).unwrap();
        assert!(bytes.starts_with(b"XENOLOG-BATTLE\n\x03\x00\x00\x00"));
        let back = read_battle_file(&bytes).unwrap();
        assert_eq!(back, f);
        assert!(back.meta.fair.as_ref().unwrap().nonces[1].absent);
        let unrevealed = BattleFile {
            secret: None,
            ..club()
        };
        let bytes = write_battle_file(&unrevealed).unwrap();
        assert_eq!(read_battle_file(&bytes).unwrap().secret, None);
        for i in (0..bytes.len()).step_by(7) {
            let mut b = bytes.clone();
            b[i] ^= 0x01;
            assert!(read_battle_file(&b).is_err(), "byte {i} changed unnoticed");
        }
    }

    /// An ordinary battle is still written as format 2, so builds that read
    /// format 2 open it; a secret without a fair seed is refused in words.
    #[test]
    fn a_battle_without_a_fair_seed_is_still_written_as_format_2() {
        let bytes = write_battle_file(&sample()).unwrap();
        assert_eq!(bytes[15], 2);
        let odd = BattleFile {
            secret: Some([1; 32]),
            ..sample()
        };
        assert!(
            write_battle_file(&odd)
                .unwrap_err()
                .to_string()
                .contains("a revealed secret without a fair seed")
        );
    }

    fn link() -> CampaignLink {
        CampaignLink {
            uid: "0123456789abcdef0123456789abcdef".into(),
            origin: "a1b2c3d4e5f60718".into(),
            number: 7,
            at: 1_700_000_000,
            fighters: vec![(3, "unit-1".into()), (4, "unit-2".into())],
            recruits: vec![(String::new(), 5), ("b7".into(), 2)],
            rosters: vec![(0, 1, "Wyvern Platoon".into())],
        }
    }

    /// Format 4: a roster battle's file carries its campaign link (issue 30
    /// item 9), with or without a fair seed; every byte is checked; without
    /// a link the very same bytes as before are written.
    #[test]
    fn format_4_carries_a_roster_battles_campaign_link() {
        for f in [sample(), club()] {
            let bytes = write_battle_file_linked(&f, Some(&link())).unwrap();
            assert!(bytes.starts_with(b"XENOLOG-BATTLE\n\x04\x00\x00\x00"));
            let (back, l) = read_battle_file_linked(&bytes).unwrap();
            assert_eq!((back, l), (f.clone(), Some(link())));
            // A reader that does not ask for the link gets the battle.
            assert_eq!(read_battle_file(&bytes).unwrap(), f);
            for i in 0..bytes.len() {
                let mut bad = bytes.clone();
                bad[i] ^= 0x10;
                assert!(read_battle_file_linked(&bad).is_err(), "byte {i}");
            }
            assert_eq!(
                write_battle_file_linked(&f, None).unwrap(),
                write_battle_file(&f).unwrap()
            );
            assert_eq!(
                read_battle_file_linked(&write_battle_file(&f).unwrap())
                    .unwrap()
                    .1,
                None
            );
        }
    }

    /// `f`'s entries as formats 2-5 store them.
    fn v2_records(f: &BattleFile) -> Vec<EntryV2<'_>> {
        f.records
            .iter()
            .enumerate()
            .map(|(i, r)| EntryV2::from_record(i as EntryId, r).unwrap())
            .collect()
    }

    /// `sample` with its second branch of `kind`, named `name`.
    fn with_kind(kind: BranchKind, name: &str) -> BattleFile {
        let mut f = sample();
        f.branches[1].kind = kind;
        f.branches[1].name = name.into();
        f
    }

    /// Format 5 (issue 30 item 9's left-over): each branch's kind travels
    /// in the file, with or without a fair seed and a campaign link; a line
    /// grafted from another copy and renamed comes back as another copy's
    /// line, not as a take-back; every byte is checked.
    #[test]
    fn format_5_carries_each_branchs_kind_a_renamed_grafted_line_comes_back_as_another_copys() {
        for kind in [
            BranchKind::TakeBack,
            BranchKind::WhatIf,
            BranchKind::FromCopy,
        ] {
            for (f, l) in [
                (with_kind(kind, "Walsh's game"), None),
                (with_kind(kind, "Walsh's game"), Some(link())),
                (
                    BattleFile {
                        branches: with_kind(kind, "Walsh's game").branches,
                        ..club()
                    },
                    None,
                ),
            ] {
                let bytes = write_battle_file_linked(&f, l.as_ref()).unwrap();
                assert!(
                    bytes.starts_with(b"XENOLOG-BATTLE\n\x05\x00\x00\x00"),
                    "{kind:?}"
                );
                let (back, back_link) = read_battle_file_linked(&bytes).unwrap();
                assert_eq!(back.branches[1].kind, kind);
                assert_eq!((back, back_link), (f.clone(), l));
                for i in (0..bytes.len()).step_by(3) {
                    let mut bad = bytes.clone();
                    bad[i] ^= 0x04;
                    assert!(read_battle_file(&bad).is_err(), "byte {i}");
                }
            }
        }
        // Written as format 4 (no kinds), the renamed line would come back
        // unrecorded: loading would tell it a take-back by its log.
        let renamed = with_kind(BranchKind::FromCopy, "Walsh's game");
        let records = v2_records(&renamed);
        let v4 = FileExtraV4 {
            fair: None,
            campaign: Some(link()),
        };
        let extra = FileExtraV2 { strict: true };
        let old = seal_file(4, &(body_of(&renamed, records, branch_v1), extra, v4), 0).unwrap();
        assert_eq!(
            read_battle_file(&old).unwrap().branches[1].kind,
            BranchKind::Unrecorded
        );
    }

    /// A battle whose kinds formats 1-4 give back (the main line; another
    /// copy's line still under its grafted name; lines stored without a
    /// kind) is written as before, so builds that read formats 2-4 open it;
    /// read back, each branch has the kind it had.
    #[test]
    fn a_battle_whose_kinds_older_formats_tell_is_written_as_before() {
        let grafted = with_kind(BranchKind::FromCopy, "Main (from the copy laptop.xenolog)");
        for (f, l, format) in [
            (sample(), None, 2),
            (grafted.clone(), None, 2),
            (grafted.clone(), Some(link()), 4),
            (
                BattleFile {
                    branches: grafted.branches.clone(),
                    ..club()
                },
                None,
                3,
            ),
        ] {
            let bytes = write_battle_file_linked(&f, l.as_ref()).unwrap();
            assert_eq!(bytes[15], format, "{:?}", f.branches);
            assert_eq!(read_battle_file_linked(&bytes).unwrap(), (f, l));
        }
    }

    /// A format 5 file whose branch kinds make no sense (one this build
    /// does not know, a main line that parts from another, a take-back from
    /// the setup of no line) is refused in words naming the branch.
    #[test]
    fn a_format_5_file_with_an_impossible_branch_kind_is_refused_in_words() {
        let seal = |f: &BattleFile, kinds: [&str; 2]| {
            let mut body = body_of(f, v2_records(f), branch_v2);
            for (b, k) in body.branches.iter_mut().zip(kinds) {
                b.kind = k.into();
            }
            let v4 = FileExtraV4 {
                fair: None,
                campaign: None,
            };
            seal_file(5, &(body, FileExtraV2 { strict: true }, v4), 0).unwrap()
        };
        let f = with_kind(BranchKind::TakeBack, "Another try");
        assert_eq!(
            read_battle_file(&seal(&f, ["main", "take-back"])).unwrap(),
            f
        );
        for (kinds, words) in [
            (
                ["main", "sideways"],
                "branch 1 has a kind this build does not know (\"sideways\")",
            ),
            (
                ["main", "main"],
                "branch 1 is the main line but parts from another line",
            ),
            (
                ["take-back", "take-back"],
                "branch 0 is take-back but parts from no line",
            ),
        ] {
            let err = read_battle_file(&seal(&f, kinds)).unwrap_err();
            assert!(
                matches!(&err, BattleFileError::Garbled(w) if w == words),
                "{kinds:?}: {err}"
            );
            assert!(
                err.to_string()
                    .starts_with("its contents are damaged: branch")
            );
        }
    }

    /// A file of a newer format than this build reads is refused before
    /// anything else is read, naming both numbers.
    #[test]
    fn a_file_of_format_6_is_refused_naming_both_formats() {
        let mut bytes = write_battle_file(&with_kind(BranchKind::WhatIf, "Fire first")).unwrap();
        assert_eq!(bytes[15], 5);
        bytes[15] = 6;
        let err = read_battle_file(&bytes).unwrap_err();
        assert_eq!(err, BattleFileError::Newer { found: 6, ours: 5 });
        assert_eq!(
            err.to_string(),
            "it was exported by a newer Xenolog (battle file format 6; this build reads up to 5)"
        );
    }
}
