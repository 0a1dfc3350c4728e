//! Player names: their comparison keys (case, accents, Latin and Cyrillic letters, the
//! order "Surname, First" / "First Surname", initials, the spellings of one name in several
//! transliterations), the alias clusters of an archive's names with their evidence (never
//! two FMJD ids in one cluster), and the name tables that `names --apply` and
//! `merge --names` rewrite names by.

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The Latin letters of a character with its accents taken off (lower case), or the
/// transliteration of a Cyrillic letter; `None` for a character that is no letter.
fn fold_char(c: char, out: &mut String) -> bool {
    let s: &str = match c {
        'a'..='z' | '0'..='9' => {
            out.push(c);
            return true;
        }
        'A'..='Z' => {
            out.push(c.to_ascii_lowercase());
            return true;
        }
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' | 'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å'
        | 'Ā' | 'Ă' | 'Ą' => "a",
        'æ' | 'Æ' => "ae",
        'ç' | 'ć' | 'č' | 'ĉ' | 'ċ' | 'Ç' | 'Ć' | 'Č' => "c",
        'ď' | 'đ' | 'Ď' | 'Đ' | 'ð' | 'Ð' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' | 'È' | 'É' | 'Ê' | 'Ë' | 'Ē' | 'Ė' | 'Ę'
        | 'Ě' => "e",
        'ğ' | 'ģ' | 'Ğ' | 'Ģ' => "g",
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' | 'Ì' | 'Í' | 'Î' | 'Ï' | 'Ī' | 'İ' => {
            "i"
        }
        'ķ' | 'Ķ' => "k",
        'ł' | 'ľ' | 'ĺ' | 'ļ' | 'Ł' | 'Ľ' | 'Ĺ' | 'Ļ' => "l",
        'ñ' | 'ń' | 'ň' | 'ņ' | 'Ñ' | 'Ń' | 'Ň' | 'Ņ' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' | 'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' | 'Ō'
        | 'Ő' => "o",
        'œ' | 'Œ' => "oe",
        'ŕ' | 'ř' | 'Ŕ' | 'Ř' => "r",
        'ś' | 'š' | 'ş' | 'ș' | 'Ś' | 'Š' | 'Ş' | 'Ș' => "s",
        'ß' => "ss",
        'ť' | 'ţ' | 'ț' | 'Ť' | 'Ţ' | 'Ț' => "t",
        'þ' | 'Þ' => "th",
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' | 'Ù' | 'Ú' | 'Û' | 'Ü' | 'Ū' | 'Ů' | 'Ű'
        | 'Ų' => "u",
        'ý' | 'ÿ' | 'Ý' | 'Ÿ' => "y",
        'ź' | 'ż' | 'ž' | 'Ź' | 'Ż' | 'Ž' => "z",
        // Cyrillic (Russian, Ukrainian, Belarusian letters), one transliteration: the
        // skeleton (`skeleton`) then makes the others meet it.
        'а' | 'А' => "a",
        'б' | 'Б' => "b",
        'в' | 'В' => "v",
        'г' | 'Г' | 'ґ' | 'Ґ' => "g",
        'д' | 'Д' => "d",
        'е' | 'Е' | 'ё' | 'Ё' | 'э' | 'Э' | 'є' | 'Є' => "e",
        'ж' | 'Ж' => "zh",
        'з' | 'З' => "z",
        'и' | 'И' | 'і' | 'І' | 'ї' | 'Ї' => "i",
        'й' | 'Й' | 'ы' | 'Ы' => "y",
        'к' | 'К' => "k",
        'л' | 'Л' => "l",
        'м' | 'М' => "m",
        'н' | 'Н' => "n",
        'о' | 'О' => "o",
        'п' | 'П' => "p",
        'р' | 'Р' => "r",
        'с' | 'С' => "s",
        'т' | 'Т' => "t",
        'у' | 'У' | 'ў' | 'Ў' => "u",
        'ф' | 'Ф' => "f",
        'х' | 'Х' => "kh",
        'ц' | 'Ц' => "ts",
        'ч' | 'Ч' => "ch",
        'ш' | 'Ш' => "sh",
        'щ' | 'Щ' => "shch",
        'ъ' | 'Ъ' | 'ь' | 'Ь' | '\'' | '’' => "",
        'ю' | 'Ю' => "yu",
        'я' | 'Я' => "ya",
        _ => return false,
    };
    out.push_str(s);
    true
}

