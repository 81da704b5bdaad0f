"""Progress of long runs (frames of a pair, pairs of a catalogue).

progress=
  None (the default)  on when someone can see it: stderr is a terminal, or
                      the code runs in a Jupyter/IPython kernel; off in
                      scripts whose stderr is a file or a pipe, and on Dask
                      workers
  True                on
  False               off
  a callable          called as progress(done, total_or_None); nothing drawn

"On" is a tqdm bar when tqdm is installed (Debian: python3-tqdm; in a
notebook its widget), else one line on stderr redrawn in place at most ten
times a second.
"""

import os
import sys
import time


def wanted(progress):
    """Whether progress=None|True|False asks for a bar here."""
    if progress is None:
        if os.environ.get("TWINVMAF_PROGRESS", "").strip().lower() in ("0", "off", "no", "false"):
            return False
        if "ipykernel" in sys.modules:
            return True
        try:
            return sys.stderr.isatty()
        except (AttributeError, ValueError):  # a closed or unusual stderr
            return False
    return bool(progress)


class Progress:
    """One bar: update(done, total) as the work goes, close() at the end."""

    def __init__(self, progress, desc, unit):
        self._callback = progress if callable(progress) else None
        self._enabled = not self._callback and wanted(progress)
        self._desc, self._unit = desc, unit
        self._bar = None      # a tqdm bar, False for the plain line, None before the first update
        self._line_at = 0.0   # when the plain line was last drawn
        self._last = None     # the latest (done, total)
        self._shown = None    # the (done, total, postfix) the plain line shows
        self._postfix = ""

    def __call__(self, done, total=None):
        self.update(done, total)

    def update(self, done, total=None):
        if self._callback:
            self._callback(done, total)
        elif self._enabled:
            self._draw(done, total)

    def note(self, **counts):
        """Counts shown after the bar (e.g. failed=1, retried=2)."""
        self._postfix = ", ".join(f"{k} {v}" for k, v in counts.items() if v)
        if self._bar:
            self._bar.set_postfix_str(self._postfix, refresh=False)

    def _draw(self, done, total):
        if self._bar is None:
            try:
                from tqdm.auto import tqdm
                self._bar = tqdm(total=total, desc=self._desc, unit=self._unit, file=sys.stderr, dynamic_ncols=True)
            except ImportError:
                self._bar = False
        self._last = (done, total)
        if self._bar is not False:
            if total is not None and self._bar.total != total:
                self._bar.total = total
            self._bar.update(done - self._bar.n)
            return
        now = time.monotonic()
        if now - self._line_at >= 0.1 or done == total:
            self._line_at = now
            self._write_line()

    def _write_line(self):
        if self._last is None or self._shown == (*self._last, self._postfix):
            return
        self._shown = (*self._last, self._postfix)
        done, total = self._last
        text = f"\r{self._desc}: {done}/{total if total is not None else '?'} {self._unit}s"
        if self._postfix:
            text += f" ({self._postfix})"
        sys.stderr.write(text)
        sys.stderr.flush()

    def close(self):
        if self._bar is False:
            self._write_line()  # the final count, if the throttle left it out
            sys.stderr.write("\n")
            sys.stderr.flush()
        elif self._bar is not None:
            self._bar.close()
        self._bar = None
