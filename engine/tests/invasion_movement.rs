//! Rule text 000, "1. Move" (and the terrain clauses it repeats): one test
//! per clause.

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::games::invasion::model::{Cover, Point};
use xenolog_engine::games::invasion::state::{CardKind, GroupId, InvasionEvent as E};

fn mv_lead(g: GroupId, lead: &str, x: f64, y: f64) -> String {
    let p = pt(x, y);
    format!(
        r#"{{"move":{{"group":{g},"to":{{"x":{},"y":{}}},"lead":"{lead}"}}}}"#,
        p.x, p.y
    )
}

fn moved(p: &Played) -> (Vec<Point>, Option<String>) {
    p.events
        .iter()
        .find_map(|e| match e {
            E::Moved { to, stopped, .. } => {
                Some((to.iter().map(|x| x.unwrap()).collect(), stopped.clone()))
            }
            _ => None,
        })
        .expect("a Moved event")
}

/// U.N.I.T. section A placed at (x, y), on a Triple card of U.N.I.T.
fn unit_at(x: f64, y: f64) -> (xenolog_engine::games::invasion::InvasionState, GroupId) {
    let mut s = given(&["unit", "daleks"]);
    let g = gid(&s, "s1");
    place(&mut s, g, x, y);
    card(&mut s, 0, CardKind::Triple);
    (s, g)
}

/// U.N.I.T. section A moved from `from` to `to`: what it told, where its
/// figures ended and why the move stopped short.
fn unit_moved(from: (f64, f64), to: (f64, f64)) -> (Played, Vec<Point>, Option<String>) {
    let (mut s, g) = unit_at(from.0, from.1);
    let p = play(&mut s, 0, &mv(g, to.0, to.1), &[]);
    let (pts, why) = moved(&p);
    (p, pts, why)
}

/// The Spugs' one group at `position`, on a Triple card of the Spugs.
fn spugs_at(position: &str) -> (xenolog_engine::games::invasion::InvasionState, GroupId) {
    let (mut s, [g]) = given_at(&["spugs", "unit"], position);
    card(&mut s, 0, CardKind::Triple);
    (s, g)
}

/// U.N.I.T. section A in the wood, by its right edge (x = 10).
fn in_the_wood() -> (xenolog_engine::games::invasion::InvasionState, GroupId) {
    let (mut s, g) = unit_at(9.0, 33.0);
    put(&mut s, g, 1, 8.0, 33.0);
    put(&mut s, g, 2, 8.0, 34.1);
    put(&mut s, g, 3, 9.0, 34.1);
    (s, g)
}

#[test]
fn move_the_standard_move_is_eight_inches_in_a_straight_line_in_any_direction() {
    let (mut s, g) = unit_at(20.0, 10.0);
    let p = play(&mut s, 0, &mv(g, 20.0, 18.0), &[]);
    assert_eq!(moved(&p).0[0], pt(20.0, 18.0));
    // Diagonally: 6" across and 8" down is 10".
    when_seat(&mut s, 0, &mv(g, 26.0, 26.0))
        .refused("[Move] that is 10\" away; this group moves 8\"");
    when_seat(&mut s, 0, &mv(g, 20.0, 26.5))
        .refused("[Move] that is 8.5\" away; this group moves 8\"");
}

#[test]
fn move_a_group_never_has_to_move_the_full_distance() {
    let (mut s, g) = unit_at(20.0, 10.0);
    let p = play(&mut s, 0, &mv(g, 20.5, 10.5), &[]);
    assert_eq!(moved(&p).0[0], pt(20.5, 10.5));
}

#[test]
fn move_the_rest_of_the_group_is_placed_next_to_the_lead_figure() {
    let (mut s, g) = unit_at(20.0, 10.0);
    let p = play(&mut s, 0, &mv(g, 20.0, 18.0), &[]);
    let pts = moved(&p).0;
    assert_eq!(pts.len(), 4);
    assert_eq!(pts[0], pt(20.0, 18.0));
    for (i, a) in pts.iter().enumerate() {
        assert!(a.distance(pts[0]) <= 250, "figure {i} is next to the lead");
        for b in &pts[i + 1..] {
            assert!(a.distance(*b) >= 100, "bases do not overlap");
        }
    }
}

