//! # xenolog-report
//!
//! Battle reports from a battle's log: the story in the log's own words
//! grouped by turn and phase, with the moments that mattered brought forward
//! (which ones is the game's to say: [`xenolog_engine::Game::moment`]) and
//! routine entries folded; the board as a picture at the start, at the end of
//! each turn, at each bookmark and at the end; notes beside their entries;
//! and the luck of each side ([`luck`]).
//!
//! One format-free [`Story`] is built from the battle ([`Story::build`]) and
//! written out as Markdown ([`markdown`]), one self-contained HTML page
//! ([`html`], an askama template with inline SVG), forum BBCode ([`bbcode`])
//! or one CSV row per die ([`csv_rows`]). Markdown and BBCode reference
//! picture files written beside the report ([`Report::files`]).

use std::fmt::Write as _;

use serde::Serialize;
use xenolog_engine::{Battle, BranchId, DieMark, EntryId, Importance, MomentKind, Viewer};
use xenolog_saves::Note;

mod bbcode;
pub mod campaign;
mod csv_out;
mod html;
pub mod luck;
mod markdown;
mod picture;
mod plots;
mod roster_sheet;

pub use luck::{DieRecord, Luck};
pub use picture::svg_to_png;
pub use roster_sheet::{model_kind, roster_sheet_html, skills_words};

/// The formats a report is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Markdown,
    Html,
    BbCode,
    Csv,
}

impl Format {
    /// The file extension: `md`, `html`, `bbcode.txt`, `csv`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Markdown => "md",
            Format::Html => "html",
            Format::BbCode => "bbcode.txt",
            Format::Csv => "csv",
        }
    }

    /// From the command line's name: md, html, bbcode, csv.
    pub fn parse(name: &str) -> Option<Format> {
        Some(match name.to_ascii_lowercase().as_str() {
            "md" | "markdown" => Format::Markdown,
            "html" | "htm" => Format::Html,
            "bbcode" | "bb" => Format::BbCode,
            "csv" => Format::Csv,
            _ => return None,
        })
    }

    pub const ALL: [Format; 4] = [Format::Markdown, Format::Html, Format::BbCode, Format::Csv];

    pub fn name(self) -> &'static str {
        match self {
            Format::Markdown => "Markdown",
            Format::Html => "HTML",
            Format::BbCode => "BBCode",
            Format::Csv => "CSV",
        }
    }
}

/// What the report is about, beside the battle itself.
#[derive(Clone, Debug, Default)]
pub struct Header {
    /// The battle's title, e.g. "Breakout at Skylar".
    pub title: String,
    /// Its id in the campaign, for the verification line.
    pub battle_id: i64,
    /// The campaign file's name, for the verification line.
    pub campaign_file: String,
    /// When it was played, e.g. "2026-11-23".
    pub date: String,
    /// The notes and bookmarks on its entries.
    pub notes: Vec<Note>,
    /// The branch to tell (`None`: the current one).
    pub branch: Option<BranchId>,
    /// Pictures of the board at the start, at each bookmark and at the end
    /// only, not at the end of every turn (a long battle of many turns).
    pub bookmark_pictures_only: bool,
}

/// An event of an entry in words, with how much it mattered.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    pub text: String,
    pub importance: Importance,
    pub kind: MomentKind,
}

/// One die as the story tells it: "4 (hit)".
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DieWords {
    pub face: u8,
    pub mark: DieMark,
    pub need: String,
}

impl DieWords {
    pub fn words(&self) -> String {
        let mark = match self.mark {
            DieMark::Hit => " hit",
            DieMark::Miss => " miss",
            DieMark::Pass => " success",
            DieMark::Fail => " failure",
            DieMark::Plain => "",
        };
        if mark.is_empty() {
            self.face.to_string()
        } else {
            format!("{} ({})", self.face, mark.trim())
        }
    }
}

/// An entry the story tells.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Told {
    pub entry: EntryId,
    pub actor: String,
    pub command: String,
    /// The events worth telling (all of them for a bookmarked entry).
    pub lines: Vec<Line>,
    /// Events left out as routine.
    pub folded_events: usize,
    pub dice: Vec<DieWords>,
    pub entered: bool,
    pub importance: Importance,
    pub bookmark: bool,
    pub note: Option<String>,
    /// A picture of the board after it (a bookmarked entry's).
    pub picture: Option<usize>,
}

