//! A campaign kept in memory (`Campaign::create_in_memory`) is the same store
//! as a file: battles played and taken back, notes, export and import, all
//! through the same code, and no file written anywhere.

use xenolog_saves::{Campaign, SaveError};

use super::common::{new_endless_race, place, play_n, states};

#[test]
fn a_campaign_in_memory_plays_reloads_notes_and_exports_as_a_file_does() {
    let mut c = Campaign::create_in_memory("Scratch").unwrap();
    assert!(c.is_in_memory());
    assert_eq!(c.path().as_os_str(), "");
    assert_eq!(c.name().unwrap(), "Scratch");
    let id = new_endless_race(&mut c, 7);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 8);
    b.undo(3);
    c.save_position(id, b.as_ref()).unwrap();
    c.set_note(id, 2, "the turning point").unwrap();

    // Read back from the database, it is the battle played.
    let again = c.load_battle(id).unwrap();
    assert_eq!(states(again.as_ref()), states(b.as_ref()));
    assert_eq!(again.cursor(), b.cursor());
    assert!(c.verify_battle(id).unwrap().ok());
    let s = c.summary(id).unwrap();
    assert_eq!((s.entries, s.status.as_str()), (8, "in progress"));
    assert_eq!(c.notes(id).unwrap()[0].text, "the turning point");

    // The same rules refuse the same bad input.
    assert!(matches!(
        c.load_battle(99),
        Err(SaveError::NoSuchBattle(99))
    ));

    // A battle leaves it as a file and comes back into another one.
    let (_dir, path) = place();
    let out = path.with_extension("xenolog-battle");
    c.export_battle(id, &out).unwrap();
    let mut other = Campaign::create_in_memory("Other").unwrap();
    let back = other.import_battle(&out).unwrap();
    assert_eq!(
        states(other.load_battle(back).unwrap().as_ref()),
        states(b.as_ref())
    );
    assert!(!path.exists(), "no campaign file was made");
}
