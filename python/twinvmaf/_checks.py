"""Arguments checked where they are given, named by their Python keyword.

A wrong type is a twinvmaf.ArgumentTypeError (also a TypeError), a value
out of range a twinvmaf.ArgumentError (also a ValueError): both are
twinvmaf.Error. Checking here, before the C++ layer, is what keeps
pybind11's "incompatible function arguments" and "Unable to cast Python
instance to C++ type" (a negative width, width="576") away from users.
"""

import operator
import os

from ._twinvmaf import ArgumentError, ArgumentTypeError

# The C++ API's unsigned and 64-bit counts.
UNSIGNED_MAX = 2**32 - 1
COUNT_MAX = 2**63 - 1


def integer(keyword, value, minimum=0, maximum=UNSIGNED_MAX, meaning=""):
    """`value` as an int: an int or numpy integer, not a bool, a float
    (576.0) or a string ("576"). `meaning` explains a limit ("0: every core")."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise ArgumentTypeError(f"{keyword}={value!r}: expected an integer, not {type(value).__name__}")
    number = operator.index(value)
    if not minimum <= number <= maximum:
        limit = f"{minimum} or more" if maximum >= UNSIGNED_MAX else f"{minimum} to {maximum}"
        raise ArgumentError(f"{keyword}={number}: expected {limit}" + (f" ({meaning})" if meaning else ""))
    return number


def optional_integer(keyword, value, minimum=0, maximum=UNSIGNED_MAX):
    return None if value is None else integer(keyword, value, minimum, maximum)


def flag(keyword, value):
    if not isinstance(value, bool):
        raise ArgumentTypeError(f"{keyword}={value!r}: expected True or False, not {type(value).__name__}")
    return value


def text(keyword, value, choices=None):
    """A string, one of `choices` when given."""
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{keyword}={value!r}: expected a string, not {type(value).__name__}")
    if choices is not None and value not in choices:
        raise ArgumentError(f"{keyword}={value!r}: expected {', '.join(repr(c) for c in choices)}")
    return value


def optional_text(keyword, value):
    return None if value is None else text(keyword, value)


def path(keyword, value):
    """A file path (str or os.PathLike) as a str."""
    if not isinstance(value, (str, os.PathLike)):
        raise ArgumentTypeError(f"{keyword}={value!r}: expected a file path, not {type(value).__name__}")
    return os.fspath(value)


def precision(value):
    """The CLI's --precision as text: "legacy" (%.6f, the default), "max"
    (%.17g) or 1..17 significant digits."""
    if isinstance(value, str) and not value.isdigit():
        return text("precision", value, ("legacy", "max"))
    digits = integer("precision", int(value) if isinstance(value, str) else value, 1, 17,
                     "or 'legacy', 'max'")
    return str(digits)


def progress(value):
    """progress=None, True, False or a callable(done, total_or_None)."""
    if value is not None and not isinstance(value, bool) and not callable(value):
        raise ArgumentTypeError(f"progress={value!r}: expected None, True, False or a callable(done, total)")
    return value


def keywords(function, given, accepted):
    """Every keyword in `given` is one of `accepted` (a call's **inputs)."""
    unknown = [k for k in given if k not in accepted]
    if unknown:
        raise ArgumentTypeError(f"{function} has no keyword {unknown[0]!r}; it takes {', '.join(accepted)}")