/// True if the name is written (partly) in Cyrillic letters.
pub fn is_cyrillic(name: &str) -> bool {
    name.chars().any(|c| ('\u{400}'..='\u{4ff}').contains(&c))
}

/// True if the name has letters beyond plain ASCII in Latin script (accents).
fn has_accents(name: &str) -> bool {
    !is_cyrillic(name) && name.chars().any(|c| !c.is_ascii() && c.is_alphabetic())
}

/// Words of surname that are particles (`van der Wal`): a name written without a comma
/// takes them into the surname.
const PARTICLES: &[&str] = &[
    "van", "der", "den", "de", "het", "ten", "ter", "von", "da", "di", "du", "des", "dos", "la",
    "le", "del",
];

/// A name read into its surname and given names (folded: lower case, no accents, Latin).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Parsed {
    /// The surname's words.
    pub surname: Vec<String>,
    /// The given names (an initial is one letter).
    pub given: Vec<String>,
    /// True if it was written "Surname, First".
    pub comma: bool,
}

/// The folded words of a piece of a name (letters and digits; anything else separates).
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut w = String::new();
    for c in s.chars() {
        if !fold_char(c, &mut w) && !w.is_empty() {
            out.push(std::mem::take(&mut w));
        }
    }
    if !w.is_empty() {
        out.push(w);
    }
    out
}

/// Read a name: "Surname, Given" or "Given Surname" (particles before the last word go to
/// the surname); a name of one word is a surname. `None` for a name that is no name
/// (empty, `?`, `-`, no letter).
pub fn parse(name: &str) -> Option<Parsed> {
    let name = name.trim();
    if let Some((sur, given)) = name.split_once(',') {
        let mut surname = words(sur);
        if surname.is_empty() {
            return None;
        }
        // "Wal, Jan van der": the particles go back to the surname.
        let mut given = words(given);
        while given.len() > 1
            && given
                .last()
                .is_some_and(|w| PARTICLES.contains(&w.as_str()))
        {
            if let Some(w) = given.pop() {
                surname.insert(0, w);
            }
        }
        return Some(Parsed {
            surname,
            given,
            comma: true,
        });
    }
    let mut all = words(name);
    if all.is_empty() {
        return None;
    }
    // "CALLEGARI Mickael": a surname in capitals first.
    let raw: Vec<&str> = name.split_whitespace().collect();
    if raw.len() >= 2
        && raw[0].chars().filter(|c| c.is_alphabetic()).count() >= 2
        && raw[0]
            .chars()
            .filter(|c| c.is_alphabetic())
            .all(char::is_uppercase)
        && !raw[1..].iter().all(|w| {
            w.chars()
                .filter(|c| c.is_alphabetic())
                .all(char::is_uppercase)
        })
        && all.len() == raw.len()
    {
        let given = all.split_off(1);
        return Some(Parsed {
            surname: all,
            given,
            comma: true,
        });
    }
    // "M. Callegari", "Mickael Callegari", "Jan van der Wal".
    let mut start = all.len() - 1;
    while start > 0 && PARTICLES.contains(&all[start - 1].as_str()) {
        start -= 1;
    }
    let surname = all.split_off(start);
    Some(Parsed {
        surname,
        given: all,
        comma: false,
    })
}

