//! Faction and scenario files: parsing with errors that name the line.
