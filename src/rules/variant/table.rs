//! The rule table: one [`Rules`] constant per variant, each parameter with the article of its
//! rule book, and the draw rules and articles they share.

use std::ops::RangeInclusive;

use super::*;

const fn layout(first: Color, w: u8, notation: NotationKind, corner: u8, invert: bool) -> Layout {
    Layout {
        first,
        width: w,
        height: w,
        notation,
        corner,
        invert,
        full: false,
    }
}

const FORWARD: DirSet = DirSet(0b0000_0101); // NW, NE (for White)
const DIAGONALS: DirSet = DirSet::DIAGONAL;

/// The `n`-th occurrence of a position, same side to move, draws.
const fn repetition(n: u8, article: &'static str) -> DrawRule {
    DrawRule::Repetition { n, article }
}

/// `plies` successive plies in which only kings moved and nothing was captured draw.
const fn king_moves_only(plies: u16, article: &'static str) -> DrawRule {
    DrawRule::KingMovesOnly { plies, article }
}

/// `plies` successive plies without a capture or a man move draw.
const fn no_capture_no_man_move(plies: u16, article: &'static str) -> DrawRule {
    DrawRule::NoCaptureNoManMove { plies, article }
}

/// `plies` plies of a lone king against `strong` pieces, at least one a king, draw: the
/// plain endgame rule (any pieces, anywhere, a capture not restarting the count).
const fn lone_king(strong: RangeInclusive<u8>, plies: u16, article: &'static str) -> DrawRule {
    DrawRule::Endgame {
        strong_min: *strong.start(),
        strong_max: *strong.end(),
        kings_only: false,
        long_diagonal: false,
        capture_restarts: false,
        plies,
        article,
    }
}

/// The row every variant starts from, with what most of them share: the 8x8 board of
/// FMJD-64 (White first, algebraic squares, the standard start), men moving and capturing
/// forward, kings moving and capturing on the diagonals at any distance, captured pieces
/// removed after the move, men capturing kings, a man passing the far row in a capture
/// staying a man, free choice among captures, no same-king limit, the default result strings
/// and `x` between the squares of a capture. A row states its variant, name, `GameType`,
/// draw rules and articles, and each parameter in which it differs.
const fn row(
    variant: Variant,
    name: &'static str,
    game_type: u32,
    draws: &'static [DrawRule],
    articles: Articles,
) -> Rules {
    Rules {
        variant,
        name,
        game_type,
        shape: Shape::DIAGONAL_8,
        layout: layout(Color::White, 8, NotationKind::Algebraic, 0, false),
        start_fen: "W:W21-32:B1-12",
        man_moves: FORWARD,
        man_captures: FORWARD,
        king_moves: DIAGONALS,
        king_captures: DIAGONALS,
        king_range: KingRange::Flying,
        removal: Removal::AfterMove,
        no_reversal: false,
        men_capture_kings: true,
        passing_promotion: PassingPromotion::StaysMan,
        precedence: Precedence::Free,
        same_king_limit: 0,
        result_type: ResultType::Default,
        capture_separator: 'x',
        draws,
        articles,
    }
}

const FMJD: Articles = Articles {
    book: "FMJD",
    man_move: "FMJD 3.1",
    king_move: "FMJD 3.9",
    capture_mandatory: "FMJD 4.1",
    man_capture: "FMJD 4.2",
    king_capture: "FMJD 4.3",
    capture_complete: "FMJD 4.5",
    precedence: "FMJD 4.13",
    promotion: "FMJD 3.5",
    passing_promotion: "FMJD 4.15",
    irregularity: "FMJD 5.4",
    game_end: "FMJD (a player who cannot move has lost)",
};

/// International draughts (FMJD Annex 1). From the base row: men move forward (art. 3.1),
/// kings move and capture on the diagonals at any distance (art. 3.9, 4.3), captured pieces
/// leave after the move (art. 4.11), men capture kings (art. 4.2), a man passing the far row
/// stays a man (art. 4.15), captures are written with `x` (art. 8.2.3).
pub const INTERNATIONAL: Rules = Rules {
    shape: Shape::DIAGONAL_10, // art. 2.1, 2.4
    layout: layout(Color::White, 10, NotationKind::Numeric, 2, false), // art. 2.6
    start_fen: "W:W31-50:B1-20", // art. 2.8
    man_captures: DIAGONALS,   // art. 4.1: also backward
    precedence: Precedence::Quantity, // art. 4.13, 4.14
    result_type: ResultType::International,
    ..row(
        Variant::International,
        "international",
        20,
        FMJD_DRAWS,
        FMJD,
    )
};

