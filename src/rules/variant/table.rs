//! The rule table: one [`Rules`] constant per variant, each parameter with the article of its
//! rule book, and the draw rules and articles they share.

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

/// International draughts (FMJD Annex 1).
pub const INTERNATIONAL: Rules = Rules {
    variant: Variant::International,
    name: "international",
    game_type: 20,
    shape: Shape::DIAGONAL_10, // art. 2.1, 2.4
    layout: layout(Color::White, 10, NotationKind::Numeric, 2, false), // art. 2.6
    start_fen: "W:W31-50:B1-20", // art. 2.8
    man_moves: FORWARD,        // art. 3.1
    man_captures: DIAGONALS,   // art. 4.1: also backward
    king_moves: DIAGONALS,     // art. 3.9
    king_captures: DIAGONALS,  // art. 4.3
    king_range: KingRange::Flying, // art. 3.9, 4.3
    removal: Removal::AfterMove, // art. 4.11
    no_reversal: false,
    men_capture_kings: true,                       // art. 4.2
    passing_promotion: PassingPromotion::StaysMan, // art. 4.15
    precedence: Precedence::Quantity,              // art. 4.13, 4.14
    same_king_limit: 0,
    result_type: ResultType::International,
    capture_separator: 'x', // art. 8.2.3
    draws: &[
        DrawRule::Repetition {
            n: 3,
            article: "FMJD 6.1",
        },
        DrawRule::KingMovesOnly {
            plies: 50,
            article: "FMJD 6.2",
        },
        DrawRule::Endgame {
            strong_min: 3,
            strong_max: 3,
            kings_only: false,
            long_diagonal: false,
            capture_restarts: false,
            plies: 32,
            article: "FMJD 6.3",
        },
        DrawRule::Endgame {
            strong_min: 1,
            strong_max: 2,
            kings_only: false,
            long_diagonal: false,
            capture_restarts: false,
            plies: 10,
            article: "FMJD 6.4",
        },
    ],
    articles: FMJD,
};

