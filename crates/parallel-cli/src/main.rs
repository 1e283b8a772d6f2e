//! `parallel-lab`: see `parallel-lab --help`.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use parallel_cli::CliError;

fn main() -> ExitCode {
    let args: Result<Vec<String>, CliError> = std::env::args_os()
        .skip(1)
        .map(|arg| {
            arg.into_string().map_err(|arg| {
                let arg = parallel_core::numbers::quoted_text(&arg.to_string_lossy());
                CliError::invalid("argument", format!("`{arg}` is not valid UTF-8"))
            })
        })
        .collect();
    let mut out = BufWriter::new(io::stdout().lock());
    let result = args.and_then(|args| parallel_cli::run(&args, &mut io::stdin().lock(), &mut out));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`parallel-lab table | head`): nothing left to say.
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            // Not eprintln!: it panics when stderr is closed.
            let _ = writeln!(io::stderr(), "parallel-lab: error: {e}");
            ExitCode::from(e.exit_status())
        }
    }
}
