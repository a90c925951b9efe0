//! The eframe desktop app (being built).

/// Start the desktop app, optionally on a given campaign file.
pub fn run(campaign: Option<std::path::PathBuf>) -> anyhow::Result<()> {
    let _ = campaign;
    anyhow::bail!("the desktop app is not built yet")
}
