//! Keyboard shortcuts, in one place so the menus show the same keys the app
//! listens for.

use eframe::egui::{Key, KeyboardShortcut, Modifiers};

/// Edit > Undo.
pub const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
/// Edit > Redo.
pub const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
/// Redo, as many programs have it.
pub const REDO_Y: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
/// File > Open campaign.
pub const OPEN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
/// File > New battle.
pub const NEW_BATTLE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::N);
// The board zooms with bare keys: Ctrl with plus and minus stays egui's
// own scaling of the whole interface, which players with poor sight need.
/// Zoom the board in.
pub const ZOOM_IN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::Plus);
/// Zoom in without Shift on keyboards where + needs it.
pub const ZOOM_IN_EQ: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::Equals);
/// Zoom the board out.
pub const ZOOM_OUT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::Minus);
/// Back to the opening view of the board.
pub const ZOOM_FIT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::Num0);
/// View > the campaign panel (left): show or hide it.
pub const TOGGLE_BROWSER: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::B);
/// View > the side panel (right): show or hide it.
pub const TOGGLE_SIDE: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::B);
/// Select the next unit that can act (and bring it into view).
pub const NEXT_UNIT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::N);
/// End the phase, the card or the turn: the one command that ends it.
pub const END_STEP: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::E);
/// Centre the board on the selection.
pub const CENTRE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::C);