impl Told {
    /// "Dice (entered): 3 (hit), 5": the dice in words, or `None` when
    /// none were rolled.
    pub fn dice_words(&self) -> Option<String> {
        if self.dice.is_empty() {
            return None;
        }
        let dice: Vec<String> = self.dice.iter().map(|d| d.words()).collect();
        let entered = if self.entered { " (entered)" } else { "" };
        Some(format!("Dice{entered}: {}", dice.join(", ")))
    }
}

/// A fold's entries in words: "entry 4", "entries 4-6" (every format says
/// them so).
pub fn fold_span(from: EntryId, to: EntryId) -> String {
    if from == to {
        format!("entry {from}")
    } else {
        format!("entries {from}-{to}")
    }
}

impl Piece {
    /// A fold in words, "5 routine (entries 0-4): a; b; c; ...": its
    /// entries as [`fold_span`] says them ("1 routine (entry 13)"), its
    /// first few commands each through the format's `escape`, "; ..." when
    /// it holds more. `None` for an entry told.
    pub fn fold_words(&self, escape: impl Fn(&str) -> String) -> Option<String> {
        let Piece::Folded {
            from,
            to,
            count,
            gist,
        } = self
        else {
            return None;
        };
        let more = if *count > gist.len() { "; ..." } else { "" };
        let words: Vec<String> = gist.iter().map(|g| escape(g)).collect();
        Some(format!(
            "{count} routine ({}): {}{more}",
            fold_span(*from, *to),
            words.join("; ")
        ))
    }
}

/// A piece of a phase's story: an entry told, or routine entries folded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Piece {
    Told(Told),
    Folded {
        from: EntryId,
        to: EntryId,
        count: usize,
        /// The first few commands, in words, so the fold is not a blank.
        gist: Vec<String>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Phase {
    pub name: String,
    pub pieces: Vec<Piece>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Turn {
    pub turn: u32,
    pub phases: Vec<Phase>,
    /// The board at the end of the turn.
    pub picture: Option<usize>,
}

/// A picture of the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Picture {
    /// Its file name stem beside the report: `board-00-start`.
    pub name: String,
    pub caption: String,
    /// After this entry (`None`: the setup).
    pub at: Option<EntryId>,
    #[serde(skip)]
    pub svg: String,
}

/// A battle's story, whatever the format.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Story {
    pub title: String,
    pub game: String,
    pub game_id: String,
    /// The game's word for a turn, as the app's timeline says it ("Turn";
    /// Alien Invasion's "Round"): the story's headings use it.
    pub turn_word: String,
    pub scenario: String,
    /// The options the battle was set up with, in words, those not at their
    /// default ("Played at a real table", "Stupidity (Advanced Invasion Earth)").
    pub options: Vec<String>,
    pub date: String,
    /// "Marines (seat 0)".
    pub sides: Vec<String>,
    pub result: String,
    pub seed: u64,
    pub rules_version: u32,
    pub strict: bool,
    pub branch: String,
    pub entries: usize,
    /// "verified: 57 entries re-derived from the seed ..." or what failed.
    pub verified: String,
    pub verified_ok: bool,
    /// The command that re-derives the battle.
    pub verify_command: String,
    /// "Taken back past seen dice twice (branches 2, 3)", when so.
    pub takebacks: Option<String>,
    pub turns: Vec<Turn>,
    pub pictures: Vec<Picture>,
    /// The picture at the start and at the end.
    pub start_picture: usize,
    pub end_picture: usize,
    /// Every die of the branch told, with its meaning.
    #[serde(skip)]
    pub dice: Vec<DieRecord>,
    pub luck: Luck,
}

/// How many commands a folded run names.
const GIST: usize = 3;

impl Story {
    /// The battle's facts every format lists first, as (label, words):
    /// Game, Scenario, Options (when any), Date, Sides, Result.
    pub fn facts(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![
            ("Game", self.game.clone()),
            ("Scenario", self.scenario.clone()),
        ];
        if !self.options.is_empty() {
            out.push(("Options", self.options.join("; ")));
        }
        out.push(("Date", self.date.clone()));
        out.push(("Sides", self.sides.join("; ")));
        out.push(("Result", self.result.clone()));
        out
    }

    /// The rules version in words: "4", "4 (strict battle)".
    pub fn rules_words(&self) -> String {
        let strict = if self.strict { " (strict battle)" } else { "" };
        format!("{}{strict}", self.rules_version)
    }

