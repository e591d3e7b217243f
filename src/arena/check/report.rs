//! What `hamle check` found: one row an item (pass, fail, warn, skip, info), each failure
//! or warning with the exchange that showed it and the section of protocol.md that says
//! what was expected; printed as a table, or as JSON for scripts.

use std::fmt::Write as _;

use serde::Serialize;

use super::wire::Transcript;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pass,
    /// Works for a plain match, but something is off or missing (an option needs it).
    Warn,
    /// A match cannot run (or will forfeit games) as the bot stands.
    Fail,
    /// Not tried: an item before it failed, or the game does not use it.
    Skip,
    /// An optional command, present or absent: which option needs it.
    Info,
}

impl Status {
    fn word(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warn => "WARN",
            Status::Fail => "FAIL",
            Status::Skip => "skip",
            Status::Info => "info",
        }
    }
}

/// One row of the report.
#[derive(Clone, Debug, Serialize)]
pub struct Item {
    pub item: String,
    pub status: Status,
    pub detail: String,
    /// The lines that showed a failure or warning (`> ` sent, `< ` received).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exchange: Vec<String>,
    /// Where protocol.md says what is expected.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reference: String,
}

impl Item {
    pub fn new(item: &str, status: Status, detail: impl Into<String>) -> Item {
        Item {
            item: item.to_owned(),
            status,
            detail: detail.into(),
            exchange: Vec::new(),
            reference: String::new(),
        }
    }

    pub fn with(mut self, transcript: &Transcript, reference: &str) -> Item {
        transcript.0.clone_into(&mut self.exchange);
        reference.clone_into(&mut self.reference);
        self
    }

    pub fn reference(mut self, reference: &str) -> Item {
        reference.clone_into(&mut self.reference);
        self
    }
}

/// The whole report.
#[derive(Debug, Serialize)]
pub struct Report {
    pub bot: String,
    pub command: String,
    pub game: String,
    pub items: Vec<Item>,
    /// No item failed: `hamle match` can play the bot.
    pub match_can_run: bool,
}

impl Report {
    pub fn new(bot: &str, command: &str, game: &str, items: Vec<Item>) -> Report {
        let match_can_run = items.iter().all(|item| item.status != Status::Fail);
        Report {
            bot: bot.to_owned(),
            command: command.to_owned(),
            game: game.to_owned(),
            items,
            match_can_run,
        }
    }

    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self)
            .unwrap_or_else(|error| format!("{{\"error\": \"{error}\"}}"))
    }

    /// The table, then each failure's and warning's exchange and reference, then the
    /// verdict.
    pub fn text(&self) -> String {
        let mut out = format!(
            "hamle check: {} ({}), game {}\n\n",
            self.bot, self.command, self.game
        );
        let width = self
            .items
            .iter()
            .map(|i| i.item.len())
            .max()
            .unwrap_or(4)
            .max(4);
        let _ = writeln!(out, "{:width$}  result  detail", "item");
        for item in &self.items {
            let _ = writeln!(
                out,
                "{:width$}  {:6}  {}",
                item.item,
                item.status.word(),
                item.detail
            );
        }
        for item in &self.items {
            if !matches!(item.status, Status::Fail | Status::Warn) {
                continue;
            }
            if item.exchange.is_empty() && item.reference.is_empty() {
                continue;
            }
            let _ = writeln!(
                out,
                "\n{} {}: {}",
                item.status.word(),
                item.item,
                item.detail
            );
            for line in &item.exchange {
                let _ = writeln!(out, "    {line}");
            }
            if !item.reference.is_empty() {
                let _ = writeln!(out, "  protocol.md: {}", item.reference);
            }
        }
        let failed: Vec<&str> = self
            .items
            .iter()
            .filter(|i| i.status == Status::Fail)
            .map(|i| i.item.as_str())
            .collect();
        if failed.is_empty() {
            let _ = writeln!(out, "\na match can run: no item failed");
        } else {
            let _ = writeln!(
                out,
                "\na match cannot run: {} failed ({})",
                failed.len(),
                failed.join(", ")
            );
        }
        out
    }
}
