"""Dataclasses' methods compiled once, not at every start.

``@dataclass`` writes each class's ``__init__``, ``__repr__`` and ``__eq__`` (a frozen one's ``__hash__``,
``__setattr__`` and ``__delattr__`` too) as Python source and compiles it while the class is made. For the seventy-odd
dataclasses the bot's start-up makes, that compiling was a sixth of the start-up's instructions, more than loading the
bytecode of all its modules. The source depends only on the class's declaration, so, as ``.pyc`` files do for modules,
:func:`install` keeps the compiled code of each source text in a file beside this module's bytecode (``__pycache__``,
or under ``PYTHONPYCACHEPREFIX``) and hands it back to the next start instead of compiling the text again. The file
is keyed by the text itself: a class that changed is compiled as before, and no class ever gets another's code.

The bot's start installs it before importing its modules and :func:`save` writes the file once they are loaded, when
something was compiled and bytecode may be written (not with ``PYTHONDONTWRITEBYTECODE``); the image, whose runtime
cannot write ``__pycache__``, writes it at build time (``python -m bot precompile``).
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import importlib.util
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any


def default_path() -> Path:
    """The file: in this module's ``__pycache__``, named for this Python (marshalled code is per version)."""
    bytecode = Path(importlib.util.cache_from_source(__file__))
    return bytecode.with_name(f"dataclasses.{sys.implementation.cache_tag}.marshal")


class MethodCache:
    """Compiled code by source text, read from ``path``; what this process used, to write back."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.codes: dict[str, CodeType] = {}
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            loaded = marshal.loads(path.read_bytes())  # read whole: marshal.load on a file reads it piece by piece
            if isinstance(loaded, dict):
                self.codes = loaded
        self.used: dict[str, CodeType] = {}
        self.compiled = 0
        self.written = False

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        """``exec`` as the dataclasses module calls it, with the code of a source text it compiled before."""
        if isinstance(source, str):
            code = self.codes.get(source)
            if code is None:
                # As exec compiles a text in the dataclasses module, which has no __future__ imports (this has).
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self.compiled += 1
            self.used[source] = code
            source = code
        builtins.exec(source, globals, locals)

    def save(self, *, asked: bool = False) -> bool:
        """Write the code this process used, when some of it was compiled and bytecode may be written (or ``asked``,
        as compileall writes whatever the environment says). True when written."""
        if not self.compiled or self.written or (sys.dont_write_bytecode and not asked):
            return False
        partial = self.path.with_name(f"{self.path.name}.{os.getpid()}")  # replaced at once: no reader sees half
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial.write_bytes(marshal.dumps(self.used))
            os.replace(partial, self.path)
        except OSError:  # a read-only install: it starts as fast as it did without the file
            partial.unlink(missing_ok=True)
            return False
        self.written = True
        return True


_installed: MethodCache | None = None


def install(path: Path | None = None) -> MethodCache:
    """Make ``@dataclass`` take its methods' code from the file (once per process; later calls return the same)."""
    global _installed  # noqa: PLW0603 - one hook per process, as there is one dataclasses module
    if _installed is None:
        _installed = MethodCache(path or default_path())
        # The dataclasses module calls exec(text, globals, namespace) once per method: a name of its own comes
        # before the builtin.
        setattr(dataclasses, "exec", _installed.exec)  # noqa: B010 - mypy knows no such attribute
    return _installed


def uninstall() -> None:
    """Let the dataclasses module compile every text again (tests)."""
    global _installed  # noqa: PLW0603
    if _installed is not None:
        delattr(dataclasses, "exec")
        _installed = None


def save() -> bool:
    """:meth:`MethodCache.save` of the installed cache (nothing without one)."""
    return _installed.save() if _installed is not None else False
