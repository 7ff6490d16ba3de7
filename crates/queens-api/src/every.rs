//! Every solution of a board, as `solve --all` and Python's `solutions()` list them: an
//! exhaustive search told to go on past its first solution, the same for every front end.

use queens_core::parameters::ParamValue;
use queens_solvers::UnknownSolver;
use thiserror::Error;

use crate::{Catalogue, SolverKind};

/// Why a listing of every solution was refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum EveryError {
    /// The solver named is no solver.
    #[error(transparent)]
    Unknown(#[from] UnknownSolver),
    /// The solver named finds one solution, not every one.
    #[error(
        "{solver} finds one solution; every solution is listed by an exhaustive search ({listers})"
    )]
    FindsOne {
        /// The solver named.
        solver: &'static str,
        /// The solvers that list every solution, comma-separated.
        listers: String,
    },
}

/// The solver that lists every solution of a board of `rows` rows and `cols` columns with
/// `queen_count` queens (by default one a row where there are as many columns): `solver` where
/// one is named, else [`Catalogue::lister_for`]'s; and `params` with `solutions = 0` (every
/// one) unless they say how many.
pub fn every_solution(
    solver: Option<&str>,
    rows: u32,
    cols: u32,
    queen_count: Option<u32>,
    params: &mut Vec<(String, ParamValue)>,
) -> Result<SolverKind, EveryError> {
    let solver = match solver {
        Some(name) => Catalogue::standard().get(name)?,
        None => Catalogue::lister_for(rows, queen_count.unwrap_or(rows.min(cols))),
    };
    if !solver.finds_every_solution() {
        let listers: Vec<&str> = Catalogue::standard()
            .listers()
            .into_iter()
            .map(SolverKind::name)
            .collect();
        return Err(EveryError::FindsOne {
            solver: solver.name(),
            listers: listers.join(", "),
        });
    }
    if !params.iter().any(|(name, _)| name == "solutions") {
        params.push(("solutions".to_owned(), 0.0.into()));
    }
    Ok(solver)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_solution_takes_an_exhaustive_search_and_all_unless_told_how_many() {
        let mut params = Vec::new();
        let solver = every_solution(None, 8, 8, None, &mut params).unwrap();
        assert_eq!(solver.name(), "forward-checking");
        assert_eq!(
            params,
            vec![("solutions".to_owned(), ParamValue::from(0.0))]
        );
        // A row left empty: brute force; a count given is kept.
        let mut params = vec![("solutions".to_owned(), ParamValue::from(3.0))];
        let solver = every_solution(None, 3, 4, Some(2), &mut params).unwrap();
        assert_eq!(solver.name(), "brute-force");
        assert_eq!(params.len(), 1);
        assert_eq!(
            every_solution(Some("min-conflicts"), 8, 8, None, &mut Vec::new())
                .unwrap_err()
                .to_string(),
            "min-conflicts finds one solution; every solution is listed by an exhaustive search \
             (brute-force, row-brute-force, backtracking, forward-checking)"
        );
        assert!(matches!(
            every_solution(Some("nope"), 8, 8, None, &mut Vec::new()),
            Err(EveryError::Unknown(_))
        ));
    }
}
