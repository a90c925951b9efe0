//! Commands in the names players use: `rules::command_from_json` reads
//! characters by id or card name and tiles by name against the battle's own
//! cards and base; numbers keep working.

#[path = "support/alien.rs"]
mod support;

use serde_json::json;
use support::*;
use xenolog_engine::games::alien::AlienCommand as C;
use xenolog_engine::games::alien::rules::command_from_json;

#[test]
fn commands_take_character_and_tile_names_and_numbers_alike() {
    let s =
        at("character hicks at N6 items rifle ammo grenade\ncharacter bishop at M6 items medkit\n");
    let (hicks, bishop) = (ch(&s, "hicks"), ch(&s, "bishop"));
    let by_name = command_from_json(&s, &json!({"move": {"ch": "hicks", "to": "O6"}})).unwrap();
    let by_number = command_from_json(&s, &json!({"move": {"ch": hicks, "to": t("O6")}})).unwrap();
    assert_eq!(by_name, move_to(hicks, "O6"));
    assert_eq!(by_name, by_number);
    // Each command given in names reads as the same command in numbers.
    for (named, command) in [
        (
            json!({"give": {"ch": "Hicks", "pocket": 2, "to": "bishop"}}),
            give(hicks, 2, bishop),
        ),
        (
            json!({"heal": {"ch": "bishop", "pocket": 0, "patient": "hicks"}}),
            heal(bishop, 0, hicks),
        ),
        (
            json!({"throw": {"ch": "hicks", "pocket": 2, "at": "P6", "area": ["O6", "P6", "Q6"]}}),
            throw(hicks, 2, t("P6"), vec![t("O6"), t("P6"), t("Q6")]),
        ),
        (json!("end_phase"), C::EndPhase),
        (json!({"drive": {"to": "C15"}}), drive("C15")),
    ] {
        let read = command_from_json(&s, &named).unwrap_or_else(|e| panic!("{named}: {e}"));
        assert_eq!(read, command, "{named}");
    }
    let e = command_from_json(&s, &json!({"move": {"ch": "ripley", "to": "O6"}})).unwrap_err();
    assert!(
        e.contains("no character 'ripley'") && e.contains("hicks"),
        "{e}"
    );
    let e = command_from_json(&s, &json!({"move": {"ch": "hicks", "to": "Z99"}})).unwrap_err();
    assert!(e.contains("'Z99' is not a tile"), "{e}");
}
