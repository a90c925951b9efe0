//! File > Connect to a club: the window where a player gives a club
//! server's address and an invitation (a code, or the whole link), or picks
//! a club connected to before; then the club's campaigns and battles with
//! whose turn it is, a Join button for a battle waiting for this seat's
//! nonce, and an Open button for a started one.
//!
//! And the Take-back window of an open club battle (server/DESIGN.md
//! section 9): a take-back another seat asks for, in the server's words,
//! with Accept and Refuse; or, with the review cursor on an earlier entry
//! of the live line, "Ask to take back to here".

use eframe::egui::{self, Ui};
use xenolog_engine::{Battle, EntryId};

use super::club::{ClubCampaign, ClubRow};
use super::store::BattleId;

/// What the window asks the app to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClubAction {
    /// Connect with an invitation (code or link) to `server`.
    Connect {
        server: String,
        invitation: String,
        /// The CA file a TLS club's certificate is checked against (empty:
        /// the public roots, or the one kept with a saved club).
        ca_file: String,
    },
    /// Connect to a club connected to before, with its kept token.
    Reconnect(String),
    Join(BattleId),
    Open(BattleId),
    Refresh,
    /// Ask the other seats to take the live line back to an entry (`None`:
    /// the setup).
    AskTakeback {
        battle: BattleId,
        to: Option<EntryId>,
    },
    /// Answer the take-back asked in a battle.
    AnswerTakeback {
        battle: BattleId,
        accept: bool,
    },
}

/// The window's state.
#[derive(Default)]
pub struct ClubUi {
    pub shown: bool,
    pub server: String,
    pub invitation: String,
    /// The CA file (PEM) of a club with its own certificate.
    pub ca_file: String,
    /// Why the last connection failed, in words.
    pub error: Option<String>,
    /// Clubs connected to before (addresses), read when the window opens.
    pub saved: Vec<String>,
    /// A connection being made on its own thread.
    pub connecting: Option<std::sync::mpsc::Receiver<Result<ClubCampaign, String>>>,
}

/// The Connect to a club window.
pub fn club_window(
    ctx: &egui::Context,
    state: &mut ClubUi,
    club: Option<&ClubCampaign>,
    actions: &mut Vec<ClubAction>,
) {
    if !state.shown {
        return;
    }
    let mut open = true;
    egui::Window::new("Connect to a club")
        .open(&mut open)
        .pivot(egui::Align2::CENTER_TOP)
        .default_pos(egui::pos2(ctx.content_rect().center().x, 48.0))
        .default_width(560.0)
        .show(ctx, |ui| match club {
            Some(c) => connected_ui(ui, c, actions),
            None => connect_ui(ui, state, actions),
        });
    state.shown = open;
}

fn connect_ui(ui: &mut Ui, state: &mut ClubUi, actions: &mut Vec<ClubAction>) {
    ui.label(
        "Play your seats of a club server's battles from here. Give the server's address \
         and the invitation your organiser sent you (a code, or the whole link: then the \
         address may stay empty).",
    );
    ui.add_space(6.0);
    egui::Grid::new("club connect")
        .num_columns(2)
        .spacing([8.0, 6.0])
        .show(ui, |ui| {
            let l = ui.label("Server address:");
            ui.add(
                egui::TextEdit::singleline(&mut state.server)
                    .hint_text("club.example.org:8470")
                    .desired_width(320.0),
            )
            .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Invitation code or link:");
            ui.add(
                egui::TextEdit::singleline(&mut state.invitation)
                    .hint_text("XNLG-… or xenolog://…/join#XNLG-…")
                    .desired_width(320.0),
            )
            .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("CA file (TLS club's own certificate):");
            ui.add(
                egui::TextEdit::singleline(&mut state.ca_file)
                    .hint_text("empty, or club-ca.pem for a wss:// club")
                    .desired_width(320.0),
            )
            .labelled_by(l.id);
            ui.end_row();
        });
    ui.weak(
        "The invitation is spent on connecting; the token it gives is kept in a file only \
         you can read, in Xenolog's data folder.",
    );
    let busy = state.connecting.is_some();
    if ui
        .add_enabled(!busy, egui::Button::new("Connect"))
        .clicked()
    {
        actions.push(ClubAction::Connect {
            server: state.server.clone(),
            invitation: state.invitation.clone(),
            ca_file: state.ca_file.clone(),
        });
    }
    if busy {
        // Words, not a spinner: nothing animates while the network works.
        ui.label("Connecting…");
    }
    if let Some(e) = &state.error {
        ui.colored_label(ui.visuals().error_fg_color, format!("Not connected: {e}"));
    }
    if !state.saved.is_empty() {
        ui.separator();
        ui.label("Clubs you connected to before:");
        for host in &state.saved {
            if ui
                .add_enabled(!busy, egui::Button::new(format!("Connect to {host}")))
                .clicked()
            {
                actions.push(ClubAction::Reconnect(host.clone()));
            }
        }
    }
}

