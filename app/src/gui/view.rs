//! What the app shows of a battle at the cursor, asked of the engine once per
//! change and kept until the cursor, the branch or the log changes. A frame
//! where nothing changed decodes nothing: it only compares a small key.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use xenolog_engine::{
    Battle, BranchId, EntryId, EntryText, FlowMark, LegalCommand, Outcome, Scene, Viewer,
};

use super::side::Tray;

/// Lines up to this long get every entry's turn and phase in one fold; longer
/// ones are sampled for the timeline ticks (the table still shows every entry).
const EXACT_TICKS: usize = 4096;
/// Timeline samples of a long line.
const TICK_SAMPLES: usize = 2048;
/// Entry texts are computed in chunks of this many rows, when first shown.
const CHUNK: usize = 256;

/// An entry as the player sees it numbered: the engine's entry id, as the
/// command line prints it (`xenolog log`, `seek --to`, `state --at-entry`).
/// One numbering everywhere; a position on a line is never shown as a number.
pub fn entry_label(id: EntryId) -> String {
    format!("#{id}")
}

/// The entry at a position of the current line in words (`Setup` at 0).
pub fn position_label(line: &LineView, pos: usize) -> String {
    line.entry_at(pos).map_or_else(
        || "the setup".to_owned(),
        |id| format!("entry {}", entry_label(id)),
    )
}

/// Identifies what the cached view shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ViewKey {
    cursor: Option<EntryId>,
    branch: BranchId,
    records: usize,
    viewer: Viewer,
}

/// A change of turn or phase on the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    /// Position on the line (entries from the setup).
    pub pos: usize,
    pub flow: FlowMark,
    /// A new turn (a phase change otherwise).
    pub turn_start: bool,
}

/// The current line: the entries from the setup to the head of the current
/// branch, which the timeline and the entry table show.
pub struct LineView {
    pub branch: BranchId,
    pub head: Option<EntryId>,
    records: usize,
    built: bool,
    /// Entry ids in order; ids grow along a line (a parent is older than its child).
    pub ids: Vec<EntryId>,
    pub ticks: Vec<Tick>,
    /// Whether `ticks` has every change (short lines) or samples (long lines).
    pub exact_ticks: bool,
    texts: HashMap<usize, Vec<EntryText>>,
    /// Whose eyes the entry texts are for (hidden information removed).
    viewer: Viewer,
    /// The game's word for a turn ("Turn", Alien Invasion's "Round"): the
    /// timeline, its ticks and the entries table name turns with it.
    pub turn_word: &'static str,
}

impl LineView {
    fn empty() -> Self {
        Self {
            branch: 0,
            head: None,
            records: 0,
            built: false,
            ids: Vec::new(),
            ticks: Vec::new(),
            exact_ticks: true,
            texts: HashMap::new(),
            viewer: Viewer::All,
            turn_word: "Turn",
        }
    }

    fn build(battle: &dyn Battle, viewer: Viewer) -> Self {
        let branch = battle.current_branch();
        let head = battle.head(branch);
        let ids = battle.path_to(head);
        let mut line = Self {
            branch,
            head,
            records: battle.records().len(),
            built: true,
            ids,
            ticks: Vec::new(),
            exact_ticks: true,
            texts: HashMap::new(),
            viewer,
            turn_word: battle.turn_word(),
        };
        line.build_ticks(battle);
        line
    }

    fn build_ticks(&mut self, battle: &dyn Battle) {
        let start = battle.flow_at(None);
        let mut ticks = vec![Tick {
            pos: 0,
            flow: start,
            turn_start: true,
        }];
        if self.ids.len() <= EXACT_TICKS {
            let texts = battle.entry_texts_as(&self.ids, self.viewer);
            for (i, t) in texts.iter().enumerate() {
                push_tick(&mut ticks, i + 1, &t.flow);
            }
            for (c, chunk) in texts.chunks(CHUNK).enumerate() {
                self.texts.insert(c, chunk.to_vec());
            }
            self.exact_ticks = true;
        } else {
            let n = self.ids.len();
            for s in 1..=TICK_SAMPLES {
                let pos = s * n / TICK_SAMPLES;
                let flow = battle.flow_at(Some(self.ids[pos - 1]));
                push_tick(&mut ticks, pos, &flow);
            }
            self.exact_ticks = false;
        }
        self.ticks = ticks;
    }

