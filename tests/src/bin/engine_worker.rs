//! The engine worker the tests run cells in (`isolation = "process"`):
//! the one line an embedder's worker binary needs.

fn main() -> std::process::ExitCode {
    codemode_runtime::engine_worker()
}
