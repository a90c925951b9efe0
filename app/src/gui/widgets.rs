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

/// A date from unix seconds, as `YYYY-MM-DD` (UTC).
pub fn date(unix: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = unix.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

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