/// FMJD Annex 1 art. 6.
const FMJD_DRAWS: &[DrawRule] = &[
    repetition(3, "FMJD 6.1"),
    king_moves_only(50, "FMJD 6.2"),
    lone_king(3..=3, 32, "FMJD 6.3"),
    lone_king(1..=2, 10, "FMJD 6.4"),
];

/// Brazilian draughts: the international rules on the 8x8 board.
pub const BRAZILIAN: Rules = Rules {
    variant: Variant::Brazilian,
    name: "brazilian",
    game_type: 26,
    shape: Shape::DIAGONAL_8,
    layout: layout(Color::White, 8, NotationKind::Algebraic, 0, false),
    start_fen: "W:W21-32:B1-12",
    result_type: ResultType::Default,
    draws: RUSSIAN_DRAWS,
    ..INTERNATIONAL
};

/// Canadian draughts: the international rules on the 12x12 board.
pub const CANADIAN: Rules = Rules {
    variant: Variant::Canadian,
    name: "canadian",
    game_type: 27,
    shape: Shape::DIAGONAL_12,
    layout: layout(Color::White, 12, NotationKind::Numeric, 2, false),
    start_fen: "W:W43-72:B1-30",
    ..INTERNATIONAL
};

/// Antidraughts (lidraughts): international moves; the object is to lose all pieces.
/// Threefold repetition is its only draw rule (lidraughts `Antidraughts.scala`: no
/// 25-move, 16-move or 5-move rule).
pub const ANTIDRAUGHTS: Rules = Rules {
    variant: Variant::Antidraughts,
    name: "antidraughts",
    game_type: 98,
    draws: &[repetition(3, "antidraughts (threefold repetition)")],
    articles: Articles {
        game_end: "antidraughts (a player who cannot move has won)",
        ..FMJD
    },
    ..INTERNATIONAL
};

/// Breakthrough (lidraughts): international moves; the first side to crown a king wins.
/// No draw rule (lidraughts `Breakthrough.scala`; without kings no position can repeat).
pub const BREAKTHROUGH: Rules = Rules {
    variant: Variant::Breakthrough,
    name: "breakthrough",
    game_type: 96,
    draws: &[],
    articles: Articles {
        game_end: "breakthrough (the first side to crown a king wins; a player who cannot move has lost)",
        ..FMJD
    },
    ..INTERNATIONAL
};

/// FMJD-64 art. 7.2 (docs/rules.md#russian-draughts-fmjd-64). The endgame articles come before 7.2.5, which they
/// tie with (fifteen moves of kings only against a lone king are also 7.2.4's fifteen
/// moves): the more specific article is the one reported.
const RUSSIAN_DRAWS: &[DrawRule] = &[
    repetition(3, "FMJD-64 7.2.3"),
    // 7.2.7 before 7.2.4: three kings against a king on the long diagonal fall under both,
    // and the 5-move limit comes first.
    DrawRule::Endgame {
        strong_min: 3,
        strong_max: 3,
        kings_only: false,
        long_diagonal: true,
        capture_restarts: false,
        plies: 10,
        article: "FMJD-64 7.2.7",
    },
    DrawRule::Endgame {
        strong_min: 3,
        strong_max: u8::MAX,
        kings_only: true,
        long_diagonal: false,
        capture_restarts: true,
        plies: 30,
        article: "FMJD-64 7.2.4",
    },
    lone_king(1..=2, 10, "FMJD-64 7.2.8"),
    king_moves_only(30, "FMJD-64 7.2.5"),
];

