//! A plan from a page link (`--url`): the page's codec, read strictly. The page applies what
//! it can and shows a notice for the rest; the command line refuses a link with any part it
//! would have to ignore, naming the first one.

use parallel_core::link::{decode, GridId};
use parallel_core::PlanConfig;

use crate::args::LinkArgs;
use crate::error::CliError;

/// The plan of the chosen grid, and the card the link selects on it.
pub fn plan_of(args: &LinkArgs) -> Result<(PlanConfig, Option<u32>), CliError> {
    let (state, ignored) = decode(&args.url);
    if let Some(first) = ignored.first() {
        return Err(CliError::invalid("--url", first));
    }
    let fragment = args
        .url
        .rsplit_once('#')
        .map_or(args.url.as_str(), |(_, f)| f);
    let named: Vec<GridId> = GridId::ALL
        .into_iter()
        .filter(|g| {
            fragment
                .split('&')
                .any(|part| part.split_once('=').map_or(part, |(k, _)| k) == g.key())
        })
        .collect();
    let grid = match (args.grid, named.as_slice()) {
        (Some(grid), _) => grid,
        (None, [grid]) => *grid,
        (None, _) => {
            return Err(CliError::invalid(
                "--grid",
                "the link names both grids or neither: choose --grid 8 or --grid 64",
            ))
        }
    };
    Ok((state.plan(grid).clone(), state.card(grid)))
}