    /// The story of a battle along a branch (the current one unless the
    /// header says which), as its log, the game's moments and the notes
    /// tell it.
    pub fn build(battle: &dyn Battle, header: &Header) -> Story {
        let branch = header.branch.unwrap_or(battle.current_branch());
        let head = battle.head(branch);
        let line = battle.path_to(head);
        let texts = battle.entry_texts_as(&line, Viewer::All);
        let facts = battle.entry_facts(&line);
        let note_of = |id: EntryId| header.notes.iter().find(|n| n.entry == id);
        let meta = battle.meta();

        let mut pictures = vec![Picture {
            name: "board-00-start".into(),
            caption: "The board at the start".into(),
            at: None,
            svg: battle.scene_at_as(None, Viewer::All).to_svg(),
        }];
        let mut picture = |at: Option<EntryId>, caption: String, tag: &str| -> usize {
            let n = pictures.len();
            pictures.push(Picture {
                name: format!("board-{n:02}-{tag}"),
                caption,
                at,
                svg: battle.scene_at_as(at, Viewer::All).to_svg(),
            });
            n
        };

        let mut turns: Vec<Turn> = Vec::new();
        let mut during = battle.flow_at(None);
        let mut fold: Vec<(EntryId, String)> = Vec::new();
        let flush = |fold: &mut Vec<(EntryId, String)>, phase: &mut Phase| {
            if let (Some(first), Some(last)) = (fold.first(), fold.last()) {
                phase.pieces.push(Piece::Folded {
                    from: first.0,
                    to: last.0,
                    count: fold.len(),
                    gist: fold.iter().take(GIST).map(|(_, c)| c.clone()).collect(),
                });
            }
            fold.clear();
        };
        for (k, (t, f)) in texts.iter().zip(&facts).enumerate() {
            // An entry is listed under the turn and phase it was given in.
            let (turn_no, phase_name) = (during.turn, during.phase.clone());
            if turns.last().is_none_or(|x| x.turn != turn_no) {
                if let Some(last) = turns.last_mut()
                    && let Some(p) = last.phases.last_mut()
                {
                    flush(&mut fold, p);
                }
                turns.push(Turn {
                    turn: turn_no,
                    phases: Vec::new(),
                    picture: None,
                });
            }
            let turn = turns.last_mut().expect("a turn was just pushed");
            if turn.phases.last().is_none_or(|p| p.name != phase_name) {
                if let Some(p) = turn.phases.last_mut() {
                    flush(&mut fold, p);
                }
                turn.phases.push(Phase {
                    name: phase_name,
                    pieces: Vec::new(),
                });
            }
            let note = note_of(t.id);
            let bookmark = note.is_some_and(|n| n.bookmark);
            let noted = note.filter(|n| !n.text.is_empty()).map(|n| n.text.clone());
            let importance = f.importance();
            let phase = turn.phases.last_mut().expect("a phase was just pushed");
            if importance == Importance::Routine && !bookmark && noted.is_none() {
                fold.push((t.id, format!("{}: {}", t.actor, t.command)));
            } else {
                flush(&mut fold, phase);
                let all = bookmark || noted.is_some() || f.moments.len() != t.events.len();
                let mut lines = Vec::new();
                let mut folded_events = 0;
                for (i, text) in t.events.iter().enumerate() {
                    let m = f.moments.get(i).cloned().unwrap_or_default();
                    if all || m.importance > Importance::Routine {
                        lines.push(Line {
                            text: text.clone(),
                            importance: m.importance,
                            kind: m.kind,
                        });
                    } else {
                        folded_events += 1;
                    }
                }
                let rec = &battle.records()[t.id as usize];
                let dice = rec
                    .dice()
                    .iter()
                    .zip(&f.dice)
                    .map(|(d, m)| DieWords {
                        face: d.value,
                        mark: m.mark,
                        need: m.need.words(),
                    })
                    .collect();
                let pic = bookmark.then(|| {
                    picture(
                        Some(t.id),
                        format!("The board after entry {} (bookmarked)", t.id),
                        &format!("entry-{}", t.id),
                    )
                });
                phase.pieces.push(Piece::Told(Told {
                    entry: t.id,
                    actor: t.actor.clone(),
                    command: t.command.clone(),
                    lines,
                    folded_events,
                    dice,
                    entered: t.entered,
                    importance,
                    bookmark,
                    note: noted,
                    picture: pic,
                }));
            }
            during = t.flow.clone();
            // The end of a turn: the next entry is given in another turn, or
            // this is the last entry.
            let next_turn = texts.get(k + 1).map(|_| t.flow.turn);
            if !header.bookmark_pictures_only && next_turn.is_some_and(|n| n != turn_no) {
                flush(&mut fold, turn.phases.last_mut().expect("a phase"));
                turn.picture = Some(picture(
                    Some(t.id),
                    format!(
                        "The board at the end of {} {turn_no}",
                        battle.turn_word().to_lowercase()
                    ),
                    &format!("turn-{turn_no}"),
                ));
            }
        }
        if let Some(p) = turns.last_mut().and_then(|t| t.phases.last_mut()) {
            flush(&mut fold, p);
        }
        let end_picture = picture(head, "The board at the end".into(), "end");

        let outcome = battle.outcome();
        let result = match (&outcome, head == battle.head(branch)) {
            (Some(o), _) => o.summary.clone(),
            (None, _) => "In progress".to_owned(),
        };
        let report = battle.verify();
        let verified_ok = report.ok();
        let verified = if verified_ok {
            format!(
                "Verified: every one of the battle's {} re-derived from seed {} and its hash chain checked ({report})",
                noun(battle.records().len(), "entry", "entries"),
                meta.seed
            )
        } else {
            format!("VERIFICATION FAILED: {report}")
        };
        let takebacks = battle.takebacks_past_rolls();
        let takebacks = (!takebacks.is_empty()).then(|| {
            let names: Vec<String> = takebacks.iter().map(|b| b.to_string()).collect();
            format!(
                "Taken back past dice already seen {} (branches {}).",
                times(takebacks.len()),
                names.join(", ")
            )
        });
        let dice = luck::dice_of(battle, &line, 0);
        let luck = luck::luck(&dice);
        let branch_name = battle
            .branches()
            .iter()
            .find(|b| b.id == branch)
            .map(|b| b.name.clone())
            .unwrap_or_default();
        Story {
            title: header.title.clone(),
            game: battle.game_name().to_owned(),
            game_id: battle.game_id().to_owned(),
            turn_word: battle.turn_word().to_owned(),
            scenario: scenario_of(battle),
            options: options_of(battle),
            date: header.date.clone(),
            sides: battle
                .seats()
                .into_iter()
                .map(|(a, name)| {
                    let won = outcome.as_ref().is_some_and(|o| o.is_winner(a));
                    // Seats counted as players count them, from 1, as the
                    // app names them.
                    let seat = u16::from(a.0) + 1;
                    format!("{name} (seat {seat}){}", if won { ", won" } else { "" })
                })
                .collect(),
            result,
            seed: meta.seed,
            rules_version: meta.rules_version,
            strict: meta.strict,
            branch: branch_name,
            entries: line.len(),
            verified,
            verified_ok,
            verify_command: format!(
                "xenolog verify {} --battle {}",
                if header.campaign_file.is_empty() {
                    "CAMPAIGN.xenolog".to_owned()
                } else {
                    shell_quote(&header.campaign_file)
                },
                header.battle_id
            ),
            takebacks,
            turns,
            start_picture: 0,
            end_picture,
            pictures,
            dice,
            luck,
        }
    }

