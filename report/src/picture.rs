//! Board pictures and plots as PNG (forums and Markdown viewers that do
//! not show SVG), rendered from the SVG by resvg with the system's fonts.

use std::sync::{Arc, OnceLock};

use resvg::usvg;

fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_system_fonts();
            Arc::new(db)
        })
        .clone()
}

/// An SVG picture as PNG at its own size (at most 2000 px wide); `None`
/// when it cannot be read.
pub fn svg_to_png(svg: &str) -> Option<Vec<u8>> {
    let options = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).ok()?;
    let size = tree.size();
    let scale = (2000.0 / size.width()).min(1.0);
    let w = (size.width() * scale).ceil().max(1.0) as u32;
    let h = (size.height() * scale).ceil().max(1.0) as u32;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h)?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    // The pixmap is opaque (filled white first), so its premultiplied
    // RGBA is plain RGBA. The fast DEFLATE of `png` takes a fifth of the
    // time of tiny-skia's default encoding for files a little larger.
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().ok()?;
    writer.write_image_data(pixmap.data()).ok()?;
    writer.finish().ok()?;
    Some(out)
}

/// Many SVG pictures as PNG, on every core (each picture is independent;
/// the order is kept).
pub fn svgs_to_png(svgs: &[&str]) -> Vec<Option<Vec<u8>>> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(svgs.len().max(1));
    let chunk = svgs.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = svgs
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(|s| svg_to_png(s)).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}