    /// Append one entry played at the head, without rebuilding the line.
    fn extend(&mut self, battle: &dyn Battle, id: EntryId) {
        self.ids.push(id);
        self.head = Some(id);
        self.records = battle.records().len();
        let pos = self.ids.len();
        let chunk = (pos - 1) / CHUNK;
        let text = battle.entry_texts_as(&[id], self.viewer).pop();
        if let Some(text) = text {
            push_tick(&mut self.ticks, pos, &text.flow);
            if let Some(rows) = self.texts.get_mut(&chunk) {
                rows.push(text);
            } else if (pos - 1).is_multiple_of(CHUNK) {
                self.texts.insert(chunk, vec![text]);
            }
        }
    }

    /// Number of positions: the setup plus one per entry.
    pub fn positions(&self) -> usize {
        self.ids.len() + 1
    }

    /// Position of an entry on this line (`None` maps to 0, the setup).
    pub fn pos_of(&self, at: Option<EntryId>) -> Option<usize> {
        match at {
            None => Some(0),
            Some(id) => self.ids.binary_search(&id).ok().map(|i| i + 1),
        }
    }

    /// The entry at a position (0: the setup).
    pub fn entry_at(&self, pos: usize) -> Option<EntryId> {
        pos.checked_sub(1).and_then(|i| self.ids.get(i).copied())
    }

    /// The entry text of row `i` (the entry at position `i + 1`).
    pub fn text(&mut self, battle: &dyn Battle, i: usize) -> Option<&EntryText> {
        if i >= self.ids.len() {
            return None;
        }
        let chunk = i / CHUNK;
        let start = chunk * CHUNK;
        let end = (start + CHUNK).min(self.ids.len());
        let rows = self
            .texts
            .entry(chunk)
            .or_insert_with(|| battle.entry_texts_as(&self.ids[start..end], self.viewer));
        if rows.len() < end - start {
            // The chunk was begun by `extend`; complete it.
            *rows = battle.entry_texts_as(&self.ids[start..end], self.viewer);
        }
        rows.get(i - start)
    }

    /// The turn and phase at a position, from the ticks.
    pub fn flow_at_pos(&self, pos: usize) -> Option<&FlowMark> {
        let i = self.ticks.partition_point(|t| t.pos <= pos);
        i.checked_sub(1).map(|i| &self.ticks[i].flow)
    }

    /// Position where turn `turn` begins, if the line reaches it.
    pub fn turn_start(&self, turn: u32) -> Option<usize> {
        self.ticks
            .iter()
            .find(|t| t.flow.turn >= turn)
            .map(|t| t.pos)
    }
}

fn push_tick(ticks: &mut Vec<Tick>, pos: usize, flow: &FlowMark) {
    let Some(last) = ticks.last() else {
        ticks.push(Tick {
            pos,
            flow: flow.clone(),
            turn_start: true,
        });
        return;
    };
    if last.flow.turn != flow.turn {
        ticks.push(Tick {
            pos,
            flow: flow.clone(),
            turn_start: true,
        });
    } else if last.flow.phase != flow.phase {
        ticks.push(Tick {
            pos,
            flow: flow.clone(),
            turn_start: false,
        });
    }
}

