//! Tag names as real archives write them: the standard PDN names, their localised forms
//! (French, Dutch, German, Italian, Portuguese, Spanish, Russian), other spellings of them
//! (`RESULT`, `Game Type`), and HTML/XML character references (`R&#x00e9;sultat`,
//! `&Eacute;v&eacute;nement`), decoded.
//!
//! The reader names a tag by its standard name when the name as written is one of these
//! forms, and keeps the name as written beside it ([`Tag::written`](super::Tag::written)).

use std::borrow::Cow;

/// The standard tags of PDN 3.0 (docs/pdn.md#tag-pairs), spelled as the standard spells them.
const STANDARD: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "GameType",
    "FEN",
    "PlyCount",
    "Termination",
    "WhiteTitle",
    "BlackTitle",
    "WhiteRating",
    "BlackRating",
    "WhiteFmjdId",
    "BlackFmjdId",
    "WhiteNA",
    "BlackNA",
    "WhiteType",
    "BlackType",
    "EventDate",
    "EventSponsor",
    "Section",
    "Stage",
    "Board",
    "TimeControl",
    "TimeControlWhite",
    "TimeControlBlack",
    "WhiteTime",
    "BlackTime",
    "Time",
    "UTCTime",
    "UTCDate",
    "Annotator",
    "Author",
    "Publication",
    "PublicationDate",
    "ResultFormat",
];

/// Localised names of the standard tags, in the folded form of [`fold`] (lower case, no
/// accents, no spaces), with the standard name each one stands for.
const LOCALISED: &[(&str, &str)] = &[
    // French
    ("evenement", "Event"),
    ("competition", "Event"),
    ("tournoi", "Event"),
    ("lieu", "Site"),
    ("ronde", "Round"),
    ("manche", "Round"),
    ("blancs", "White"),
    ("blanc", "White"),
    ("noirs", "Black"),
    ("noir", "Black"),
    ("resultat", "Result"),
    ("typedejeu", "GameType"),
    ("typedepartie", "GameType"),
    ("typedujeu", "GameType"),
    ("annotateur", "Annotator"),
    ("commentateur", "Annotator"),
    ("auteur", "Author"),
    ("heure", "Time"),
    // Dutch (`evenement` as in French)
    ("toernooi", "Event"),
    ("plaats", "Site"),
    ("locatie", "Site"),
    ("datum", "Date"),
    ("wit", "White"),
    ("zwart", "Black"),
    ("uitslag", "Result"),
    ("resultaat", "Result"),
    ("speltype", "GameType"),
    ("spelsoort", "GameType"),
    // German
    ("ereignis", "Event"),
    ("veranstaltung", "Event"),
    ("turnier", "Event"),
    ("ort", "Site"),
    ("runde", "Round"),
    ("weiss", "White"),
    ("schwarz", "Black"),
    ("ergebnis", "Result"),
    ("spieltyp", "GameType"),
    ("spielart", "GameType"),
    ("kommentator", "Annotator"),
    ("autor", "Author"),
    // Italian
    ("evento", "Event"),
    ("torneo", "Event"),
    ("luogo", "Site"),
    ("data", "Date"),
    ("turno", "Round"),
    ("bianco", "White"),
    ("bianchi", "White"),
    ("nero", "Black"),
    ("neri", "Black"),
    ("risultato", "Result"),
    ("tipodigioco", "GameType"),
    ("tipodipartita", "GameType"),
    ("commentatore", "Annotator"),
    ("autore", "Author"),
    // Portuguese
    ("torneio", "Event"),
    ("local", "Site"),
    ("rodada", "Round"),
    ("brancas", "White"),
    ("brancos", "White"),
    ("branco", "White"),
    ("pretas", "Black"),
    ("pretos", "Black"),
    ("preto", "Black"),
    ("resultado", "Result"),
    ("tipodejogo", "GameType"),
    // Spanish
    ("lugar", "Site"),
    ("fecha", "Date"),
    ("ronda", "Round"),
    ("blancas", "White"),
    ("negras", "Black"),
    ("tipodejuego", "GameType"),
    // Russian
    ("событие", "Event"),
    ("турнир", "Event"),
    ("соревнование", "Event"),
    ("место", "Site"),
    ("дата", "Date"),
    ("тур", "Round"),
    ("раунд", "Round"),
    ("белые", "White"),
    ("белыи", "White"),
    ("черные", "Black"),
    ("черныи", "Black"),
    ("результат", "Result"),
    ("типигры", "GameType"),
];

