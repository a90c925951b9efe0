//! Take-backs in a live club battle (DESIGN.md section 9, issue 30 item 6).
//!
//! `takeback {battle, seat, to}` asks to move the battle's live cursor back
//! to entry `to` (`null`: the setup). The other seats hear `takeback_asked`
//! and each answers `takeback_answer {accept}`; when every other seat has
//! accepted, the cursor moves (`Battle::seek`, persisted by
//! `Campaign::save_position` on the campaign's writer thread, checked
//! against the head the request was asked at) and every watcher hears
//! `moved`, built from its own seat's view. Principle 3: nothing is lost;
//! the entries after `to` stay in the file, and the next command there
//! starts a new branch. A battle made with `friendly_takebacks` moves at
//! once, without asking.
//!
//! Refused in words, changing nothing: past a roll in a strict battle ("the
//! dice of entry N have been seen"), after the end ("the battle is over and
//! its dice are revealed; explore what-ifs in your own copy"), a second
//! request while one is asked, a seat not the token's.
//!
//! A request lives in the server's memory only: a restart forgets it (it
//! changed nothing), and so does a command played before the last answer
//! (the battle moved on: the answer that would move it is refused `stale`).
//!
//! Clients: a `moved` event says the live line now ends at `to`. A client
//! drops the entries it holds after `to` from its line (they stay in the
//! battle, on their own branch) and takes `to` as its head, for its next
//! command's `at` and for resuming: `watch {after: to}`. A client that
//! resumes with an `after` that is no longer on the live line (it missed the
//! `moved`) is sent a `moved` first ([`resume_moved`]), to the last entry
//! its line shares with the live line, then the entries after `after`: every
//! entry on the live line it lacks is newer than anything it holds.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Map, Value, json};
use tokio::sync::mpsc;
use xenolog_engine::{Actor, Battle, EntryId, Viewer};

use super::{
    Answer, Conn, Control, Shared, blocking_live, close_watchers, order_of, refusal, seat_granted,
    stay, watching_seats,
};
use crate::proto::{self, ErrCode, Refusal};
use crate::store::ServerBattleId;
use crate::store::table::TableStore;

/// The take-backs asked and not yet answered, one per battle at most.
#[derive(Default)]
pub(super) struct Takebacks {
    asked: Mutex<HashMap<ServerBattleId, Asked>>,
    next: AtomicU64,
}

/// One take-back asked.
#[derive(Clone, Debug)]
struct Asked {
    request: u64,
    by: Actor,
    to: Option<EntryId>,
    /// The battle's head when it was asked: it moves only if still there.
    head: Option<EntryId>,
    /// The first entry after `to` whose dice were seen (the new line
    /// rolls them again: the request says so).
    seen: Option<EntryId>,
    /// The seats whose answer is awaited.
    waiting: Vec<Actor>,
    accepted: Vec<Actor>,
}

fn at_words(at: Option<EntryId>) -> String {
    at.map_or_else(|| "the setup".to_owned(), |e| format!("entry {e}"))
}

/// Run a take-back or campaign store call on the blocking pool.
pub(super) async fn blocking_table<T: Send + 'static>(
    shared: &std::sync::Arc<Shared>,
    f: impl FnOnce(&dyn TableStore) -> Result<T, crate::store::ClubError> + Send + 'static,
) -> Result<T, Refusal> {
    let s = shared.clone();
    match tokio::task::spawn_blocking(move || f(s.store.table())).await {
        Ok(r) => r.map_err(refusal),
        Err(e) => Err(super::join_failed(e)),
    }
}

