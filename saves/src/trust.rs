//! Verified before trusted (issue 30 item 9): what comes from another
//! machine (a campaign opened for the first time here, a copy merged in, a
//! battle imported or downloaded) is replayed in full before it is trusted.
//!
//! Opening a battle does not replay it: a stored snapshot is taken when its
//! hash matches its entry's, so a file whose snapshot was altered and whose
//! hashes were forged to match would show a false state until `verify` ran.
//! Imports and merges verify what they bring before writing it; a campaign
//! file carried from another machine is checked here, on a worker thread,
//! when it is opened ([`check_in_background`]), or at once on the command
//! line ([`check_now`]).
//!
//! This machine's [`TrustBook`] (a small JSON file the caller places, in the
//! app's data folder) remembers, per campaign uid and battle, how many
//! entries were verified here and a digest (BLAKE3) of every stored entry's
//! bytes, on every branch (each entry's chain and state hash among them, so
//! also which snapshots load). A battle whose entries are still exactly
//! those is trusted; any other battle is checked. (The chain hash of the
//! highest entry alone covers only its ancestors: an entry forged on
//! another branch would pass; review finding SHOULD 4.) A book written
//! before this kept that chain hash: it matches no digest, so such battles
//! are checked once more. The book is on the machine, not in the campaign
//! file, so a file cannot vouch for itself.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};

use serde::{Deserialize, Serialize};

use crate::battles::ScanError;
use crate::db::{Begin, Db, DbExt};
use crate::file::write_atomically;
use crate::{BattleId, Campaign, SaveError};

/// What this machine has verified, per campaign uid and battle: the entries
/// verified and the digest of all of them (hex).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrustBook {
    #[serde(default)]
    campaigns: BTreeMap<String, BTreeMap<BattleId, (u64, String)>>,
}

impl TrustBook {
    /// The book at `path` (empty when there is none yet, or it cannot be
    /// read: then everything is checked again, which is only slower).
    pub fn read(path: &Path) -> TrustBook {
        std::fs::read(path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// Write the book to `path` (atomically).
    pub fn write(&self, path: &Path) -> Result<(), SaveError> {
        let text = serde_json::to_vec_pretty(self)
            .map_err(|e| SaveError::Sql(format!("the trust book cannot be written: {e}")))?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| SaveError::io(dir, e))?;
        }
        write_atomically(path, &text)
    }

    /// The battles of `c` not verified on this machine as they stand.
    pub fn untrusted(&self, c: &Campaign) -> Result<Vec<BattleId>, SaveError> {
        let uid = c.uid()?;
        let known = self.campaigns.get(&uid);
        let mut out = Vec::new();
        for b in c.battles()? {
            let trusted = match known.and_then(|k| k.get(&b.id)) {
                Some((n, digest)) if *n == b.entries => c.entries_digest(b.id)? == *digest,
                _ => false,
            };
            if !trusted {
                out.push(b.id);
            }
        }
        Ok(out)
    }

    fn trust(&mut self, uid: &str, id: BattleId, entries: u64, digest: String) {
        self.campaigns
            .entry(uid.to_owned())
            .or_default()
            .insert(id, (entries, digest));
    }
}

/// What a check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Battles replayed in full.
    pub checked: usize,
    /// The first battle that does not replay, naming its first entry that
    /// does not, in words (`None`: everything checked replays exactly).
    pub problem: Option<String>,
}

/// News from a check in the background.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckNews {
    /// `done` of `total` battles checked so far.
    Progress { done: usize, total: usize },
    /// The check ended (or could not run: its reason in `problem`).
    Done(Checked),
}

/// Verify, here and now, the battles of the campaign at `path` that this
/// machine has not verified as they stand; record the ones that replay in
/// the book at `book` (`None`: check everything, remember nothing).
/// `progress` hears `(done, total)` before each battle.
pub fn check_now(
    path: &Path,
    book: Option<&Path>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Checked, SaveError> {
    let c = Campaign::open_read_only(path)?;
    let mut trust = book.map(TrustBook::read).unwrap_or_default();
    let todo = trust.untrusted(&c)?;
    let uid = c.uid()?;
    let mut out = Checked::default();
    for (done, id) in todo.iter().enumerate() {
        progress(done, todo.len());
        let title = c.summary(*id).map(|s| s.title).unwrap_or_default();
        let words = |why: String| format!("battle {id} ({title}): {why}");
        out.checked += 1;
        let b = match c.load_battle(*id) {
            Ok(b) => b,
            Err(e) => {
                out.problem = Some(words(format!("it cannot be read: {e}")));
                break;
            }
        };
        let report = b.verify();
        match &report.problem {
            None => {
                let digest = c.entries_digest(*id)?;
                trust.trust(&uid, *id, b.records().len() as u64, digest);
            }
            Some(d) => {
                out.problem = Some(words(format!(
                    "entry {} does not replay: {}",
                    d.entry, d.detail
                )));
                break;
            }
        }
    }
    progress(todo.len(), todo.len());
    if let Some(book) = book
        && out.checked > 0
    {
        trust.write(book)?;
    }
    Ok(out)
}

/// [`check_now`] on a worker thread: progress and the end arrive on the
/// channel (`wake` is called after each, so a window can repaint).
pub fn check_in_background(
    path: PathBuf,
    book: Option<PathBuf>,
    wake: impl Fn() + Send + 'static,
) -> Receiver<CheckNews> {
    let (tx, rx) = channel();
    std::thread::Builder::new()
        .name("xenolog-trust".into())
        .spawn(move || {
            let progress_tx = tx.clone();
            let mut progress = |done, total| {
                let _ = progress_tx.send(CheckNews::Progress { done, total });
                wake();
            };
            let end = match check_now(&path, book.as_deref(), &mut progress) {
                Ok(c) => c,
                Err(e) => Checked {
                    checked: 0,
                    problem: Some(format!("the campaign could not be checked: {e}")),
                },
            };
            let _ = tx.send(CheckNews::Done(end));
            wake();
        })
        .ok();
    rx
}

impl Campaign {
    /// A digest (BLAKE3, hex) of a battle's rules version and every stored
    /// entry's bytes, on every branch, in order: its number, its length and
    /// its bytes. An entry sealed in a block is the same bytes as one in the
    /// tail (migration 8), so the digest does not depend on where an entry
    /// is stored, and books written before blocks stay valid. A battle whose
    /// layout is damaged gets no digest of hex: it names the damage, matches
    /// no book, and is checked (and refused) again.
    pub(crate) fn entries_digest(&self, id: BattleId) -> Result<String, SaveError> {
        let mut h = blake3::Hasher::new();
        let rules: u32 = self
            .conn
            .one("SELECT rules_version FROM battles WHERE id = ?1", &[&id])?;
        h.update(&rules.to_le_bytes());
        let hash = |seq: xenolog_engine::EntryId, record: &[u8]| {
            h.update(&(seq as i64).to_le_bytes());
            h.update(&(record.len() as u64).to_le_bytes());
            h.update(record);
            Ok(())
        };
        let read = if self.conn.in_transaction() {
            crate::scan::each_stored_entry(&self.conn, id, hash)
        } else {
            let seen = self.conn.begin(Begin::Snapshot)?;
            crate::scan::each_stored_entry(&self.conn, id, hash).and_then(|()| Ok(seen.commit()?))
        };
        match read {
            Ok(()) => Ok(h.finalize().to_hex().to_string()),
            Err(ScanError::Entry { seq, why }) => Ok(format!(
                "damaged: entry {seq} {why}; {}",
                h.finalize().to_hex()
            )),
            Err(ScanError::Save(e)) => Err(e),
        }
    }
}
