#!/usr/bin/env python3
"""The benchmark of `pdn merge` and `pdn names`, built from the corpus with its ground truth.

Games of the corpus (international, English, Russian; read and written again as strict PDN by
`pdn convert`) are given players, dates, events and rounds from a made-up pool, then written
as three sources (a federation file, a club file, an engine log): the original, and copies
perturbed in the ways archives differ -- player names (order, initials, accents, capitals,
Cyrillic letters and other transliterations), dates (day first, ISO, the year alone), tag
subsets, comments, result forms, CRLF line endings, a slip (a move's squares swapped) --
mixed with distinct games: games that are the start of a longer one (long openings in
common), a miniature played by several pairs of players, and games of true homonyms (two
players of one name, two FMJD ids).

Then `pdn merge --fuzzy` and `pdn names -f json` run on the three files, and the pairwise
precision, recall and F1 of the merge (pairs of input games put in one set) and of the name
clusters (pairs of names as written, with their FMJD id) are computed against the truth,
with the perturbation kinds of every pair missed or wrongly joined.

    scripts/merge_bench.py [--pdn target/release/pdn] [--corpus ../shared/corpus]
                           [--out DIR] [--games N] [--seed S]
"""

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

WESTERN_FIRST = [
    ("Mickaël", "Mickael"), ("Jérôme", "Jerome"), ("André", "Andre"), ("Hélène", "Helene"),
    ("Jan", "Jan"), ("Pieter", "Pieter"), ("Ton", "Ton"), ("Harm", "Harm"), ("Rob", "Rob"),
    ("Arnaud", "Arnaud"), ("Léopold", "Leopold"), ("Joël", "Joel"), ("Roel", "Roel"),
    ("Alexander", "Alexander"), ("Gérard", "Gerard"), ("Wim", "Wim"), ("François", "Francois"),
    ("Søren", "Soren"), ("Zoë", "Zoe"), ("Kees", "Kees"), ("Raúl", "Raul"), ("Inês", "Ines"),
]
WESTERN_SUR = [
    ("Callegari", "Callegari"), ("Abelé", "Abele"), ("Sijbrands", "Sijbrands"),
    ("Wiersma", "Wiersma"), ("Clerc", "Clerc"), ("Boomstra", "Boomstra"),
    ("Schwarz", "Schwarz"), ("Dupré", "Dupre"), ("Van der Wal", "Van der Wal"),
    ("Müller", "Muller"), ("Baljakin", "Baljakin"), ("Georgiev", "Georgiev"),
    ("Valneris", "Valneris"), ("Ndjofang", "Ndjofang"), ("Boutsen", "Boutsen"),
    ("Lévêque", "Leveque"), ("Gantvarg", "Gantvarg"), ("Schoonebeek", "Schoonebeek"),
    ("Domchev", "Domchev"), ("Jansen", "Jansen"), ("Krajenbrink", "Krajenbrink"),
    ("Meurs", "Meurs"), ("Núñez", "Nunez"), ("Ødegård", "Odegard"), ("Żuk", "Zuk"),
]
# Cyrillic name: (surname, first) in Cyrillic, and Latin spellings (several systems).
RUSSIAN = [
    (("Шварцман", "Александр"), [("Shvartsman", "Aleksandr"), ("Schwarzman", "Alexander"),
                                   ("Chvartsman", "Alexandre")]),
    (("Чижов", "Алексей"), [("Chizhov", "Aleksei"), ("Chizhov", "Alexey"), ("Tschizhow", "Alexej")]),
    (("Мильшин", "Гаврил"), [("Milshin", "Gavril"), ("Mil'shin", "Gavriil")]),
    (("Коготько", "Андрей"), [("Kogotko", "Andrei"), ("Kogotko", "Andrey")]),
    (("Шестаков", "Николай"), [("Shestakov", "Nikolai"), ("Shestakov", "Nikolay"),
                                ("Schestakow", "Nikolaj")]),
    (("Ковальчук", "Юрий"), [("Kovalchuk", "Yuri"), ("Kowaltschuk", "Juri"), ("Kovaltchouk", "Iouri")]),
    (("Боровских", "Сергей"), [("Borovskikh", "Sergei"), ("Borovskih", "Sergey")]),
    (("Цинман", "Дмитрий"), [("Tsinman", "Dmitri"), ("Zinman", "Dmitrij"), ("Tsinman", "Dmitry")]),
]
HOMONYM = ("Ivanov", "Ivan")