/// Where a take-back to `to` may go: the battle's head and the seats that
/// must accept, or why not, in words.
fn check_to(
    b: &dyn Battle,
    battle: ServerBattleId,
    strict: bool,
    by: Actor,
    to: Option<EntryId>,
) -> Result<Checked, Refusal> {
    // Section 9: what-ifs of a finished battle are local, never the server's.
    if b.outcome().is_some() {
        return Err(Refusal::new(
            ErrCode::Over,
            "the battle is over and its dice are revealed; explore what-ifs in your own copy (club download, then open the file)",
        ));
    }
    let head = b.cursor();
    if to == head {
        return Err(Refusal::new(
            ErrCode::BadRequest,
            format!(
                "battle {battle} is at {} already: there is nothing to take back",
                at_words(head)
            ),
        ));
    }
    let line = b.path_to(head);
    let on_line = match to {
        None => true,
        Some(id) => line.contains(&id),
    };
    if !on_line {
        return Err(Refusal::new(
            ErrCode::NotFound,
            format!(
                "entry {} is not on the live line of battle {battle} before its head ({})",
                to.unwrap_or_default(),
                at_words(head)
            ),
        ));
    }
    let seen = b.first_roll_after(to);
    // Section 9: a strict battle never goes back past dice that were seen.
    if strict && let Some(seen) = seen {
        return Err(Refusal::new(
            ErrCode::Refused,
            format!(
                "this is a strict battle and the dice of entry {seen} have been seen: it cannot be taken back to {}",
                at_words(to)
            ),
        ));
    }
    // Section 9 (principles 2, 3 and 14): randomness is a position in the
    // battle's one stream, so the new line draws what the taken-back one
    // drew. Where the game hides something, that would show a seat what
    // its view hides (another seat's card, a deck's next card): refused in
    // every battle of such a game, friendly or not, whoever accepts.
    if let Some(seen) = seen
        && crate::lens::hides_on(b, to, head)
    {
        return Err(Refusal::new(
            ErrCode::Refused,
            format!(
                "entry {seen} drew from the battle's dice stream after {}, and this game hides \
                 information from the seats: taken back, the same stream would deal the same \
                 draws again on the new line, so a seat would learn what it may not see (a card \
                 in another seat's hand, the next card of a deck). A take-back past drawn \
                 randomness is refused in this game, even in friendly play: take back less far, \
                 to after the last draw",
                at_words(to)
            ),
        ));
    }
    let others = b
        .seats()
        .into_iter()
        .map(|(a, _)| a)
        .filter(|a| *a != by)
        .collect();
    Ok(Checked { head, others, seen })
}

/// Where a take-back may go: the head it is asked at, the seats that must
/// accept, and the first entry after `to` that drew from the dice stream
/// (the new line draws the same: every seat knows those dice already).
struct Checked {
    head: Option<EntryId>,
    others: Vec<Actor>,
    seen: Option<EntryId>,
}

/// What the seats are told when a take-back goes back past dice they saw
/// (an open-information game: nothing hidden is shown by it).
fn seen_words(seen: Option<EntryId>) -> String {
    seen.map_or_else(String::new, |e| {
        format!(
            "; the dice from entry {e} on were seen, and the battle's one dice stream rolls them again on the new line: every seat knows them already"
        )
    })
}

/// The `moved` event for `seat`: the live line now ends at `to`; the state
/// there as that seat sees it (its view only, as every frame).
fn moved_frame(
    b: &dyn Battle,
    battle: ServerBattleId,
    seat: Actor,
    to: Option<EntryId>,
    by: Option<Actor>,
    seen: Option<EntryId>,
) -> String {
    moved_frame_as(b, battle, seat, to, by, seen, false)
}

/// The `moved` event for `seat` of a move another server made (issue 31):
/// heard from the database, as a take-back made here is heard.
pub(super) fn moved_elsewhere_frame(
    b: &dyn Battle,
    battle: ServerBattleId,
    seat: Actor,
    to: Option<EntryId>,
) -> String {
    moved_frame_as(b, battle, seat, to, None, None, true)
}