fn connected_ui(ui: &mut Ui, c: &ClubCampaign, actions: &mut Vec<ClubAction>) {
    ui.heading(format!("Club at {}", c.host()));
    if c.reconnecting() {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            "Reconnecting to the club server…",
        );
    } else {
        ui.weak(format!(
            "Connected as {}{}",
            if c.role().is_empty() {
                "a player"
            } else {
                c.role()
            },
            match c.reconnects() {
                0 => String::new(),
                n => format!(" (the connection was made again {n} times)"),
            }
        ));
    }
    ui.separator();
    let rows = c.listing();
    if rows.is_empty() {
        ui.weak("Your token holds no seat in a battle of this club yet.");
    }
    let most = (ui.ctx().content_rect().height() * 0.6).max(160.0);
    egui::ScrollArea::vertical()
        .max_height(most)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            let mut campaign: Option<&str> = None;
            for r in &rows {
                if campaign != Some(r.campaign.as_str()) {
                    ui.add_space(4.0);
                    ui.strong(format!("Campaign {}", r.campaign));
                    campaign = Some(r.campaign.as_str());
                }
                row_ui(ui, r, actions);
            }
        });
    ui.add_space(6.0);
    if ui.button("Refresh the list").clicked() {
        actions.push(ClubAction::Refresh);
    }
}

fn row_ui(ui: &mut Ui, r: &ClubRow, actions: &mut Vec<ClubAction>) {
    ui.horizontal_wrapped(|ui| {
        ui.label(format!(
            "Battle {}, your seat {}: {}",
            r.battle,
            u16::from(r.seat) + 1,
            r.status
        ));
        if r.waiting {
            if r.joined {
                ui.weak("(you have joined)");
            } else if ui.button(format!("Join battle {}", r.battle)).clicked() {
                actions.push(ClubAction::Join(r.battle));
            }
        } else if r.ready && ui.button(format!("Open battle {}", r.battle)).clicked() {
            actions.push(ClubAction::Open(r.battle));
        }
    });
}

/// The entry the review cursor is on, when a take-back to it may be asked:
/// an earlier entry of the live line (or the setup), the battle not over.
pub fn takeback_point(battle: &dyn Battle) -> Option<Option<EntryId>> {
    let live = xenolog_engine::seat::seat_copy_ref(battle)?.live_head();
    let at = battle.cursor();
    if at == live || battle.outcome().is_some() || live.is_none() {
        return None;
    }
    let on_line = match at {
        None => true,
        Some(id) => battle.path_to(live).contains(&id),
    };
    on_line.then_some(at)
}

/// The Take-back window of the open club battle: shown while a take-back
/// is asked in it (the server's words; Accept and Refuse when this seat is
/// asked), or while the review cursor is on an earlier entry of the live
/// line (a button asks to take the battle back there).
pub fn takeback_window(
    ctx: &egui::Context,
    club: &ClubCampaign,
    open: Option<(BattleId, &dyn Battle)>,
    actions: &mut Vec<ClubAction>,
) {
    let Some((id, battle)) = open else {
        return;
    };
    let Some(seat) = club.seat(id) else {
        return;
    };
    let asked = club.takeback(id);
    let point = takeback_point(battle);
    if asked.is_none() && point.is_none() {
        return;
    }
    egui::Window::new("Take-back")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::RIGHT_BOTTOM, [-12.0, -36.0])
        .default_width(360.0)
        .show(ctx, |ui| {
            ui.set_max_width(360.0);
            match asked {
                Some(t) => {
                    ui.label(&t.words);
                    if let Some(e) = t.dice_seen {
                        ui.colored_label(
                            ui.visuals().warn_fg_color,
                            format!(
                                "The dice after {} are already known (entry {e} rolled \
                                 them): the new line rolls the same again.",
                                t.to.map_or_else(
                                    || "the setup".to_owned(),
                                    |to| format!("entry {to}")
                                )
                            ),
                        );
                    }
                    if t.to_answer {
                        ui.horizontal(|ui| {
                            if ui.button("Accept the take-back").clicked() {
                                actions.push(ClubAction::AnswerTakeback {
                                    battle: id,
                                    accept: true,
                                });
                            }
                            if ui.button("Refuse the take-back").clicked() {
                                actions.push(ClubAction::AnswerTakeback {
                                    battle: id,
                                    accept: false,
                                });
                            }
                        });
                    } else if t.by == seat {
                        ui.weak("You asked; waiting for the other seats to answer.");
                    } else {
                        ui.weak("Answered; waiting for the other seats.");
                    }
                }
                None => {
                    let to = point.flatten();
                    ui.label(match to {
                        Some(e) => format!(
                            "You are looking at entry {e}, before the live line's newest. \
                             The other seats may agree to take the battle back here."
                        ),
                        None => "You are looking at the setup. The other seats may agree to \
                                 take the battle back to its start."
                            .to_owned(),
                    });
                    if ui.button("Ask to take back to here").clicked() {
                        actions.push(ClubAction::AskTakeback { battle: id, to });
                    }
                }
            }
        });
}