#[test]
fn move_when_the_same_group_moves_again_measure_from_any_figure() {
    // The fourth man is 3.3" to the right of the first.
    let (mut s, g) = unit_at(20.0, 10.0);
    let fourth = figures(&s, g)[3].clone();
    // 8" from the fourth man, 11.3" from the first.
    let e = refused(&mut s, 0, &mv(g, 31.3, 10.0), &[]);
    assert!(e.message.starts_with("that is 11.3\" away"), "{e}");
    let p = play(&mut s, 0, &mv_lead(g, &fourth, 31.3, 10.0), &[]);
    p.assert_says("U.N.I.T. 1st Squad, Section A moved to (31.3\", 10\")");
    assert_eq!(
        s.group(g).models[3].at,
        Some(pt(31.3, 10.0)),
        "the figure measured stands where it moved"
    );
}

#[test]
fn move_ends_when_a_group_enters_a_terrain_feature() {
    // The wood is 4..10 x 30..36; the move runs into it from below the wall.
    let (p, pts, why) = unit_moved((7.0, 26.0), (7.0, 33.0));
    assert_eq!(pts[0], pt(7.0, 30.25), "0.25\" inside the edge (assumed)");
    assert_eq!(why.as_deref(), Some("entered Wood (cover)"));
    p.assert_says("U.N.I.T. 1st Squad, Section A moved to (7\", 30.2\"): entered Wood (cover)");
}

#[test]
fn move_ends_once_a_group_crosses_a_linear_barrier() {
    // The wall runs from (2,24) to (14,24).
    let (_, pts, why) = unit_moved((7.0, 20.0), (7.0, 27.0));
    assert_eq!(pts[0], pt(7.0, 24.5), "0.5\" past the wall (assumed)");
    assert_eq!(why.as_deref(), Some("crossed Wall"));
}

#[test]
fn move_out_of_a_terrain_feature_is_measured_from_its_edge() {
    // In the wood (right edge at x = 10): 9" to (18,33) is 8" from the edge.
    let (mut s, g) = in_the_wood();
    let p = play(&mut s, 0, &mv(g, 18.0, 33.0), &[]);
    assert_eq!(moved(&p).0[0], pt(18.0, 33.0));
    let (mut s, g) = in_the_wood();
    when_seat(&mut s, 0, &mv(g, 18.5, 33.0))
        .refused("[Move] that is 8.5\" away from the edge of Wood; this group moves 8\"");
}

#[test]
fn move_spugs_travel_16_inches_per_move() {
    let (mut s, g) = spugs_at("sq2 at 20,5");
    play(&mut s, 0, &mv(g, 20.0, 21.0), &[]);
    when_seat(&mut s, 0, &mv(g, 20.0, 37.5))
        .refused("[Move] that is 16.5\" away; this group moves 16\"");
}

#[test]
fn move_mites_travel_24_inches_per_move() {
    let (mut s, g) = spugs_at("m1 at 12,5");
    when_seat(&mut s, 0, &mv(g, 12.0, 29.5))
        .refused("[Move] that is 24.5\" away; this group moves 24\"");
    play(&mut s, 0, &mv(g, 36.0, 5.0), &[]);
}

#[test]
fn move_burrowers_cannot_move_on_the_surface() {
    let (mut s, [w]) = given_at(&["spugs", "unit"], "w1 at 20,20");
    card(&mut s, 0, CardKind::Single);
    let e = refused(&mut s, 0, &mv(w, 20.0, 22.0), &[]);
    assert!(
        refusal(&e).starts_with("[Spugs] Burrowers cannot move on the surface"),
        "{e}"
    );
}

#[test]
fn move_spugs_and_mites_are_unaffected_by_terrain_and_barriers() {
    // Over the wall at y = 24 and through the wood: no stop.
    let (mut s, [g]) = given_at(&["spugs", "unit"], "sq2 at 7,22");
    card(&mut s, 0, CardKind::Triple);
    let p = play(&mut s, 0, &mv(g, 7.0, 38.0), &[]);
    assert_eq!(moved(&p), (moved(&p).0, None));
    assert_eq!(moved(&p).0[0], pt(7.0, 38.0));
}