    /// The entries told (not folded), in order.
    pub fn told(&self) -> impl Iterator<Item = &Told> {
        self.turns
            .iter()
            .flat_map(|t| &t.phases)
            .flat_map(|p| &p.pieces)
            .filter_map(|p| match p {
                Piece::Told(t) => Some(t),
                Piece::Folded { .. } => None,
            })
    }
}

/// The game's options the battle's config sets away from their defaults, in
/// words: a flag by its label, a number or a choice with its value, and the
/// option's group when it is a set of modules.
pub fn options_of(battle: &dyn Battle) -> Vec<String> {
    use xenolog_engine::OptionKind;
    let config: serde_json::Value = serde_json::from_str(&battle.meta().config).unwrap_or_default();
    let Some(game) = xenolog_engine::games::games()
        .into_iter()
        .find(|g| g.id == battle.game_id())
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for o in &game.options {
        let Some(v) = config.get(o.key) else { continue };
        let label = if o.group.starts_with("Advanced") {
            format!("{} ({})", o.label, o.group)
        } else {
            o.label.to_owned()
        };
        match o.kind {
            OptionKind::Flag { default } => {
                if v.as_bool().is_some_and(|b| b != default) {
                    out.push(if default {
                        format!("no {label}")
                    } else {
                        label
                    });
                }
            }
            OptionKind::Number { default, .. } => {
                if let Some(n) = v.as_i64().filter(|n| *n != default) {
                    out.push(format!("{label}: {n}"));
                }
            }
            OptionKind::Choice { choices, default } => {
                if let Some(n) = v.as_i64().filter(|n| *n != default) {
                    let name = choices
                        .iter()
                        .find(|c| c.0 == n)
                        .map_or_else(|| n.to_string(), |c| c.1.to_owned());
                    out.push(format!("{label}: {name}"));
                }
            }
        }
    }
    out
}

