//! What the app says to the player and asks of them: the one open dialog,
//! the notices stacked on top of it, Xenolog's own file dialog, and the
//! status line. The app opens and answers them through this small API; the
//! tests read them through it.

use eframe::egui;

use super::command::{AppCommand, FileRequest};
use super::dialogs::{Dialog, Notice, dialog_ui, notice_ui};
use super::files::{Answer, InAppDialog};

/// The dialogs, notices and status line.
#[derive(Default)]
pub struct Messages {
    dialog: Option<Dialog>,
    notices: Vec<Notice>,
    in_app_dialog: Option<InAppDialog>,
    /// The last thing that happened, for the status bar.
    pub status: String,
}

impl Messages {
    /// The open dialog.
    pub fn dialog(&self) -> Option<&Dialog> {
        self.dialog.as_ref()
    }

    /// Open `dialog` in place of any other.
    pub fn open_dialog(&mut self, dialog: Dialog) {
        self.dialog = Some(dialog);
    }

    /// The notices, the one shown first.
    pub fn notices(&self) -> &[Notice] {
        &self.notices
    }

    /// Tell the player something went wrong (and that nothing changed).
    pub fn notice(&mut self, title: &str, text: impl Into<String>) {
        self.push_notice(Notice::new(title, text));
    }

    pub fn push_notice(&mut self, notice: Notice) {
        self.notices.push(notice);
    }

    /// Keep only the notices `keep` says are still true.
    pub fn retain_notices(&mut self, keep: impl FnMut(&Notice) -> bool) {
        self.notices.retain(keep);
    }

    /// Close the notice shown.
    pub fn dismiss_notice(&mut self) {
        if !self.notices.is_empty() {
            self.notices.remove(0);
        }
    }

    /// Xenolog's own file dialog, while it is open.
    pub fn in_app_dialog(&self) -> Option<&InAppDialog> {
        self.in_app_dialog.as_ref()
    }

    /// Ask for a file in Xenolog's own dialog.
    pub fn ask_in_app(&mut self, dialog: InAppDialog) {
        self.in_app_dialog = Some(dialog);
    }

    /// Something is asked or told in a window on top: the keyboard is its.
    pub fn busy(&self) -> bool {
        self.dialog.is_some() || self.in_app_dialog.is_some() || !self.notices.is_empty()
    }

    /// Draw the dialog, the notice on top and Xenolog's own file dialog;
    /// the file chosen in that one, when the player chose.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        show_test_games: bool,
        commands: &mut Vec<AppCommand>,
    ) -> Option<(FileRequest, std::path::PathBuf)> {
        dialog_ui(ctx, &mut self.dialog, show_test_games, commands);
        notice_ui(ctx, &self.notices, commands);
        let d = self.in_app_dialog.as_mut()?;
        let answer = d.ui(ctx)?;
        let request = d.request.clone();
        self.in_app_dialog = None;
        match answer {
            Answer::Chosen(path) => Some((request, path)),
            Answer::Cancelled | Answer::Unavailable(_) => None,
        }
    }
}
