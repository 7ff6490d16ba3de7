//! `queens verify`: reads a board in any format and names every attacking pair.
//!
//! A permutation is read as a stream: up to [`DETAILED_UP_TO`] columns it is checked in full and
//! every attacking pair named; beyond, it is checked in a few bits per queen as it arrives, and
//! the first queens found on an occupied line are named.

use queens_core::words::counted;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};

use anyhow::{Context, bail};
use queens_api::document::VerifyDocument;
use queens_api::verify::{Checked, VerifySpec, check};
use queens_core::notation::square_name;
use queens_core::read::{MAX_TEXT_BYTES, SHOWN_CONFLICTS, read_board_of_length};
use queens_core::verify::{PermutationReport, Verification};
use queens_core::{Board, Square};

use crate::args::VerifyArgs;
use crate::commands::parse_size;
use crate::exit::Exit;

/// Permutations up to this many columns are kept and checked in full.
const DETAILED_UP_TO: usize = 100_000;

/// Runs `queens verify`.
pub fn run(args: &VerifyArgs) -> anyhow::Result<Exit> {
    let size = args.size.as_deref().map(parse_size).transpose()?;
    // The input's length, when it is a regular file (named, or redirected into stdin): a
    // permutation's rows are then bounded by the columns it can hold.
    let regular_length = |meta: std::fs::Metadata| meta.is_file().then_some(meta.len());
    let (mut input, input_bytes): (Box<dyn BufRead>, Option<u64>) = match args.file.as_deref() {
        Some(path) if path.as_os_str() != "-" => {
            let file =
                File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
            // A directory opens, then fails to read with no name to it: say so first.
            if file.metadata().is_ok_and(|meta| meta.is_dir()) {
                bail!("{} is a directory, not a board", path.display());
            }
            let length = file.metadata().ok().and_then(regular_length);
            (Box::new(BufReader::with_capacity(1 << 20, file)), length)
        }
        _ => {
            if io::stdin().is_terminal() {
                bail!("no board given: name a FILE or pipe a board into standard input");
            }
            let length = std::fs::metadata("/dev/stdin")
                .ok()
                .and_then(regular_length);
            (
                Box::new(BufReader::with_capacity(1 << 20, io::stdin().lock())),
                length,
            )
        }
    };
    let spec = VerifySpec {
        size,
        queen_count: args.queen_count,
    };
    let read = read_board_of_length(
        &mut input,
        DETAILED_UP_TO,
        MAX_TEXT_BYTES,
        size,
        input_bytes,
    )?;
    match check(read, &spec)? {
        Checked::Held {
            board,
            report,
            size_guessed,
        } => report_board(&board, &report, size_guessed, args),
        Checked::Streamed(report) => report_stream(&report, args.json),
    }
}

fn report_board(
    board: &Board,
    report: &Verification,
    size_guessed: bool,
    args: &VerifyArgs,
) -> anyhow::Result<Exit> {
    let cols = board.cols();
    let shown = if args.all_conflicts {
        usize::MAX
    } else {
        SHOWN_CONFLICTS
    };
    let truncated = report.conflict_count() > shown as u64;
    let mut out = io::BufWriter::new(crate::output::standard_output());
    if args.json {
        let document = VerifyDocument::of_board(board.rows(), cols, report, shown);
        super::write_json_line(&mut out, &document)?;
    } else {
        let mut problems = Vec::new();
        if report.missing() > 0 {
            problems.push(format!("{} missing", report.missing()));
        }
        if report.queen_count() > report.expected() {
            problems.push(format!(
                "{} too many",
                report.queen_count() - report.expected()
            ));
        }
        if !report.is_peaceful() {
            let pairs = report.conflict_count();
            problems.push(counted(pairs, "attacking pair", "attacking pairs"));
        }
        let names = |squares: &[Square]| {
            let names: Vec<String> = squares.iter().map(|&s| square_name(s, cols)).collect();
            names.join(", ")
        };
        if !report.unfixed().is_empty() {
            problems.push(format!("no queen on fixed {}", names(report.unfixed())));
        }
        if !report.on_blocked().is_empty() {
            problems.push(format!("a queen on blocked {}", names(report.on_blocked())));
        }
        // A list of squares does not say its board: the one judged is named as a guess.
        let guessed = if size_guessed {
            " (the smallest holding these queens; --size N sets it)"
        } else {
            ""
        };
        writeln!(
            out,
            "{}×{} board{guessed}, {}: {}",
            board.rows(),
            board.cols(),
            counted(board.queen_count() as u64, "queen", "queens"),
            verdict(report.is_solution(), &problems)
        )?;
        for conflict in report.conflicts().take(shown) {
            writeln!(
                out,
                "  {} attacks {} along {}",
                square_name(conflict.a, cols),
                square_name(conflict.b, cols),
                conflict.line.with_article()
            )?;
        }
        if truncated {
            writeln!(
                out,
                "  … and {} more pairs (--all-conflicts lists them all)",
                report.conflict_count() - shown as u64
            )?;
        }
    }
    out.flush()?;
    Ok(exit(report.is_solution()))
}

fn report_stream(report: &PermutationReport, json: bool) -> anyhow::Result<Exit> {
    let n = report.n;
    let mut out = io::BufWriter::new(crate::output::standard_output());
    if json {
        super::write_json_line(&mut out, &VerifyDocument::streamed(report))?;
    } else {
        let mut problems = Vec::new();
        if report.missing() > 0 {
            problems.push(format!("{} missing", report.missing()));
        }
        if report.collisions > 0 {
            problems.push(format!(
                "{} on a line already holding one",
                counted(report.collisions, "queen", "queens")
            ));
        }
        writeln!(
            out,
            "{n}×{n} board, {}: {}",
            counted(report.queens, "queen", "queens"),
            verdict(report.is_solution(), &problems)
        )?;
        for collision in &report.first_collisions {
            writeln!(
                out,
                "  the queen on {} shares its {} with an earlier queen",
                square_name(collision.queen, n),
                collision.line
            )?;
        }
    }
    out.flush()?;
    Ok(exit(report.is_solution()))
}

fn verdict(valid: bool, problems: &[String]) -> String {
    if valid {
        "a valid solution".to_owned()
    } else {
        format!("not a solution: {}", problems.join(", "))
    }
}

fn exit(valid: bool) -> Exit {
    if valid { Exit::Success } else { Exit::NoAnswer }
}
