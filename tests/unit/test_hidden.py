"""The leak scan of testkit.hidden finds each kind of hidden fact, wherever it sits in
a frame, and stays quiet on what a viewer may know."""

from __future__ import annotations

import random

from numbridge import rules
from numbridge.rules.geometry import Layout
from testkit.hidden import leaks, said_in, secrets_of
from testkit.sudoku import fill, regular_blocks


def deal() -> rules.GameState:
    blocks = regular_blocks(9)
    rng = random.Random(5)
    solution = fill(blocks, rng)
    givens = "".join(d if i % 3 == 0 else "." for i, d in enumerate(solution))
    options = rules.GameOptions(room="bridge", variant="bridge", size=9, blocks="regular",
                                clues=27, take_price=1, move_ms=45_000, game_ms=900_000,
                                highlighting=True, rated=True)
    board = rules.Board(Layout.from_string(blocks), givens, solution)
    return rules.new_game("g-1", options, board, {"blue": "ana", "red": "bob"}, rng, 0)


STATE = deal()
EMPTY = STATE.digits.index(".")
R, C = divmod(EMPTY, 9)
RIGHT = int(STATE.board.solution[EMPTY])
WRONG = RIGHT % 9 + 1
BLUE = secrets_of(STATE, "blue")


def test_what_a_viewer_may_know_is_no_leak() -> None:
    for seat in ("blue", "red", None):
        view = (rules.player_view(STATE, seat, 0) if seat else rules.spectator_view(STATE, 0))
        assert leaks({"type": "state", "game": "g-1", "v": 0, "view": view},
                     [secrets_of(STATE, seat)]) == []
    assert leaks({"type": "mistake", "v": RIGHT, "cell": [R, C], "digit": WRONG}, [BLUE]) == []
    assert leaks({"type": "hand", "v": 1, "hand": list(STATE.blue.hand)}, [BLUE]) == []


def test_a_cell_beside_its_solution_digit_under_any_names() -> None:
    assert leaks({"cell": [R, C], "digit": RIGHT}, [BLUE])
    assert leaks({"x": {"where": [R, C], "hint": RIGHT}}, [BLUE])
    assert leaks({"spot": [R, C], "v": RIGHT}, [BLUE]) == []  # a version is no digit


def test_a_board_string_or_the_solution_anywhere() -> None:
    shown = STATE.digits[:EMPTY] + str(RIGHT) + STATE.digits[EMPTY + 1:]
    assert leaks({"view": {"digits": shown}}, [BLUE])
    assert leaks({"note": f"x{STATE.board.solution}y"}, [BLUE])
    assert leaks({"blocks": STATE.board.layout.to_string()}, [BLUE]) == []


def test_a_text_naming_a_cell_and_its_digit_unless_the_request_did() -> None:
    message = f"place [{R}, {C}] {RIGHT}: you hold no {RIGHT}"
    assert leaks({"type": "error", "message": message}, [BLUE])
    said = said_in({"action": "place", "cell": [R, C], "digit": RIGHT})
    assert leaks({"type": "error", "message": message}, [BLUE], said) == []
    assert leaks({"message": f"cell [{R}, {C}] is already filled"}, [BLUE]) == []


def test_the_other_hand_or_the_bag_as_tiles() -> None:
    red = list(STATE.red.hand)
    assert sorted(red) != sorted(STATE.blue.hand)  # (this deal: else nothing to tell)
    assert leaks({"hand": red}, [BLUE])
    assert leaks({"view": {"players": {"red": {"tiles": red}}}}, [BLUE])
    assert leaks({"bag_tiles": list(STATE.bag)}, [BLUE])
    assert leaks({"hand": list(STATE.blue.hand)}, [secrets_of(STATE, None)])  # a spectator


def test_a_finished_game_hides_nothing() -> None:
    over = rules.apply(STATE, "blue", rules.Resign(), 1, random.Random(1)).state
    done = secrets_of(over, "red")
    assert leaks({"record": {"solution": over.board.solution}, "hand": [1, 2]}, [done]) == []


def test_a_leak_says_where_it_sits_and_whose_secret_it_is() -> None:
    frame = {"x": [{"where": [R, C], "hint": RIGHT}], "tiles": list(STATE.red.hand)}
    found = leaks(frame, [BLUE, secrets_of(STATE, "red")])
    assert sorted(found) == sorted([
        f"x.[0]: g-1 cell [{R}, {C}] with its solution digit {RIGHT}",  # hidden from both
        f"x.[0]: g-1 cell [{R}, {C}] with its solution digit {RIGHT}",
        f"tiles: g-1 {list(STATE.red.hand)} is the other hand or the bag",  # blue's view only
    ])
