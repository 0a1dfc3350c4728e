//! The application layer, in four groups: the game model (`model`: a game as read, its
//! variant and result, the pipeline that reads games on all cores), judging (`judge`: move
//! resolution, replay, diagnostics and the verdict on a game), the features of the commands
//! (`fix`, `stats`, `search`, `openings`, `merge`, `picture`, `report`) and the writers
//! (`write`: the exporters, the JSON writer, text made safe for a terminal); `input` turns
//! the paths given into the files read (directories walked, gzip and UTF-16 decoded).

pub mod fix;
pub mod input;
pub mod judge;
pub mod merge;
pub mod model;
pub mod openings;
pub mod picture;
pub mod report;
pub mod search;
pub mod stats;
pub mod write;
