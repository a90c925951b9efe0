//! The words a scene draws, for the board tests of every game (included
//! with `#[path]`).

use xenolog_engine::scene::{Scene, Shape};

/// Every text the scene draws, in drawing order.
pub fn texts(scene: &Scene) -> Vec<String> {
    scene
        .items
        .iter()
        .filter_map(|i| match &i.shape {
            Shape::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}
