//! The game model: a game as the commands read it (the visitor-filled [`record::Record`] and
//! the [`reading::GameRef`] handed to each command's work), its variant, its result, and the
//! pipeline that reads games on all cores.

pub mod gametype;
pub(crate) mod key;
pub mod outcome;
pub mod pipeline;
pub mod reading;
pub mod record;