/// Russian draughts (FMJD-64, Russian kodeks 2004). Kings fly (1.4.5).
pub const RUSSIAN: Rules = Rules {
    man_captures: DIAGONALS,                              // 1.5.3
    passing_promotion: PassingPromotion::ContinuesAsKing, // 1.5.15
    capture_separator: ':',
    ..row(Variant::Russian, "russian", 25, RUSSIAN_DRAWS, FMJD_64)
};

const FMJD_64: Articles = Articles {
    book: "Russian draughts rules (FMJD-64)",
    man_move: "Russian rules (men move forward)",
    king_move: "RU 1.4.5",
    capture_mandatory: "Russian rules (capture is compulsory)",
    man_capture: "RU 1.5.3",
    king_capture: "RU 1.4.5",
    capture_complete: "Russian rules (a capture must be completed)",
    precedence: "Russian rules (free choice of capture)",
    promotion: "RU 1.5.15",
    passing_promotion: "RU 1.5.15",
    irregularity: "FMJD-64 (irregularities)",
    game_end: "FMJD-64 (a player who cannot move has lost)",
};

/// English draughts / American checkers (WCDF). From the base row: the 8x8 board (1.1,
/// 1.4), men capturing forward only and capturing kings (1.18), captured pieces removed
/// after the move (1.19), free choice among captures (1.20).
pub const ENGLISH: Rules = Rules {
    layout: layout(Color::Black, 8, NotationKind::Numeric, 1, false), // 1.5
    start_fen: "B:W21-32:B1-12",                                      // 1.11
    king_range: KingRange::Short,                                     // 1.17
    passing_promotion: PassingPromotion::EndsMove,                    // 1.19
    ..row(Variant::English, "english", 21, WCDF_DRAWS, WCDF)
};

const WCDF_DRAWS: &[DrawRule] = &[
    repetition(3, "WCDF 1.32.1"),
    no_capture_no_man_move(80, "WCDF 1.32.2"),
];

const WCDF: Articles = Articles {
    book: "WCDF",
    man_move: "WCDF (men move forward)",
    king_move: "WCDF 1.17",
    capture_mandatory: "WCDF 1.20",
    man_capture: "WCDF 1.18",
    king_capture: "WCDF 1.18",
    capture_complete: "WCDF 1.19",
    precedence: "WCDF 1.20",
    promotion: "WCDF 1.19",
    passing_promotion: "WCDF 1.19",
    irregularity: "WCDF (irregularities)",
    game_end: "WCDF (a player who cannot move has lost)",
};

/// American pool checkers (APCA).
pub const POOL: Rules = Rules {
    variant: Variant::Pool,
    name: "pool",
    game_type: 23,
    man_captures: DIAGONALS,                       // 14
    king_range: KingRange::Flying,                 // 15
    passing_promotion: PassingPromotion::StaysMan, // 16, 22, 23
    precedence: Precedence::Free,                  // 20
    draws: &[
        repetition(3, "APCA 26"),
        no_capture_no_man_move(30, "APCA 26"),
    ],
    articles: Articles {
        book: "APCA",
        man_move: "APCA (men move forward)",
        king_move: "APCA 15",
        capture_mandatory: "APCA (capture is compulsory)",
        man_capture: "APCA 14",
        king_capture: "APCA 15",
        capture_complete: "APCA 19",
        precedence: "APCA 20",
        promotion: "APCA 22",
        passing_promotion: "APCA 23",
        irregularity: "APCA (irregularities)",
        game_end: "APCA (a player who cannot move has lost)",
    },
    ..ENGLISH
};

/// Italian draughts (FID Regolamento Tecnico). From the base row: the 8x8 board (2.1), men
/// capturing forward only (5.3(a)).
pub const ITALIAN: Rules = Rules {
    layout: layout(Color::White, 8, NotationKind::Numeric, 2, true), // 2.3
    king_range: KingRange::Short,                                    // 4.7
    men_capture_kings: false,                                        // 5.3(b)
    passing_promotion: PassingPromotion::EndsMove,
    precedence: Precedence::Italian, // 6.6–6.9
    ..row(Variant::Italian, "italian", 22, FID_DRAWS, FID)
};

const FID_DRAWS: &[DrawRule] = &[
    repetition(4, "FID 9.3(b1)"),
    no_capture_no_man_move(80, "FID 10.4"),
];