/// The battle at the cursor as the app shows it.
pub struct BattleView {
    key: Option<ViewKey>,
    pub scene: Scene,
    pub legal: Vec<LegalCommand>,
    pub outcome: Option<Outcome>,
    pub to_move: Option<String>,
    /// Each seat asked to act and what for, in words.
    pub asked: Vec<(String, String)>,
    pub line: LineView,
    /// The cursor's position on the line.
    pub pos: usize,
    /// How many times the view was rebuilt (for tests and benchmarks).
    pub rebuilds: u64,
    /// Whose eyes it is for: everything, or one seat's view with what the
    /// others hold hidden (hot-seat behind the curtain).
    pub viewer: Viewer,
    /// The dice tray, worked out for the rebuild it was made at.
    tray: Option<(u64, Option<Tray>)>,
    /// How many times the dice tray was worked out (for tests).
    pub tray_builds: u64,
    /// What a game's panel works out from the position (a seat's view of
    /// the state behind the hot-seat curtain), for the rebuild it was made
    /// at ([`BattleView::kept`]).
    kept: RefCell<Option<(u64, Rc<dyn Any>)>>,
    /// How many times [`BattleView::kept`] made its value (for tests).
    pub kept_builds: Cell<u64>,
}

impl Default for BattleView {
    fn default() -> Self {
        Self::new()
    }
}

impl BattleView {
    /// A view that will be built on the first refresh.
    /// Build again at the next refresh, though the position is the same
    /// (a club battle's commands arrive after its entry).
    pub fn invalidate(&mut self) {
        self.key = None;
    }

    pub fn new() -> Self {
        Self {
            key: None,
            scene: Scene::default(),
            legal: Vec::new(),
            outcome: None,
            to_move: None,
            asked: Vec::new(),
            line: LineView::empty(),
            pos: 0,
            rebuilds: 0,
            viewer: Viewer::All,
            tray: None,
            tray_builds: 0,
            kept: RefCell::new(None),
            kept_builds: Cell::new(0),
        }
    }