fn moved_frame_as(
    b: &dyn Battle,
    battle: ServerBattleId,
    seat: Actor,
    to: Option<EntryId>,
    by: Option<Actor>,
    seen: Option<EntryId>,
    elsewhere: bool,
) -> String {
    let mut m = Map::new();
    m.insert("battle".into(), json!(battle));
    m.insert("seat".into(), json!(seat.0));
    m.insert("to".into(), json!(to));
    m.insert("head".into(), json!(b.cursor()));
    m.insert("branch".into(), json!(b.current_branch()));
    m.insert("by".into(), json!(by.map(|a| a.0)));
    m.insert("dice_seen".into(), json!(seen));
    m.insert(
        "words".into(),
        json!(match by {
            Some(a) => format!(
                "{} took the battle back to {}; the entries after it stay on their branch{}",
                b.actor_name(a),
                at_words(to),
                seen_words(seen)
            ),
            None if elsewhere => format!(
                "the battle was taken back to {} (decided through another server of the club); the entries after it stay on their branch",
                at_words(to)
            ),
            None => format!(
                "the battle was taken back to {} while you were away; the entries after it stay on their branch",
                at_words(to)
            ),
        }),
    );
    m.insert("state".into(), b.state_json_as(to, Viewer::Seat(seat)));
    proto::event("moved", m)
}

/// For a `watch` resuming after an entry that is no longer on the live line
/// (a take-back while the client was away): the `moved` event to the last
/// entry the client's line shares with the live line, sent before the
/// entries after `after`.
pub(super) fn resume_moved(
    b: &dyn Battle,
    battle: ServerBattleId,
    seat: Actor,
    after: Option<EntryId>,
) -> Option<String> {
    let a = after?;
    // The newest entry is the head of its branch (ids only grow).
    let newest = b.branches().iter().filter_map(|br| b.head(br.id)).max();
    if newest.is_none_or(|n| a > n) || b.path_to(b.cursor()).contains(&a) {
        return None;
    }
    let shared = b.common_ancestor(Some(a), b.cursor());
    Some(moved_frame(b, battle, seat, shared, None, None))
}

/// Send each watcher of `battle` the frame `frame` makes for its seat.
/// A full queue closes the socket (it resumes), as for entries.
fn send_watchers(shared: &Shared, battle: ServerBattleId, frames: &HashMap<Actor, String>) {
    let mut w = shared.watchers.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(list) = w.get_mut(&battle) {
        list.retain(|watcher| {
            let Some(f) = frames.get(&watcher.seat) else {
                return true;
            };
            match watcher.events.try_send(f.clone()) {
                Ok(()) => true,
                Err(mpsc::error::TrySendError::Full(_)) => {
                    let _ = watcher.control.send(Control::TooSlow);
                    false
                }
                Err(mpsc::error::TrySendError::Closed(_)) => false,
            }
        });
    }
}

/// The same event for every watcher.
fn tell_all(shared: &Shared, battle: ServerBattleId, kind: &str, fields: Map<String, Value>) {
    let frame = proto::event(kind, fields);
    let frames: HashMap<Actor, String> = watching_seats(shared, battle)
        .into_iter()
        .map(|s| (s, frame.clone()))
        .collect();
    send_watchers(shared, battle, &frames);
}

/// Move the cursor (durably) and tell every watcher; the state at `to` as
/// `seat` sees it, for the reply.
async fn apply(
    shared: &std::sync::Arc<Shared>,
    battle: ServerBattleId,
    expect: Option<EntryId>,
    to: Option<EntryId>,
    by: Actor,
    seat: Actor,
    seen: Option<EntryId>,
) -> Result<Value, Refusal> {
    blocking_table(shared, move |t| t.move_cursor(battle, expect, to)).await?;
    let mut seats = watching_seats(shared, battle);
    if !seats.contains(&seat) {
        seats.push(seat);
    }
    let made = blocking_live(shared, move |l| {
        let mut out = (HashMap::new(), Value::Null);
        l.read(battle, &mut |b| {
            for s in &seats {
                out.0
                    .insert(*s, moved_frame(b, battle, *s, to, Some(by), seen));
            }
            out.1 = b.state_json_as(to, Viewer::Seat(seat));
        })?;
        Ok(out)
    })
    .await;
    match made {
        Ok((frames, state)) => {
            send_watchers(shared, battle, &frames);
            Ok(state)
        }
        // The move is durable but its frames could not be made: the
        // watchers are closed in words (`notice missed`), so their clients
        // resume after the last entry they hold and hear `moved` first
        // ([`resume_moved`]).
        Err(r) => {
            eprintln!(
                "serve: battle {battle}: taken back to {}, but the moved frames could not be made: {}; its watchers are closed to resume",
                at_words(to),
                r.words
            );
            close_watchers(shared, battle);
            Err(Refusal::new(
                r.code,
                format!(
                    "battle {battle} was taken back to {}, but the server could not tell the seats: watch it again to resume",
                    at_words(to)
                ),
            ))
        }
    }
}

