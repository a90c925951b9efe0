//! The campaign file as a file: checks made before SQLite sees it, the writer
//! lock, backups next to it, and durable whole-file writes.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::SaveError;

/// The first 16 bytes of every SQLite 3 database.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";
const HEADER_LEN: usize = 100;

fn be_u32(h: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([h[at], h[at + 1], h[at + 2], h[at + 3]])
}

fn not_ours(path: &Path, why: impl Into<String>) -> SaveError {
    SaveError::NotACampaign {
        path: path.to_owned(),
        why: why.into(),
    }
}

/// Refuse, before SQLite opens it, a file that cannot be a campaign: missing,
/// empty, too short, not SQLite, or cut short. Reads only; SQLite would treat
/// an empty file as a new database and write to it, and would report a
/// truncated one only when a query reached the missing pages.
pub(crate) fn precheck(path: &Path) -> Result<(), SaveError> {
    let mut f = File::open(path).map_err(|e| SaveError::io(path, e))?;
    let len = f.metadata().map_err(|e| SaveError::io(path, e))?.len();
    if len == 0 {
        return Err(not_ours(path, "the file is empty"));
    }
    let mut h = [0u8; HEADER_LEN];
    let mut got = 0;
    while got < HEADER_LEN {
        match f.read(&mut h[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(SaveError::io(path, e)),
        }
    }
    if got < SQLITE_MAGIC.len() || &h[..SQLITE_MAGIC.len()] != SQLITE_MAGIC {
        return Err(not_ours(
            path,
            "it is not a SQLite database (it does not start with \"SQLite format 3\")",
        ));
    }
    if got < HEADER_LEN {
        return Err(not_ours(
            path,
            format!("it is cut short ({len} bytes, less than a database header)"),
        ));
    }
    let page_size = match u16::from_be_bytes([h[16], h[17]]) {
        1 => 65536,
        n if n >= 512 && n.is_power_of_two() => u64::from(n),
        n => {
            return Err(not_ours(
                path,
                format!("its header is damaged (page size {n})"),
            ));
        }
    };
    // The page count in the header is trusted only when SQLite marks it valid
    // (change counter == version-valid-for). A non-empty write-ahead log may
    // legitimately hold pages the main file does not have yet (a checkpoint
    // cut off by a crash), so the length check is skipped then.
    let pages = u64::from(be_u32(&h, 28));
    let counted = pages > 0 && be_u32(&h, 24) == be_u32(&h, 92);
    if counted && !wal_has_frames(path) && len < pages * page_size {
        return Err(not_ours(
            path,
            format!(
                "it is cut short (truncated): its header says {} bytes but only {len} are there",
                pages * page_size
            ),
        ));
    }
    Ok(())
}

fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

pub(crate) fn wal_has_frames(path: &Path) -> bool {
    std::fs::metadata(sidecar(path, "-wal")).is_ok_and(|m| m.len() > 0)
}

/// The OS lock that makes one process at a time the campaign's writer.
///
/// It is an advisory lock (`flock` on Unix, `LockFileEx` on Windows) on a
/// sidecar file `<campaign>.lock`, not on the database itself, so it never
/// interferes with SQLite's own locking and readers ignore it. The OS drops it
/// when the process exits however it exits, so a crash never leaves a stale
/// lock. The sidecar file itself is left in place: deleting it while another
/// process waits on it would let two writers hold locks on different inodes.
#[derive(Debug)]
pub(crate) struct WriterLock {
    _file: File,
}

impl WriterLock {
    pub(crate) fn take(path: &Path) -> Result<WriterLock, SaveError> {
        let lock_path = sidecar(path, ".lock");
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(|e| SaveError::io(&lock_path, e))?;
        // A lock held for a moment longer than its writer (a process between
        // fork and exec shares the lock until it execs; a writer closing)
        // is waited out briefly before the campaign is called locked.
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(300);
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(WriterLock { _file: file }),
                Err(TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(SaveError::Locked {
                        path: path.to_owned(),
                    });
                }
                Err(TryLockError::Error(e)) => return Err(SaveError::io(&lock_path, e)),
            }
        }
    }
}

/// A free name for a backup of `path` at schema version `version`:
/// `<stem>.backup-v<version>.xenolog`, then `-2`, `-3`... if taken.
pub(crate) fn backup_path(path: &Path, version: u32) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "campaign".into());
    let dir = path.parent().unwrap_or_else(|| Path::new(""));
    let mut n = 1;
    loop {
        let name = if n == 1 {
            format!("{stem}.backup-v{version}.xenolog")
        } else {
            format!("{stem}.backup-v{version}-{n}.xenolog")
        };
        let candidate = dir.join(name);
        if !candidate.exists() {
            return candidate;
        }
        n += 1;
    }
}

/// Make a new directory entry durable (Unix; elsewhere the OS does not offer it).
pub(crate) fn sync_dir(path: &Path) -> Result<(), SaveError> {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| SaveError::io(dir, e))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// A name beside `path` for a file being built before it takes `path`'s place.
pub(crate) fn temp_beside(path: &Path, what: &str) -> PathBuf {
    sidecar(path, &format!(".{what}-{}", std::process::id()))
}

/// Write `bytes` to `path` durably and atomically: a temporary file beside it,
/// synced, then renamed over it. A crash leaves the old file or the new one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    let tmp = temp_beside(path, "writing");
    // Errors name the file the user asked for, not the temporary one.
    let result = (|| {
        let mut f = File::create(&tmp).map_err(|e| SaveError::io(path, e))?;
        f.write_all(bytes).map_err(|e| SaveError::io(path, e))?;
        f.sync_all().map_err(|e| SaveError::io(path, e))?;
        std::fs::rename(&tmp, path).map_err(|e| SaveError::io(path, e))?;
        sync_dir(path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_atomic_write_names_the_file_asked_for_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-folder").join("board.svg");
        let e = write_atomically(&path, b"<svg/>").unwrap_err().to_string();
        assert!(e.contains("missing-folder/board.svg"), "{e}");
        assert!(!e.contains(".writing-"), "{e}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn backup_names_do_not_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("club.xenolog");
        let first = backup_path(&p, 1);
        assert_eq!(first.file_name().unwrap(), "club.backup-v1.xenolog");
        std::fs::write(&first, b"x").unwrap();
        let second = backup_path(&p, 1);
        assert_eq!(second.file_name().unwrap(), "club.backup-v1-2.xenolog");
    }

    #[test]
    fn a_file_with_a_bad_page_size_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad.xenolog");
        let mut h = vec![0u8; 200];
        h[..16].copy_from_slice(SQLITE_MAGIC);
        h[16..18].copy_from_slice(&1000u16.to_be_bytes());
        std::fs::write(&p, &h).unwrap();
        let err = precheck(&p).unwrap_err();
        assert!(err.to_string().contains("page size 1000"), "{err}");
    }
}
