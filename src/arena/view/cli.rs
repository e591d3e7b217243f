//! `hamle view RECORD [--out FILE.html]`: one record's viewer page.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::page::PageLinks;
use super::{page_of_record, read_record};
use crate::arena::store::write_atomically;

/// `hamle view`'s arguments.
#[derive(Args, Debug)]
pub struct ViewArgs {
    /// The record: an SGF file (Go, ours, GoGui's or Sabaki's), a `.mat` match (Tavla,
    /// ours or gnubg's), or an Abalone, Kulami or Mangala text record.
    pub record: PathBuf,
    /// Where the page goes; default: beside the record, its name ending in `.html`.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Writes the page; exit 2 when the record cannot be read or its game is unknown (with
/// one line saying why), 1 when the page cannot be written.
pub fn run(args: ViewArgs) -> ExitCode {
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.record.with_extension("html"));
    if out == args.record {
        eprintln!("hamle view: --out would overwrite the record itself");
        return ExitCode::from(2);
    }
    let page = match page_of_file(&args.record) {
        Ok(page) => page,
        Err(message) => {
            eprintln!("hamle view: {message}");
            return ExitCode::from(2);
        }
    };
    match write_atomically(&out, page.as_bytes()) {
        Ok(()) => {
            println!("{}", out.display());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("hamle view: {error}");
            ExitCode::FAILURE
        }
    }
}

fn page_of_file(path: &Path) -> Result<String, String> {
    let text = read_record(path)?;
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    let links = PageLinks {
        costs: super::costs::costs_in_record(&text),
        ..PageLinks::default()
    };
    page_of_record(&text, &extension, &links)
        .map_err(|error| format!("{}: {error}", path.display()))
}
