//! Files kept private on this machine (a club's tokens and nonces, the
//! saved list of clubs): written by the command line (`club redeem`,
//! `club join`) and by the app alike, through this one module, so neither
//! names the other.

use std::io::Write;
use std::path::Path;

/// Make a folder (and its parents); the folder itself readable by its
/// owner only (mode 0700 on Unix) when this makes it.
pub fn private_dir(dir: &Path) -> Result<(), String> {
    let made = !dir.exists();
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot make the folder {}: {e}", dir.display()))?;
    #[cfg(unix)]
    if made {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| format!("cannot make {} private: {e}", dir.display()))?;
    }
    Ok(())
}

/// Write a file readable by its owner only (mode 0600 on Unix),
/// atomically (a temporary file beside it, synced, then renamed).
pub fn write_private(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        private_dir(parent)?;
    }
    // The whole name plus the process id: `with_extension` would cut at the
    // last dot, so `nonce-127.0.0.1_8470-b3-s0` and `-s1` (or the tokens of
    // club.example.org and .net) would share one temporary file.
    let mut tmp_name = path.file_name().unwrap_or_default().to_owned();
    tmp_name.push(format!(".{}.part", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let write = || -> std::io::Result<()> {
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        let mut f = o.open(&tmp)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| format!("cannot write {}: {e}", path.display()))
}
