"""Hand-built Azul tables for the picture tests: fixed states and events that do not move when the engine's
shuffling or agents change."""

from __future__ import annotations

from engine.azul import MARKER, AzulBoard, AzulState
from engine.core import Event

B, Y, R, K, W = range(5)
NAMES = ("Zoë Żółtowska-Brzęczyszczykiewicz 🎲", "Олександра", "Bob", "ʕ•ᴥ•ʔ Kuba 💙")


def board(
    score: int, lines: dict[int, tuple[int, int]], wall: list[tuple[int, int, int]], floor: list[int]
) -> AzulBoard:
    """``lines`` maps a line index to (colour, count); ``wall`` lists (row, col, colour)."""
    result = AzulBoard(score=score, floor=list(floor))
    for line, (color, count) in lines.items():
        result.line_color[line], result.line_count[line] = color, count
    for row, col, color in wall:
        result.wall[row][col] = color
    return result


def table(variant: str, boards: list[AzulBoard], **fields: object) -> AzulState:
    players = len(boards)
    factories = fields.pop("factories", [[0] * 5 for _ in range({2: 5, 3: 7, 4: 9}[players])])
    defaults: dict[str, object] = {
        "seed": 1,
        "rng": 1,
        "round": 1,
        "phase": "offer",
        "start_seat": 0,
        "current": 0,
        "centre": [0] * 5,
        "marker_in_centre": False,
        "bag": [0] * 5,
        "lid": [0] * 5,
    }
    defaults.update(fields)
    return AzulState(variant=variant, factories=factories, boards=boards, **defaults)  # type: ignore[arg-type]


def start_2p() -> tuple[AzulState, list[Event]]:
    factories = [[1, 1, 1, 1, 0], [0, 0, 2, 2, 0], [2, 0, 0, 1, 1], [0, 4, 0, 0, 0], [1, 0, 1, 0, 2]]
    state = table(
        "azul", [AzulBoard(), AzulBoard()], factories=factories, marker_in_centre=True, bag=[15, 15, 16, 17, 17]
    )
    return state, []


def mid_round_4p() -> tuple[AzulState, list[Event]]:
    boards = [
        board(12, {0: (B, 1), 2: (R, 2), 3: (K, 1)}, [(0, 0, B), (0, 1, Y), (1, 1, B), (2, 4, R)], [MARKER, Y]),
        board(7, {1: (W, 2), 3: (Y, 4), 4: (R, 5)}, [(3, 3, B), (4, 0, Y)], []),
        board(23, {0: (Y, 1), 4: (B, 3)}, [(0, 2, R), (1, 2, Y), (2, 2, B)], [B, B, R]),
        board(0, {}, [], []),
    ]
    factories = [
        [1, 1, 1, 1, 0],
        [0, 0, 4, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 3, 0, 0, 1],
        [1, 1, 0, 2, 0],
        [0, 0, 0, 0, 4],
        [4, 0, 0, 0, 0],
        [0, 2, 2, 0, 0],
    ]
    state = table(
        "azul",
        boards,
        factories=factories,
        round=3,
        current=2,
        centre=[2, 0, 3, 1, 1],
        bag=[10, 8, 7, 9, 6],
        lid=[1, 2, 3, 0, 0],
    )
    events = [
        Event(
            "take",
            1,
            {"source": 3, "color": R, "count": 2, "line": 5, "to_line": 2, "to_floor": 0, "to_lid": 0, "marker": False},
        )
    ]
    return state, events


