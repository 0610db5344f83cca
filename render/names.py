"""Players' names in pictures: the one place that decides how a display name is shown in the room it has.

Every picture (board headers, opponent rows, final standings, leaderboard, league table, replay frames) and the
caption under a board show a name through :func:`fit_name`, so a name looks the same everywhere:

- as the player chose it, emoji included, when it fits;
- else its first word and the initial of its last ("Bartłomiej Szczepański" → "Bartłomiej S."), a name's usual
  short form, rather than cut mid-word;
- else its first word alone, and only a first word too long on its own is cut, with an ellipsis.

A name with nothing drawable (only characters neither bundled font has) is shown as the caller's fallback
("Player 3"), in the picture and in the caption alike (:func:`shown`).
"""

from __future__ import annotations

from render.text import Font, fit, printable, width

INITIAL_MARK = "."


def shown(name: str, fallback: str) -> str:
    """``name`` as every picture and caption shows it when there is room: cleaned, or ``fallback`` when empty."""
    return printable(name, fallback)


def fit_name(name: str, face: Font, max_width: int, fallback: str) -> str:
    """``name`` shown in at most ``max_width`` pixels of ``face``: whole, else first word and last initial, else
    the first word, cut with an ellipsis only when it alone is too long (see the module's note)."""
    whole = shown(name, fallback)
    if width(whole, face) <= max_width:
        return whole
    for short in shortened(whole):
        if width(short, face) <= max_width:
            return short
    return fit(_head(whole.split()), face, max_width)


def shortened(name: str) -> list[str]:
    """The shorter forms of a (printable) name, longest first: first word and last initial, then the first word.
    The first word is the first that has a letter or digit, with what comes before it ("💙 Zoë Żak" → "💙 Zoë Ż.")."""
    words = name.split()
    head = _head(words)
    rest = words[len(head.split()) :]
    lettered = [word for word in rest if _initial(word)]
    forms = [f"{head} {_initial(lettered[-1])}{INITIAL_MARK}"] if lettered else []
    return [*forms, head] if head != name else forms


def _head(words: list[str]) -> str:
    """The words up to and including the first with a letter or digit (all of them when none has)."""
    for count, word in enumerate(words, start=1):
        if _initial(word):
            return " ".join(words[:count])
    return " ".join(words)


def _initial(word: str) -> str:
    """The first letter or digit of ``word`` ("Żółtowska-Brzęczyszczykiewicz" → "Ż"), or "" when it has none."""
    return next((ch for ch in word if ch.isalnum()), "")