/// The spelling skeleton of a folded word: the spellings of one sound in the common
/// transliterations (sh, sch, ch, š; ts, tz, z, c; w, v; y, j, i; kh, h; ks, x) made one,
/// doubled letters made single, and the vowels after the first letter dropped, so that
/// Schwarzman, Shvartsman and Chvartsman meet, as Aleksandr and Alexander do.
pub fn skeleton(word: &str) -> String {
    let b = word.as_bytes();
    let mut s = String::with_capacity(b.len());
    let mut i = 0;
    let rules: &[(&str, &str)] = &[
        ("shch", "s"),
        ("tsch", "s"),
        ("sch", "s"),
        ("tch", "s"),
        ("sh", "s"),
        ("ch", "s"),
        ("sz", "s"),
        ("cz", "s"),
        ("zh", "j"),
        ("kh", "h"),
        ("ts", "z"),
        ("tz", "z"),
        ("ks", "x"),
        ("ph", "f"),
        ("ou", "u"),
        ("w", "v"),
        ("c", "k"),
        ("q", "k"),
        ("y", "i"),
        ("j", "i"),
    ];
    'outer: while i < b.len() {
        for (from, to) in rules {
            if word[i..].starts_with(from) {
                // `c` before e/i sounds as z (Cyrillic ц).
                let to = if *from == "c" && matches!(b.get(i + 1), Some(b'e' | b'i')) {
                    "z"
                } else {
                    to
                };
                s.push_str(to);
                i += from.len();
                continue 'outer;
            }
        }
        s.push(b[i] as char);
        i += 1;
    }
    let mut out = String::with_capacity(s.len());
    let mut last = '\0';
    for (k, c) in s.chars().enumerate() {
        if c == last {
            continue;
        }
        last = c;
        if k > 0 && matches!(c, 'a' | 'e' | 'i' | 'o' | 'u') {
            continue;
        }
        out.push(c);
    }
    out
}

impl Parsed {
    /// The surname's skeleton (particles dropped: "van der Wal" and "Wal" differ only there).
    pub fn surname_key(&self) -> String {
        let mut k = String::new();
        for w in &self.surname {
            if self.surname.len() > 1 && PARTICLES.contains(&w.as_str()) {
                continue;
            }
            k.push_str(&skeleton(w));
        }
        k
    }

    /// True if every given name is an initial (or there is none).
    pub fn initials_only(&self) -> bool {
        self.given.iter().all(|g| g.chars().count() == 1)
    }

    /// The given names' skeletons, in order.
    pub fn given_key(&self) -> Vec<String> {
        self.given.iter().map(|g| skeleton(g)).collect()
    }

    /// The initials of the given names.
    pub fn initials(&self) -> String {
        self.given.iter().filter_map(|g| g.chars().next()).collect()
    }
}

/// How two names compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Likeness {
    /// Different names.
    Different,
    /// One or both is no name (nothing said).
    Unknown,
    /// The same surname, and given names that initials or their absence do not contradict.
    Initials,
    /// The same name (up to order, case, accents and spelling).
    Same,
}

impl Likeness {
    /// Of two names as written.
    pub fn of(a: &str, b: &str) -> Likeness {
        match (parse(a), parse(b)) {
            (Some(a), Some(b)) => Likeness::of_parsed(&a, &b),
            _ => Likeness::Unknown,
        }
    }

    /// Of two parsed names.
    pub fn of_parsed(a: &Parsed, b: &Parsed) -> Likeness {
        if a.surname_key() != b.surname_key() {
            return Likeness::Different;
        }
        if a.given_key() == b.given_key() {
            return Likeness::Same;
        }
        if a.given.is_empty() || b.given.is_empty() {
            return Likeness::Initials;
        }
        if (a.initials_only() || b.initials_only()) && initials_fit(a, b) {
            return Likeness::Initials;
        }
        Likeness::Different
    }
}

/// True if the initials of the shorter form begin the given names of the other (an initial
/// fits a name by its first letter as written, and `Y.` also a name that begins with the
/// sound of Cyrillic ю, я, е, ё, however it is spelt: Yuri, Juri, Iouri).
fn initials_fit(a: &Parsed, b: &Parsed) -> bool {
    let letters = |p: &Parsed| -> Vec<[char; 2]> {
        p.given
            .iter()
            .map(|g| {
                let mut c = g.chars();
                let raw = c.next().unwrap_or(' ');
                let iotated = matches!(raw, 'j' | 'i' | 'y')
                    && matches!(c.next(), Some('a' | 'e' | 'o' | 'u'));
                [raw, if iotated { 'y' } else { raw }]
            })
            .collect()
    };
    let (la, lb) = (letters(a), letters(b));
    la.iter()
        .zip(&lb)
        .all(|(x, y)| x.iter().any(|c| y.contains(c)))
}

