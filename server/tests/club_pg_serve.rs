//! `unavailable` on the wire (issue 31, `server/POSTGRES.md` §3; session
//! 17): the club server with its tokens on PostgreSQL (a store layer over
//! the data folder whose `TokenStore` is a club schema: what `serve
//! --database postgres://` will hold once campaigns are on PostgreSQL too)
//! answers a request whose database call finds the connection gone with
//! the code `unavailable` and the words "the database is not reachable;
//! retrying", changes nothing, and serves the same request once the
//! database answers again, without a restart.
//!
//! Runs when `XENOLOG_TEST_PG` names a database; `XENOLOG_REQUIRE_PG`
//! makes a missing one a failure. A schema of its own, dropped after.

mod common;

use std::sync::Arc;

use serde_json::json;
use xenolog_saves::db::DbExt;
use xenolog_server::store::club_db::ClubDb;
use xenolog_server::store::club_tokens::ClubTokens;
use xenolog_server::store::table::TableStore;
use xenolog_server::store::{BattleStore, LiveStore, Store, TokenStore};
use xenolog_server::{StoreLayer, Tuning};

/// The data folder's store, its tokens on PostgreSQL.
struct PgTokens {
    inner: Arc<dyn Store>,
    tokens: Arc<ClubTokens>,
}

impl Store for PgTokens {
    fn tokens(&self) -> &dyn TokenStore {
        &*self.tokens
    }
    fn battles(&self) -> &dyn BattleStore {
        self.inner.battles()
    }
    fn live(&self) -> &dyn LiveStore {
        self.inner.live()
    }
    fn table(&self) -> &dyn TableStore {
        self.inner.table()
    }
}

#[test]
fn p3_a_request_while_the_club_database_is_gone_is_answered_unavailable_and_changes_nothing() {
    let Some(url) = common::test_pg() else {
        return;
    };
    let dropped = common::Schema::new(&url);
    let schema = dropped.name.clone();
    let admin = dropped.admin();
    // Made (and, at the end, dropped) off the runtime: the PostgreSQL
    // client blocks.
    let db = Arc::new(ClubDb::open_postgres(&url, &schema).unwrap());
    let tokens = Arc::new(ClubTokens::open(db.clone()).unwrap());
    let organiser = tokens.organiser_invitation(true).unwrap().unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let layer_tokens = tokens.clone();
    let tuning = Tuning {
        store_layer: Some(StoreLayer(Arc::new(move |inner| {
            Arc::new(PgTokens {
                inner,
                tokens: layer_tokens.clone(),
            }) as Arc<dyn Store>
        }))),
        ..Tuning::default()
    };
    rt.block_on(async {
        let server = common::server_tuned(tuning).await;
        let mut org = common::Client::connect(&server).await;
        let r = org
            .request("redeem", json!({"code": organiser.code.expose()}))
            .await;
        assert_eq!(r["ok"]["role"], "organiser", "{r}");
        // The database goes away under the server: its connection's
        // backend is terminated.
        let d = db.clone();
        let gone = tokio::task::spawn_blocking(move || {
            let killed = common::end_backend(&admin, common::backend_pid(&d));
            (killed, admin)
        })
        .await
        .unwrap();
        assert!(gone.0);
        let admin = gone.1;
        let refused = org
            .request("invite", json!({"role": "player", "label": "Anna"}))
            .await;
        assert_eq!(refused["err"]["code"], "unavailable", "{refused}");
        let words = refused["err"]["words"].as_str().unwrap();
        assert!(
            words.contains("the database is not reachable; retrying"),
            "{words}"
        );
        assert!(!words.contains(&url), "no connection string: {words}");
        // Nothing was made; the same request, sent again, is served (the
        // store connected again by itself).
        let s = schema.clone();
        let invitations = move |admin: xenolog_saves::db::pg::Postgres| {
            let n: i64 = admin
                .one(&format!("SELECT count(*) FROM {s}.invitations"), &[])
                .unwrap();
            (n, admin)
        };
        let (n, admin) = tokio::task::spawn_blocking({
            let f = invitations.clone();
            move || f(admin)
        })
        .await
        .unwrap();
        assert_eq!(n, 1, "only the organiser's invitation");
        let again = org
            .request("invite", json!({"role": "player", "label": "Anna"}))
            .await;
        assert!(again["ok"]["code"].is_string(), "{again}");
        // (The client is dropped on the blocking thread: it blocks.)
        let n = tokio::task::spawn_blocking(move || invitations(admin).0)
            .await
            .unwrap();
        assert_eq!(n, 2);
        // The client of the command line and the app sends a request
        // refused `unavailable` again by itself: the database gone once
        // more, its next request is served all the same.
        let token = r["ok"]["token"].as_str().unwrap().to_owned();
        let ws = server.running.ws_url();
        let (d, u) = (db.clone(), url.clone());
        let served = tokio::task::spawn_blocking(move || {
            let addr = xenolog_server::client::ServerAddr::parse(&ws).unwrap();
            let mut c = xenolog_server::client::Client::connect(
                addr,
                Some(xenolog_server::secret::Token::from_text(&token)),
            )
            .unwrap();
            let admin = xenolog_saves::db::pg::Postgres::connect(&u).unwrap();
            let killed = common::end_backend(&admin, common::backend_pid(&d));
            let r = c.request("invite", json!({"role": "player", "label": "Ben"}));
            // Review3 SHOULD 4: a hello refused `unavailable` (the tokens
            // are read from the table: this store has no listener, so its
            // memory is not trusted) is tried again by connect, which is
            // served once the store has connected again.
            let killed_again = common::end_backend(&admin, common::backend_pid(&d));
            let again = xenolog_server::client::Client::connect(
                xenolog_server::client::ServerAddr::parse(&ws).unwrap(),
                Some(xenolog_server::secret::Token::from_text(&token)),
            )
            .map(|c| c.hello()["role"].clone())
            .map_err(|e| e.to_string());
            // And `reconnect` (a lost connection made again): its hello
            // refused `unavailable` is tried again too.
            let mut c2 = xenolog_server::client::Client::connect(
                xenolog_server::client::ServerAddr::parse(&ws).unwrap(),
                Some(xenolog_server::secret::Token::from_text(&token)),
            )
            .unwrap();
            let killed_thrice = common::end_backend(&admin, common::backend_pid(&d));
            let made_again = c2
                .reconnect()
                .map(|()| c2.hello()["role"].clone())
                .map_err(|e| e.to_string());
            assert_eq!(
                made_again,
                Ok(json!("organiser")),
                "reconnect: a hello refused unavailable is tried again"
            );
            (
                killed && killed_again && killed_thrice,
                r.map_err(|e| e.to_string()),
                again,
            )
        })
        .await
        .unwrap();
        assert!(served.0);
        assert!(
            served.1.as_ref().is_ok_and(|v| v["code"].is_string()),
            "{served:?}"
        );
        assert_eq!(
            served.2,
            Ok(json!("organiser")),
            "a hello refused unavailable is tried again"
        );
        drop(org);
        server.running.stop().await.unwrap();
    });
    drop(rt);
    drop(tokens);
}
