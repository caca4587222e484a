"""``numbridge puzzle count`` and ``numbridge puzzle generate``.

count     reads boards on stdin, one per line: N*N characters in index order
          ``r*N + c`` (N = 9 for 81 characters, 6 for 36), digits for givens and
          ``.`` or ``0`` for empty cells; prints ``0``, ``1`` or ``2+`` per board.
          ``--blocks`` gives an irregular layout as N*N block ids (``0``…``N-1``);
          without it the blocks are regular. Blank lines are skipped. A line that
          is not a board stops the command: a message on stderr, exit status 2.
generate  deals boards and prints one JSON object per line:
          ``{"size": 9, "blocks": "...", "givens": "..."}`` (``.`` for empty
          cells), plus ``"solution"`` with ``--with-solution``. ``--seed`` makes
          the output reproducible.

Importing this module does not import python-sat; running a command does.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
from typing import Any

from numbridge.puzzles.board import ROOM_CLUES

PROG = "numbridge puzzle"


def register(subparsers: Any) -> None:
    """Add the ``puzzle`` command (with ``count`` and ``generate``) to ``subparsers``."""
    puzzle = subparsers.add_parser(
        "puzzle",
        help="count the solutions of boards, or deal new boards",
        description="Boards: count solutions (count) or deal boards (generate).",
    )
    commands = puzzle.add_subparsers(dest="puzzle_command", metavar="{count,generate}")
    commands.required = True

    count = commands.add_parser(
        "count",
        help="print 0, 1 or 2+ solutions for each board read on stdin",
        description=(
            "Read boards on stdin, one per line: N*N characters in row-major axial "
            "order (r*N + c), digits for givens and '.' or '0' for empty cells "
            "(81 characters: 9x9, 36: 6x6). Print one line per board: 0, 1 or 2+."
        ),
    )
    count.add_argument(
        "--blocks",
        metavar="STRING",
        help="irregular layout: N*N block ids 0..N-1 in the same order (default: regular)",
    )
    count.set_defaults(func=run_count)

    generate = commands.add_parser(
        "generate",
        help="deal boards with exactly K clues and one solution",
        description=(
            "Deal boards and print one JSON object per line: "
            '{"size": N, "blocks": "<N*N block ids>", "givens": "<N*N chars, . for empty>"}'
            ', with "solution" too if asked. Room ranges: 9x9 '
            f"{ROOM_CLUES[9][0]}-{ROOM_CLUES[9][1]} clues, "
            f"6x6 {ROOM_CLUES[6][0]}-{ROOM_CLUES[6][1]}."
        ),
    )
    generate.add_argument("--size", type=int, choices=(9, 6), required=True)
    generate.add_argument("--blocks", choices=("regular", "irregular"), required=True)
    generate.add_argument("--clues", type=int, required=True, metavar="K")
    generate.add_argument(
        "--count", type=_non_negative, default=1, metavar="M", help="boards to deal (default 1)"
    )
    generate.add_argument("--seed", type=int, metavar="S", help="seed for reproducible output")
    generate.add_argument(
        "--with-solution", action="store_true", help='add the "solution" to each object'
    )
    generate.set_defaults(func=run_generate)


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def _fail(command: str, message: str) -> int:
    sys.stdout.flush()
    print(f"{PROG} {command}: error: {message}", file=sys.stderr)
    return 2


def run_count(args: argparse.Namespace) -> int:
    from numbridge.puzzles.board import InvalidBoard
    from numbridge.puzzles.sat import count_solutions
    from numbridge.rules.geometry import InvalidLayout, Layout

    blocks: str | None = args.blocks
    if blocks is not None:
        try:
            Layout.from_string(blocks)
        except InvalidLayout as exc:
            return _fail("count", f"--blocks: {exc}")
    out = sys.stdout
    for number, raw in enumerate(sys.stdin, start=1):
        line = raw.strip()
        if not line:
            continue
        try:
            result = count_solutions(line, blocks)
        except (InvalidBoard, InvalidLayout) as exc:
            return _fail("count", f"line {number}: {exc}")
        out.write("2+\n" if result >= 2 else f"{result}\n")
        out.flush()
    return 0


def run_generate(args: argparse.Namespace) -> int:
    from numbridge.puzzles.board import DealError
    from numbridge.puzzles.deal import check_settings, deal_board

    try:
        check_settings(args.size, args.blocks, args.clues)
    except DealError as exc:
        return _fail("generate", str(exc))
    rng = secrets.SystemRandom() if args.seed is None else random.Random(args.seed)
    out = sys.stdout
    for _ in range(args.count):
        try:
            board = deal_board(args.size, args.blocks, args.clues, rng)
        except DealError as exc:
            sys.stdout.flush()
            print(f"{PROG} generate: {exc}", file=sys.stderr)
            return 1
        out.write(json.dumps(board.to_dict(with_solution=args.with_solution)) + "\n")
        out.flush()
    return 0
