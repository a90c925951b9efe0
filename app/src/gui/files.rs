//! File dialogs behind a trait: the real app asks the desktop through the XDG
//! portal (rfd); tests script the answers so no dialog ever opens.

use std::collections::VecDeque;
use std::path::PathBuf;

use super::command::FileRequest;

/// The extension of campaign files.
pub const CAMPAIGN_EXT: &str = "xenolog";
/// The extension of single exported battles.
pub const BATTLE_EXT: &str = "xenolog-battle";

/// Asks the player for a file.
pub trait FileDialogs {
    /// The chosen path, `None` if the player cancelled. `suggested` is a file
    /// name to offer when saving.
    fn pick(&mut self, request: &FileRequest, suggested: &str) -> Option<PathBuf>;
}

/// The desktop's own dialogs, through the XDG desktop portal.
pub struct RfdDialogs;

impl FileDialogs for RfdDialogs {
    fn pick(&mut self, request: &FileRequest, suggested: &str) -> Option<PathBuf> {
        let dialog = rfd::FileDialog::new();
        match request {
            FileRequest::OpenCampaign => dialog
                .set_title("Open campaign")
                .add_filter("Xenolog campaign", &[CAMPAIGN_EXT])
                .pick_file(),
            FileRequest::NewCampaign => dialog
                .set_title("New campaign")
                .add_filter("Xenolog campaign", &[CAMPAIGN_EXT])
                .set_file_name(suggested)
                .save_file(),
            FileRequest::ImportBattle => dialog
                .set_title("Import battle")
                .add_filter("Xenolog battle", &[BATTLE_EXT])
                .pick_file(),
            FileRequest::ExportBattle => dialog
                .set_title("Export battle")
                .add_filter("Xenolog battle", &[BATTLE_EXT])
                .set_file_name(suggested)
                .save_file(),
            FileRequest::ExportPicture => dialog
                .set_title("Export board picture")
                .add_filter("SVG picture", &["svg"])
                .set_file_name(suggested)
                .save_file(),
        }
    }
}

/// Answers given in order, for tests: each `pick` takes the next answer and
/// records what was asked. Used by the GUI tests in `app/tests`.
#[derive(Default)]
pub struct ScriptedDialogs {
    pub answers: VecDeque<Option<PathBuf>>,
    pub asked: Vec<FileRequest>,
}

impl ScriptedDialogs {
    /// Dialogs that answer with these paths in turn (`None`: cancelled).
    pub fn new(answers: impl IntoIterator<Item = Option<PathBuf>>) -> Self {
        Self {
            answers: answers.into_iter().collect(),
            asked: Vec::new(),
        }
    }
}

impl FileDialogs for ScriptedDialogs {
    fn pick(&mut self, request: &FileRequest, _suggested: &str) -> Option<PathBuf> {
        self.asked.push(request.clone());
        self.answers.pop_front().flatten()
    }
}