const FID: Articles = Articles {
    book: "FID",
    man_move: "FID (men move forward)",
    king_move: "FID 4.7",
    capture_mandatory: "FID (capture is compulsory)",
    man_capture: "FID 5.3",
    king_capture: "FID 4.7",
    capture_complete: "FID (a capture must be completed)",
    precedence: "FID 6.6",
    promotion: "FID (promotion ends the move)",
    passing_promotion: "FID (promotion ends the move)",
    irregularity: "FID (irregularities)",
    game_end: "FID (a player who cannot move has lost)",
};

/// Spanish draughts (rules as the Portuguese FPD "Damas Clássicas"). From the base row: the
/// 8x8 board (2.1.2), men capturing forward only.
pub const SPANISH: Rules = Rules {
    layout: layout(Color::White, 8, NotationKind::Numeric, 1, true), // 2.1.5
    start_fen: "W:W1-12:B21-32",
    precedence: Precedence::QuantityThenKings,
    ..row(Variant::Spanish, "spanish", 24, FPD_DRAWS, FPD)
};

const FPD_DRAWS: &[DrawRule] = &[repetition(3, "FPD (repetition)")];

const FPD: Articles = Articles {
    book: "FPD Damas Clássicas",
    man_move: "FPD (man move)",
    king_move: "FPD (king move)",
    capture_mandatory: "FPD (capture is compulsory)",
    man_capture: "FPD (man capture: forward only)",
    king_capture: "FPD (king capture)",
    capture_complete: "FPD (capture must be completed)",
    precedence: "FPD (quantity, then quality)",
    promotion: "FPD (promotion)",
    passing_promotion: "FPD (promotion)",
    irregularity: "FPD (irregularities)",
    game_end: "FPD (end of game)",
};

/// Portuguese draughts: the Spanish rules (PDN GameType 28).
pub const PORTUGUESE: Rules = Rules {
    variant: Variant::Portuguese,
    name: "portuguese",
    game_type: 28,
    ..SPANISH
};

/// Czech draughts (FMJD brief rules of Czech draughts, damweb.cz). From the base row: the
/// 8x8 board (2.1) and its algebraic squares (2.6), men capturing forward only (4.1), flying
/// kings (3.9).
pub const CZECH: Rules = Rules {
    precedence: Precedence::KingFirst, // 4.14
    ..row(Variant::Czech, "czech", 29, CZECH_DRAWS, CZECH_RULES)
};

const CZECH_DRAWS: &[DrawRule] = &[
    repetition(3, "Czech rules (repetition)"),
    no_capture_no_man_move(30, "Czech rules (15 moves without capture or man move)"),
];

const CZECH_RULES: Articles = Articles {
    book: "Czech draughts rules",
    man_move: "Czech rules (men move forward)",
    king_move: "CZ 3.9",
    capture_mandatory: "Czech rules (capture is compulsory)",
    man_capture: "CZ 4.1",
    king_capture: "CZ 3.9",
    capture_complete: "Czech rules (a capture must be completed)",
    precedence: "CZ 4.14",
    promotion: "Czech rules (promotion at the end of the move)",
    passing_promotion: "Czech rules (promotion at the end of the move)",
    irregularity: "Czech rules (an omitted capture accepted by the opponent stands)",
    game_end: "Czech rules (a player who cannot move has lost)",
};

/// Frisian draughts (friesdammen.nl rules, as encoded by dctl and lidraughts).
pub const FRISIAN: Rules = Rules {
    shape: Shape::DIAGONAL_10,
    layout: layout(Color::White, 10, NotationKind::Numeric, 2, false),
    start_fen: "W:W31-50:B1-20",
    man_captures: DirSet::ALL, // orthogonal captures too
    king_captures: DirSet::ALL,
    precedence: Precedence::Value,
    same_king_limit: 3,
    ..row(
        Variant::Frisian,
        "frisian",
        40,
        FRISIAN_DRAWS,
        FRISIAN_RULES,
    )
};

