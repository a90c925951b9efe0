//! The Experience skills (rule text 001, "Experience"): what each costs, how
//! often it may be bought, and what it does in an Alien Invasion battle. The
//! table is data (`engine/data/invasion/skills.txt`), parsed with errors
//! naming the line.

use serde::{Deserialize, Serialize};

use crate::games::words::words;

/// What a skill does in an Alien Invasion battle, per time it is bought
/// (every one an adaptation of the Invasion Earth rule: assumed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// +N to each of the model's shooting dice.
    ShootDie(u8),
    /// +N to each of the model's close-combat dice.
    MeleeDie(u8),
    /// +N inches to the model's move.
    Move(u8),
    /// +N inches to a move that ends in cover or a building.
    Sneak(u8),
    /// +N to the model's kill score in every cover class.
    KillScore(u8),
    /// One more kill score to remove the model.
    ExtraKill,
    /// Counts as in cover at least.
    Camouflage,
    /// +1 to each shooting die when its group moved earlier on the card.
    Agility,
    /// Once per card, one action more for its group.
    ExtraAction,
}

/// One skill of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skill {
    pub id: String,
    pub name: String,
    /// Experience points per purchase.
    pub cost: u32,
    /// How many times a model may buy it ("may be chosen a max. of 3
    /// times"; once when the text states no maximum: assumed).
    pub max: u32,
    pub effect: Effect,
}

/// The shipped table.
pub const SKILLS_TEXT: &str = include_str!("../../data/invasion/skills.txt");

/// A line of the skills file that is not right.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct SkillsError {
    pub line: usize,
    pub message: String,
}

/// Most skills in one table; longest id and name.
const MAX_SKILLS: usize = 64;
const MAX_WORD: usize = 60;

/// Read a skills table (format in the file's header).
pub fn parse_skills(text: &str) -> Result<Vec<Skill>, SkillsError> {
    let mut out: Vec<Skill> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let err = |m: String| SkillsError { line, message: m };
        let w = words(raw).map_err(|m| err(m.to_owned()))?;
        if w.is_empty() {
            continue;
        }
        if w[0] != "skill" {
            return Err(err(format!(
                "a line starts with 'skill', not '{}'",
                clip(&w[0])
            )));
        }
        let word = |k: usize, what: &str| -> Result<&str, SkillsError> {
            w.get(k)
                .map(String::as_str)
                .ok_or_else(|| err(format!("{what} is missing")))
        };
        let id = word(1, "the skill's id")?;
        if id.is_empty()
            || id.len() > MAX_WORD
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(err(format!(
                "'{}' is not a skill id (letters, digits, _ and -)",
                clip(id)
            )));
        }
        if out.iter().any(|s| s.id == id) {
            return Err(err(format!("skill '{id}' is given twice")));
        }
        let name = word(2, "the skill's name, in quotes")?;
        if name.is_empty() || name.chars().count() > MAX_WORD {
            return Err(err("the skill's name must have 1 to 60 characters".into()));
        }
        let number = |k: usize, what: &str, lo: u32, hi: u32| -> Result<u32, SkillsError> {
            let t = word(k, what)?;
            t.parse::<u32>()
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| {
                    err(format!(
                        "{what} must be a whole number from {lo} to {hi}, not '{}'",
                        clip(t)
                    ))
                })
        };
        let mut k = 3;
        let mut cost = None;
        let mut max = None;
        let mut effect = None;
        while k < w.len() {
            match w[k].as_str() {
                "cost" if cost.is_none() => {
                    cost = Some(number(k + 1, "the cost", 0, 999)?);
                    k += 2;
                }
                "max" if max.is_none() => {
                    max = Some(number(k + 1, "the maximum", 1, 99)?);
                    k += 2;
                }
                "effect" if effect.is_none() => {
                    let kind = word(k + 1, "the effect")?;
                    let amount = |k: usize| -> Result<u8, SkillsError> {
                        Ok(number(k, "the effect's amount", 1, 20)? as u8)
                    };
                    let (e, used) = match kind {
                        "shoot_die" => (Effect::ShootDie(amount(k + 2)?), 3),
                        "melee_die" => (Effect::MeleeDie(amount(k + 2)?), 3),
                        "move" => (Effect::Move(amount(k + 2)?), 3),
                        "sneak" => (Effect::Sneak(amount(k + 2)?), 3),
                        "kill_score" => (Effect::KillScore(amount(k + 2)?), 3),
                        "extra_kill" => (Effect::ExtraKill, 2),
                        "camouflage" => (Effect::Camouflage, 2),
                        "agility" => (Effect::Agility, 2),
                        "extra_action" => (Effect::ExtraAction, 2),
                        other => {
                            return Err(err(format!(
                                "unknown effect '{}' (shoot_die, melee_die, move, sneak, kill_score, extra_kill, camouflage, agility, extra_action)",
                                clip(other)
                            )));
                        }
                    };
                    effect = Some(e);
                    k += used;
                }
                other => {
                    return Err(err(format!(
                        "unexpected '{}' (cost, max and effect, once each)",
                        clip(other)
                    )));
                }
            }
        }
        let cost = cost.ok_or_else(|| err(format!("skill '{id}' needs 'cost N'")))?;
        let effect = effect.ok_or_else(|| err(format!("skill '{id}' needs 'effect ...'")))?;
        if out.len() >= MAX_SKILLS {
            return Err(err(format!("a table has at most {MAX_SKILLS} skills")));
        }
        out.push(Skill {
            id: id.to_owned(),
            name: name.to_owned(),
            cost,
            max: max.unwrap_or(1),
            effect,
        });
    }
    if out.is_empty() {
        return Err(SkillsError {
            line: 0,
            message: "the table has no skills".into(),
        });
    }
    Ok(out)
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// The shipped table (it is checked by a test; an edited copy is read with
/// [`parse_skills`]).
///
/// Parsed once per process and cloned (every battle set up with rosters
/// asks for it); parsing is deterministic, so the value is the same.
pub fn shipped() -> Vec<Skill> {
    static PARSED: std::sync::LazyLock<Vec<Skill>> =
        std::sync::LazyLock::new(|| parse_skills(SKILLS_TEXT).unwrap_or_default());
    PARSED.clone()
}

