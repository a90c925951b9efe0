//! The battle on the board: the loaded battle, its view cache, its game's
//! board UI and whose eyes it is shown to. The app holds one; the report
//! windows read it.

use xenolog_engine::{Actor, Battle, Viewer};

use super::boards::BoardUi;
use super::store::{BattleId, BattleSummary};
use super::view::BattleView;

/// The battle on the board.
pub struct OpenBattle {
    pub id: BattleId,
    pub summary: BattleSummary,
    pub battle: Box<dyn Battle>,
    pub view: BattleView,
    pub board: Box<dyn BoardUi>,
    /// The view rebuild last checked for a lone subject to select.
    auto_seen: u64,
    /// Hot-seat: the seat the screen was last passed to.
    pub looking: Option<Actor>,
    /// What the hot-seat curtain needs, found once per position.
    curtain: Option<Curtain>,
    /// How many times the curtain's facts were worked out (for tests).
    pub curtain_builds: u64,
}

/// The hot-seat curtain's facts at one position (cursor, branch, entries):
/// whether the game hides something there (and is not over), and the
/// first seat asked.
#[derive(Clone, Copy)]
struct Curtain {
    key: (
        Option<xenolog_engine::EntryId>,
        xenolog_engine::BranchId,
        usize,
    ),
    hides: bool,
    asked: Option<Actor>,
}

impl OpenBattle {
    /// A battle just loaded, shown from its cursor.
    pub fn new(
        id: BattleId,
        summary: BattleSummary,
        battle: Box<dyn Battle>,
        board: Box<dyn BoardUi>,
    ) -> Self {
        Self {
            id,
            summary,
            battle,
            view: BattleView::new(),
            board,
            auto_seen: 0,
            looking: None,
            curtain: None,
            curtain_builds: 0,
        }
    }

    /// Whether the view was rebuilt (the position changed) since this was
    /// last asked: once per position the app selects a lone acting unit.
    pub(super) fn rebuilt_since_looked(&mut self) -> bool {
        let changed = self.auto_seen != self.view.rebuilds;
        self.auto_seen = self.view.rebuilds;
        changed
    }

    /// Whose eyes the battle is shown to now, and the seat to pass the
    /// screen to when the one looking is not the one asked. A game that
    /// hides nothing, a finished battle, or `reveal` show everything.
    pub(super) fn viewer(&mut self, reveal: bool) -> (Viewer, Option<Actor>) {
        let battle = &self.battle;
        let key = (
            battle.cursor(),
            battle.current_branch(),
            battle.records().len(),
        );
        let curtain = match self.curtain {
            Some(c) if c.key == key => c,
            _ => {
                // A finished battle shows everything.
                let hides = battle.seats_see_differently() && battle.outcome().is_none();
                let asked = if hides {
                    battle
                        .asked()
                        .into_iter()
                        .map(|a| a.seat)
                        .find(|s| *s != Actor::SYSTEM)
                } else {
                    None
                };
                let c = Curtain { key, hides, asked };
                self.curtain = Some(c);
                self.curtain_builds += 1;
                c
            }
        };
        if reveal || !curtain.hides {
            return (Viewer::All, None);
        }
        let asked = curtain.asked;
        match (self.looking, asked) {
            (Some(l), Some(a)) if l == a => (Viewer::Seat(l), None),
            (_, Some(a)) => (Viewer::Seat(a), Some(a)),
            (Some(l), None) => (Viewer::Seat(l), None),
            (None, None) => (Viewer::All, None),
        }
    }
}