/// How good a form of a name is to keep: full given names over initials, over none;
/// accents over their absence; Latin over Cyrillic letters (the archive's script);
/// "Surname, First" order; then the longer.
pub fn form_rank(name: &str) -> (u8, bool, bool, bool, usize) {
    let Some(p) = parse(name) else {
        return (0, false, false, false, 0);
    };
    let given = if p.given.is_empty() {
        1
    } else if p.initials_only() {
        2
    } else {
        3
    };
    (
        given,
        !is_cyrillic(name),
        has_accents(name),
        p.comma,
        name.chars().count(),
    )
}

/// A name with the occurrences that make its evidence.
#[derive(Clone, Debug, Default)]
pub struct Occurrences {
    /// Games where it stands.
    pub games: u64,
    /// Events where it stands (the first few).
    pub events: BTreeSet<String>,
    /// First and last year.
    pub years: Option<(u16, u16)>,
    /// The keys of the games' moves it played (to find the games two names share).
    pub moves: BTreeSet<u128>,
}

/// How many events and game keys are kept per name (evidence, not a census).
const KEEP: usize = 64;

impl Occurrences {
    /// Count a game of this name.
    pub fn add(&mut self, event: Option<&str>, year: Option<u16>, moves: Option<u128>) {
        self.games += 1;
        if let Some(e) = event
            && self.events.len() < KEEP
        {
            self.events.insert(e.to_string());
        }
        if let Some(y) = year {
            self.years = Some(match self.years {
                Some((a, b)) => (a.min(y), b.max(y)),
                None => (y, y),
            });
        }
        if let Some(k) = moves
            && self.moves.len() < KEEP
        {
            self.moves.insert(k);
        }
    }

    /// Join another's counts.
    pub fn join(&mut self, o: Occurrences) {
        self.games += o.games;
        for e in o.events {
            if self.events.len() < KEEP {
                self.events.insert(e);
            }
        }
        if let Some((a, b)) = o.years {
            self.years = Some(match self.years {
                Some((x, y)) => (x.min(a), y.max(b)),
                None => (a, b),
            });
        }
        for k in o.moves {
            if self.moves.len() < KEEP {
                self.moves.insert(k);
            }
        }
    }
}

/// A name as the archive writes it, with an FMJD id when its games give one.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unit {
    /// The name as written (trimmed).
    pub name: String,
    /// The FMJD id given with it.
    pub fmjd: Option<String>,
}

/// The names of an archive, counted.
#[derive(Clone, Debug, Default)]
pub struct Census {
    /// Each name (with its id) and its occurrences.
    pub units: HashMap<Unit, Occurrences>,
}

impl Census {
    /// Count a player of a game.
    pub fn add(
        &mut self,
        name: &str,
        fmjd: Option<&str>,
        event: Option<&str>,
        year: Option<u16>,
        moves: Option<u128>,
    ) {
        let name = name.trim();
        if parse(name).is_none() {
            return;
        }
        let unit = Unit {
            name: name.to_string(),
            fmjd: fmjd
                .map(str::trim)
                .filter(|f| !f.is_empty() && *f != "?")
                .map(str::to_string),
        };
        self.units.entry(unit).or_default().add(event, year, moves);
    }

    /// Join another census.
    pub fn join(&mut self, o: Census) {
        for (u, occ) in o.units {
            self.units.entry(u).or_default().join(occ);
        }
    }

