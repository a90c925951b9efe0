//! How the battle is looked at, not what it is: the camera on the board, the
//! panels shown, the selection, the line-of-sight tool, the Branches panel,
//! the player aid and the hot-seat curtain. Changing it changes no battle,
//! no campaign and no file.

use eframe::egui;
use xenolog_engine::Actor;

use super::board::{Camera, LosState};
use super::menu::PanelsShown;

/// The view of the battle beside its facts.
pub struct Look {
    pub camera: Camera,
    /// The panels beside the board; `None` until the first frame decides
    /// from the window's width.
    pub panels: Option<PanelsShown>,
    /// The selected scene item (a unit, a hex): set by `AppCommand::Select`
    /// and by the app (a lone acting unit), read by [`Look::selected`].
    pub(super) selected: Option<String>,
    /// The line-of-sight tool, when it is on.
    pub los: Option<LosState>,
    pub show_branches: bool,
    /// The legend and player aid window is open (beside the board, not
    /// modal: it stays open while playing).
    pub show_aid: bool,
    /// Show every seat's hidden information (View menu; warned).
    pub reveal_hidden: bool,
    /// Hot-seat: the seat the screen must be passed to before the battle
    /// is shown, and its name (`None`: no curtain). Decided each frame.
    pub(super) curtain: Option<(Actor, String)>,
}

impl Look {
    /// The opening view at this zoom.
    pub fn new(zoom: f32) -> Self {
        Self {
            camera: Camera {
                zoom,
                pan: egui::Vec2::ZERO,
                recentre: true,
                last_view: egui::Rect::NOTHING,
            },
            panels: None,
            selected: None,
            los: None,
            show_branches: true,
            show_aid: false,
            reveal_hidden: false,
            curtain: None,
        }
    }

    /// The selected scene item's id.
    pub fn selected(&self) -> Option<&str> {
        self.selected.as_deref()
    }

    /// The seat the screen must be passed to, and its name.
    pub fn curtain(&self) -> Option<&(Actor, String)> {
        self.curtain.as_ref()
    }
}
