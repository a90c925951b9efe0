//! One name for a battle on every face: the app, the command line and the
//! reports all call a battle what [`BattleNames::name`] calls it (issue 28:
//! "battle 7" in the campaign's words is "Hollow Farm, battle 3").

use std::collections::BTreeMap;

use xenolog_engine::campaign::CampaignState;

use crate::db::DbExt;
use crate::{BattleId, Campaign, Recomputed, SaveError};

/// The battles of a campaign by their names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BattleNames {
    names: BTreeMap<BattleId, String>,
}

impl BattleNames {
    /// Each battle is named by its title; where two battles of the campaign
    /// share a title, each of them says its id too ("Alien Invasion (battle
    /// 7)"), so that no name stands for two battles.
    pub fn new<'a>(battles: impl IntoIterator<Item = (BattleId, &'a str)>) -> Self {
        let battles: Vec<(BattleId, &str)> = battles.into_iter().collect();
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, title) in &battles {
            *count.entry(title.trim()).or_default() += 1;
        }
        let names = battles
            .iter()
            .map(|(id, title)| {
                let title = title.trim();
                let name = if title.is_empty() {
                    format!("battle {id}")
                } else if count[title] > 1 {
                    format!("{title} (battle {id})")
                } else {
                    title.to_owned()
                };
                (*id, name)
            })
            .collect();
        BattleNames { names }
    }

    /// A battle's one name; a battle not in the campaign is "battle 7".
    pub fn name(&self, id: BattleId) -> String {
        self.names
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("battle {id}"))
    }

    /// The campaign's words with each battle they number by its id named
    /// instead ("survived battle 7: +1 EP" reads "survived Hollow Farm,
    /// battle 3: +1 EP"); a number no battle has stays as it is.
    pub fn words(&self, text: &str) -> String {
        const WORD: &str = "battle ";
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(i) = rest.find(WORD) {
            let (before, after) = rest.split_at(i);
            out.push_str(before);
            let digits = after[WORD.len()..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            let number = &after[WORD.len()..WORD.len() + digits];
            let whole_word = before
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric());
            match number.parse::<BattleId>().ok() {
                Some(id) if whole_word && self.names.contains_key(&id) => {
                    out.push_str(&self.name(id));
                    rest = &after[WORD.len() + digits..];
                }
                _ => {
                    out.push_str(WORD);
                    rest = &after[WORD.len()..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// A campaign state whose words (histories, flags) name its battles.
    pub fn name_state(&self, state: &mut CampaignState) {
        for m in &mut state.models {
            for h in &mut m.history {
                h.what = self.words(&h.what);
            }
        }
        for f in &mut state.flags {
            f.words = self.words(&f.words);
        }
    }

    /// A recomputation whose words name its battles.
    pub(crate) fn name_recomputed(&self, r: &mut Recomputed) {
        self.name_state(&mut r.state);
        for c in &mut r.changes {
            *c = self.words(c);
        }
    }
}

impl Campaign {
    /// The campaign's battles by their names.
    pub fn battle_names(&self) -> Result<BattleNames, SaveError> {
        let mut rows: Vec<(BattleId, String)> = Vec::new();
        self.conn
            .each("SELECT id, title FROM battles ORDER BY id", &[], |r| {
                rows.push((r.get(0)?, r.get(1)?));
                Ok::<(), crate::db::DbError>(())
            })?;
        Ok(BattleNames::new(
            rows.iter().map(|(id, t)| (*id, t.as_str())),
        ))
    }

    /// A battle's one name (see [`BattleNames`]).
    pub fn battle_name(&self, id: BattleId) -> Result<String, SaveError> {
        Ok(self.battle_names()?.name(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> BattleNames {
        BattleNames::new([
            (3, "Hollow Farm, battle 1"),
            (7, "Hollow Farm, battle 3"),
            (8, "Alien Invasion"),
            (9, "Alien Invasion"),
            (10, "  "),
        ])
    }

    #[test]
    fn a_battle_is_named_by_its_title_and_a_shared_title_says_the_id() {
        let n = names();
        assert_eq!(n.name(7), "Hollow Farm, battle 3");
        assert_eq!(n.name(8), "Alien Invasion (battle 8)");
        assert_eq!(n.name(9), "Alien Invasion (battle 9)");
        assert_eq!(n.name(10), "battle 10");
        assert_eq!(n.name(99), "battle 99");
    }

    #[test]
    fn campaign_words_name_the_battles_they_number() {
        let n = names();
        assert_eq!(
            n.words("survived battle 7: +1 EP, +1 perception"),
            "survived Hollow Farm, battle 3: +1 EP, +1 perception"
        );
        assert_eq!(
            n.words("killed in battle 3: back for the next battle, no EP"),
            "killed in Hollow Farm, battle 1: back for the next battle, no EP"
        );
        // A number no battle has, and "battle" inside a word, stay.
        assert_eq!(
            n.words("battle 42 and combattle 7"),
            "battle 42 and combattle 7"
        );
        // A title that itself says "battle 3" is not named again.
        assert_eq!(
            n.words("battle 7 fought by Pte Yates"),
            "Hollow Farm, battle 3 fought by Pte Yates"
        );
    }
}
