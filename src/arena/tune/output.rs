//! What a tune writes besides its matches: the progress line, `theta.tsv`, `tune.html`
//! (one chart a parameter: its value after each iteration) and the tuned bot file.

use std::fmt::Write;
use std::path::PathBuf;

use super::{Step, Tune, tuned_path};
use crate::arena::match_play::MatchError;
use crate::arena::report::{colour, escape, tick_step};

/// `tune: iteration 12/100, 24 games (+2), x=41.3 y=0.52`
pub fn progress_line(tune: &Tune, steps: &[Step]) -> String {
    let Some(last) = steps.last() else {
        return String::new();
    };
    let games: usize = steps.iter().map(|s| s.games).sum();
    format!(
        "tune: iteration {}/{}, {games} games ({:+}), {}",
        last.iteration,
        tune.schedule.iterations,
        // Adding 0 turns -0 (no wins less no losses, counted from the minus side) into 0.
        last.result + 0.0,
        theta_text(tune, &last.theta)
    )
}

fn theta_text(tune: &Tune, theta: &[f64]) -> String {
    let values: Vec<String> = tune
        .params
        .iter()
        .zip(theta)
        .map(|(p, x)| format!("{}={}", p.name, round_for_show(*x)))
        .collect();
    values.join(" ")
}

fn round_for_show(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn io(error: crate::files::FileError) -> MatchError {
    MatchError::Invalid(error.to_string())
}

/// Rewrites `theta.tsv` and `tune.html` from the steps so far.
pub fn write_progress(tune: &Tune, steps: &[Step]) -> Result<(), MatchError> {
    let mut tsv = String::from("iteration\tgames\tresult");
    for param in &tune.params {
        let _ = write!(tsv, "\t{}", param.name);
    }
    tsv.push('\n');
    for step in steps {
        let _ = write!(tsv, "{}\t{}\t{}", step.iteration, step.games, step.result);
        for x in &step.theta {
            let _ = write!(tsv, "\t{x}");
        }
        tsv.push('\n');
    }
    crate::files::write_atomic(&tune.out_dir.join("theta.tsv"), tsv.as_bytes()).map_err(io)?;
    write_page(tune, steps, None)
}

/// The bot file of the tuned values: the original file as its author wrote it (comments,
/// order and layout kept: `toml_edit` edits the document in place), named `NAME-tuned`,
/// its `[options]` set to θ and its `[tune]` starts moved there (to tune on from it).
pub fn write_tuned_bot(tune: &Tune, theta: &[f64]) -> Result<PathBuf, MatchError> {
    let mut doc: toml_edit::DocumentMut = tune
        .bot_text
        .parse()
        .map_err(|error| MatchError::Invalid(format!("cannot read the bot file again: {error}")))?;
    doc["name"] = toml_edit::value(format!("{}-tuned", tune.bot.name));
    // A relative working folder is relative to the bot file's folder, which the tuned file
    // is not in: it is written as the folder it names.
    if let Some(dir) = &tune.bot.working_dir
        && doc.contains_key("working_dir")
    {
        let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
        doc["working_dir"] = toml_edit::value(absolute.display().to_string());
    }
    for (param, &x) in tune.params.iter().zip(theta) {
        let value = match param.engine_value(x) {
            crate::arena::bots::OptionValue::Integer(n) => toml_edit::Value::from(n),
            other => toml_edit::Value::from(other.to_string().parse().unwrap_or(x)),
        };
        set(&mut doc, &["options", &param.name], &value);
        set(&mut doc, &["tune", &param.name, "start"], &value);
    }
    let text = format!(
        "# Tuned by `hamle tune` from {} ({} iterations, seed {}): {}\n{doc}",
        tune.bot.source.display(),
        tune.schedule.iterations,
        tune.template.seed,
        theta_text(tune, theta)
    );
    let path = tuned_path(&tune.out_dir);
    crate::files::write_atomic(&path, text.as_bytes()).map_err(io)?;
    Ok(path)
}

/// Sets the value at `path` (tables or inline tables), keeping the old value's comment
/// and spacing; a path the file lacks is left alone (the bot file was read and checked
/// with every tuned option in its `[options]` and `[tune]`).
fn set(doc: &mut toml_edit::DocumentMut, path: &[&str], value: &toml_edit::Value) {
    let Some((last, tables)) = path.split_last() else {
        return;
    };
    let mut table: &mut dyn toml_edit::TableLike = doc.as_table_mut();
    for key in tables {
        match table.get_mut(key).and_then(|item| item.as_table_like_mut()) {
            Some(inner) => table = inner,
            None => return,
        }
    }
    if let Some(old) = table.get_mut(last).and_then(|item| item.as_value_mut()) {
        let decor = old.decor().clone();
        *old = value.clone();
        *old.decor_mut() = decor;
    }
}

/// `tune.html`: the settings line, one chart a parameter, the verifying match's line.
pub fn write_page(tune: &Tune, steps: &[Step], verified: Option<&str>) -> Result<(), MatchError> {
    let mut page = String::from(concat!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        "<title>hamle tune</title>\n<style>body { font-family: sans-serif; margin: 2em; color: #222; }</style>\n",
        "</head>\n<body>\n<h1>hamle tune</h1>\n"
    ));
    let games: usize = steps.iter().map(|s| s.games).sum();
    let _ = writeln!(
        page,
        "<p>{}: {} of {} iterations, {games} games.</p>",
        escape(&tune.bot.name),
        steps.len(),
        tune.schedule.iterations
    );
    if let Some(line) = verified {
        let _ = writeln!(page, "<p>{}</p>", escape(line));
    }
    for (i, param) in tune.params.iter().enumerate() {
        let path: Vec<f64> = std::iter::once(param.start)
            .chain(steps.iter().map(|s| s.theta[i]))
            .collect();
        let _ = writeln!(
            page,
            "<h2>{}</h2>\n<p>start {}, now {}, range {} to {}</p>",
            escape(&param.name),
            param.start,
            round_for_show(path.last().copied().unwrap_or(param.start)),
            param.min,
            param.max
        );
        page.push_str(&path_chart(&path, param.min, param.max, i));
    }
    page.push_str("</body>\n</html>\n");
    crate::files::write_atomic(&tune.out_dir.join("tune.html"), page.as_bytes()).map_err(io)
}

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 60.0;
const TOP: f64 = 10.0;
const PLOT_W: f64 = WIDTH - LEFT - 20.0;
const PLOT_H: f64 = HEIGHT - TOP - 30.0;