/// A skill of the shipped table by id.
pub fn skill(id: &str) -> Option<Skill> {
    shipped().into_iter().find(|s| s.id == id)
}

/// What a model's skills add up to in a battle: the effects summed over
/// every time each skill was bought.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bonuses {
    pub shoot_die: u8,
    pub melee_die: u8,
    /// Hundredths of an inch.
    pub moves: i32,
    /// Hundredths of an inch, for a move ending in cover or a building.
    pub sneak: i32,
    pub kill_score: u32,
    pub extra_kills: u32,
    pub camouflage: bool,
    pub agility: bool,
    pub extra_action: bool,
    /// "All models gain a FREE reward of +1 on perception rolls for every
    /// battle they survive" (set from the campaign, not bought).
    pub perception: u8,
}

impl Bonuses {
    /// The bonuses of skills bought `(id, times)`; unknown ids are ignored
    /// (the campaign refuses them when they are bought).
    pub fn of(table: &[Skill], bought: &[(String, u32)]) -> Self {
        let mut b = Self::default();
        for (id, n) in bought {
            let Some(s) = table.iter().find(|s| &s.id == id) else {
                continue;
            };
            let n8 = (*n).min(99) as u8;
            match s.effect {
                Effect::ShootDie(x) => b.shoot_die = b.shoot_die.saturating_add(x * n8),
                Effect::MeleeDie(x) => b.melee_die = b.melee_die.saturating_add(x * n8),
                Effect::Move(x) => b.moves += i32::from(x) * 100 * *n as i32,
                Effect::Sneak(x) => b.sneak += i32::from(x) * 100 * *n as i32,
                Effect::KillScore(x) => b.kill_score += u32::from(x) * n,
                Effect::ExtraKill => b.extra_kills += n,
                Effect::Camouflage => b.camouflage |= *n > 0,
                Effect::Agility => b.agility |= *n > 0,
                Effect::ExtraAction => b.extra_action |= *n > 0,
            }
        }
        b
    }

    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_has_every_skill_of_the_text_at_its_cost_and_cap() {
        let t = parse_skills(SKILLS_TEXT).expect("the shipped table parses");
        let got: Vec<(&str, u32, u32)> =
            t.iter().map(|s| (s.name.as_str(), s.cost, s.max)).collect();
        assert_eq!(
            got,
            vec![
                ("Super Sneak", 2, 3),
                ("Crack Shot", 2, 2),
                ("You Make Your Own Luck", 2, 3),
                ("Tough as Nails", 5, 2),
                ("Camouflage", 5, 1),
                ("Super Agility", 3, 1),
                ("Super Fast", 2, 3),
                ("Lightening Action", 6, 1),
                ("Hand to Hand Expert", 2, 3),
            ]
        );
    }

    #[test]
    fn a_bad_skills_file_names_its_line() {
        let e =
            parse_skills("skill a \"A\" cost 2 effect move 1\nskill b \"B\" cost x effect move 1")
                .unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("the cost must be a whole number"), "{e}");
        let e = parse_skills("skill a \"A\" cost 2 effect fly 1").unwrap_err();
        assert!(e.message.contains("unknown effect 'fly'"), "{e}");
        let e = parse_skills("skill a \"A\" effect move 1").unwrap_err();
        assert!(e.message.contains("needs 'cost N'"), "{e}");
        let e =
            parse_skills("skill a \"A\" cost 1 effect move 1\nskill a \"B\" cost 1 effect move 1")
                .unwrap_err();
        assert!(e.message.contains("given twice"), "{e}");
        assert!(parse_skills("# nothing\n").is_err());
    }

    #[test]
    fn bonuses_add_up_per_time_bought() {
        let t = shipped();
        let b = Bonuses::of(
            &t,
            &[
                ("crack_shot".into(), 2),
                ("super_fast".into(), 3),
                ("tough".into(), 1),
                ("camouflage".into(), 1),
            ],
        );
        assert_eq!(b.shoot_die, 2);
        assert_eq!(b.moves, 300);
        assert_eq!(b.extra_kills, 1);
        assert!(b.camouflage && !b.agility);
    }
}
