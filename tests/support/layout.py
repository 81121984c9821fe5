"""Checks that a matplotlib figure reads: for the plot tests of the arena and training."""

from __future__ import annotations

import itertools
import warnings

from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

MIN_PANEL_INCHES = 0.6
"""A panel narrower or lower than this has collapsed."""


def drawn(figure: Figure) -> list[tuple[str, Bbox]]:
    """Lay ``figure`` out and draw it, failing on any warning (a collapsed
    layout warns); returns every drawn text's content and box in pixels."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figure.canvas.draw()
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    tick_labels: set[int] = set()
    shown: list[Text] = []
    for axes in figure.axes + [c for a in figure.axes for c in a.child_axes]:
        for axis in (axes.xaxis, axes.yaxis):
            ticks = axis.get_major_ticks() + axis.get_minor_ticks()
            tick_labels |= {id(label) for tick in ticks for label in (tick.label1, tick.label2)}
            low, high = sorted(axis.get_view_interval())
            shown += [  # ticks outside the view are not drawn
                label
                for tick in ticks
                if low - 1e-9 <= tick.get_loc() <= high + 1e-9
                for label in (tick.label1, tick.label2)
            ]
    texts = [t for t in figure.findobj(Text) if id(t) not in tick_labels] + shown
    return [
        (text.get_text(), text.get_window_extent(renderer))
        for text in texts
        if text.get_visible() and text.get_text().strip()
    ]


def check_layout(figure: Figure, *, legends: int) -> None:
    """Draw ``figure`` (no warning allowed) and check that it reads: every text
    inside the figure and clear of every other, no panel collapsed or over
    another, and ``legends`` legends, each whole inside the figure."""
    texts = drawn(figure)
    page = figure.bbox
    for text, box in texts:
        assert page.x0 - 1 <= box.x0 and box.x1 <= page.x1 + 1, f"{text!r} leaves the figure"
        assert page.y0 - 1 <= box.y0 and box.y1 <= page.y1 + 1, f"{text!r} leaves the figure"
    for (a, box_a), (b, box_b) in itertools.combinations(texts, 2):
        assert not box_a.overlaps(box_b), f"{a!r} overlaps {b!r}"
    panels = [axes.get_window_extent() for axes in figure.axes]
    for panel in panels:
        assert min(panel.width, panel.height) >= MIN_PANEL_INCHES * figure.dpi, "a panel collapsed"
    for box_a, box_b in itertools.combinations(panels, 2):
        assert not box_a.overlaps(box_b), "two panels overlap"
    boxes = legend_boxes(figure)
    assert len(boxes) == legends
    for box in boxes:
        assert page.contains(box.x0, box.y0) and page.contains(box.x1, box.y1), "a cut legend"


def legend_boxes(figure: Figure) -> list[Bbox]:
    """The box of every legend of ``figure``'s panels, in pixels (after drawing)."""
    return [
        legend.get_window_extent() for a in figure.axes if (legend := a.get_legend()) is not None
    ]
