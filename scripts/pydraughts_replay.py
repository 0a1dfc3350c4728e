#!/usr/bin/env python3
"""Replay the games of a PDN file with pydraughts (pip install pydraughts) and print the
plies replayed per second, for the side-by-side figure in BENCHMARKS.md. An optional second
argument limits the number of games.

Each move goes through `Board.push(Move(board, pdn_move=...))`, pydraughts' way to replay
a record (it validates the move against the legal moves). A game stops at its first move
pydraughts cannot replay. Prints one JSON line: games, plies, seconds, plies_per_second.
"""
import json
import sys
import time

from draughts import Board, Move
from draughts.PDN import PDNReader


def main() -> None:
    path = sys.argv[1]
    reader = PDNReader(filename=path)
    games = reader.games[: int(sys.argv[2])] if len(sys.argv) > 2 else reader.games
    start = time.perf_counter()
    plies = 0
    for game in games:
        fen = game.tags.get("FEN", "startpos") or "startpos"
        try:
            board = Board(variant=game.variant or "standard", fen=fen)
        except Exception:
            continue
        for mv in game.moves:
            try:
                board.push(Move(board, pdn_move=mv))
            except Exception:
                break
            plies += 1
    seconds = time.perf_counter() - start
    print(json.dumps({"games": len(games), "plies": plies, "seconds": seconds,
                      "plies_per_second": plies / seconds if seconds else 0.0}))


if __name__ == "__main__":
    main()