class Player:
    def __init__(self, pid, forms, fmjd):
        self.pid = pid
        self.forms = forms  # [(name as written, kind)], forms[0] canonical
        self.fmjd = fmjd


def western_forms(first, sur):
    (f, f_ascii), (s, s_ascii) = first, sur
    forms = [(f"{s}, {f}", "canonical"), (f"{f} {s}", "order"), (f"{f[0]}. {s}", "initials"),
             (f"{s.upper()} {f}", "capitals")]
    if (f, s) != (f_ascii, s_ascii):
        forms.append((f"{s_ascii}, {f_ascii}", "accents"))
        forms.append((f"{f_ascii} {s_ascii}", "accents+order"))
    return forms


def russian_forms(cyr, latins):
    (cs, cf), first = cyr, latins[0]
    forms = [(f"{first[0]}, {first[1]}", "canonical"), (f"{cs}, {cf}", "cyrillic"),
             (f"{cf} {cs}", "cyrillic+order"), (f"{first[1][0]}. {first[0]}", "initials")]
    for s, f in latins[1:]:
        forms.append((f"{s}, {f}", "transliteration"))
        forms.append((f"{f} {s}", "transliteration+order"))
    return forms


def players(rng):
    pool = []
    combos = [(f, s) for f in WESTERN_FIRST for s in WESTERN_SUR]
    rng.shuffle(combos)
    seen = set()
    for f, s in combos:
        # One player per surname and initial: an initial must be able to name one player.
        if (s[0], f[0][0]) in seen or len(pool) >= 40:
            continue
        seen.add((s[0], f[0][0]))
        pid = len(pool)
        pool.append(Player(pid, western_forms(f, s), 10000 + pid if pid % 2 == 0 else None))
    for cyr, lat in RUSSIAN:
        pid = len(pool)
        pool.append(Player(pid, russian_forms(cyr, lat), 10000 + pid))
    # True homonyms: one name, two players, two FMJD ids (every game of theirs gives it).
    homonyms = []
    for k in range(2):
        pid = len(pool)
        s, f = HOMONYM
        p = Player(pid, [(f"{s}, {f}", "canonical"), (f"{f} {s}", "order")], 14000 + k)
        pool.append(p)
        homonyms.append(p)
    return pool, homonyms


def read_base(pdn, corpus, tmp):
    paths = [os.path.join(corpus, d) for d in ("international", "english", "russian")]
    out = os.path.join(tmp, "base.pdn")
    subprocess.run([pdn, "convert", *paths, "--to", "pdn", "-o", out, "-q"], check=False)
    text = open(out, encoding="utf-8").read()
    games, seen = [], set()
    blocks = text.split("\n\n")
    i = 0
    while i + 1 < len(blocks):
        head, body = blocks[i], blocks[i + 1]
        i += 1
        if not head.startswith("["):
            continue
        i += 1
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', head, re.M))
        if "{pdn:" in body or "FEN" in tags or body.count("(") or "{" in body:
            continue
        moves = [t for t in body.split() if re.fullmatch(r"\d+[-x]\d+(x\d+)*", t)]
        if len(moves) < 20:
            continue
        key = (tags.get("GameType", "20"), " ".join(moves))
        if key in seen:
            continue
        # Not the start of a game already taken, nor one that goes on from one.
        seen.add(key)
        games.append({"gametype": tags.get("GameType"), "body": body, "moves": moves,
                      "result": tags.get("Result", "*")})
    # Drop games that are the start of another (the corpus has a few): the truth would be
    # muddled by them.
    keys = sorted((g["gametype"] or "20", " ".join(g["moves"]) + " ", n)
                  for n, g in enumerate(games))
    drop = set()
    for (t1, m1, n1), (t2, m2, _) in zip(keys, keys[1:]):
        if t1 == t2 and m2.startswith(m1):
            drop.add(n1)
    return [g for n, g in enumerate(games) if n not in drop]


