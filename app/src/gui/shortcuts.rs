//! Keyboard shortcuts, in one place so the menus show the same keys the app
//! listens for.

use eframe::egui::{Key, KeyboardShortcut, Modifiers};

pub const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
pub const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
pub const REDO_Y: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
pub const OPEN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
pub const NEW_BATTLE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::N);
// The board zooms with bare keys: Ctrl with plus and minus stays egui's
// own scaling of the whole interface, which players with poor sight need.
pub const ZOOM_IN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::Plus);
pub const ZOOM_IN_EQ: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::Equals);
pub const ZOOM_OUT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::Minus);
pub const ZOOM_FIT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::Num0);