    /// What `make` works out from the position shown, made the first time
    /// it is asked for after a rebuild ([`BattleView::refresh`]: a new
    /// position, branch, entry or viewer) and kept until the next: a frame
    /// where nothing changed copies nothing.
    pub fn kept<T: 'static>(&self, make: impl FnOnce() -> T) -> Rc<T> {
        let mut kept = self.kept.borrow_mut();
        if let Some((at, value)) = kept.as_ref()
            && *at == self.rebuilds
            && let Ok(value) = Rc::clone(value).downcast::<T>()
        {
            return value;
        }
        let value = Rc::new(make());
        self.kept_builds.set(self.kept_builds.get() + 1);
        *kept = Some((self.rebuilds, Rc::clone(&value) as Rc<dyn Any>));
        value
    }

    /// The dice tray of this view: `make` works it out the first time it is
    /// asked for after a rebuild ([`BattleView::refresh`]), and it is kept
    /// until the next.
    pub fn tray(&mut self, make: impl FnOnce(&mut Self) -> Option<Tray>) -> Option<&Tray> {
        if self
            .tray
            .as_ref()
            .is_none_or(|(at, _)| *at != self.rebuilds)
        {
            let tray = make(self);
            self.tray_builds += 1;
            self.tray = Some((self.rebuilds, tray));
        }
        self.tray.as_ref().and_then(|(_, tray)| tray.as_ref())
    }

    /// Bring the view up to date with the battle; cheap when nothing changed.
    pub fn refresh(&mut self, battle: &dyn Battle) {
        let key = ViewKey {
            cursor: battle.cursor(),
            branch: battle.current_branch(),
            records: battle.records().len(),
            viewer: self.viewer,
        };
        if self.key == Some(key) {
            return;
        }
        self.key = Some(key);
        self.rebuilds += 1;
        let head = battle.head(key.branch);
        let line = &mut self.line;
        let same_line = line.branch == key.branch
            && line.head == head
            && line.records == key.records
            && line.viewer == key.viewer;
        if !same_line {
            // One new entry at the head of the line shown: extend, do not refold.
            let appended = line.built
                && line.viewer == key.viewer
                && line.branch == key.branch
                && line.records + 1 == key.records
                && head.is_some_and(|h| {
                    h as usize + 1 == key.records
                        && battle.records()[h as usize].parent == line.head
                });
            match head {
                Some(h) if appended => line.extend(battle, h),
                _ => *line = LineView::build(battle, key.viewer),
            }
        }
        self.pos = line.pos_of(key.cursor).unwrap_or_else(|| {
            // The cursor is always on its branch's line; rebuild if that ever fails.
            *line = LineView::build(battle, key.viewer);
            line.pos_of(key.cursor).unwrap_or(0)
        });
        self.scene = battle.scene_at_as(key.cursor, key.viewer);
        self.legal = battle.legal();
        // Behind the curtain a seat is offered only its own commands.
        if let Viewer::Seat(seat) = key.viewer {
            self.legal.retain(|c| c.actor == seat);
        }
        self.outcome = battle.outcome();
        // Behind the curtain a seat is told only what it may know: not that
        // another seat is asked because of its hidden cards (review15 N9).
        self.asked = battle
            .asked_as(key.viewer)
            .into_iter()
            .map(|a| (battle.actor_name(a.seat), a.what))
            .collect();
        let names: Vec<&str> = self.asked.iter().map(|(n, _)| n.as_str()).collect();
        self.to_move = (!names.is_empty()).then(|| names.join(" and "));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use xenolog_engine::Actor;

    use super::*;

    fn race(entries: usize) -> Box<dyn Battle> {
        let mut b =
            xenolog_engine::games::new_battle("race", 7, &json!({"target": 1000000})).unwrap();
        for _ in 0..entries {
            let to = b.to_move().unwrap();
            let p = b
                .prepare_json(to, &json!({"roll": {"dice": 1}}), None)
                .unwrap();
            b.commit(p).expect("decided just now");
        }
        b
    }

    #[test]
    fn refresh_does_nothing_when_nothing_changed() {
        let b = race(10);
        let mut v = BattleView::new();
        v.refresh(b.as_ref());
        v.refresh(b.as_ref());
        assert_eq!(v.rebuilds, 1);
        assert_eq!(v.pos, 10);
        assert_eq!(v.line.positions(), 11);
    }

    #[test]
    fn playing_at_the_head_extends_the_line_like_a_rebuild() {
        let mut b = race(5);
        let mut v = BattleView::new();
        v.refresh(b.as_ref());
        let to = b.to_move().unwrap();
        let p = b.prepare_json(to, &json!("hold"), None).unwrap();
        b.commit(p).expect("decided just now");
        v.refresh(b.as_ref());
        let fresh = LineView::build(b.as_ref(), Viewer::All);
        assert_eq!(v.line.ids, fresh.ids);
        assert_eq!(v.line.ticks, fresh.ticks);
        assert_eq!(v.pos, 6);
        assert_eq!(
            v.line.text(b.as_ref(), 5).unwrap().command,
            "Player 1 holds".replace('1', &(to.0 + 1).to_string())
        );
        let _ = Actor(0);
    }

    #[test]
    fn undo_keeps_the_line_and_moves_the_position() {
        let mut b = race(8);
        let mut v = BattleView::new();
        v.refresh(b.as_ref());
        b.undo(3);
        v.refresh(b.as_ref());
        assert_eq!(v.pos, 5);
        assert_eq!(v.line.positions(), 9, "the line still reaches the head");
    }

    #[test]
    fn long_lines_are_sampled_and_texts_come_in_chunks() {
        let b = race(EXACT_TICKS + 10);
        let mut line = LineView::build(b.as_ref(), Viewer::All);
        assert!(!line.exact_ticks);
        let t = line.text(b.as_ref(), EXACT_TICKS + 5).unwrap().clone();
        assert_eq!(t.id, line.ids[EXACT_TICKS + 5]);
        assert_eq!(line.texts.len(), 1, "only the chunk shown is decoded");
    }
}