/// `takeback {battle, seat, to}`.
pub(super) async fn ask(
    shared: &std::sync::Arc<Shared>,
    conn: &Conn,
    battle: ServerBattleId,
    seat: u8,
    to: Option<Option<EntryId>>,
) -> Answer {
    let Some(to) = to else {
        return Err(stay(Refusal::new(
            ErrCode::BadRequest,
            "a take-back names the entry to go back to: \"to\" is an entry id, or null for the setup",
        )));
    };
    seat_granted(shared, conn, battle, seat).await?;
    let order = order_of(shared, battle);
    let _turn = order.lock().await;
    let by = Actor(seat);
    let rules = blocking_table(shared, move |t| t.takeback_rules(battle))
        .await
        .map_err(stay)?;
    let checked = blocking_live(shared, move |l| {
        let mut out = None;
        l.read(battle, &mut |b| {
            out = Some(check_to(b, battle, rules.strict, by, to))
        })?;
        Ok(out)
    })
    .await
    .map_err(stay)?;
    let Some(checked) = checked else {
        return Err(stay(Refusal::new(
            ErrCode::NotFound,
            format!("there is no battle {battle} in play"),
        )));
    };
    let Checked { head, others, seen } = checked.map_err(stay)?;
    {
        let mut asked = shared
            .takebacks
            .asked
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(a) = asked.get(&battle) {
            if a.head == head {
                return Err(stay(Refusal::new(
                    ErrCode::Refused,
                    format!(
                        "a take-back is already asked in battle {battle} ({} asks to go back to {}): it is answered first",
                        proto::seat_word(a.by.0),
                        at_words(a.to)
                    ),
                )));
            }
            // The battle moved on since: that request lapsed.
            asked.remove(&battle);
        }
    }
    let friendly = rules.friendly;
    if friendly || others.is_empty() {
        let state = apply(shared, battle, head, to, by, by, seen)
            .await
            .map_err(stay)?;
        return Ok(json!({
            "battle": battle, "seat": seat, "moved": true, "to": to, "head": to,
            "friendly": friendly, "state": state, "dice_seen": seen,
        }));
    }
    let request = shared.takebacks.next.fetch_add(1, Ordering::Relaxed) + 1;
    let waiting: Vec<u8> = others.iter().map(|a| a.0).collect();
    shared
        .takebacks
        .asked
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(
            battle,
            Asked {
                request,
                by,
                to,
                head,
                seen,
                waiting: others,
                accepted: Vec::new(),
            },
        );
    let mut m = Map::new();
    m.insert("battle".into(), json!(battle));
    m.insert("request".into(), json!(request));
    m.insert("by".into(), json!(seat));
    m.insert("to".into(), json!(to));
    m.insert("head".into(), json!(head));
    m.insert("waiting".into(), json!(waiting));
    m.insert("dice_seen".into(), json!(seen));
    m.insert(
        "words".into(),
        json!(format!(
            "{} asks to take battle {battle} back to {}{}: take-back {request}, for {} to \
             answer",
            proto::seat_word(seat),
            at_words(to),
            seen_words(seen),
            waiting
                .iter()
                .map(|s| proto::seat_word(*s))
                .collect::<Vec<_>>()
                .join(" and ")
        )),
    );
    tell_all(shared, battle, "takeback_asked", m);
    Ok(json!({
        "battle": battle, "seat": seat, "moved": false, "request": request,
        "to": to, "waiting": waiting, "dice_seen": seen,
    }))
}

