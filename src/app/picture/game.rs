//! The diagram of a position in a game: the game replayed (as `validate` replays it) to a ply
//! of its main line, the move that led there drawn, the move as caption.

use crate::rules::notation::{self, SquareStyle};
use crate::rules::{Color, Position, Spec};
use crate::syntax::Game;

use super::super::replay::{Observer, Played, PlyEvent};
use super::super::validate::{self, Options as ValidateOptions};
use super::{Diagram, Options, move_squares, to_play};

/// Why a game gives no diagram.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameDiagramError {
    /// No variant fits the game.
    UnknownVariant,
    /// The main line has fewer plies than asked for.
    TooFewPlies {
        /// Asked for.
        asked: u32,
        /// Replayed.
        plies: u32,
    },
    /// The start position could not be set up (a bad FEN).
    NoStart(String),
}

impl std::fmt::Display for GameDiagramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameDiagramError::UnknownVariant => {
                f.write_str("no variant fits the game; use --variant")
            }
            GameDiagramError::TooFewPlies { asked, plies } => write!(
                f,
                "ply {asked} asked for, but the main line has {plies} (as far as it replays)"
            ),
            GameDiagramError::NoStart(why) => write!(f, "no start position: {why}"),
        }
    }
}

impl std::error::Error for GameDiagramError {}

/// The caption of a move: `17. 32x23` for the first mover, `17... 18x27` for the other.
pub fn move_caption(number: u32, side: Color, first: Color, text: &str) -> String {
    if side == first {
        format!("{number}. {text}")
    } else {
        format!("{number}... {text}")
    }
}

/// Takes the diagram of the wanted ply (or of the last one) as the replay goes.
struct Snapshot {
    /// The ply wanted; None for the end of the main line.
    ply: Option<u32>,
    options: Options,
    diagram: Option<Diagram>,
    started: bool,
    plies: u32,
}

impl Observer for Snapshot {
    fn position<V: Spec>(&mut self, pos: &Position<V::B>, main: bool) {
        if !main {
            return;
        }
        let first = !self.started;
        self.started = true;
        // The start position is ply 0 (and the end until a move follows); a setup of the
        // main line is the end until a move follows it.
        let wanted = if first {
            self.ply.is_none() || self.ply == Some(0)
        } else {
            self.ply.is_none()
        };
        if wanted {
            self.diagram = Some(Diagram::of::<V>(pos, self.options.clone()));
        }
    }

    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if !e.main {
            return;
        }
        self.plies = self.plies.max(e.ply);
        if self.ply.is_some_and(|p| p != e.ply) {
            return;
        }
        let text = notation::write(
            V::geometry(),
            V::numbering(),
            e.mv,
            e.route,
            e.ambiguous,
            SquareStyle::Native,
            'x',
        );
        let (stops, captured) = move_squares(e.mv, e.route);
        let mut d =
            Diagram::of::<V>(e.after, self.options.clone()).with_move(&stops, &captured, false);
        if let Some(m) = &mut d.drawn {
            m.irregular = matches!(e.played, Played::Irregular(_));
        }
        let first = V::RULES.first_mover();
        d.caption = format!(
            "{} · {}",
            move_caption(e.number, e.side, first, &text),
            to_play(e.after.side())
        );
        self.diagram = Some(d);
    }
}

/// The diagram after `ply` plies of the game's main line (0: the start position; None: the
/// end of the main line as far as it replays), the move that led there drawn.
///
/// # Errors
///
/// [`GameDiagramError`] when the variant is unknown, the start position is bad or the main
/// line is shorter than `ply`.
pub fn game_diagram(
    game: &Game,
    how: &ValidateOptions,
    ply: Option<u32>,
    options: Options,
) -> Result<Diagram, GameDiagramError> {
    let mut snap = Snapshot {
        ply,
        options,
        diagram: None,
        started: false,
        plies: 0,
    };
    let report = validate::validate_with(game, how, &mut snap);
    let Some(variant) = report.variant else {
        return Err(GameDiagramError::UnknownVariant);
    };
    if !snap.started {
        let why = report
            .diagnostics
            .iter()
            .find(|d| d.code == super::super::diagnostic::Code::BadFen)
            .map_or_else(|| format!("{} game", variant.name()), |d| d.message.clone());
        return Err(GameDiagramError::NoStart(why));
    }
    match (snap.diagram, ply) {
        (Some(d), Some(p)) if p == 0 || snap.plies >= p => Ok(d),
        (Some(d), None) => Ok(d),
        (_, Some(asked)) => Err(GameDiagramError::TooFewPlies {
            asked,
            plies: snap.plies,
        }),
        (None, None) => Err(GameDiagramError::NoStart(variant.name().to_string())),
    }
}
