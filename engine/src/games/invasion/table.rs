//! The table: measuring moves, lines of sight and contact with the `geo` crate.
