//! One CSV row per die, for players who make their own graphs.

use crate::DieRecord;

pub fn rows(dice: &[DieRecord]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "entry", "turn", "phase", "side", "for", "needed", "face", "sides", "source", "result",
    ]);
    for d in dice {
        let result = match d.meaning.mark {
            xenolog_engine::DieMark::Hit => "hit",
            xenolog_engine::DieMark::Miss => "miss",
            xenolog_engine::DieMark::Pass => "success",
            xenolog_engine::DieMark::Fail => "failure",
            xenolog_engine::DieMark::Plain => "",
        };
        let _ = w.write_record([
            d.entry.to_string(),
            d.turn.to_string(),
            d.phase.clone(),
            d.side.clone(),
            d.meaning.purpose.clone(),
            d.meaning.need.words(),
            d.face.to_string(),
            d.sides.to_string(),
            if d.entered { "entered" } else { "rolled" }.to_owned(),
            result.to_owned(),
        ]);
    }
    w.into_inner()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}
