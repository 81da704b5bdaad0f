"""Frames handed in as numpy arrays: what format they are.

A frame is one of
  * three 2-D arrays (Y, U, V), chroma of the stored size (rounded up, as in
    a .yuv file): the chroma format follows from the shapes;
  * one 3-D array of shape (3, H, W): three planes of a 4:4:4 frame;
  * one 1-D array of a whole frame in .yuv file layout (Y, then U, then V):
    width, height and pixel_format must then be given.
Samples are uint8 for 8-bit video and uint16 above (bitdepth must then be
given: 10, 12 or 16). Nothing is converted or rescaled. A frame that is
none of these is a twinvmaf.ArgumentError naming what does not fit.
"""

import numpy as np

from . import _checks
from ._twinvmaf import ArgumentError

_CHROMA_SHIFTS = {"420": (1, 1), "422": (1, 0), "444": (0, 0)}


def pixel_format_name(value):
    """'420', '422' or '444' from 420, '420', 'yuv420p', 'yuv420p10le', ..."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise _checks.ArgumentTypeError(f"pixel_format={value!r}: expected 420, '420', 'yuv420p', ... "
                                        f"not {type(value).__name__}")
    text = str(value).lower()
    if text.startswith("yuv"):
        text = text[3:6]
    if text not in _CHROMA_SHIFTS:
        raise ArgumentError(f"pixel_format={value!r}: expected 420, 422 or 444")
    return text


def checked_bitdepth(value):
    """8, 10, 12 or 16."""
    depth = _checks.integer("bitdepth", value, 8, 16)
    if depth not in (8, 10, 12, 16):
        raise ArgumentError(f"bitdepth={depth}: expected 8, 10, 12 or 16")
    return depth


def stored_plane_shape(width, height, pixel_format, plane):
    """(rows, columns) of a plane as a .yuv file stores it."""
    if plane == 0:
        return height, width
    sx, sy = _CHROMA_SHIFTS[pixel_format]
    return (height + sy) >> sy, (width + sx) >> sx


def as_planes_or_flat(frame):
    """The frame as a list of three planes, or one 1-D array."""
    if isinstance(frame, np.ndarray):
        if frame.ndim == 1:
            return frame
        if frame.ndim == 3 and frame.shape[0] == 3:
            return [frame[0], frame[1], frame[2]]
        raise ArgumentError(
            f"a frame array of shape {frame.shape}: expected (3, H, W) for 4:4:4, a 1-D array of "
            "the whole frame, or a tuple of three 2-D planes (Y, U, V)")
    if isinstance(frame, (tuple, list)) and len(frame) == 3:
        return [np.asarray(p) if not isinstance(p, np.ndarray) else p for p in frame]
    raise ArgumentError("a frame is three 2-D arrays (Y, U, V), a (3, H, W) array or a 1-D array of the whole frame, "
                     f"not {type(frame).__name__}")


def infer_format(frame, width=None, height=None, pixel_format=None, bitdepth=None):
    """(width, height, pixel_format, bitdepth) of a frame and the hints given."""
    frame = as_planes_or_flat(frame)
    dtype = frame.dtype if isinstance(frame, np.ndarray) else frame[0].dtype
    if dtype == np.uint8:
        depth = 8 if bitdepth is None else checked_bitdepth(bitdepth)
        if depth != 8:
            raise ArgumentError(f"uint8 samples with bitdepth={bitdepth}: frames above 8 bits are uint16")
    elif dtype == np.uint16:
        if bitdepth is None or checked_bitdepth(bitdepth) == 8:
            raise ArgumentError("uint16 samples: give bitdepth=10, 12 or 16")
        depth = checked_bitdepth(bitdepth)
    else:
        raise ArgumentError(f"samples are {dtype}: expected uint8 (8-bit) or uint16 (10, 12 or 16-bit)")

    if isinstance(frame, np.ndarray):  # 1-D: the geometry must be given
        if width is None or height is None or pixel_format is None:
            raise ArgumentError("a 1-D frame needs width, height and pixel_format")
        return (_checks.integer("width", width, 1), _checks.integer("height", height, 1),
                pixel_format_name(pixel_format), depth)

    y, u = frame[0], frame[1]
    if y.ndim != 2 or u.ndim != 2:
        raise ArgumentError("each plane of a frame is a 2-D array")
    h, w = y.shape
    if pixel_format is None:
        for name in _CHROMA_SHIFTS:
            if u.shape == stored_plane_shape(w, h, name, 1):
                pixel_format = name
                break
        else:
            raise ArgumentError(f"chroma planes of shape {u.shape} fit no 4:2:0, 4:2:2 or 4:4:4 frame of "
                             f"luma {y.shape}")
    width, height = _checks.optional_integer("width", width, 1), _checks.optional_integer("height", height, 1)
    if (width is not None and width != w) or (height is not None and height != h):
        raise ArgumentError(f"luma of shape {y.shape}, but width={width} height={height} were given")
    return w, h, pixel_format_name(pixel_format), depth