    /// The alias clusters (each of two names or more), in the order of their canonical
    /// names.
    pub fn clusters(&self) -> Vec<Cluster> {
        let mut units: Vec<(&Unit, &Occurrences, Parsed)> = self
            .units
            .iter()
            .filter_map(|(u, o)| parse(&u.name).map(|p| (u, o, p)))
            .collect();
        units.sort_by(|a, b| a.0.cmp(b.0));
        // By surname.
        let mut by_surname: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, (_, _, p)) in units.iter().enumerate() {
            by_surname.entry(p.surname_key()).or_default().push(i);
        }
        let mut out = Vec::new();
        for members in by_surname.values() {
            // Groups of full given names (by their skeleton) and FMJD id.
            let mut groups: BTreeMap<(Vec<String>, Option<String>), Vec<usize>> = BTreeMap::new();
            let mut partial = Vec::new();
            for &i in members {
                let (u, _, p) = &units[i];
                if p.given.is_empty() || p.initials_only() {
                    partial.push(i);
                } else {
                    groups
                        .entry((p.given_key(), u.fmjd.clone()))
                        .or_default()
                        .push(i);
                }
            }
            // A full name without an id joins the one group of its name that has an id.
            let keys: Vec<_> = groups.keys().cloned().collect();
            for k in &keys {
                if k.1.is_some() {
                    continue;
                }
                let ids: Vec<_> = keys
                    .iter()
                    .filter(|o| o.0 == k.0 && o.1.is_some())
                    .collect();
                if ids.len() == 1 {
                    let moved = groups.remove(k).unwrap_or_default();
                    groups.entry(ids[0].clone()).or_default().extend(moved);
                }
            }
            // Initials (or a surname alone) join the one group they fit, if only one fits.
            let mut alone: Vec<(usize, &'static str)> = Vec::new();
            for i in partial {
                let (u, _, p) = &units[i];
                let fits: Vec<_> = groups
                    .iter()
                    .filter(|((_, id), v)| {
                        let q = &units[v[0]].2;
                        (u.fmjd.is_none() || *id == u.fmjd)
                            && (p.given.is_empty() || initials_fit(p, q))
                    })
                    .map(|(k, _)| k.clone())
                    .collect();
                match fits.len() {
                    1 => groups.get_mut(&fits[0]).into_iter().for_each(|g| g.push(i)),
                    0 => alone.push((i, "")),
                    _ => alone.push((i, "ambiguous")),
                }
            }
            // Partial names fitting no full one: the same initials (and id) group together.
            let mut partial_groups: BTreeMap<(String, Option<String>), Vec<usize>> =
                BTreeMap::new();
            for (i, _) in &alone {
                let (u, _, p) = &units[*i];
                partial_groups
                    .entry((p.initials(), u.fmjd.clone()))
                    .or_default()
                    .push(*i);
            }
            let ambiguous: Vec<usize> = alone
                .iter()
                .filter(|(_, w)| !w.is_empty())
                .map(|(i, _)| *i)
                .collect();
            for g in groups.values().chain(partial_groups.values()) {
                if g.len() < 2 {
                    continue;
                }
                out.push(Cluster::of(g, &units, &ambiguous));
            }
        }
        out.sort_by(|a, b| a.canonical.cmp(&b.canonical));
        out
    }
}

/// Why a name is an alias of its cluster's canonical name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Why {
    /// Written the same.
    Same,
    /// Another case.
    Case,
    /// The other order of surname and given names.
    Order,
    /// With or without accents.
    Accents,
    /// In another script or transliteration.
    Transliteration,
    /// Other punctuation or spacing.
    Punctuation,
    /// Initials for given names, or none.
    Initials,
}

impl Why {
    /// As the outputs write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Why::Same => "same",
            Why::Case => "case",
            Why::Order => "order",
            Why::Accents => "accents",
            Why::Transliteration => "transliteration",
            Why::Punctuation => "punctuation",
            Why::Initials => "initials",
        }
    }

    /// Every difference between a name and the canonical one.
    pub fn between(alias: &str, canonical: &str) -> Vec<Why> {
        let mut out = Vec::new();
        if alias == canonical {
            return vec![Why::Same];
        }
        let (Some(a), Some(c)) = (parse(alias), parse(canonical)) else {
            return out;
        };
        if a.comma != c.comma {
            out.push(Why::Order);
        }
        if is_cyrillic(alias) != is_cyrillic(canonical) || a.surname != c.surname {
            if a.given.len() == c.given.len() || a.surname != c.surname {
                out.push(Why::Transliteration);
            }
        } else if has_accents(alias) != has_accents(canonical) {
            out.push(Why::Accents);
        }
        if a.given != c.given {
            if a.initials_only() != c.initials_only() || a.given.len() != c.given.len() {
                out.push(Why::Initials);
            } else if !out.contains(&Why::Transliteration) {
                out.push(Why::Transliteration);
            }
        }
        if out.is_empty() {
            let letters =
                |s: &str| -> String { s.chars().filter(|c| c.is_alphanumeric()).collect() };
            if letters(alias) != letters(canonical)
                && letters(alias).to_lowercase() == letters(canonical).to_lowercase()
            {
                out.push(Why::Case);
            } else {
                out.push(Why::Punctuation);
            }
        }
        out
    }
}

