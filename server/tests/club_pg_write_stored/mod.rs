//! What a campaign of a server on PostgreSQL stores, read after the
//! server stopped: for the committer's tests (`club_pg_write.rs`,
//! `club_pg_fault.rs`).

use super::common::off_runtime;

/// What campaign `n` stores of its one battle: its entries on the live
/// line, its command ids and their entries, and whether it verifies.
pub fn stored(url: &str, n: i64) -> (Vec<u64>, Vec<(String, String)>, bool) {
    use xenolog_saves::db::DbExt;
    use xenolog_saves::db::pg::{Postgres, use_schema};
    let url = url.to_owned();
    off_runtime(move || {
        let schema = format!("campaign_{n}");
        let c = xenolog_saves::Campaign::open_postgres_read_only(&url, &schema).unwrap();
        let id = c.battles().unwrap()[0].id;
        let b = c.load_battle(id).unwrap();
        let line = b.path_to(b.cursor());
        let ok = c.verify_battle(id).unwrap().problem.is_none();
        let db = Postgres::connect(&url).unwrap();
        use_schema(&db, &schema).unwrap();
        let ids = db
            .query(
                "SELECT cmd_id, entries FROM club_commands ORDER BY cmd_id",
                &[],
            )
            .unwrap()
            .into_iter()
            .map(|r| match (&r[0], &r[1]) {
                (xenolog_saves::db::Value::Text(a), xenolog_saves::db::Value::Text(b)) => {
                    (a.clone(), b.clone())
                }
                other => panic!("{other:?}"),
            })
            .collect();
        (line, ids, ok)
    })
}
