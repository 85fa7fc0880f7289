"""The engine's one exception type, and the small helpers every check uses to word its message."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

# The one formatter for numbers and names (plain Python); re-exported for the engine's checks.
from scorekeeper.engine.formatting import counted, listing, number, owned, says, verb

__all__ = ["counted", "listing", "number", "owned", "says", "verb"]


@dataclass(frozen=True, slots=True)
class FieldError:
    """One failed check: the path of the offending field and a sentence a player understands."""

    path: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """The error as the command line prints it."""
        return {"path": self.path, "message": self.message}


class RoundError(ValueError):
    """Invalid input (rules, a round, a game or cards), with every check that failed."""

    def __init__(self, errors: Iterable[FieldError]) -> None:
        self.errors: list[FieldError] = list(errors)
        super().__init__(
            "\n".join(f"{e.path}: {e.message}" if e.path else e.message for e in self.errors)
        )

    def to_dict(self) -> dict[str, list[dict[str, str]]]:
        """The errors as the command line prints them."""
        return {"errors": [error.to_dict() for error in self.errors]}


class Errors:
    """Collects failed checks so that all of them are reported together."""

    def __init__(self) -> None:
        self.items: list[FieldError] = []

    def add(self, path: str, message: str) -> None:
        self.items.append(FieldError(path, message))

    def raise_if_any(self) -> None:
        if self.items:
            raise RoundError(self.items)


class FrozenMap(Mapping[Any, Any]):
    """A read-only, hashable mapping that keeps insertion order (for values inside dataclasses)."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[Any, Any] | Iterable[tuple[Any, Any]] = ()) -> None:
        object.__setattr__(self, "_data", dict(data))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("FrozenMap is read-only")

    def __getitem__(self, key: Any) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"


def join_path(prefix: str, key: object) -> str:
    """`sides[0]` + `canastas` -> `sides[0].canastas`."""
    return f"{prefix}.{key}" if prefix else str(key)


def is_whole(value: object) -> bool:
    """An int that is not a bool (JSON true is not the number 1 here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: object) -> str:
    """How a value that failed a check appears in its message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return number(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f'"{text}"'
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return f"a {type(value).__name__}"
