//! `queens verify`: reads a board in any format and names every attacking pair.

use std::fs;
use std::io::{self, IsTerminal, Read, Write};

use anyhow::{Context, bail};
use queens_core::notation::{parse_board, square_name};
use queens_core::verify::verify;
use serde_json::json;

use crate::args::VerifyArgs;
use crate::exit::Exit;

/// Runs `queens verify`.
pub fn run(args: &VerifyArgs) -> anyhow::Result<Exit> {
    let input = match args.file.as_deref() {
        Some(path) if path.as_os_str() != "-" => {
            fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?
        }
        _ => {
            let mut stdin = io::stdin();
            if stdin.is_terminal() {
                bail!("no board given: name a FILE or pipe a board into standard input");
            }
            let mut text = String::new();
            stdin
                .read_to_string(&mut text)
                .context("cannot read standard input")?;
            text
        }
    };
    let board = parse_board(&input)?;
    let report = verify(&board);
    let cols = board.cols();
    let mut out = io::stdout().lock();
    if args.json {
        let conflicts: Vec<_> = report
            .conflicts()
            .map(|c| json!({"a": c.a, "b": c.b, "line": c.line}))
            .collect();
        let document = json!({
            "rows": board.rows(),
            "cols": board.cols(),
            "queens": board.queens().len(),
            "valid": report.is_solution(),
            "peaceful": report.is_peaceful(),
            "missing": report.missing(),
            "conflict_count": report.conflict_count(),
            "conflicts": conflicts,
        });
        serde_json::to_writer(&mut out, &document)?;
        writeln!(out)?;
    } else {
        let verdict = if report.is_solution() {
            "a valid solution".to_owned()
        } else {
            let mut problems = Vec::new();
            if report.missing() > 0 {
                problems.push(format!("{} missing", report.missing()));
            }
            if !report.is_peaceful() {
                let pairs = report.conflict_count();
                problems.push(format!(
                    "{pairs} attacking pair{}",
                    if pairs == 1 { "" } else { "s" }
                ));
            }
            format!("not a solution: {}", problems.join(", "))
        };
        writeln!(
            out,
            "{}×{} board, {} queens: {verdict}",
            board.rows(),
            board.cols(),
            board.queens().len()
        )?;
        for conflict in report.conflicts() {
            writeln!(
                out,
                "  {} attacks {} along a {}",
                square_name(conflict.a, cols),
                square_name(conflict.b, cols),
                conflict.line
            )?;
        }
    }
    out.flush()?;
    Ok(if report.is_solution() {
        Exit::Success
    } else {
        Exit::NoAnswer
    })
}
