//! Alien Invasion (rule text `../shared/seeds/000_bcca932a72976a23.txt`): a
//! skirmish game for several factions, activated by an Action deck, shooting
//! by totals of D6 against kill scores, on a table measured in inches.
//! See `RULES.md` beside this file for every clause, where it is in the code
//! and which test shows it.

pub mod data;
pub mod model;
pub mod table;