const FRISIAN_DRAWS: &[DrawRule] = &[
    DrawRule::Endgame {
        strong_min: 2,
        strong_max: 2,
        kings_only: true,
        long_diagonal: false,
        capture_restarts: false,
        plies: 14,
        article: "Frisian (2 kings v 1 king: 7 moves)",
    },
    DrawRule::Endgame {
        strong_min: 1,
        strong_max: 1,
        kings_only: true,
        long_diagonal: false,
        capture_restarts: false,
        // "Unless a capture follows immediately or next move"; lidraughts, whose frysk
        // games are adjudicated so, allows two more moves (docs/rules-decisions.md).
        plies: 4,
        article: "Frisian (king v king: two more moves)",
    },
];

const FRISIAN_RULES: Articles = Articles {
    book: "Frisian draughts rules",
    man_move: "Frisian (man move)",
    king_move: "Frisian (king move, diagonal)",
    capture_mandatory: "Frisian (capture is compulsory)",
    man_capture: "Frisian (captures in eight directions)",
    king_capture: "Frisian (king captures in eight directions)",
    capture_complete: "Frisian (capture must be completed)",
    precedence: "Frisian (value rule)",
    promotion: "Frisian (promotion)",
    passing_promotion: "Frisian (promotion only at the end of a move)",
    irregularity: "Frisian (irregularities)",
    game_end: "Frisian (end of game)",
};

/// Frysk!: Frisian with five men each.
pub const FRYSK: Rules = Rules {
    variant: Variant::Frysk,
    name: "frysk",
    game_type: 97,
    start_fen: "W:W46-50:B1-5",
    ..FRISIAN
};

/// Turkish draughts (dama).
pub const TURKISH: Rules = Rules {
    shape: Shape::FULL_8,
    layout: Layout {
        full: true,
        ..layout(Color::White, 8, NotationKind::Algebraic, 0, false)
    },
    start_fen: "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    man_moves: DirSet(0b1101_0000),    // N, W, E
    man_captures: DirSet(0b1101_0000), // N, W, E
    king_moves: DirSet::ORTHOGONAL,
    king_captures: DirSet::ORTHOGONAL,
    removal: Removal::Immediate,
    no_reversal: true,
    precedence: Precedence::Quantity,
    ..row(
        Variant::Turkish,
        "turkish",
        30,
        TURKISH_DRAWS,
        TURKISH_RULES,
    )
};

const TURKISH_DRAWS: &[DrawRule] = &[repetition(3, "Turkish (repetition)")];

const TURKISH_RULES: Articles = Articles {
    book: "Turkish draughts rules",
    man_move: "Turkish (men move forward or sideways)",
    king_move: "Turkish (king moves orthogonally)",
    capture_mandatory: "Turkish (capture is compulsory)",
    man_capture: "Turkish (men capture forward or sideways)",
    king_capture: "Turkish (king captures orthogonally)",
    capture_complete: "Turkish (capture must be completed; no 180° turn)",
    precedence: "Turkish (majority rule)",
    promotion: "Turkish (promotion)",
    passing_promotion: "Turkish (promotion at the end of the move)",
    irregularity: "Turkish (irregularities)",
    game_end: "Turkish (end of game)",
};

/// Thai draughts (mak-hot).
pub const THAI: Rules = Rules {
    layout: layout(Color::Black, 8, NotationKind::Numeric, 2, false),
    start_fen: "B:W1-8:B25-32",
    king_range: KingRange::FlyingLandsBehind,
    removal: Removal::Immediate,
    passing_promotion: PassingPromotion::EndsMove,
    capture_separator: '-',
    ..row(Variant::Thai, "thai", 31, &[], THAI_RULES)
};

const THAI_RULES: Articles = Articles {
    book: "Thai draughts rules",
    man_move: "Thai (man move)",
    king_move: "Thai (king move)",
    capture_mandatory: "Thai (capture is compulsory)",
    man_capture: "Thai (men capture forward only)",
    king_capture: "Thai (king lands directly behind the captured piece)",
    capture_complete: "Thai (capture must be completed)",
    precedence: "Thai (free choice)",
    promotion: "Thai (promotion)",
    passing_promotion: "Thai (promotion ends the move)",
    irregularity: "Thai (irregularities)",
    game_end: "Thai (end of game)",
};