/// How a tag name as written relates to the standard names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameKind {
    /// A standard name exactly as the standard spells it.
    Standard(&'static str),
    /// Another form of a standard name: localised, another case, spaces or `_`.
    Alias(&'static str),
    /// Any other name.
    Other,
}

impl NameKind {
    /// The standard name, if the name is one.
    pub(crate) fn standard(self) -> Option<&'static str> {
        match self {
            NameKind::Standard(s) | NameKind::Alias(s) => Some(s),
            NameKind::Other => None,
        }
    }
}

/// [`STANDARD`] by length: the names of each length, up to the longest (a unit test holds
/// it to the list).
const BY_LENGTH: [&[&str]; 17] = [
    &[],
    &[],
    &[],
    &["FEN"],
    &["Site", "Date", "Time"],
    &["Event", "Round", "White", "Black", "Stage", "Board"],
    &["Result", "Author"],
    &["WhiteNA", "BlackNA", "Section", "UTCTime", "UTCDate"],
    &["GameType", "PlyCount"],
    &[
        "WhiteType",
        "BlackType",
        "EventDate",
        "WhiteTime",
        "BlackTime",
        "Annotator",
    ],
    &["WhiteTitle", "BlackTitle"],
    &[
        "Termination",
        "WhiteRating",
        "BlackRating",
        "WhiteFmjdId",
        "BlackFmjdId",
        "TimeControl",
        "Publication",
    ],
    &["EventSponsor", "ResultFormat"],
    &[],
    &[],
    &["PublicationDate"],
    &["TimeControlWhite", "TimeControlBlack"],
];

/// Names that real archives often write and that stand for no standard name (PGN's and
/// chess servers' tags), as written: what [`classify`] gives them is [`NameKind::Other`]
/// (a unit test holds them to it), told without folding them.
const KNOWN_OTHER: [&str; 10] = [
    "SetUp",
    "Setup",
    "WhiteClock",
    "BlackClock",
    "WhiteElo",
    "BlackElo",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "Index",
    "ECO",
];

/// The standard name a tag name is written exactly as (`Event`), if any: what [`classify`]
/// gives such a name, told from its bytes without decoding them (a standard name is ASCII
/// and holds no character reference).
#[inline]
pub(crate) fn exact_standard(name: &[u8]) -> Option<&'static str> {
    BY_LENGTH
        .get(name.len())?
        .iter()
        .find(|s| s.as_bytes().first() == name.first() && s.as_bytes() == name)
        .copied()
}

/// True if a tag name is written exactly as one of [`KNOWN_OTHER`]: a plain identifier that
/// stands for no standard name, without a character reference.
#[inline]
pub(crate) fn known_other(name: &[u8]) -> bool {
    KNOWN_OTHER.iter().any(|s| {
        s.len() == name.len() && s.as_bytes().first() == name.first() && s.as_bytes() == name
    })
}

/// What a tag name (references already decoded) stands for.
pub(crate) fn classify(name: &str) -> NameKind {
    if let Some(s) = STANDARD.iter().find(|s| **s == name) {
        return NameKind::Standard(s);
    }
    // `Event:` and `Event =` as some exports write them.
    let folded = fold(name.trim_end_matches([':', '=', ' ']));
    if folded.is_empty() {
        return NameKind::Other;
    }
    if let Some(s) = STANDARD.iter().find(|s| s.eq_ignore_ascii_case(&folded)) {
        return NameKind::Alias(s);
    }
    match LOCALISED.iter().find(|(l, _)| *l == folded) {
        Some((_, s)) => NameKind::Alias(s),
        None => NameKind::Other,
    }
}

/// The standard name a tag name as written stands for (references decoded first), if any:
/// `Résultat`, `R&#x00e9;sultat`, `RESULT` and `Результат` all give `Result`.
pub fn standard_tag_name(name: &str) -> Option<&'static str> {
    classify(&decode_references(name)).standard()
}