/// One alias of a cluster.
#[derive(Clone, Debug)]
pub struct Alias {
    /// The name as written.
    pub name: String,
    /// The FMJD id given with it.
    pub fmjd: Option<String>,
    /// Why it is the canonical name.
    pub why: Vec<Why>,
    /// Games where it stands.
    pub games: u64,
    /// Games it shares with another name of the cluster (the same moves, the same colour
    /// not required): copies of one game that name the player two ways.
    pub shared_games: u64,
    /// Events in common with the canonical name.
    pub shared_events: Vec<String>,
    /// First and last year.
    pub years: Option<(u16, u16)>,
}

/// A cluster of aliases of one player.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// The name to write: the best form (see [`form_rank`]), the most frequent among equals.
    pub canonical: String,
    /// The FMJD id of the cluster, if its names give one.
    pub fmjd: Option<String>,
    /// Every name of the cluster, the canonical first.
    pub aliases: Vec<Alias>,
    /// Names of the same surname left out because their initials fit several players.
    pub ambiguous: Vec<String>,
}

impl Cluster {
    fn of(members: &[usize], units: &[(&Unit, &Occurrences, Parsed)], ambiguous: &[usize]) -> Self {
        let best = members
            .iter()
            .copied()
            .max_by(|&a, &b| {
                let (ua, oa, _) = &units[a];
                let (ub, ob, _) = &units[b];
                let (ra, rb) = (form_rank(&ua.name), form_rank(&ub.name));
                (
                    ra.0,
                    ra.1,
                    ra.2,
                    ra.3,
                    oa.games,
                    ra.4,
                    std::cmp::Reverse(&ua.name),
                )
                    .cmp(&(
                        rb.0,
                        rb.1,
                        rb.2,
                        rb.3,
                        ob.games,
                        rb.4,
                        std::cmp::Reverse(&ub.name),
                    ))
            })
            .unwrap_or(members[0]);
        let canonical = units[best].0.name.clone();
        let fmjd = members.iter().find_map(|&i| units[i].0.fmjd.clone());
        let canon_occ = units[best].1;
        let mut aliases: Vec<Alias> = members
            .iter()
            .map(|&i| {
                let (u, o, _) = &units[i];
                let shared_games = members
                    .iter()
                    .filter(|&&j| j != i)
                    .map(|&j| o.moves.intersection(&units[j].1.moves).count() as u64)
                    .max()
                    .unwrap_or(0);
                Alias {
                    name: u.name.clone(),
                    fmjd: u.fmjd.clone(),
                    why: Why::between(&u.name, &canonical),
                    games: o.games,
                    shared_games,
                    shared_events: if i == best {
                        Vec::new()
                    } else {
                        o.events
                            .intersection(&canon_occ.events)
                            .take(5)
                            .cloned()
                            .collect()
                    },
                    years: o.years,
                }
            })
            .collect();
        aliases.sort_by(|a, b| {
            (a.name != canonical, std::cmp::Reverse(a.games), &a.name).cmp(&(
                b.name != canonical,
                std::cmp::Reverse(b.games),
                &b.name,
            ))
        });
        let sur = units[best].2.surname_key();
        let ambiguous = ambiguous
            .iter()
            .filter(|&&i| units[i].2.surname_key() == sur)
            .map(|&i| units[i].0.name.clone())
            .collect();
        Cluster {
            canonical,
            fmjd,
            aliases,
            ambiguous,
        }
    }
}