/// `takeback_answer {battle, seat, accept, request}` (`request` may be
/// left out only when refusing).
pub(super) async fn answer(
    shared: &std::sync::Arc<Shared>,
    conn: &Conn,
    battle: ServerBattleId,
    seat: u8,
    accept: bool,
    request: Option<u64>,
) -> Answer {
    seat_granted(shared, conn, battle, seat).await?;
    let order = order_of(shared, battle);
    let _turn = order.lock().await;
    let who = Actor(seat);
    let decided = {
        let mut asked = shared
            .takebacks
            .asked
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let Some(a) = asked.get_mut(&battle) else {
            return Err(stay(Refusal::new(
                ErrCode::NotFound,
                format!("no take-back is asked in battle {battle}"),
            )));
        };
        if let Some(r) = request
            && r != a.request
        {
            return Err(stay(Refusal::new(
                ErrCode::NotFound,
                format!(
                    "take-back {r} is no longer asked in battle {battle} (take-back {} is)",
                    a.request
                ),
            )));
        }
        if a.by == who {
            return Err(stay(Refusal::new(
                ErrCode::Forbidden,
                format!(
                    "{} asked for this take-back; the other seats answer it",
                    proto::seat_word(seat)
                ),
            )));
        }
        if !a.waiting.contains(&who) {
            return Err(stay(Refusal::new(
                ErrCode::Forbidden,
                format!(
                    "{} is not asked to answer this take-back",
                    proto::seat_word(seat)
                ),
            )));
        }
        // Accepting names the request (section 9): an accept meant for a
        // request that lapsed never moves the battle for a later one.
        if accept && request.is_none() {
            return Err(stay(Refusal::new(
                ErrCode::BadRequest,
                format!(
                    "accepting a take-back names it: give `request` (take-back {} is asked: {} \
                     asks to go back to {})",
                    a.request,
                    proto::seat_word(a.by.0),
                    at_words(a.to)
                ),
            )));
        }
        if accept && !a.accepted.contains(&who) {
            a.accepted.push(who);
        }
        let all = a.waiting.iter().all(|s| a.accepted.contains(s));
        let a = a.clone();
        if !accept || all {
            asked.remove(&battle);
        }
        (a, all)
    };
    let (a, all) = decided;
    let mut m = Map::new();
    m.insert("battle".into(), json!(battle));
    m.insert("request".into(), json!(a.request));
    m.insert("seat".into(), json!(seat));
    m.insert("accept".into(), json!(accept));
    if !accept {
        m.insert(
            "words".into(),
            json!(format!(
                "{} refused the take-back to {}; the battle goes on from {}",
                proto::seat_word(seat),
                at_words(a.to),
                at_words(a.head)
            )),
        );
        tell_all(shared, battle, "takeback_answered", m);
        return Ok(json!({"battle": battle, "seat": seat, "moved": false, "refused": true}));
    }
    if !all {
        let rest: Vec<u8> = a
            .waiting
            .iter()
            .filter(|s| !a.accepted.contains(s))
            .map(|s| s.0)
            .collect();
        m.insert("waiting".into(), json!(rest));
        tell_all(shared, battle, "takeback_answered", m);
        return Ok(json!({"battle": battle, "seat": seat, "moved": false, "waiting": rest}));
    }
    tell_all(shared, battle, "takeback_answered", m);
    let state = apply(shared, battle, a.head, a.to, a.by, who, a.seen)
        .await
        .map_err(|r| {
            if r.code == ErrCode::Stale {
                stay(Refusal::new(
                    ErrCode::Stale,
                    format!(
                        "the battle moved on since the take-back was asked at {}: {}; it lapsed, ask again",
                        at_words(a.head),
                        r.words
                    ),
                ))
            } else {
                stay(r)
            }
        })?;
    Ok(json!({
        "battle": battle, "seat": seat, "moved": true, "to": a.to, "head": a.to, "state": state,
    }))
}