RESULT_FORMS = {"2-0": ["1-0"], "0-2": ["0-1"], "1-1": ["1/2-1/2"], "1-0": ["2-0"],
                "0-1": ["0-2"], "1/2-1/2": ["1-1"]}


def date_forms(y, m, d):
    return {"iso": f"{y}-{m:02}-{d:02}", "dayfirst": f"{d:02}.{m:02}.{y}",
            "year": f"{y}", "partial": f"{y}.??.??"}


def game_text(tags, body, crlf=False):
    lines = [f'[{k} "{v}"]' for k, v in tags]
    text = "\n".join(lines) + "\n\n" + body.strip() + "\n\n"
    return text.replace("\n", "\r\n") if crlf else text


def truncate(body, plies, result="*"):
    out, n = [], 0
    for t in body.split():
        if re.fullmatch(r"\d+[-x]\d+(x\d+)*", t):
            if n == plies:
                break
            n += 1
        elif re.fullmatch(r"\d+\.(\.\.)?", t) or t == "...":
            pass
        else:
            continue
        out.append(t)
    while out and not re.fullmatch(r"\d+[-x]\d+(x\d+)*", out[-1]):
        out.pop()
    return " ".join(out) + " " + result


def perturb_body(rng, body, kinds):
    tokens = body.split()
    moves = [i for i, t in enumerate(tokens) if re.fullmatch(r"\d+[-x]\d+(x\d+)*", t)]
    if "comments" in kinds:
        for i in sorted(rng.sample(moves, min(2, len(moves))), reverse=True):
            tokens.insert(i + 1, "{" + rng.choice(["a strong move", "the only move",
                                                   "source B annotates", "a draw here?"]) + "}")
    if "slip" in kinds:
        quiet = [i for i, t in enumerate(tokens) if re.fullmatch(r"\d+-\d+", t)]
        quiet = [i for i in quiet if i > moves[min(8, len(moves) - 1)]]
        if quiet:
            i = rng.choice(quiet[: max(1, len(quiet) // 2)])
            a, b = tokens[i].split("-")
            tokens[i] = f"{b}-{a}"
        else:
            kinds.discard("slip")
    return " ".join(tokens)


def renamed(name, r):
    """A player of round `r`: the round number at the end of the surname."""
    return name.replace(",", f"{r},", 1) if "," in name else f"{name}{r}"


def scale(a, tmp, files, total):
    """Time `pdn merge` on `a.scale` games: the benchmark's files written again and again,
    each round's players renamed (a round number in every surname), so that each round's
    copies make sets of their own and the other rounds' games of the same moves are other
    games (reported, compared only with the sets of their players)."""
    texts = [open(f, encoding="utf-8", newline="").read() for f in files]
    big = os.path.join(tmp, "scale.pdn")
    rounds = -(-a.scale // total)
    name = re.compile(r'^(\[(?:White|Black) ")([^"]*)', re.M)
    with open(big, "w", encoding="utf-8", newline="") as f:
        for r in range(rounds):
            for t in texts:
                f.write(name.sub(lambda m: m.group(1) + renamed(m.group(2), r), t) if r else t)
    size = os.path.getsize(big)
    out, audit = os.path.join(tmp, "scale-merged.pdn"), os.path.join(tmp, "scale-audit.jsonl")
    cmd = ["/usr/bin/time", "-f", "%e s wall, %U s user, %M KB peak resident",
           a.pdn, "merge", big, "--fuzzy", "-o", out, "--audit", audit, "-q"]
    r = subprocess.run(cmd, capture_output=True, text=True, check=True)
    last = json.loads(open(audit, encoding="utf-8").read().splitlines()[-1])
    print(f"scale: {last['games']} games ({size / 1e6:.0f} MB) merged: {r.stderr.strip()}; "
          f"kept {last['kept']}, dropped {last['dropped']}, reported {last['reported']}")
    for p in (big, out, audit):
        os.remove(p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdn", default="target/release/pdn")
    ap.add_argument("--corpus", default=os.environ.get("PDN_CORPUS", "../shared/corpus"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--scale", type=int, default=0,
                    help="also time a merge of this many games: the three files again and "
                         "again, each round with its own players (so its own sets)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    tmp = a.out or tempfile.mkdtemp(prefix="pdn-merge-bench-")
    os.makedirs(tmp, exist_ok=True)
    base = read_base(a.pdn, a.corpus, tmp)
    rng.shuffle(base)
    base = base[: a.games]
    pool, homonyms = players(rng)
    events = [("World Championship", "WC"), ("Dutch Championship", "NK"),
              ("Tournament of Paris", "Paris"), ("Russian Cup", "RC"), ("Open of Brunssum", "Brunssum Open")]
    sources = {"fed.pdn": [], "club.pdn": [], "engine.pdn": []}
    truth = {}  # (file, index) -> true game id
    kinds_of = {}  # (file, index) -> perturbation kinds
    name_truth = {}  # (name, fmjd id or None) -> player id

    def emit(src, gid, tags, body, kinds, crlf=False):
        sources[src].append(game_text(tags, body, crlf))
        key = (src, len(sources[src]))
        truth[key] = gid
        kinds_of[key] = sorted(kinds)

    def record_name(name, fmjd, p):
        name_truth[(name, fmjd)] = p.pid

    for gid, g in enumerate(base):
        w, b = rng.sample(pool[:-2], 2)
        if gid % 25 == 0:
            w, b = homonyms[gid // 25 % 2], rng.choice(pool[:-2])
        y, m, d = rng.randint(1990, 2024), rng.randint(1, 12), rng.randint(1, 28)
        ev_long, ev_short = rng.choice(events)
        rnd = str(rng.randint(1, 11))
        result = g["result"]
        base_tags = [("Event", ev_long), ("Site", "?"), ("Date", f"{y}.{m:02}.{d:02}"),
                     ("Round", rnd), ("White", w.forms[0][0]), ("Black", b.forms[0][0]),
                     ("Result", result)]
        if g["gametype"]:
            base_tags.append(("GameType", g["gametype"]))
        for side, p in (("White", w), ("Black", b)):
            if p.fmjd:
                base_tags.append((f"{side}FmjdId", str(p.fmjd)))
            record_name(p.forms[0][0], str(p.fmjd) if p.fmjd else None, p)
        emit("fed.pdn", gid, base_tags, g["body"], [])
        copies = (1 if rng.random() < 0.7 else 0) + (1 if rng.random() < 0.35 else 0)
        for c in range(copies):
            src = ["club.pdn", "engine.pdn"][c]
            kinds = set(rng.sample(["names", "dates", "tags", "comments", "result", "crlf",
                                    "slip", "event"], rng.randint(1, 3)))
            tags = dict(base_tags)
            order = [k for k, _ in base_tags]
            if "names" in kinds:
                for side, p in (("White", w), ("Black", b)):
                    tags[side] = rng.choice(p.forms)[0]
            if "dates" in kinds:
                tags["Date"] = date_forms(y, m, d)[rng.choice(["iso", "dayfirst", "year", "partial"])]
            if "event" in kinds:
                tags["Event"] = ev_short
            if "tags" in kinds:
                for t in rng.sample(["Event", "Site", "Date", "Round", "WhiteFmjdId", "BlackFmjdId"], 3):
                    # A homonym's id stays: without it no one can tell the two apart.
                    if t.endswith("FmjdId") and (w in homonyms or b in homonyms):
                        continue
                    tags.pop(t, None)
            body = g["body"]
            if "result" in kinds:
                r = tags.get("Result", "*")
                if r in RESULT_FORMS and rng.random() < 0.7:
                    new = RESULT_FORMS[r][0]
                    tags["Result"] = new
                    body = body[: body.rfind(r)] + new if body.rstrip().endswith(r) else body
                else:
                    tags["Result"] = "*"
                    body = body[: body.rfind(r)] + "*" if body.rstrip().endswith(r) else body
            body = perturb_body(rng, body, kinds)
            for side, p in (("White", w), ("Black", b)):
                if side in tags:
                    fid = tags.get(f"{side}FmjdId")
                    record_name(tags[side], fid, p)
            emit(src, gid, [(k, tags[k]) for k in order if k in tags], body, kinds, "crlf" in kinds)
    n = len(base)
    # Distinct games: the start of a longer game, played by others, elsewhere.
    extra = n
    for g in base[: n // 10]:
        cut = rng.randint(12, len(g["moves"]) - 2)
        w, b = rng.sample(pool[:-2], 2)
        tags = [("Event", "Club evening"), ("Date", f"{rng.randint(1990, 2024)}.01.01"),
                ("White", w.forms[0][0]), ("Black", b.forms[0][0]), ("Result", "*")]
        if g["gametype"]:
            tags.append(("GameType", g["gametype"]))
        record_name(w.forms[0][0], str(w.fmjd) if w.fmjd else None, w)
        record_name(b.forms[0][0], str(b.fmjd) if b.fmjd else None, b)
        emit("engine.pdn", extra, tags, truncate(g["body"], cut), ["contained"])
        extra += 1
    # A miniature played again and again: the same 14 plies, other players and dates.
    for g in base[n // 10: n // 10 + 10]:
        mini = truncate(g["body"], 14)
        for k in range(3):
            w, b = rng.sample(pool[:-2], 2)
            tags = [("Event", "Blitz"), ("Date", f"{2000 + k}.0{k + 1}.1{k}"),
                    ("White", w.forms[0][0]), ("Black", b.forms[0][0]), ("Result", "*")]
            if g["gametype"]:
                tags.append(("GameType", g["gametype"]))
            record_name(w.forms[0][0], str(w.fmjd) if w.fmjd else None, w)
            record_name(b.forms[0][0], str(b.fmjd) if b.fmjd else None, b)
            emit(["fed.pdn", "club.pdn", "engine.pdn"][k], extra, tags, mini, ["miniature"])
            extra += 1
    # Homonyms playing the same short line on the same day.
    for g in base[n // 10 + 10: n // 10 + 20]:
        mini = truncate(g["body"], 16)
        opp = rng.choice(pool[:-2])
        for h in homonyms:
            tags = [("Event", "Simultaneous"), ("Date", "2011.06.04"), ("White", h.forms[0][0]),
                    ("Black", opp.forms[0][0]), ("Result", "*"), ("WhiteFmjdId", str(h.fmjd))]
            if opp.fmjd:
                tags.append(("BlackFmjdId", str(opp.fmjd)))
            if g["gametype"]:
                tags.append(("GameType", g["gametype"]))
            record_name(h.forms[0][0], str(h.fmjd), h)
            emit("club.pdn", extra, tags, mini, ["homonym"])
            extra += 1
    files = []
    for name, games in sources.items():
        path = os.path.join(tmp, name)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write("".join(games))
        files.append(path)
    total = sum(len(v) for v in sources.values())

    # Merge.
    merged, audit = os.path.join(tmp, "merged.pdn"), os.path.join(tmp, "audit.jsonl")
    t0 = time.monotonic()
    subprocess.run([a.pdn, "merge", *files, "--fuzzy", "-o", merged, "--audit", audit, "-q"],
                   check=True)
    secs = time.monotonic() - t0
    cluster = {k: k for k in truth}
    summary = None
    reported = collections.Counter()
    for line in open(audit, encoding="utf-8"):
        r = json.loads(line)
        if r["type"] == "dropped":
            cluster[(os.path.basename(r["file"]), r["game"])] = (
                os.path.basename(r["kept_file"]), r["kept_game"])
        elif r["type"] == "reported":
            reported[r["why"]] += 1
        elif r["type"] == "summary":
            summary = r
    assert summary["games"] == total, (summary, total)
    assert summary["kept"] + summary["dropped"] == total

    def pairs(groups):
        out = set()
        for members in groups.values():
            members = sorted(members, key=str)
            for i in range(len(members)):
                for j in range(i + 1, len(members)):
                    out.add((members[i], members[j]))
        return out

    by_pred, by_true = collections.defaultdict(list), collections.defaultdict(list)
    for k in truth:
        by_pred[cluster[k]].append(k)
        by_true[truth[k]].append(k)
    pp, tp_ = pairs(by_pred), pairs(by_true)
    tp = len(pp & tp_)
    prec = tp / len(pp) if pp else 1.0
    rec = tp / len(tp_) if tp_ else 1.0
    missed = collections.Counter()
    for x, y in tp_ - pp:
        for kind in set(kinds_of[x]) | set(kinds_of[y]) or {"none"}:
            missed[kind] += 1
    wrong = collections.Counter()
    for x, y in pp - tp_:
        for kind in set(kinds_of[x]) | set(kinds_of[y]) or {"none"}:
            wrong[kind] += 1
    # Idempotence: merging the merged output changes nothing.
    again = os.path.join(tmp, "merged2.pdn")
    subprocess.run([a.pdn, "merge", merged, "-o", again, "--audit",
                    os.path.join(tmp, "audit2.jsonl"), "-q"], check=True)
    same = open(merged, "rb").read() == open(again, "rb").read()

    # Names.
    out = subprocess.run([a.pdn, "names", *files, "-f", "json", "-q"], check=True,
                         capture_output=True, text=True).stdout
    pred_name = {}
    for line in out.splitlines():
        r = json.loads(line)
        if r["type"] != "cluster":
            continue
        for al in r["aliases"]:
            pred_name[(al["name"], al["fmjd_id"])] = r["canonical"] + "|" + str(r["fmjd_id"])
    units = sorted(name_truth, key=str)
    ptrue = collections.defaultdict(list)
    ppred = collections.defaultdict(list)
    for u in units:
        ptrue[name_truth[u]].append(u)
        ppred[pred_name.get(u, ("alone",) + u)].append(u)
    nt, np_ = pairs(ptrue), pairs(ppred)
    ntp = len(nt & np_)
    nprec = ntp / len(np_) if np_ else 1.0
    nrec = ntp / len(nt) if nt else 1.0
    f1 = 2 * nprec * nrec / (nprec + nrec) if nprec + nrec else 0.0
    name_kind = {}
    for p in pool:
        for form, kind in p.forms:
            name_kind.setdefault(form, kind)
    nmissed = collections.Counter()
    for x, y in nt - np_:
        for u in (x, y):
            nmissed[name_kind.get(u[0], "?")] += 1
    nwrong = [(x[0], y[0]) for x, y in np_ - nt]
    nmissed_examples = sorted({(x, y) for x, y in nt - np_}, key=str)[:12]

    print(f"games: {total} in 3 files ({n} distinct games with copies, "
          f"{sum(1 for k in truth if kinds_of[k] and kinds_of[k][0] in ('contained', 'miniature', 'homonym'))} "
          f"distinct games that share moves); merge --fuzzy: {secs:.2f} s")
    print(f"merge: precision {prec:.4f}, recall {rec:.4f} ({tp} of {len(tp_)} true pairs, "
          f"{len(pp) - tp} false); kept {summary['kept']}, dropped {summary['dropped']}, "
          f"reported {dict(reported)}")
    print(f"merge: pairs missed by kind: {dict(missed.most_common())}")
    print(f"merge: pairs wrongly joined by kind: {dict(wrong.most_common())}")
    print(f"merge: missed, for example: {sorted(tp_ - pp)[:6]}")
    print(f"merge: merging the output again changes nothing: {same}")
    print(f"names: precision {nprec:.4f}, recall {nrec:.4f}, F1 {f1:.4f} "
          f"({len(units)} names as written, {len(ptrue)} players)")
    print(f"names: names in missed pairs by kind: {dict(nmissed.most_common())}")
    print(f"names: wrongly joined: {nwrong[:10]}")
    print(f"names: missed, for example: {nmissed_examples}")
    if a.scale:
        scale(a, tmp, files, total)
    print(f"files in {tmp}")
    return 0 if (same and prec >= 0.995 and rec >= 0.98 and f1 >= 0.97) else 1


if __name__ == "__main__":
    sys.exit(main())
