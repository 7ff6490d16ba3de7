"""How the workbench's Python functions read their arguments: whole numbers, seconds, squares
and sizes, each refused with the command line's sentence."""

from __future__ import annotations

import functools
from typing import Any, Callable, Iterable, Optional, Sequence, Tuple, Union

import numpy as np

from . import _queens


Square = Tuple[int, int]


SquareLike = Union[str, Sequence[int]]


def _whole_numbers(function: Callable) -> Callable:
    """Bad integers (negative, or too large for the engine) are a ``ValueError`` like every
    other bad value, not the ``OverflowError`` of the native conversion."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except OverflowError as error:
            raise ValueError(
                f"a number is out of range (a whole number from 0 up, within the limits "
                f"the command line states, was expected): {error}"
            ) from None

    return call


def _integer(value: Any, what: str) -> int:
    """``value`` as a whole number, as the command line reads one: an ``int`` (a NumPy integer
    too) or a float with no fraction; ``8.7``, ``True`` or ``"8"`` is a ``ValueError`` naming
    ``what``, never silently rounded."""
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{what} must be a whole number, got {value!r}")
    if isinstance(value, (int, np.integer)) or (
        isinstance(value, (float, np.floating)) and float(value).is_integer()
    ):
        return int(value)
    raise ValueError(f"{what} must be a whole number, got {value!r}")


def _whole(
    value: Any,
    what: str,
    least: Optional[int] = None,
    most: Optional[int] = None,
    bits: int = 64,
) -> int:
    """``value`` as :func:`_integer` reads it, in range: below ``least`` or above ``most`` it is
    refused in the sentences every front end gives (``seed must be at least 0, got -1``), and
    without them, a negative number or one past the engine's ``bits``-bit field is refused
    naming ``what`` (the engine's own limits within that field are checked, and worded, by the
    engine)."""
    number = _integer(value, what)
    if least is not None and number < least:
        raise ValueError(f"{what} must be at least {least}, got {number}")
    if most is not None and number > most:
        raise ValueError(f"{what} must be at most {most}, got {number}")
    if number < 0:
        raise ValueError(f"{what} must not be negative, got {number}")
    if number >= 2**bits:
        raise ValueError(f"{what} must be at most {2**bits - 1}, got {number}")
    return number


def _optional_whole(
    value: Any,
    what: str,
    least: Optional[int] = None,
    most: Optional[int] = None,
    bits: int = 64,
) -> Optional[int]:
    """``None`` as it is, anything else as :func:`_whole` reads it."""
    return None if value is None else _whole(value, what, least, most, bits)


#: The largest seed: seeds are 64-bit, as on the command line.
MAX_SEED = 2**64 - 1


def _seconds(value: Any, what: str) -> Optional[float]:
    """A number of seconds: an ``int`` or a ``float`` (NumPy's too); ``True`` or ``"5"`` is a
    ``ValueError`` naming ``what``, as every other bad value is. ``None`` as it is."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        raise ValueError(f"{what} must be a number of seconds, got {value!r}")
    return float(value)


def _squares(squares: Union[str, Iterable[SquareLike]]) -> list[Square]:
    """Squares from names (``"d1"``, ``"r20c30"``, or one comma-separated string) or pairs."""
    if isinstance(squares, str):
        return [tuple(s) for s in _queens.parse_squares(squares)]  # type: ignore[misc]
    result: list[Square] = []
    for square in squares:
        if isinstance(square, str):
            result.extend(tuple(s) for s in _queens.parse_squares(square))  # type: ignore[misc]
        else:
            row, col = square
            row, col = _integer(row, "a square's row"), _integer(col, "a square's column")
            if not (0 <= row < 2**32 and 0 <= col < 2**32):
                raise ValueError(
                    f"a square is (row, col) with both from 0 to {2**32 - 1}, got {square!r}"
                )
            result.append((row, col))
    return result


def _side(n: Any, what: str = "n") -> str:
    """A board side, passed on as text as the command line reads it: any whole number, which
    the engine refuses in its own words past the sides it takes (``count`` past 32, even past
    2³²−1, a size below 1), never in a conversion's; what is not a whole number is refused
    naming ``what``."""
    return str(_integer(n, what))


def _size(n: Union[int, str]) -> str:
    if isinstance(n, str):
        return n
    try:
        return str(_integer(n, "n"))
    except ValueError:
        raise ValueError(f'n is a board side or "RxC", got {n!r}') from None
