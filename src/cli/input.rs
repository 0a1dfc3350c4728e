//! The command line's inputs ([`pdn::app::input`]), with standard input refused when it was
//! closed at start.

use std::io::{self, Read};

pub(super) use pdn::app::input::{Expanded, InputList, InputRef, Source, Stamp, expand, is_gzip};

/// Open an input for reading (see [`pdn::app::input::open`]).
pub(super) fn open(input: InputRef<'_>) -> io::Result<Box<dyn Read + Send>> {
    if input.is_stdin() && super::output::stdin_closed() {
        return Err(io::Error::other(
            "standard input was closed when pdn started (`<&-`)",
        ));
    }
    pdn::app::input::open(input)
}
