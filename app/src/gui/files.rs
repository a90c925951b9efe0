//! File dialogs behind a trait: the real app asks the desktop through the XDG
//! portal (rfd); tests script the answers so no dialog ever opens.
//!
//! A desktop dialog that cannot be shown (no XDG desktop portal: a plain window
//! manager, many tiling setups, Xvfb) is not a cancel: [`FileDialogs::pick`]
//! says so with [`Answer::Unavailable`], and the app asks with its own dialog
//! drawn in the window instead ([`InAppDialog`], from the `egui_file` crate).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use eframe::egui;

use super::command::FileRequest;

/// The extension of campaign files.
pub const CAMPAIGN_EXT: &str = "xenolog";
/// The extension of single exported battles.
pub const BATTLE_EXT: &str = "xenolog-battle";

/// What a file dialog answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Chosen(PathBuf),
    /// The player closed the dialog without choosing.
    Cancelled,
    /// The dialog could not be shown; why, in words.
    Unavailable(String),
}

impl From<Option<PathBuf>> for Answer {
    fn from(p: Option<PathBuf>) -> Self {
        p.map_or(Self::Cancelled, Self::Chosen)
    }
}

/// Asks the player for a file.
pub trait FileDialogs {
    /// The chosen path, a cancel, or why no dialog could be shown.
    /// `suggested` is a file name to offer when saving.
    fn pick(&mut self, request: &FileRequest, suggested: &str) -> Answer;
}

/// What each request asks for: the dialog's title, the kind of file and its
/// extension, and whether it names a new file.
pub struct RequestKind {
    pub title: &'static str,
    pub filter_name: &'static str,
    pub ext: &'static str,
    pub save: bool,
}

/// The title, filter and direction of a request (one table for both dialogs).
pub fn request_kind(request: &FileRequest) -> RequestKind {
    let (title, filter_name, ext, save) = match request {
        FileRequest::OpenCampaign => ("Open campaign", "Xenolog campaign", CAMPAIGN_EXT, false),
        FileRequest::NewCampaign => ("New campaign", "Xenolog campaign", CAMPAIGN_EXT, true),
        FileRequest::ImportBattle => ("Import battle", "Xenolog battle", BATTLE_EXT, false),
        FileRequest::MergeCopy => (
            "Merge a copy of this campaign",
            "Xenolog campaign",
            CAMPAIGN_EXT,
            false,
        ),
        FileRequest::ExportBattle => ("Export battle", "Xenolog battle", BATTLE_EXT, true),
        FileRequest::ExportPicture => ("Export board picture", "SVG picture", "svg", true),
        // Position files have no extension of their own (hand.txt, late).
        FileRequest::PositionFile => (
            "New battle from a position file",
            "position or scenario",
            "",
            false,
        ),
        FileRequest::ExportReport(f) => (
            "Export battle report",
            f.name(),
            match f {
                xenolog_report::Format::Markdown => "md",
                xenolog_report::Format::Html => "html",
                xenolog_report::Format::BbCode => "txt",
                xenolog_report::Format::Csv => "csv",
            },
            true,
        ),
    };
    RequestKind {
        title,
        filter_name,
        ext,
        save,
    }
}

/// The desktop's own dialogs, through the XDG desktop portal.
pub struct RfdDialogs;

impl FileDialogs for RfdDialogs {
    fn pick(&mut self, request: &FileRequest, suggested: &str) -> Answer {
        // rfd answers "nothing chosen" both when the player cancels and when
        // there is no portal to ask; only the second is worth a fallback, so
        // ask the portal first whether it can show a file chooser.
        if let Err(why) = portal_file_chooser() {
            return Answer::Unavailable(why);
        }
        let kind = request_kind(request);
        let mut dialog = rfd::FileDialog::new().set_title(kind.title);
        if !kind.ext.is_empty() {
            dialog = dialog.add_filter(kind.filter_name, &[kind.ext]);
        }
        if kind.save {
            dialog.set_file_name(suggested).save_file().into()
        } else {
            dialog.pick_file().into()
        }
    }
}

