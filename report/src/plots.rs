//! The luck plots of a report as SVG (plotters' SVG backend): each side's
//! faces against their expectation, and the running luck of every side
//! over the battle's entries.

use plotters::prelude::*;

use crate::luck::Luck;

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
];

/// The chart's legend, on a light box, at `position`.
fn legend<'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, CT>,
    position: SeriesLabelPosition,
) -> Option<()> {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(position)
        .draw()
        .ok()
}

/// A side's name as part of a file name: `kay-otz`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

/// Every luck plot: (file name, caption, SVG).
pub fn luck_plots(luck: &Luck) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for (i, s) in luck.sides.iter().enumerate() {
        if s.d6() == 0 {
            continue;
        }
        if let Some(svg) = faces_plot(&s.side, &s.faces, COLOURS[i % COLOURS.len()]) {
            out.push((
                format!("luck-faces-{}", slug(&s.side)),
                format!(
                    "Faces rolled by the {} against a fair die's expectation",
                    s.side
                ),
                svg,
            ));
        }
    }
    if luck.sides.iter().any(|s| !s.running.is_empty())
        && let Some(svg) = running_plot(luck)
    {
        out.push((
            "luck-running".to_owned(),
            "Running luck: hits, successes and kills made less those expected, entry by entry"
                .to_owned(),
            svg,
        ));
    }
    out
}

fn faces_plot(side: &str, faces: &[u32; 6], colour: RGBColor) -> Option<String> {
    let n: u32 = faces.iter().sum();
    let e = f64::from(n) / 6.0;
    let top = faces.iter().copied().max().unwrap_or(0).max(1) as f64;
    let top = top.max(e) * 1.2;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (480, 260)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{side}: faces of {n} dice"), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(32)
            .y_label_area_size(40)
            .build_cartesian_2d(0.5f64..6.5f64, 0f64..top)
            .ok()?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(6)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .x_desc("face")
            .y_desc("dice")
            .draw()
            .ok()?;
        chart
            .draw_series(faces.iter().enumerate().map(|(i, &c)| {
                let x = i as f64 + 1.0;
                Rectangle::new([(x - 0.35, 0.0), (x + 0.35, f64::from(c))], colour.filled())
            }))
            .ok()?
            .label("rolled")
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        chart
            .draw_series(LineSeries::new([(0.5, e), (6.5, e)], BLACK.stroke_width(2)))
            .ok()?
            .label(format!("expected ({e:.1} each)"))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 12, y)], BLACK.stroke_width(2)));
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        root.present().ok()?;
    }
    Some(svg)
}

fn running_plot(luck: &Luck) -> Option<String> {
    let last = luck
        .sides
        .iter()
        .flat_map(|s| s.running.iter().map(|(e, _)| *e))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let (lo, hi) = luck
        .sides
        .iter()
        .flat_map(|s| s.running.iter().map(|(_, v)| *v))
        .fold((-1.0f64, 1.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = (hi - lo) * 0.1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (640, 300)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Running luck (made less expected)", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(32)
            .y_label_area_size(44)
            .build_cartesian_2d(0f64..last, (lo - pad)..(hi + pad))
            .ok()?;
        chart
            .configure_mesh()
            .x_desc("entry")
            .y_desc("luck")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:+.1}"))
            .draw()
            .ok()?;
        chart
            .draw_series(LineSeries::new([(0.0, 0.0), (last, 0.0)], BLACK.mix(0.4)))
            .ok()?;
        for (i, s) in luck.sides.iter().enumerate() {
            if s.running.is_empty() {
                continue;
            }
            let c = COLOURS[i % COLOURS.len()];
            let mut points = vec![(0.0, 0.0)];
            points.extend(s.running.iter().map(|(e, v)| (*e as f64, *v)));
            chart
                .draw_series(LineSeries::new(points, c.stroke_width(2)))
                .ok()?
                .label(s.side.clone())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 12, y)], c.stroke_width(2)));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        root.present().ok()?;
    }
    Some(svg)
}