#[test]
fn move_soft_going_mites_cannot_cross_it_spugs_jump_it_when_less_than_8_inches() {
    // The marsh is 20..30 x 40..44: 4" deep, 10" wide.
    let (mut s, [sq, mites]) = given_at(&["spugs", "unit"], "sq2 at 22,38; m1 at 25,38");
    card(&mut s, 0, CardKind::Triple);
    when_seat(&mut s, 0, &mv(mites, 25.0, 45.5))
        .refused("[Move] this group cannot cross Marsh: it is soft going and they cannot jump");
    // Spugs jump the 4" across.
    play(&mut s, 0, &mv(sq, 22.0, 45.5), &[]);
    // But not the 10" the long way.
    place(&mut s, sq, 18.0, 42.0);
    put(&mut s, sq, 1, 18.0, 38.0);
    put(&mut s, sq, 2, 17.0, 38.0);
    put(&mut s, sq, 3, 16.0, 38.0);
    put(&mut s, sq, 4, 15.0, 38.0);
    put(&mut s, sq, 5, 17.0, 42.0);
    let e = refused(&mut s, 0, &mv(sq, 31.0, 42.0), &[]);
    assert!(e.message.starts_with("Marsh is 10\" across here"), "{e}");
    // Nor end in it.
    let e = refused(&mut s, 0, &mv(sq, 22.0, 42.0), &[]);
    assert!(e.message.contains("cannot enter Marsh (soft going)"), "{e}");
}

#[test]
fn move_off_the_table_is_refused() {
    let (mut s, g) = unit_at(2.0, 10.0);
    let e = refused(&mut s, 0, &mv(g, -3.0, 10.0), &[]);
    assert!(e.message.contains("is off the table"), "{e}");
}

#[test]
fn move_at_a_real_table_the_players_move_and_declare_the_cover_marked_in_the_log() {
    let mut s = given_with(&["unit", "daleks"], false, true);
    let g = gid(&s, "s1");
    card(&mut s, 0, CardKind::Single);
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"move":{{"group":{g},"declare":{{"cover":"cover"}}}}}}"#),
        &[],
    );
    p.assert_says("U.N.I.T. 1st Squad, Section A moved at the table (declared: in cover)");
    assert_eq!(s.group(g).declared_cover, Some(Cover::Cover));
    // And shooting at it uses the declared cover.
    assert_eq!(
        xenolog_engine::games::invasion::rules::cover_of(&s, g, None),
        (Cover::Cover, true)
    );
}

#[test]
fn move_on_screen_needs_a_point() {
    let (mut s, g) = unit_at(20.0, 10.0);
    let e = refused(&mut s, 0, &group_order("move", g), &[]);
    assert!(refusal(&e).starts_with("[Move] give the point"), "{e}");
}

#[test]
fn move_a_figure_cannot_end_on_another_figure() {
    let (mut s, g) = unit_at(20.0, 10.0);
    let dal = gid(&s, "d1");
    place(&mut s, dal, 20.0, 16.0);
    when_seat(&mut s, 0, &mv(g, 20.0, 16.5))
        .refused("[Move] a figure already stands there (at (20\", 16\")): bases cannot overlap");
    // Base to base is fine.
    play(&mut s, 0, &mv(g, 20.0, 15.0), &[]);
}

#[test]
fn move_a_group_already_in_base_contact_is_not_offered_a_move_to_where_it_stands() {
    let (mut s, [g, _]) = given_at(&["unit", "daleks"], "s1 at 20,10; d1 at 20,11");
    card(&mut s, 0, CardKind::Single);
    let from = s.group(g).points()[0];
    for m in offered_moves(&s, g) {
        assert!(
            !m.contains(&format!("\"x\":{},\"y\":{}}}", from.x, from.y)),
            "a move to where the group stands: {m}"
        );
    }
}