/// One parameter's value against the iteration, over its whole range.
fn path_chart(path: &[f64], min: f64, max: f64, index: usize) -> String {
    let x = |i: usize| LEFT + PLOT_W * i as f64 / (path.len().max(2) - 1) as f64;
    let y = |v: f64| TOP + PLOT_H * (max - v) / (max - min);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{PLOT_W}\" height=\"{PLOT_H}\" fill=\"#fafafa\" stroke=\"#999\"/>\n"
    );
    let step = tick_step(max - min, 5.0);
    let mut tick = (min / step).ceil() * step;
    while tick <= max {
        let _ = writeln!(
            svg,
            "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"#ddd\"/><text x=\"{2}\" y=\"{3:.1}\" text-anchor=\"end\">{tick}</text>",
            y(tick),
            LEFT + PLOT_W,
            LEFT - 6.0,
            y(tick) + 4.0
        );
        tick += step;
    }
    let points: Vec<String> = path
        .iter()
        .enumerate()
        .map(|(i, v)| format!("{:.1},{:.1}", x(i), y(*v)))
        .collect();
    let _ = writeln!(
        svg,
        "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">iteration (0 to {})</text>\n</svg>",
        colour(index),
        points.join(" "),
        LEFT + PLOT_W / 2.0,
        HEIGHT - 6.0,
        path.len() - 1
    );
    svg
}