/// Lower case, without accents and spaces; `ё` as `е` and `й` as `и`. (Not without `_`:
/// the writer makes an odd name an identifier with `_`, which must not then read as a
/// standard name.)
fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, ' ' | '\t' | '\u{a0}') {
            continue;
        }
        for l in c.to_lowercase() {
            match l {
                'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => out.push('a'),
                'ç' => out.push('c'),
                'è' | 'é' | 'ê' | 'ë' => out.push('e'),
                'ì' | 'í' | 'î' | 'ï' => out.push('i'),
                'ñ' => out.push('n'),
                'ò' | 'ó' | 'ô' | 'õ' | 'ö' => out.push('o'),
                'ù' | 'ú' | 'û' | 'ü' => out.push('u'),
                'ý' | 'ÿ' => out.push('y'),
                'ß' => out.push_str("ss"),
                'ё' => out.push('е'),
                'й' => out.push('и'),
                other => out.push(other),
            }
        }
    }
    out
}

/// Named character references decoded (the five of XML and the letters of the European
/// languages whose archives use them).
const ENTITIES: &[(&str, char)] = &[
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    ("apos", '\''),
    ("nbsp", '\u{a0}'),
    ("deg", '°'),
    ("Agrave", 'À'),
    ("Aacute", 'Á'),
    ("Acirc", 'Â'),
    ("Atilde", 'Ã'),
    ("Auml", 'Ä'),
    ("Aring", 'Å'),
    ("Ccedil", 'Ç'),
    ("Egrave", 'È'),
    ("Eacute", 'É'),
    ("Ecirc", 'Ê'),
    ("Euml", 'Ë'),
    ("Igrave", 'Ì'),
    ("Iacute", 'Í'),
    ("Icirc", 'Î'),
    ("Iuml", 'Ï'),
    ("Ntilde", 'Ñ'),
    ("Ograve", 'Ò'),
    ("Oacute", 'Ó'),
    ("Ocirc", 'Ô'),
    ("Otilde", 'Õ'),
    ("Ouml", 'Ö'),
    ("Ugrave", 'Ù'),
    ("Uacute", 'Ú'),
    ("Ucirc", 'Û'),
    ("Uuml", 'Ü'),
    ("Yacute", 'Ý'),
    ("szlig", 'ß'),
    ("agrave", 'à'),
    ("aacute", 'á'),
    ("acirc", 'â'),
    ("atilde", 'ã'),
    ("auml", 'ä'),
    ("aring", 'å'),
    ("ccedil", 'ç'),
    ("egrave", 'è'),
    ("eacute", 'é'),
    ("ecirc", 'ê'),
    ("euml", 'ë'),
    ("igrave", 'ì'),
    ("iacute", 'í'),
    ("icirc", 'î'),
    ("iuml", 'ï'),
    ("ntilde", 'ñ'),
    ("ograve", 'ò'),
    ("oacute", 'ó'),
    ("ocirc", 'ô'),
    ("otilde", 'õ'),
    ("ouml", 'ö'),
    ("ugrave", 'ù'),
    ("uacute", 'ú'),
    ("ucirc", 'û'),
    ("uuml", 'ü'),
    ("yacute", 'ý'),
    ("yuml", 'ÿ'),
];

/// The character a reference `&…;` stands for; `body` is what is between `&` and `;`.
fn reference(body: &str) -> Option<char> {
    if let Some(num) = body.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) if !hex.is_empty() && hex.len() <= 6 => u32::from_str_radix(hex, 16).ok()?,
            Some(_) => return None,
            None if !num.is_empty()
                && num.len() <= 7
                && num.bytes().all(|b| b.is_ascii_digit()) =>
            {
                num.parse().ok()?
            }
            None => return None,
        };
        // No control characters through references: they would not be text.
        return char::from_u32(code).filter(|c| !c.is_control() || *c == '\t');
    }
    ENTITIES.iter().find(|(n, _)| *n == body).map(|&(_, c)| c)
}