/// Whether the desktop portal offers a file chooser, or why not.
#[cfg(target_os = "linux")]
fn portal_file_chooser() -> Result<(), String> {
    let conn = zbus::blocking::connection::Builder::session()
        .and_then(|b| b.method_timeout(std::time::Duration::from_secs(10)).build())
        .map_err(|e| {
            // The technical cause for whoever reads the terminal; the player
            // reads the words.
            eprintln!("xenolog: no D-Bus session bus for the file chooser portal: {e}");
            "this desktop session offers Xenolog no file chooser".to_owned()
        })?;
    conn.call_method(
        Some("org.freedesktop.portal.Desktop"),
        "/org/freedesktop/portal/desktop",
        Some("org.freedesktop.DBus.Properties"),
        "Get",
        &("org.freedesktop.portal.FileChooser", "version"),
    )
    .map(|_| ())
    .map_err(|e| {
        eprintln!("xenolog: the XDG desktop portal offers no file chooser: {e}");
        "the desktop has no file chooser for Xenolog to use".to_owned()
    })
}

#[cfg(not(target_os = "linux"))]
fn portal_file_chooser() -> Result<(), String> {
    Ok(())
}

/// Answers given in order, for tests: each `pick` takes the next answer and
/// records what was asked. Used by the GUI tests in `app/tests`.
#[derive(Default)]
pub struct ScriptedDialogs {
    pub answers: VecDeque<Answer>,
    pub asked: Vec<FileRequest>,
}

impl ScriptedDialogs {
    /// Dialogs that answer with these paths in turn (`None`: cancelled).
    pub fn new(answers: impl IntoIterator<Item = Option<PathBuf>>) -> Self {
        Self::answering(answers.into_iter().map(Answer::from))
    }

    /// Dialogs that give these answers in turn (cancelled when none is left).
    pub fn answering(answers: impl IntoIterator<Item = Answer>) -> Self {
        Self {
            answers: answers.into_iter().collect(),
            asked: Vec::new(),
        }
    }
}

impl FileDialogs for ScriptedDialogs {
    fn pick(&mut self, request: &FileRequest, _suggested: &str) -> Answer {
        self.asked.push(request.clone());
        self.answers.pop_front().unwrap_or(Answer::Cancelled)
    }
}

/// Xenolog's own file dialog, drawn in the window, for when the desktop's
/// cannot be shown.
pub struct InAppDialog {
    pub request: FileRequest,
    dialog: egui_file::FileDialog,
    ext: &'static str,
}

impl std::fmt::Debug for InAppDialog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InAppDialog")
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}

impl InAppDialog {
    /// The dialog for a request, opened in `folder`.
    pub fn new(request: FileRequest, suggested: &str, folder: &Path) -> Self {
        let kind = request_kind(&request);
        let ext = kind.ext;
        let has_ext = move |p: &Path| ext.is_empty() || p.extension().is_some_and(|e| e == ext);
        let base = if kind.save {
            egui_file::FileDialog::save_file().default_filename(suggested)
        } else {
            egui_file::FileDialog::open_file()
        };
        let mut dialog = base
            .title(&format!("{} ({} file)", kind.title, kind.filter_name))
            .initial_path(folder)
            .id(egui::Id::unique("xenolog-in-app-file-dialog"))
            .default_size([560.0, 420.0])
            .show_rename(false)
            .show_files_filter(Box::new(move |p: &Path| has_ext(p)))
            .keep_on_top(true);
        dialog.open();
        Self {
            request,
            dialog,
            ext,
        }
    }

    /// Draw the dialog: `None` while it is open, then the player's answer.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<Answer> {
        self.dialog.show(ctx);
        match self.dialog.state() {
            egui_file::State::Open => None,
            egui_file::State::Selected => Some(match self.dialog.path() {
                Some(p) => Answer::Chosen(with_extension(p, self.ext)),
                None => Answer::Cancelled,
            }),
            egui_file::State::Cancelled | egui_file::State::Closed => Some(Answer::Cancelled),
        }
    }
}

/// A file name typed without its extension gets it (a request of any
/// file, `ext` empty, takes the name as it is).
fn with_extension(path: &Path, ext: &str) -> PathBuf {
    if ext.is_empty() || path.extension().is_some_and(|e| e == ext) {
        path.to_owned()
    } else {
        let mut s = path.as_os_str().to_owned();
        s.push(".");
        s.push(ext);
        PathBuf::from(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_name_gets_its_extension_once() {
        assert_eq!(
            with_extension(Path::new("/t/club"), CAMPAIGN_EXT),
            PathBuf::from("/t/club.xenolog")
        );
        assert_eq!(
            with_extension(Path::new("/t/club.xenolog"), CAMPAIGN_EXT),
            PathBuf::from("/t/club.xenolog")
        );
        assert_eq!(
            with_extension(Path::new("/t/board.v2"), "svg"),
            PathBuf::from("/t/board.v2.svg")
        );
        assert_eq!(
            with_extension(Path::new("/t/late"), ""),
            PathBuf::from("/t/late")
        );
    }
}
