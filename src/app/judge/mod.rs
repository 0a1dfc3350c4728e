//! Judging a game: which legal move a recorded move means (`resolve`), the replay under the
//! rules of its variant (`replay`), the draw rules along it (`draws`), the diagnostics and
//! their codes (`diagnostic`), the verdict on one game (`validate`) and what of it is
//! reported (`findings`).

pub mod diagnostic;
pub mod draws;
pub mod findings;
pub mod replay;
pub mod resolve;
pub mod validate;
