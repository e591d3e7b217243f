//! The `[tune]` table of a bot file: each tuned option's start, range and step.
//!
//! ```toml
//! [options]
//! x = 50                                  # what a plain match plays
//!
//! [tune]
//! x = { start = 70, min = 0, max = 100, step = 8 }   # optional: r_end = 0.05
//! ```
//!
//! `step` is OpenBench's `c_end` (the perturbation at the last iteration), `r_end` its
//! learning rate at the last iteration (default `--r-end`). A tuned option must be one of
//! the bot's `[options]` and a number there; an integer option stays an integer (each
//! perturbed value is rounded at random, as OpenBench does). Every mistake is one message
//! naming the line, before anything is played.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::arena::bots::OptionValue;

/// One tuned option.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// OpenBench's `c_end`: the perturbation at the last iteration.
    pub step: f64,
    /// OpenBench's `r_end`; `None` takes the run's `--r-end`.
    pub r_end: Option<f64>,
    /// The option is an integer in `[options]`: the engine is given integers.
    pub integer: bool,
}

impl Param {
    /// The value given to the engine: an integer option's rounded, a float's to 6 decimals
    /// (so that command lines and match.txt stay readable).
    pub fn engine_value(&self, value: f64) -> OptionValue {
        let value = value.clamp(self.min, self.max);
        if self.integer {
            OptionValue::Integer(value.round() as i64)
        } else {
            OptionValue::Float((value * 1e6).round() / 1e6)
        }
    }

    /// The line of `tune.txt` that records it (compared on `--resume`).
    pub fn setting(&self) -> String {
        let r_end = self
            .r_end
            .map_or_else(String::new, |r| format!(" r_end={r}"));
        let kind = if self.integer { "int" } else { "float" };
        format!(
            "{kind} start={} min={} max={} step={}{r_end}",
            self.start, self.min, self.max, self.step
        )
    }
}

/// The fields read from a bot file for tuning; the rest is the bot's (`bots.rs`).
#[derive(Deserialize)]
struct TuneFile {
    #[serde(default)]
    options: BTreeMap<String, OptionValue>,
    #[serde(default)]
    tune: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
}

/// Reads the `[tune]` table of a bot file's text; errors name the line. A file without
/// one is an error that shows what to add.
pub fn read_tune(text: &str) -> Result<Vec<Param>, String> {
    let file: TuneFile = toml::from_str(text).map_err(|error| error.message().to_owned())?;
    let mut params = Vec::new();
    for (key, value) in &file.tune {
        let line = line_of(text, key.span().start);
        let name = key.get_ref();
        let param = read_param(name, value.get_ref(), file.options.get(name))
            .map_err(|why| format!("line {line}: [tune] {name}: {why}"))?;
        params.push(param);
    }
    if params.is_empty() {
        return Err("no [tune] table: name each tuned option's start, range and step, e.g. `[tune]` then `x = { start = 50, min = 0, max = 100, step = 5 }`".to_owned());
    }
    Ok(params)
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// One entry checked against the bot's `[options]`.
fn read_param(
    name: &str,
    value: &toml::Value,
    option: Option<&OptionValue>,
) -> Result<Param, String> {
    let integer = match option {
        Some(OptionValue::Integer(_)) => true,
        Some(OptionValue::Float(_)) => false,
        Some(other) => {
            return Err(format!(
                "option `{name}` is `{other}` in [options], not a number; only numeric options can be tuned"
            ));
        }
        None => {
            return Err(format!(
                "unknown option: `{name}` is not in the bot's [options]; add it there (its value is what a plain match plays)"
            ));
        }
    };
    let toml::Value::Table(table) = value else {
        return Err(
            "expected a table, e.g. { start = 50, min = 0, max = 100, step = 5 }".to_owned(),
        );
    };
    if let Some(unknown) = table
        .keys()
        .find(|k| !["start", "min", "max", "step", "r_end"].contains(&k.as_str()))
    {
        return Err(format!(
            "unknown field `{unknown}` (expected start, min, max, step and optionally r_end)"
        ));
    }
    let number = |field: &str| -> Result<Option<f64>, String> {
        match table.get(field) {
            None => Ok(None),
            Some(toml::Value::Integer(n)) => Ok(Some(*n as f64)),
            Some(toml::Value::Float(x)) if x.is_finite() => Ok(Some(*x)),
            Some(other) => Err(format!("`{field}` must be a number, got {other}")),
        }
    };
    let required = |field: &str| -> Result<f64, String> {
        number(field)?.ok_or_else(|| format!("`{field}` is missing"))
    };
    let param = Param {
        name: name.to_owned(),
        start: required("start")?,
        min: required("min")?,
        max: required("max")?,
        step: required("step")?,
        r_end: number("r_end")?,
        integer,
    };
    check(&param)?;
    Ok(param)
}

fn check(param: &Param) -> Result<(), String> {
    if param.min >= param.max {
        return Err(format!(
            "the range is empty: min {} is not below max {}",
            param.min, param.max
        ));
    }
    if param.start < param.min || param.start > param.max {
        return Err(format!(
            "the range {}..{} excludes the start {}",
            param.min, param.max, param.start
        ));
    }
    if param.step <= 0.0 {
        return Err(format!(
            "step must be above 0, got {}; it is the perturbation at the last iteration (OpenBench's c_end)",
            param.step
        ));
    }
    if param.r_end.is_some_and(|r| r <= 0.0) {
        return Err("r_end must be above 0".to_owned());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "name = \"b\"\ngame = \"mangala\"\ncommand = [\"hamle\", \"mangala\"]\n[options]\nx = 50\nw = \"1,2\"\n[tune]\n";

    fn error(tune: &str) -> String {
        read_tune(&format!("{HEAD}{tune}")).expect_err("refused")
    }

    #[test]
    fn a_good_table_is_read() {
        let params = read_tune(&format!(
            "{HEAD}x = {{ start = 70, min = 0, max = 100, step = 8 }}\n"
        ))
        .expect("read");
        assert_eq!(params.len(), 1);
        assert!(params[0].integer);
        assert_eq!((params[0].start, params[0].step), (70.0, 8.0));
    }

    #[test]
    fn mistakes_name_the_line() {
        let unknown = error("y = { start = 1, min = 0, max = 2, step = 1 }\n");
        assert!(
            unknown.starts_with("line 8: [tune] y: unknown option"),
            "{unknown}"
        );
        let range = error("x = { start = 170, min = 0, max = 100, step = 8 }\n");
        assert!(
            range.contains("line 8") && range.contains("excludes the start 170"),
            "{range}"
        );
        let step = error("x = { start = 70, min = 0, max = 100, step = 0 }\n");
        assert!(step.contains("step must be above 0"), "{step}");
        let negative = error("x = { start = 70, min = 0, max = 100, step = -2 }\n");
        assert!(
            negative.contains("step must be above 0, got -2"),
            "{negative}"
        );
        let text = error("w = { start = 1, min = 0, max = 2, step = 1 }\n");
        assert!(
            text.contains("line 8") && text.contains("not a number"),
            "{text}"
        );
    }
}
