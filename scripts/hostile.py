#!/usr/bin/env python3
"""Hostile inputs for the memory and time benchmarks (issue 37): one huge game of a given
shape, one-line archives, a tagless archive with a stray `{`, many small files. Nothing
made here is committed; scripts/bench.sh (and a person measuring by hand) writes them to a
temporary directory.

    scripts/hostile.py SHAPE MEGABYTES OUT [--corpus DIR]

SHAPE:
  moves       one legal game of kings going back and forth, no result (one tag, a FEN)
  merged      tagless games of the international corpus without their results: one game
  variations  the moves of `moves`, each with a one-move variation, some nested
  comments    the moves of `moves`, each with a comment
  tags        one game of MEGABYTES of tag pairs, then one move
  line        one game of `moves` on a single line
  oneline     the international corpus (tags and movetexts) on one line, repeated
  brace       a tagless archive (the corpus's movetexts) with a stray `{` in its first game
  files       OUT is a directory: MEGABYTES is the number of thousands of small files
"""

import argparse
import os
import re
import sys

KINGS = "[GameType \"20\"]\n[FEN \"W:WK50:BK1\"]\n"


def king_moves():
    """An endless legal game: the white king 50-45-50, the black king 1-6-1."""
    n = 1
    while True:
        yield f"{n}. 50-45 1-6"
        yield f"{n + 1}. 45-50 6-1"
        n += 2


def with_lines(tokens, width=78):
    """Tokens joined by spaces, broken before `width` columns."""
    line = []
    size = 0
    for t in tokens:
        if size + len(t) + 1 > width and line:
            yield " ".join(line) + "\n"
            line, size = [], 0
        line.append(t)
        size += len(t) + 1
    if line:
        yield " ".join(line) + "\n"


def corpus_files(corpus):
    root = os.path.join(corpus, "international")
    for dirpath, _, names in sorted(os.walk(root)):
        for n in sorted(names):
            if n.lower().endswith(".pdn"):
                yield os.path.join(dirpath, n)


def corpus_text(corpus):
    return "\n\n".join(
        open(p, encoding="utf-8", errors="replace").read() for p in corpus_files(corpus)
    )


RESULT = re.compile(r"(?<![\w-])(2-0|0-2|1-1|0-0|1-0|0-1|1/2-1/2|\*)(?![\w-])")


def movetexts(corpus):
    """The corpus without its tag lines and results: tagless games, unended."""
    lines = [l for l in corpus_text(corpus).splitlines() if not l.lstrip().startswith("[")]
    return RESULT.sub("", "\n".join(lines))


def write_until(out, target, chunks):
    written = 0
    for c in chunks:
        b = c.encode()
        if written + len(b) >= target:
            # The last chunk cut at a space or line break, so that no token is cut.
            b = b[: target - written]
            b = b[: max(b.rfind(b" "), b.rfind(b"\n"), 0)]
            out.write(b)
            return written + len(b)
        out.write(b)
        written += len(b)
        if written >= target:
            return written
    return written


def cycle(text):
    while True:
        yield text


def shape(name, target, corpus):
    if name == "moves":
        yield KINGS
        yield from with_lines(king_moves())
    elif name == "line":
        yield KINGS
        for t in king_moves():
            yield t + " "
    elif name == "variations":
        yield KINGS

        def tokens():
            n = 1
            while True:
                # Alternatives to White's moves, every other one with moves and a variation
                # of its own inside.
                if n % 4 == 1:
                    yield f"{n}. 50-45 (50-44 1-7 (1-6) 44-50) 1-6"
                else:
                    yield f"{n}. 50-45 (50-44) 1-6"
                yield f"{n + 1}. 45-50 (45-40) 6-1"
                n += 2

        yield from with_lines(tokens())
    elif name == "comments":
        yield KINGS
        yield from with_lines(t + " {the king goes back}" for t in king_moves())
    elif name == "tags":
        def tags():
            k = 0
            while True:
                k += 1
                yield f"[Tag{k} \"value {k}\"]\n"

        size = 0
        for t in tags():
            size += len(t)
            yield t
            if size >= target - 64:
                break
        yield "1. 32-28 *\n"
    elif name == "merged":
        yield from cycle(movetexts(corpus) + "\n\n")
    elif name == "oneline":
        text = corpus_text(corpus).replace("\r", " ").replace("\n", " ")
        yield from cycle(text + " ")
    elif name == "brace":
        # No comment of its own: nothing closes the stray `{`.
        text = re.sub(r"\{[^}]*\}", "", movetexts(corpus))
        text = re.sub(r"[{}\[\]]", "", text)
        # Results back at the end of each game so that the games stand apart, then a `{` that
        # never closes in the first one.
        games = [g.strip() for g in re.split(r"\n\s*\n", text) if g.strip()]
        first = games[0].split(" ")
        first.insert(4, "{")
        games[0] = " ".join(first)
        body = "".join(g + " *\n\n" for g in games)
        yield body
        rest = "".join(g + " *\n\n" for g in games[1:])
        yield from cycle(rest)
    else:
        sys.exit(f"unknown shape {name}")


def many_files(out, thousands):
    os.makedirs(out, exist_ok=True)
    game = "[Event \"e\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n"
    for k in range(thousands * 1000):
        sub = os.path.join(out, f"d{k // 1000:03}")
        if k % 1000 == 0:
            os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"g{k:06}.pdn"), "w") as f:
            f.write(game)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shape")
    ap.add_argument("megabytes", type=float)
    ap.add_argument("out")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument(
        "--corpus",
        default=os.environ.get("PDN_CORPUS", os.path.join(here, "..", "..", "shared", "corpus")),
    )
    a = ap.parse_args()
    if a.shape == "files":
        many_files(a.out, int(a.megabytes))
        return
    target = int(a.megabytes * (1 << 20))
    with open(a.out, "wb") as out:
        write_until(out, target, shape(a.shape, target, a.corpus))
        if a.shape in ("line", "oneline"):
            out.write(b"\n")


if __name__ == "__main__":
    main()