/// The scenario's name from the battle's config, if it names one.
fn scenario_of(battle: &dyn Battle) -> String {
    let config: serde_json::Value = serde_json::from_str(&battle.meta().config).unwrap_or_default();
    // The config names it, or the state does (a default config).
    let id = config
        .get("scenario")
        .and_then(|v| v.as_str())
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .or_else(|| {
            battle
                .state_json(None)
                .get("scenario")
                .and_then(|v| v.as_str().map(str::to_owned))
                .filter(|s| !s.is_empty())
        })
        .unwrap_or_default();
    xenolog_engine::games::games()
        .into_iter()
        .find(|g| g.id == battle.game_id())
        .and_then(|g| g.scenarios.into_iter().find(|s| s.id == id))
        .map(|s| s.name)
        .unwrap_or(if id.is_empty() { "-".to_owned() } else { id })
}

fn noun(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn times(n: usize) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

/// A report written out: the document and the files it refers to (board
/// pictures and plots), to be written beside it.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub text: String,
    /// (file name, bytes).
    pub files: Vec<(String, Vec<u8>)>,
}

/// Options of the written report.
#[derive(Clone, Debug)]
pub struct Options {
    /// The stem of the file names written beside it (`report` gives
    /// `report-board-00-start.svg`).
    pub stem: String,
    /// Write PNG copies of the board pictures too (Markdown and BBCode;
    /// forums take PNG rather than SVG).
    pub png: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            stem: "report".into(),
            png: true,
        }
    }
}

/// Write a story in a format.
pub fn render(story: &Story, format: Format, options: &Options) -> Report {
    match format {
        Format::Markdown => markdown::render(story, options),
        Format::Html => html::render(story),
        Format::BbCode => bbcode::render(story, options),
        Format::Csv => Report {
            text: csv_rows(&story.dice),
            files: Vec::new(),
        },
    }
}

/// One CSV row per die: entry, turn, phase, side, what it was for, what it
/// needed, the face, rolled or entered, and how it counted.
pub fn csv_rows(dice: &[DieRecord]) -> String {
    csv_out::rows(dice)
}

/// The picture files a Markdown or BBCode report refers to: each board
/// picture as SVG (and PNG), and the luck plots.
fn picture_files(story: &Story, options: &Options) -> Vec<(String, Vec<u8>)> {
    let mut svgs: Vec<(String, String)> = story
        .pictures
        .iter()
        .map(|p| (p.name.clone(), p.svg.clone()))
        .collect();
    svgs.extend(
        plots::luck_plots(&story.luck)
            .into_iter()
            .map(|(name, _, svg)| (name, svg)),
    );
    let mut pngs = if options.png {
        picture::svgs_to_png(&svgs.iter().map(|(_, s)| s.as_str()).collect::<Vec<_>>())
    } else {
        Vec::new()
    }
    .into_iter();
    let mut files = Vec::new();
    for (name, svg) in svgs {
        files.push((format!("{}-{name}.svg", options.stem), svg.into_bytes()));
        if let Some(Some(png)) = pngs.next() {
            files.push((format!("{}-{name}.png", options.stem), png));
        }
    }
    files
}

/// A p-value in words: two decimals, or "< 0.01" rather than "0.00".
fn p_words(p: f64) -> String {
    if p < 0.005 {
        "< 0.01".to_owned()
    } else {
        format!("{p:.2}")
    }
}

/// A percentage for the luck table: "73%", "<1%", ">99%".
pub fn percent(x: f64) -> String {
    if x > 0.0 && x < 1.0 {
        "<1%".into()
    } else if x < 100.0 && x > 99.0 {
        ">99%".into()
    } else {
        format!("{x:.0}%")
    }
}

