//! The Dice Race test game: no scenarios to configure; a 1 loses the turn.

use xenolog_engine::{Battle, EntryText};

use super::{BoardUi, DieMark};

/// The board UI of the race test game.
pub struct RaceBoard;

impl BoardUi for RaceBoard {
    /// A 1 busts the turn: it is marked as the miss.
    fn die_marks(&self, _battle: &dyn Battle, entry: &EntryText) -> Vec<DieMark> {
        entry
            .dice
            .iter()
            .map(|d| {
                if d.value == 1 {
                    DieMark::Miss
                } else {
                    DieMark::Plain
                }
            })
            .collect()
    }
}