/// A table of names: alias -> the name to write. Read from TSV: `alias<TAB>canonical`, more
/// columns ignored (the evidence `names` writes), `#` lines comments, blank lines skipped;
/// the text output of `pdn names` is such a table.
#[derive(Clone, Debug, Default)]
pub struct Table {
    map: HashMap<String, String>,
}

/// A line of a table that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl Table {
    /// Read a table.
    pub fn parse(text: &str) -> Result<Table, TableError> {
        let mut map = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let mut f = line.split('\t');
            let (Some(alias), Some(canon)) = (f.next(), f.next()) else {
                return Err(TableError {
                    line: i + 1,
                    message: "expected alias<TAB>name".into(),
                });
            };
            let (alias, canon) = (alias.trim(), canon.trim());
            if alias.is_empty() || canon.is_empty() {
                return Err(TableError {
                    line: i + 1,
                    message: "an empty name".into(),
                });
            }
            if let Some(old) = map.insert(alias.to_string(), canon.to_string())
                && old != canon
            {
                return Err(TableError {
                    line: i + 1,
                    message: format!("`{alias}` is given two names: `{old}` and `{canon}`"),
                });
            }
        }
        Ok(Table { map })
    }

    /// The name to write for a name as written (`None`: not in the table).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.map.get(name.trim()).map(String::as_str)
    }

    /// Entries.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True if it has no entry.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_accents_transliteration() {
        assert_eq!(
            Likeness::of("Callegari, Mickaël", "Mickael Callegari"),
            Likeness::Same
        );
        assert_eq!(
            Likeness::of("M. Callegari", "Mickael Callegari"),
            Likeness::Initials
        );
        assert_eq!(
            Likeness::of("Шварцман, Александр", "Alexander Schwarzman"),
            Likeness::Same
        );
        assert_eq!(
            Likeness::of("Shvartsman, Aleksandr", "Alexandre Chvartsman"),
            Likeness::Same
        );
        assert_eq!(
            Likeness::of("Shvartsman, Aleksandr", "Schwarzman, A."),
            Likeness::Initials
        );
        assert_eq!(
            Likeness::of("Jan van der Wal", "Wal, Jan van der"),
            Likeness::Same
        );
        assert_eq!(Likeness::of("Baliakin", "Georgiev"), Likeness::Different);
        assert_eq!(Likeness::of("?", "Georgiev"), Likeness::Unknown);
        assert_eq!(
            Likeness::of("SIJBRANDS Ton", "Ton Sijbrands"),
            Likeness::Same
        );
    }

    #[test]
    fn clusters_never_join_two_ids() {
        let mut c = Census::default();
        c.add("Ivanov, Ivan", Some("100"), None, Some(2001), None);
        c.add("Иванов, Иван", Some("100"), None, Some(2002), None);
        c.add("Ivanov, Ivan", Some("200"), None, Some(2010), None);
        c.add("I. Ivanov", None, None, Some(2010), None);
        c.add("Callegari, Mickaël", None, Some("WC"), Some(2010), Some(7));
        c.add("M. Callegari", None, Some("WC"), Some(2010), Some(7));
        let cl = c.clusters();
        assert_eq!(cl.len(), 2, "{cl:#?}");
        assert_eq!(cl[0].canonical, "Callegari, Mickaël");
        assert_eq!(cl[0].aliases[1].shared_games, 1);
        assert_eq!(cl[1].fmjd.as_deref(), Some("100"));
        assert_eq!(cl[1].aliases.len(), 2);
        assert!(cl[1].ambiguous.contains(&"I. Ivanov".to_string()));
    }

    #[test]
    fn tables() {
        let t = Table::parse("# names\nM. Callegari\tCallegari, Mickaël\t# initials\n\n").unwrap();
        assert_eq!(t.get("M. Callegari"), Some("Callegari, Mickaël"));
        assert!(Table::parse("a\tb\na\tc\n").is_err());
        assert!(Table::parse("just one\n").is_err());
    }
}