/// Brazilian draughts: the international rules on the 8x8 board.
pub const BRAZILIAN: Rules = Rules {
    variant: Variant::Brazilian,
    name: "brazilian",
    game_type: 26,
    shape: Shape::DIAGONAL_8,
    layout: layout(Color::White, 8, NotationKind::Algebraic, 0, false),
    start_fen: "W:W21-32:B1-12",
    capture_separator: 'x',
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
    draws: &[DrawRule::Repetition {
        n: 3,
        article: "antidraughts (threefold repetition)",
    }],
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

/// FMJD-64 art. 7.2 (RULES.md §3.4). The endgame articles come before 7.2.5, which they
/// tie with (fifteen moves of kings only against a lone king are also 7.2.4's fifteen
/// moves): the more specific article is the one reported.
const RUSSIAN_DRAWS: &[DrawRule] = &[
    DrawRule::Repetition {
        n: 3,
        article: "FMJD-64 7.2.3",
    },
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
    DrawRule::Endgame {
        strong_min: 1,
        strong_max: 2,
        kings_only: false,
        long_diagonal: false,
        capture_restarts: false,
        plies: 10,
        article: "FMJD-64 7.2.8",
    },
    DrawRule::KingMovesOnly {
        plies: 30,
        article: "FMJD-64 7.2.5",
    },
];

/// Russian draughts (FMJD-64, Russian kodeks 2004).
pub const RUSSIAN: Rules = Rules {
    variant: Variant::Russian,
    name: "russian",
    game_type: 25,
    shape: Shape::DIAGONAL_8,
    layout: layout(Color::White, 8, NotationKind::Algebraic, 0, false),
    start_fen: "W:W21-32:B1-12",
    man_moves: FORWARD,
    man_captures: DIAGONALS, // 1.5.3
    king_moves: DIAGONALS,
    king_captures: DIAGONALS,
    king_range: KingRange::Flying, // 1.4.5
    removal: Removal::AfterMove,
    no_reversal: false,
    men_capture_kings: true,
    passing_promotion: PassingPromotion::ContinuesAsKing, // 1.5.15
    precedence: Precedence::Free,
    same_king_limit: 0,
    result_type: ResultType::Default,
    capture_separator: ':',
    draws: RUSSIAN_DRAWS,
    articles: Articles {
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
    },
};

/// English draughts / American checkers (WCDF).
pub const ENGLISH: Rules = Rules {
    variant: Variant::English,
    name: "english",
    game_type: 21,
    shape: Shape::DIAGONAL_8, // 1.1, 1.4
    layout: layout(Color::Black, 8, NotationKind::Numeric, 1, false), // 1.5
    start_fen: "B:W21-32:B1-12", // 1.11
    man_moves: FORWARD,
    man_captures: FORWARD, // 1.18: forward only
    king_moves: DIAGONALS,
    king_captures: DIAGONALS,
    king_range: KingRange::Short, // 1.17
    removal: Removal::AfterMove,  // 1.19
    no_reversal: false,
    men_capture_kings: true,                       // 1.18
    passing_promotion: PassingPromotion::EndsMove, // 1.19
    precedence: Precedence::Free,                  // 1.20
    same_king_limit: 0,
    result_type: ResultType::Default,
    capture_separator: 'x',
    draws: &[
        DrawRule::Repetition {
            n: 3,
            article: "WCDF 1.32.1",
        },
        DrawRule::NoCaptureNoManMove {
            plies: 80,
            article: "WCDF 1.32.2",
        },
    ],
    articles: Articles {
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
    },
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
        DrawRule::Repetition {
            n: 3,
            article: "APCA 26",
        },
        DrawRule::NoCaptureNoManMove {
            plies: 30,
            article: "APCA 26",
        },
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

/// Italian draughts (FID Regolamento Tecnico).
pub const ITALIAN: Rules = Rules {
    variant: Variant::Italian,
    name: "italian",
    game_type: 22,
    shape: Shape::DIAGONAL_8,                                        // 2.1
    layout: layout(Color::White, 8, NotationKind::Numeric, 2, true), // 2.3
    start_fen: "W:W21-32:B1-12",
    man_moves: FORWARD,
    man_captures: FORWARD, // 5.3(a)
    king_moves: DIAGONALS,
    king_captures: DIAGONALS,
    king_range: KingRange::Short, // 4.7
    removal: Removal::AfterMove,
    no_reversal: false,
    men_capture_kings: false, // 5.3(b)
    passing_promotion: PassingPromotion::EndsMove,
    precedence: Precedence::Italian, // 6.6–6.9
    same_king_limit: 0,
    result_type: ResultType::Default,
    capture_separator: 'x',
    draws: &[
        DrawRule::Repetition {
            n: 4,
            article: "FID 9.3(b1)",
        },
        DrawRule::NoCaptureNoManMove {
            plies: 80,
            article: "FID 10.4",
        },
    ],
    articles: Articles {
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
    },
};

/// Spanish draughts (rules as the Portuguese FPD "Damas Clássicas").
pub const SPANISH: Rules = Rules {
    variant: Variant::Spanish,
    name: "spanish",
    game_type: 24,
    shape: Shape::DIAGONAL_8,                                        // 2.1.2
    layout: layout(Color::White, 8, NotationKind::Numeric, 1, true), // 2.1.5
    start_fen: "W:W1-12:B21-32",
    man_moves: FORWARD,
    man_captures: FORWARD,
    king_moves: DIAGONALS,
    king_captures: DIAGONALS,
    king_range: KingRange::Flying,
    removal: Removal::AfterMove,
    no_reversal: false,
    men_capture_kings: true,
    passing_promotion: PassingPromotion::StaysMan,
    precedence: Precedence::QuantityThenKings,
    same_king_limit: 0,
    result_type: ResultType::Default,
    capture_separator: 'x',
    draws: &[DrawRule::Repetition {
        n: 3,
        article: "FPD (repetition)",
    }],
    articles: Articles {
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
    },
};

/// Portuguese draughts: the Spanish rules (PDN GameType 28).
pub const PORTUGUESE: Rules = Rules {
    variant: Variant::Portuguese,
    name: "portuguese",
    game_type: 28,
    ..SPANISH
};

/// Czech draughts (FMJD brief rules of Czech draughts, damweb.cz).
pub const CZECH: Rules = Rules {
    variant: Variant::Czech,
    name: "czech",
    game_type: 29,
    shape: Shape::DIAGONAL_8, // 2.1
    layout: layout(Color::White, 8, NotationKind::Algebraic, 0, false), // 2.6
    start_fen: "W:W21-32:B1-12",
    man_moves: FORWARD,
    man_captures: FORWARD, // 4.1
    king_moves: DIAGONALS,
    king_captures: DIAGONALS,
    king_range: KingRange::Flying, // 3.9
    removal: Removal::AfterMove,
    no_reversal: false,
    men_capture_kings: true,
    passing_promotion: PassingPromotion::StaysMan,
    precedence: Precedence::KingFirst, // 4.14
    same_king_limit: 0,
    result_type: ResultType::Default,
    capture_separator: 'x',
    draws: &[
        DrawRule::Repetition {
            n: 3,
            article: "Czech rules (repetition)",
        },
        DrawRule::NoCaptureNoManMove {
            plies: 30,
            article: "Czech rules (15 moves without capture or man move)",
        },
    ],
    articles: Articles {
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
    },
};

/// Frisian draughts (friesdammen.nl rules, as encoded by dctl and lidraughts).
pub const FRISIAN: Rules = Rules {
    variant: Variant::Frisian,
    name: "frisian",
    game_type: 40,
    shape: Shape::DIAGONAL_10,
    layout: layout(Color::White, 10, NotationKind::Numeric, 2, false),
    start_fen: "W:W31-50:B1-20",
    man_moves: FORWARD,
    man_captures: DirSet::ALL, // orthogonal captures too
    king_moves: DIAGONALS,
    king_captures: DirSet::ALL,
    king_range: KingRange::Flying,
    removal: Removal::AfterMove,
    no_reversal: false,
    men_capture_kings: true,
    passing_promotion: PassingPromotion::StaysMan,
    precedence: Precedence::Value,
    same_king_limit: 3,
    result_type: ResultType::Default,
    capture_separator: 'x',
    draws: &[
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
            // games are adjudicated so, allows two more moves (docs/RULES-DECISIONS.md).
            plies: 4,
            article: "Frisian (king v king: two more moves)",
        },
    ],
    articles: Articles {
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
    },
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
    variant: Variant::Turkish,
    name: "turkish",
    game_type: 30,
    shape: Shape::FULL_8,
    layout: Layout {
        first: Color::White,
        width: 8,
        height: 8,
        notation: NotationKind::Algebraic,
        corner: 0,
        invert: false,
        full: true,
    },
    start_fen: "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    man_moves: DirSet(0b1101_0000),    // N, W, E
    man_captures: DirSet(0b1101_0000), // N, W, E
    king_moves: DirSet::ORTHOGONAL,
    king_captures: DirSet::ORTHOGONAL,
    king_range: KingRange::Flying,
    removal: Removal::Immediate,
    no_reversal: true,
    men_capture_kings: true,
    passing_promotion: PassingPromotion::StaysMan,
    precedence: Precedence::Quantity,
    same_king_limit: 0,
    result_type: ResultType::Default,
    capture_separator: 'x',
    draws: &[DrawRule::Repetition {
        n: 3,
        article: "Turkish (repetition)",
    }],
    articles: Articles {
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
    },
};

/// Thai draughts (mak-hot).
pub const THAI: Rules = Rules {
    variant: Variant::Thai,
    name: "thai",
    game_type: 31,
    shape: Shape::DIAGONAL_8,
    layout: layout(Color::Black, 8, NotationKind::Numeric, 2, false),
    start_fen: "B:W1-8:B25-32",
    man_moves: FORWARD,
    man_captures: FORWARD,
    king_moves: DIAGONALS,
    king_captures: DIAGONALS,
    king_range: KingRange::FlyingLandsBehind,
    removal: Removal::Immediate,
    no_reversal: false,
    men_capture_kings: true,
    passing_promotion: PassingPromotion::EndsMove,
    precedence: Precedence::Free,
    same_king_limit: 0,
    result_type: ResultType::Default,
    capture_separator: '-',
    draws: &[],
    articles: Articles {
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
    },
};
