//! The Dice Race test game: no scenarios to configure; a 1 loses the turn
//! (the engine marks it: each die needs a 2 or more).

/// The board UI of the race test game.
pub struct RaceBoard;

impl super::BoardUi for RaceBoard {}