def after_scoring_3p() -> tuple[AzulState, list[Event]]:
    boards = [
        board(9, {3: (K, 2)}, [(0, 0, B), (0, 1, Y), (1, 1, B), (1, 2, Y), (2, 2, B)], []),
        board(4, {4: (R, 3)}, [(0, 4, W), (1, 0, W), (3, 3, B)], []),
        board(15, {}, [(0, 2, R), (1, 2, Y), (2, 2, B), (3, 2, W), (4, 1, R)], []),
    ]
    factories = [
        [1, 1, 1, 1, 0],
        [0, 1, 2, 0, 1],
        [2, 0, 0, 1, 1],
        [0, 3, 0, 0, 1],
        [1, 0, 1, 0, 2],
        [0, 0, 0, 4, 0],
        [1, 2, 1, 0, 0],
    ]
    state = table(
        "azul",
        boards,
        factories=factories,
        round=3,
        start_seat=1,
        current=1,
        marker_in_centre=True,
        bag=[5, 6, 4, 7, 2],
        lid=[9, 8, 10, 4, 7],
    )
    events = [
        Event(
            "take",
            2,
            {
                "source": "centre",
                "color": W,
                "count": 1,
                "line": 4,
                "to_line": 1,
                "to_floor": 0,
                "to_lid": 0,
                "marker": False,
            },
        ),
        Event("wall", 0, {"row": 1, "col": 2, "color": Y, "points": 4, "h": 2, "v": 2}),
        Event("wall", 0, {"row": 2, "col": 2, "color": B, "points": 3, "h": 1, "v": 3}),
        Event("floor_penalty", 0, {"points": -2, "applied": -2, "tiles": 2}),
        Event("wall", 1, {"row": 0, "col": 4, "color": W, "points": 1, "h": 1, "v": 1}),
        Event("floor_penalty", 1, {"points": -4, "applied": -3, "tiles": 3}),
        Event("wall", 2, {"row": 3, "col": 2, "color": W, "points": 4, "h": 1, "v": 4}),
        Event("wall", 2, {"row": 4, "col": 1, "color": R, "points": 1, "h": 1, "v": 1}),
        Event("round_scored", None, {"round": 2, "scores": [9, 4, 15]}),
        Event("round_started", None, {"round": 3, "start_seat": 1}),
    ]
    return state, events


def grey_choosing_2p() -> tuple[AzulState, list[Event]]:
    boards = [
        board(5, {0: (K, 1), 1: (W, 2), 3: (W, 4), 2: (K, 2)}, [(0, 0, W), (1, 0, R), (2, 0, B)], [MARKER]),
        board(6, {0: (K, 1), 1: (B, 2), 4: (B, 3)}, [(0, 1, B), (1, 1, K)], [B, W]),
    ]
    state = table(
        "azul-grey", boards, round=2, phase="wall", choosing=[0, 1], bag=[12, 12, 12, 12, 12], lid=[1, 2, 0, 3, 0]
    )
    events = [
        Event(
            "take",
            1,
            {
                "source": "centre",
                "color": W,
                "count": 1,
                "line": "floor",
                "to_line": 0,
                "to_floor": 1,
                "to_lid": 0,
                "marker": False,
            },
        ),
        Event("choose_columns", None, {"seats": [0, 1]}),
    ]
    return state, events


def game_over_4p() -> tuple[AzulState, list[Event]]:
    full_row = [(0, col, (col - 0) % 5) for col in range(5)]
    boards = [
        board(68, {2: (W, 1)}, [*full_row, (1, 0, W), (2, 0, K), (3, 0, R), (4, 0, Y)], []),
        board(73, {}, [*full_row, *[(1, col, (col - 1) % 5) for col in range(5)], (2, 2, B), (3, 3, B), (4, 4, B)], []),
        board(73, {4: (B, 4)}, [*full_row, *[(1, col, (col - 1) % 5) for col in range(5)], (2, 0, K)], []),
        board(31, {}, [(0, 0, B), (1, 1, B)], []),
    ]
    state = table("azul", boards, round=6, phase="over", bag=[1, 0, 3, 2, 0], lid=[7, 9, 6, 5, 9])
    events = [
        Event("wall", 0, {"row": 0, "col": 4, "color": W, "points": 5, "h": 5, "v": 1}),
        Event("wall", 1, {"row": 1, "col": 4, "color": K, "points": 7, "h": 5, "v": 2}),
        Event("round_scored", None, {"round": 6, "scores": [68, 73, 73, 31]}),
    ]
    return state, events


TABLES = {
    "start-2p": start_2p,
    "mid-round-4p": mid_round_4p,
    "after-scoring-3p": after_scoring_3p,
    "grey-choosing-2p": grey_choosing_2p,
    "game-over-4p": game_over_4p,
}
