//! The test PostgreSQL server, for the suites run on both backends
//! (`backends.rs`, `copies.rs`): its connection string, a schema name no
//! other test uses, and dropping it after.

use xenolog_saves::db::Db;
use xenolog_saves::db::pg::Postgres;

/// The test server's connection string, or `None` (the PostgreSQL half
/// skipped) when none is set and CI does not require one.
pub fn server() -> Option<String> {
    match std::env::var("XENOLOG_TEST_PG") {
        Ok(s) if !s.is_empty() => Some(s),
        _ => {
            assert!(
                std::env::var_os("XENOLOG_REQUIRE_PG").is_none(),
                "XENOLOG_REQUIRE_PG is set but XENOLOG_TEST_PG is not: the test cluster \
                 did not start (tests/pg/cluster.sh start)"
            );
            eprintln!("XENOLOG_TEST_PG is not set: skipped (tests/pg/cluster.sh start)");
            None
        }
    }
}

/// A schema name no other test (of this run or another) uses.
pub fn random_schema(test: &str) -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let short: String = test.chars().take(28).collect();
    format!(
        "t_{short}_{}_{nanos:x}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// Drop a test's schema (and everything in it).
pub fn drop_schema(url: &str, schema: &str) {
    if let Ok(db) = Postgres::connect(url) {
        let _ = db.execute_batch(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"));
    }
}