/// The luck table's rows, shared by the formats: (side, what, observed,
/// expected, chance of at least this, luckier than).
pub fn luck_rows(luck: &Luck) -> Vec<[String; 6]> {
    let mut rows = Vec::new();
    for s in &luck.sides {
        for c in &s.categories {
            rows.push([
                s.side.clone(),
                c.counts.words().to_owned(),
                c.observed.to_string(),
                format!("{:.2}", c.expected),
                format!("{:.4}", c.p_at_least),
                percent(c.luckier_than()),
            ]);
        }
    }
    rows
}

/// Each side's dice in a sentence: "Marines: 40 dice rolled by Xenolog, 0
/// entered; mean 3.62 (3.5 expected); faces 1-6: 5, 7, 6, 8, 6, 8; the
/// faces look fair (chi-square 1.10, p = 0.95)."
pub fn dice_sentences(luck: &Luck) -> Vec<String> {
    luck.sides
        .iter()
        .map(|s| {
            let mut out = format!(
                "{}: {} rolled by Xenolog, {} entered by hand",
                s.side,
                noun(s.rolled as usize, "die", "dice"),
                s.entered
            );
            if let Some(m) = s.mean {
                let _ = write!(out, "; mean {m:.2} (3.5 expected)");
                let faces: Vec<String> = s.faces.iter().map(u32::to_string).collect();
                let _ = write!(
                    out,
                    "; faces 1-6: {} ({:.1} each expected)",
                    faces.join(", "),
                    f64::from(s.d6()) / 6.0
                );
            }
            if let Some(c) = &s.chi_square {
                if c.flagged {
                    let _ = write!(
                        out,
                        "; the faces are very unlikely from a fair die (chi-square {:.2}, p = {:.5})",
                        c.statistic, c.p_value
                    );
                } else if c.p_value < luck::FLAG_P {
                    // Unlikely faces, but too few dice for the test to say so.
                    let _ = write!(
                        out,
                        "; too few dice to judge the faces (chi-square {:.2}, p = {}; {} dice needed)",
                        c.statistic,
                        p_words(c.p_value),
                        luck::FLAG_MIN_DICE
                    );
                } else {
                    let _ = write!(
                        out,
                        "; no strong evidence against fair dice (chi-square {:.2}, p = {})",
                        c.statistic,
                        p_words(c.p_value)
                    );
                }
            }
            out.push('.');
            out
        })
        .collect()
}

/// The header of a battle of a campaign: its title, date, notes and where
/// to verify it.
pub fn header_of(
    campaign: &xenolog_saves::Campaign,
    battle: xenolog_saves::BattleId,
    branch: Option<BranchId>,
) -> Result<Header, xenolog_saves::SaveError> {
    let summary = campaign.summary(battle)?;
    Ok(Header {
        title: summary.title,
        battle_id: battle,
        campaign_file: campaign
            .path()
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        date: date(summary.created),
        notes: campaign.notes(battle)?,
        branch,
        bookmark_pictures_only: false,
    })
}

/// Unix seconds as a calendar date (UTC): `2026-11-23`.
pub fn date(unix: i64) -> String {
    // Howard Hinnant's days-to-civil.
    let z = unix.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Write a report and the files it refers to: the report at `path`, each
/// file beside it named `<stem>-<name>` where `stem` is the report's file
/// stem. Returns the paths written.
pub fn write_report(
    story: &Story,
    format: Format,
    path: &std::path::Path,
) -> Result<Vec<std::path::PathBuf>, xenolog_saves::SaveError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report".into());
    let stem = name.split('.').next().unwrap_or("report").to_owned();
    let options = Options {
        stem: if stem.is_empty() {
            "report".into()
        } else {
            stem
        },
        png: true,
    };
    let report = render(story, format, &options);
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let mut written = Vec::new();
    for (file, bytes) in &report.files {
        let p = dir.join(file);
        xenolog_saves::write_atomically(&p, bytes)?;
        written.push(p);
    }
    xenolog_saves::write_atomically(path, report.text.as_bytes())?;
    written.insert(0, path.to_owned());
    Ok(written)
}

/// A word as a POSIX shell reads it back unchanged: as it is when it holds
/// only letters, digits and `_ - . / + = : , @ %`, else in single quotes
/// (a quote inside written `'\''`), so "check it yourself" commands can be
/// pasted whatever the file is called.
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./+=:,@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod date_tests {
    #[test]
    fn unix_seconds_read_as_dates() {
        assert_eq!(super::date(0), "1970-01-01");
        assert_eq!(super::date(1_795_392_000), "2026-11-23");
        assert_eq!(super::date(951_782_400), "2000-02-29");
    }
}
