//! Xenolog's club server (issue 30): remote players play live through one
//! authoritative server (principles 13 and 14 of `DESIGN.md`).
//!
//! The one key decision: **the server is the only master.** A client sends
//! requests; the server decides, stores durably, and only then answers. This
//! crate holds the wire protocol ([`proto`], version 1: JSON text frames over
//! one WebSocket), the secrets and their redaction ([`secret`]), the store
//! behind a trait ([`store`]: the SQLite data folder by default, PostgreSQL
//! later) and the server itself ([`serve`], axum on tokio). The `xenolog`
//! binary drives it with `xenolog serve`. The design, and the steps still to
//! build, are in `server/DESIGN.md`.
//!
//! Step S3 (this): the club file, tokens stored as BLAKE3 hashes,
//! invitations (expiring, spent once), revocation, `hello`, `redeem`,
//! `invite`, `tokens`, `revoke`, `ping`, refusals in words with stable codes,
//! clean shutdown. Step S4, first part: `create_campaign`, `create_battle`
//! (the secret drawn and its commitment stored before the reply), seat
//! invitations and grants, `join` with a nonce; the last join starts the
//! battle in its campaign file with `Campaign::new_club_battle`. Then
//! `watch` (backfill after the entry the client holds, then live, built by
//! [`lens`] from the seat's view only) and `command` (decided at the head
//! the client saw, durable before anyone hears of it; the ending entry
//! reveals the secret in an `over` event).

pub mod client;
pub mod lens;
pub mod proto;
pub mod secret;
pub mod serve;
pub mod store;

pub use serve::{Config, Ready, Running, ServeError, run_blocking, start};
pub use serve::{
    MISSED, SOCKET_QUEUE, StoreLayer, TOO_SLOW, TlsFiles, Tuning, WATCH_PAGE, start_tuned,
};
