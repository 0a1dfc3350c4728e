//! `pdn diagram`: a position drawn as a book diagram, SVG or PNG, from a FEN or from a ply
//! of a game in a PDN file.

use std::io::{IsTerminal, Write};

use anyhow::{Context, Result, anyhow, bail};
use pdn::app::judge::diagnostic::Severity;
use pdn::app::judge::validate::Options as ValidateOptions;
use pdn::app::model::reading::FileGames;
use pdn::app::picture::{self, Diagram, Format, Options};
use pdn::app::write::terminal::escape;
use pdn::rules::{Spec, Variant, with_variant};
use pdn::syntax::Reader;

use super::Status;
use super::args::{DiagramArgs, DiagramFormat};
use super::common;
use super::input::{self, Source};
use super::output::{Output, unwritten};
use super::progress;

pub(super) fn run(a: &DiagramArgs) -> Result<Status> {
    let format = match a.format {
        Some(DiagramFormat::Svg) => Format::Svg,
        Some(DiagramFormat::Png) => Format::Png,
        None => match &a.output {
            Some(p) if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) => Format::Png,
            _ => Format::Svg,
        },
    };
    if !(picture::MIN_SIZE..=picture::MAX_SIZE).contains(&a.size) {
        bail!(
            "--size {}: a picture is {} to {} pixels wide",
            a.size,
            picture::MIN_SIZE,
            picture::MAX_SIZE
        );
    }
    if format == Format::Png && a.output.is_none() && std::io::stdout().is_terminal() {
        bail!("a PNG is not for the terminal: write it with -o FILE or redirect the output");
    }
    let variant = a.variant;
    let options = Options {
        numbers: a.numbers,
        flip: a.flip,
        size: a.size,
    };
    let (mut diagram, damaged) = match (&a.fen, variant) {
        (Some(fen), Some(v)) => (with_variant!(v, V => from_fen::<V>(fen, options))?, None),
        (Some(_), None) => bail!("--fen needs --variant"),
        (None, _) => from_game(a, variant, options)?,
    };
    if let Some(c) = &a.caption {
        diagram.caption = c.clone();
    }
    let bytes = picture::render(&diagram, format)?;
    let mut out = Output::open_data(a.output.as_deref())?;
    out.write_all(&bytes).map_err(unwritten("the diagram"))?;
    out.finish()?;
    // A game with syntax errors is drawn from what could be read, and said (exit 1): binary
    // garbage is no start position.
    if let Some(why) = damaged {
        progress::message(&format!("pdn: {}: {why}", common::label(Severity::Error)));
        return Ok(Status::Errors);
    }
    Ok(Status::Clean)
}

fn from_fen<V: Spec>(fen: &str, options: Options) -> Result<Diagram> {
    let pos = V::from_fen(fen).map_err(|e| anyhow!("bad FEN `{}`: {e}", escape(fen)))?;
    Ok(Diagram::of::<V>(&pos, options))
}

/// Game `--game` of the file, replayed to `--ply`; with what is wrong with the game's text
/// when it has syntax errors (it is drawn from what was read).
fn from_game(
    a: &DiagramArgs,
    variant: Option<Variant>,
    options: Options,
) -> Result<(Diagram, Option<String>)> {
    let path = match &a.path {
        Some(p) => p.clone(),
        None if std::io::stdin().is_terminal() => {
            bail!("give --fen FEN --variant V, or a PDN file (PATH, or - for standard input)")
        }
        None => "-".into(),
    };
    let input::Expanded { inputs, errors, .. } = input::expand(std::slice::from_ref(&path));
    if let Some((name, e)) = errors.first() {
        bail!("{}: {}", escape(name), escape(&e.to_string()));
    }
    let (1, Some(input)) = (inputs.len(), inputs.iter().next()) else {
        bail!(
            "{}: give one PDN file, not a directory",
            escape(&path.display().to_string())
        );
    };
    if let (Some(o), Source::File(_)) = (&a.output, input.source()) {
        common::not_an_input("-o", o, &inputs)?;
    }
    if a.game == 0 {
        bail!("--game counts from 1");
    }
    let name = escape(&input.name()).into_owned();
    let mut reader = Reader::new(input::open(input).with_context(|| name.clone())?);
    let mut games = FileGames::new(0);
    let mut read = 0usize;
    let game = loop {
        // The game asked for, owned, with the hint of the games before it in the file.
        let found = games
            .next(&mut reader, |g| {
                (g.index() == a.game).then(|| (g.to_game(), g.hint))
            })
            .with_context(|| format!("{name}: cannot read game {}", read + 1))?;
        let Some(found) = found else {
            bail!(
                "{name} has {read} game{}, not {}",
                if read == 1 { "" } else { "s" },
                a.game
            );
        };
        read += 1;
        if let Some(game) = found {
            break game;
        }
    };
    let how = ValidateOptions {
        variant,
        diagrams: false,
        hint: game.1,
        main_line: false,
    };
    let diagram = picture::game_diagram(&game.0, &how, a.ply, options)
        .map_err(|e| anyhow!("{name}, game {}: {e}", a.game))?;
    let damaged = game.0.errors.first().map(|e| {
        let (line, col) = game.0.line_col(e.span.start);
        let n = game.0.errors.len();
        format!(
            "{name}, game {}: {n} syntax error{} (the first at {line}:{col}: {}); the position \
             is drawn from what could be read",
            a.game,
            if n == 1 { "" } else { "s" },
            escape(&e.message)
        )
    });
    Ok((diagram, damaged))
}
