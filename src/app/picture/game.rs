//! The diagram of a position in a game: the game replayed (as `validate` replays it, with the
//! position [`Tree`] of the HTML report watching) to a ply of its main line, the move that
//! led there drawn, the move as caption.

use crate::rules::{Color, Role};
use crate::syntax::Game;

use super::{Diagram, Drawn, Options, Placed, View, to_play};
use crate::app::judge::diagnostic::Code;
use crate::app::judge::replay::tree::Tree;
use crate::app::judge::validate::{self, Options as ValidateOptions};

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

/// The diagram of node `k` of a replay's tree: its position, and the move that led there.
fn from_node(view: View, tree: &Tree, k: usize, first: Color, options: Options) -> Option<Diagram> {
    let pos = tree.position(k)?;
    let mut chars = pos.chars();
    let side = if chars.next() == Some('B') {
        Color::Black
    } else {
        Color::White
    };
    let pieces = chars
        .enumerate()
        .filter_map(|(square, c)| {
            let (color, role) = match c {
                'w' => (Color::White, Role::Man),
                'b' => (Color::Black, Role::Man),
                'W' => (Color::White, Role::King),
                'B' => (Color::Black, Role::King),
                _ => return None,
            };
            Some(Placed {
                square,
                color,
                role,
            })
        })
        .collect();
    let node = &tree.nodes[k];
    let (drawn, caption) = if node.parent.is_some() {
        let squares = |v: &[u32]| -> Vec<usize> {
            v.iter().filter_map(|&n| view.index_of_number(n)).collect()
        };
        let drawn = Drawn {
            route: squares(&node.route),
            captured: squares(&node.captured),
            before: false,
            irregular: node.irregular,
        };
        let caption = format!(
            "{} · {}",
            move_caption(node.number, node.side, first, &node.text),
            to_play(side)
        );
        ((drawn.route.len() >= 2).then_some(drawn), caption)
    } else {
        (None, to_play(side).to_string())
    };
    Some(Diagram {
        view,
        pieces,
        side,
        drawn,
        caption,
        options,
    })
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
    let mut tree = Tree::default();
    let report = validate::validate_with(game, how, &mut tree);
    let Some(variant) = report.variant else {
        return Err(GameDiagramError::UnknownVariant);
    };
    let no_start = || {
        let why = report
            .diagnostics
            .iter()
            .find(|d| d.code == Code::BadFen)
            .map_or_else(
                || format!("{} game", variant.name()),
                |d| d.message.to_string(),
            );
        GameDiagramError::NoStart(why)
    };
    let Some(view) = tree.view.take() else {
        return Err(no_start());
    };
    if tree.nodes.is_empty() {
        return Err(no_start());
    }
    let k = match ply {
        Some(0) => 0,
        Some(p) => *tree
            .main_line
            .get(p as usize - 1)
            .ok_or(GameDiagramError::TooFewPlies {
                asked: p,
                plies: tree.main_line.len() as u32,
            })?,
        None => tree.main_end.unwrap_or(0),
    };
    from_node(view, &tree, k, variant.rules().first_mover(), options).ok_or_else(no_start)
}
