//! Small widgets shared by the panels.

use eframe::egui::{self, Response, Role, Ui, WidgetInfo};

/// A button showing an icon, named `label` for screen readers and tests,
/// with the label as its tooltip.
pub fn icon_button(ui: &mut Ui, icon: &str, label: &str, enabled: bool) -> Response {
    let r = ui
        .add_enabled(
            enabled,
            egui::Button::new(egui::RichText::new(icon).size(15.0)),
        )
        .on_hover_text(label)
        .on_disabled_hover_text(label);
    r.widget_info(|| WidgetInfo::labeled(Role::Button, enabled, label));
    r
}

/// A count with its noun: `1 entry`, `2 entries`, `1 branch`, `3 branches`.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A date from unix seconds, as `YYYY-MM-DD` (UTC): the report's own, so
/// the app and the reports write a date alike.
pub use xenolog_report::date;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_say_one_entry_and_two_entries() {
        assert_eq!(count(1u64, "entry", "entries"), "1 entry");
        assert_eq!(count(0u64, "entry", "entries"), "0 entries");
        assert_eq!(count(3u32, "branch", "branches"), "3 branches");
    }

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(951_782_400), "2000-02-29");
        assert_eq!(date(1_763_683_200), "2025-11-21");
    }
}