/// `text` with its well-formed character references (`&#233;`, `&#x00e9;`, `&eacute;`)
/// decoded; anything else (a lone `&`, an unknown name) stays as written.
pub fn decode_references(text: &str) -> Cow<'_, str> {
    if !text.contains('&') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let decoded = after
            .find(';')
            .filter(|&semi| semi <= 10)
            .and_then(|semi| reference(&after[..semi]).map(|c| (c, semi)));
        match decoded {
            Some((c, semi)) => {
                out.push(c);
                rest = &after[semi + 1..];
                changed = true;
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// True if `text` holds at least one character reference that [`decode_references`]
/// decodes.
pub(crate) fn has_references(text: &[u8]) -> bool {
    memchr::memchr(b'&', text).is_some()
        && std::str::from_utf8(text).is_ok_and(|t| matches!(decode_references(t), Cow::Owned(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_told_without_folding_are_classified_so() {
        assert_eq!(
            BY_LENGTH.iter().map(|g| g.len()).sum::<usize>(),
            STANDARD.len()
        );
        for s in STANDARD {
            assert!(BY_LENGTH[s.len()].contains(s), "{s}");
            assert_eq!(exact_standard(s.as_bytes()), Some(*s));
            assert_eq!(classify(s), NameKind::Standard(s));
        }
        for name in ["", "E", "event", "Events", "Evend", "FEM", "Sitex", "SetUp"] {
            assert_eq!(exact_standard(name.as_bytes()), None, "{name}");
        }
        for name in KNOWN_OTHER {
            assert!(known_other(name.as_bytes()));
            assert_eq!(classify(name), NameKind::Other, "{name}");
            assert!(
                crate::syntax::token::is_identifier(name.as_bytes()),
                "{name}"
            );
            assert!(!name.contains('&'));
        }
        for name in ["", "Setu", "SetUps", "setup", "Event", "ECo"] {
            assert!(!known_other(name.as_bytes()), "{name}");
        }
    }

    #[test]
    fn localised_names() {
        for (name, std) in [
            ("Événement", "Event"),
            ("Evenement", "Event"),
            ("Lieu", "Site"),
            ("Ronde", "Round"),
            ("Manche", "Round"),
            ("Blancs", "White"),
            ("Noir", "Black"),
            ("Résultat", "Result"),
            ("Type de jeu", "GameType"),
            ("Plaats", "Site"),
            ("Wit", "White"),
            ("Zwart", "Black"),
            ("Uitslag", "Result"),
            ("Weiß", "White"),
            ("Ergebnis", "Result"),
            ("Risultato", "Result"),
            ("Bianco", "White"),
            ("Brancas", "White"),
            ("Pretas", "Black"),
            ("Событие", "Event"),
            ("Место", "Site"),
            ("Дата", "Date"),
            ("Тур", "Round"),
            ("Белые", "White"),
            ("Чёрные", "Black"),
            ("Черные", "Black"),
            ("Результат", "Result"),
            ("RESULT", "Result"),
            ("Game Type", "GameType"),
            ("fen", "FEN"),
        ] {
            assert_eq!(classify(name), NameKind::Alias(std), "{name}");
        }
        assert_eq!(classify("Event:"), NameKind::Alias("Event"));
        assert_eq!(classify("Event"), NameKind::Standard("Event"));
        assert_eq!(classify("GameType"), NameKind::Standard("GameType"));
        assert_eq!(classify("WhiteClock"), NameKind::Other);
        assert_eq!(classify("Setup"), NameKind::Other);
        // `_` is kept: the writer's identifier for an odd name never becomes a standard one.
        assert_eq!(classify("FEN_"), NameKind::Other);
        assert_eq!(classify("Even_t"), NameKind::Other);
        assert_eq!(classify(""), NameKind::Other);
    }

    #[test]
    fn references() {
        assert_eq!(decode_references("R&#x00e9;sultat"), "Résultat");
        assert_eq!(decode_references("&#x00c9;v&#x00e9;nement"), "Événement");
        assert_eq!(decode_references("R&#233;sultat"), "Résultat");
        assert_eq!(decode_references("&Eacute;v&eacute;nement"), "Événement");
        assert_eq!(decode_references("A &amp; B"), "A & B");
        assert_eq!(decode_references("Smith & Jones"), "Smith & Jones");
        assert_eq!(
            decode_references("&unknown; &#xZZ; &#;"),
            "&unknown; &#xZZ; &#;"
        );
        assert_eq!(decode_references("&#0;&#x1b;"), "&#0;&#x1b;");
        assert_eq!(decode_references("&#x110000;"), "&#x110000;");
        assert!(has_references(b"R&#xe9;s"));
        assert!(!has_references(b"R&s"));
        assert_eq!(standard_tag_name("R&#x00e9;sultat"), Some("Result"));
        assert_eq!(standard_tag_name("Type de jeu"), Some("GameType"));
    }
}
