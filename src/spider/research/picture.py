"""A picture of the table, drawn with Pillow (the ``gym`` extra; ``render_mode="rgb_array"``).

The picture shows what a player sees, as the text of :mod:`spider.render` does: the columns,
their face-down cards as backs and their face-up cards with rank and suit (hearts and diamonds
in red), the column letters, the deals left in the stock, the runs removed, the score and the
moves.  It is drawn from the position's face-up cards and face-down counts only, so a face-down
card never shows.

The size depends on the width only: ``width`` x ``3/4 width`` (both even, as video encoders
want), whatever the variant and however long the columns (a long column's cards overlap more).
The same position and width give the same pixels.

Examples:
    >>> from spider import Game
    >>> from spider.research.picture import table_array, table_picture
    >>> game = Game.new("spiderette", suits=2, number=7)
    >>> table_picture(game).size
    (800, 600)
    >>> pixels = table_array(game, width=480)
    >>> pixels.shape, pixels.dtype
    ((360, 480, 3), dtype('uint8'))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

try:
    import numpy as np
    from PIL import Image, ImageDraw, ImageFont
except ModuleNotFoundError as error:  # pragma: no cover - the extra is installed for the tests
    raise ModuleNotFoundError(
        f"spider.research.picture needs Pillow and NumPy ({error.name} is missing): "
        "pip install 'spider-solitaire[gym]'",
        name=error.name,
    ) from None

from numpy.typing import NDArray

from spider.cards import RANK_NAMES
from spider.game import Game
from spider.limits import excerpt
from spider.options import Options
from spider.position import Position

__all__ = ["DEFAULT_WIDTH", "MAX_WIDTH", "MIN_WIDTH", "table_array", "table_picture"]

DEFAULT_WIDTH: Final = 800
"""The picture's width in pixels unless told (its height is 3/4 of it)."""

MIN_WIDTH: Final = 320
"""The narrowest picture drawn (the ranks are then about 8 pixels high)."""

MAX_WIDTH: Final = 3840
"""The widest picture drawn."""

_SUPERSAMPLE: Final = 2  # drawn this much larger, then shrunk: smooth edges for the shapes
_FELT: Final = (22, 104, 58)
_SLOT: Final = (64, 146, 96)
_FACE: Final = (252, 252, 248)
_EDGE: Final = (70, 70, 70)
_BACK: Final = (38, 76, 162)
_BACK_LINE: Final = (196, 210, 240)
_TEXT: Final = (244, 244, 236)
_RED: Final = (204, 22, 36)
_BLACK: Final = (24, 24, 24)
_RED_SUITS: Final = frozenset({1, 2})  # hearts, diamonds (engine suit indices)

_Color = tuple[int, int, int]
_Draw = ImageDraw.ImageDraw


@dataclass(frozen=True, slots=True)
class _Table:
    """What a player sees of a position: nothing here names a face-down card."""

    options: Options
    face_down: tuple[int, ...]
    face_up: tuple[tuple[int, ...], ...]
    deals_left: int
    removed: tuple[int, ...]
    score: int
    moves: int

    @classmethod
    def of(cls, position: Position) -> _Table:
        options = position.options
        return cls(
            options=options,
            face_down=position.face_down,
            face_up=position.face_up,
            deals_left=options.deals_left(len(position.stock)),
            removed=position.removed,
            score=position.score,
            moves=position.moves,
        )


@dataclass(frozen=True, slots=True)
class _Layout:
    """Sizes in pixels of the drawing (already multiplied by the supersampling)."""

    width: int
    height: int
    header: int
    labels_top: int
    table_top: int
    slot: float
    card_width: int
    card_height: int
    radius: int
    down_step: float
    up_step: float
    font_size: int

    @classmethod
    def of(cls, options: Options, width: int) -> _Layout:
        height = _even(width * 3 / 4) * _SUPERSAMPLE
        width *= _SUPERSAMPLE
        slot = width / options.column_count
        card_width = round(min(slot * 0.86, width * 0.094))
        card_height = round(card_width * 1.4)
        font_size = round(card_width * 0.3)
        header = round(width * 0.07)
        return cls(
            width=width,
            height=height,
            header=header,
            labels_top=header + round(width * 0.008),
            table_top=header + round(width * 0.04),
            slot=slot,
            card_width=card_width,
            card_height=card_height,
            radius=round(card_width * 0.09),
            down_step=card_height * 0.1,
            up_step=font_size * 1.3,
            font_size=font_size,
        )

    def card_left(self, column: int) -> int:
        """The x of column ``column``'s cards."""
        return round(self.slot * (column + 0.5) - self.card_width / 2)

    def steps(self, down: int, up: int) -> tuple[float, float]:
        """The steps between face-down and between face-up cards that fit a column in height
        (face-down cards close up first, then face-up ones)."""
        room = self.height - round(self.width * 0.01) - self.table_top - self.card_height
        down_step, up_step = self.down_step, self.up_step
        gaps_up = max(up - 1, 0)
        if down * down_step + gaps_up * up_step <= room:
            return down_step, up_step
        if down:
            down_step = max(self.down_step * 0.3, (room - gaps_up * up_step) / down)
        if gaps_up and down * down_step + gaps_up * up_step > room:
            up_step = max((room - down * down_step) / gaps_up, 0.0)
        return down_step, up_step


def _even(value: float) -> int:
    return 2 * round(value / 2)


@lru_cache(maxsize=16)
def _font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's own scalable font: the same glyphs on every machine, no system fonts."""
    font = ImageFont.load_default(size=size)
    if not isinstance(font, ImageFont.FreeTypeFont):  # pragma: no cover - the wheels have it
        raise RuntimeError(
            "spider.research.picture needs Pillow built with FreeType (as Pillow's wheels are)"
        )
    return font


def _suit(draw: _Draw, suit: int, centre: tuple[float, float], size: float, fill: _Color) -> None:
    """Draw the symbol of ``suit`` (0 spades, 1 hearts, 2 diamonds, 3 clubs), ``size`` high:
    Pillow's default font has no suit symbols, so they are drawn as shapes."""
    x, y = centre
    half = size / 2
    if suit == 2:
        draw.polygon(
            [(x, y - half), (x + half * 0.78, y), (x, y + half), (x - half * 0.78, y)], fill
        )
    elif suit == 3:
        _club(draw, x, y, size, fill)
    else:
        _heart(draw, x, y, size if suit == 1 else -size, fill)
    if suit in (0, 3):  # the stem
        draw.polygon([(x, y), (x - size * 0.18, y + half), (x + size * 0.18, y + half)], fill)


def _circle(draw: _Draw, x: float, y: float, r: float, fill: _Color) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill)


def _heart(draw: _Draw, x: float, y: float, size: float, fill: _Color) -> None:
    """A heart ``size`` high, point down; upside down (a spade's body) when ``size`` < 0."""
    r = abs(size) * 0.26
    lobes = y - size / 2 + r if size > 0 else y + abs(size) * 0.1
    for cx in (x - r * 0.98, x + r * 0.98):
        _circle(draw, cx, lobes, r, fill)
    side = lobes + r * 0.45 if size > 0 else lobes - r * 0.45
    draw.polygon([(x - r * 1.95, side), (x + r * 1.95, side), (x, y + size / 2)], fill)


def _club(draw: _Draw, x: float, y: float, size: float, fill: _Color) -> None:
    """A club's three leaves, ``size`` high (its stem is drawn as a spade's)."""
    r = size * 0.235
    _circle(draw, x, y - size / 2 + r, r, fill)
    for side in (-1, 1):
        _circle(draw, x + side * r * 1.12, y + r * 0.25, r, fill)


def _card_face(draw: _Draw, layout: _Layout, card: int, box: tuple[int, int, int, int]) -> None:
    """A face-up card: rank and suit in its top corner, a large suit in the middle."""
    left, top, right, bottom = box
    suit, rank = card >> 4, card & 15
    color = _RED if suit in _RED_SUITS else _BLACK
    edge = max(1, _SUPERSAMPLE)
    draw.rounded_rectangle(box, layout.radius, fill=_FACE, outline=_EDGE, width=edge)
    font = _font(layout.font_size)
    pad = layout.card_width * 0.08
    text_left, text_top = left + pad, top + layout.font_size * 0.15
    draw.text((text_left, text_top), RANK_NAMES[rank], fill=color, font=font, anchor="lt")
    text_right = draw.textbbox((text_left, text_top), RANK_NAMES[rank], font=font, anchor="lt")[2]
    small = layout.font_size * 0.8
    _suit(draw, suit, (text_right + pad * 0.5 + small / 2, text_top + small * 0.6), small, color)
    middle = ((left + right) / 2, (top + layout.font_size * 1.3 + bottom) / 2)
    _suit(draw, suit, middle, layout.card_width * 0.42, color)


def _card_back(draw: _Draw, layout: _Layout, box: tuple[int, int, int, int]) -> None:
    """A face-down card: a plain back, the same for every card."""
    draw.rounded_rectangle(box, layout.radius, fill=_BACK, outline=_EDGE, width=_SUPERSAMPLE)
    inset = round(layout.card_width * 0.08)
    left, top, right, bottom = box
    inner = (left + inset, top + inset, right - inset, bottom - inset)
    if inner[2] > inner[0] and inner[3] > inner[1]:
        draw.rounded_rectangle(inner, layout.radius // 2, outline=_BACK_LINE, width=_SUPERSAMPLE)


def _column(draw: _Draw, layout: _Layout, index: int, down: int, up: tuple[int, ...]) -> None:
    left = layout.card_left(index)
    top = float(layout.table_top)
    size = (layout.card_width, layout.card_height)
    if not down and not up:
        box = (left, round(top), left + size[0], round(top) + size[1])
        draw.rounded_rectangle(box, layout.radius, outline=_SLOT, width=2 * _SUPERSAMPLE)
        return
    down_step, up_step = layout.steps(down, len(up))
    for _ in range(down):
        _card_back(draw, layout, (left, round(top), left + size[0], round(top) + size[1]))
        top += down_step
    for card in up:
        _card_face(draw, layout, card, (left, round(top), left + size[0], round(top) + size[1]))
        top += up_step


def _header(draw: _Draw, layout: _Layout, table: _Table) -> None:
    """Score and moves on the left; the runs removed and the stock's deals left on the right."""
    options = table.options
    font = _font(round(layout.header * 0.32))
    middle = layout.header * 0.55
    margin = layout.width * 0.015
    plural = "s" if options.suits > 1 else ""
    title = (
        f"{options.game.capitalize()}, {options.suits} suit{plural}, {options.rule} rule, "
        f"{options.scoring} scoring"
    )
    small = _font(round(layout.header * 0.22))
    draw.text((margin, layout.header * 0.1), title, fill=_TEXT, font=small, anchor="lt")
    draw.text(
        (margin, middle + layout.header * 0.08),
        f"Score {table.score}    Moves {table.moves}",
        fill=_TEXT,
        font=font,
        anchor="lm",
    )
    right = _stock(draw, layout, table.deals_left, font, layout.width - margin, middle)
    _removed(draw, layout, table, font, right - layout.width * 0.04, middle)


def _stock(
    draw: _Draw,
    layout: _Layout,
    deals_left: int,
    font: ImageFont.FreeTypeFont,
    right: float,
    middle: float,
) -> float:
    """The stock as one small back per deal left and the count; returns its left edge."""
    label = f"Deals left {deals_left}"
    text_left = right - draw.textlength(label, font=font)
    draw.text((text_left, middle), label, fill=_TEXT, font=font, anchor="lm")
    height = round(layout.header * 0.62)
    width = round(height / 1.4)
    step = width * 0.3
    left = text_left - layout.width * 0.01 - width - step * max(deals_left - 1, 0)
    top = round(middle - height / 2)
    for deal in range(deals_left):
        x = round(left + deal * step)
        draw.rounded_rectangle(
            (x, top, x + width, top + height), _SUPERSAMPLE * 2, _BACK, _BACK_LINE, _SUPERSAMPLE
        )
    return min(left, text_left)


def _removed(
    draw: _Draw,
    layout: _Layout,
    table: _Table,
    font: ImageFont.FreeTypeFont,
    right: float,
    middle: float,
) -> None:
    """One small card per run to win: the run's suit when removed, an outline while not."""
    runs = table.options.runs_to_win
    height = round(layout.header * 0.62)
    width = round(height / 1.4)
    gap = width * 0.2
    left = right - runs * (width + gap)
    top = round(middle - height / 2)
    label = "Runs"
    draw.text((left - layout.width * 0.01, middle), label, fill=_TEXT, font=font, anchor="rm")
    for run in range(runs):
        x = round(left + run * (width + gap))
        box = (x, top, x + width, top + height)
        if run < len(table.removed):
            suit = table.removed[run]
            draw.rounded_rectangle(box, _SUPERSAMPLE * 2, _FACE, _EDGE, _SUPERSAMPLE)
            color = _RED if suit in _RED_SUITS else _BLACK
            _suit(draw, suit, (x + width / 2, middle), width * 0.6, color)
        else:
            draw.rounded_rectangle(box, _SUPERSAMPLE * 2, None, _SLOT, _SUPERSAMPLE)


def _labels(draw: _Draw, layout: _Layout, columns: int) -> None:
    font = _font(round(layout.font_size * 0.8))
    for index in range(columns):
        x = layout.slot * (index + 0.5)
        letter = "abcdefghij"[index]
        draw.text((x, layout.labels_top), letter, fill=_TEXT, font=font, anchor="mt")


def _won(draw: _Draw, layout: _Layout) -> None:
    font = _font(round(layout.width * 0.08))
    centre = (layout.width / 2, (layout.table_top + layout.height) / 2)
    draw.text(centre, "Won!", fill=_TEXT, font=font, anchor="mm")


def _position_of(game: Game | Position) -> Position:
    if isinstance(game, Game):
        return game.position()
    if isinstance(game, Position):
        return game
    raise ValueError(f"game must be a spider.Game or a spider.Position, not {excerpt(game)}")


def _checked_width(width: int) -> int:
    if isinstance(width, bool) or not isinstance(width, int) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(
            f"width must be an int from {MIN_WIDTH} to {MAX_WIDTH} (pixels), not {excerpt(width)}"
        )
    return width


def table_picture(game: Game | Position, width: int = DEFAULT_WIDTH) -> Image.Image:
    """The table of ``game`` (or of a position) as an RGB picture ``width`` x ``3/4 width``.

    Columns side by side under their letters, face-down cards as backs, face-up cards with
    their rank and suit (hearts and diamonds red); above them the variant, the score, the
    moves, one small card per run to win (its suit once removed) and one back per deal left.
    Only the face-up cards and the face-down counts are read: two positions that differ only
    in their face-down cards or stock give the same picture.

    Args:
        game: a :class:`~spider.game.Game` or a :class:`~spider.position.Position`.
        width: the picture's width in pixels, ``MIN_WIDTH`` to ``MAX_WIDTH`` (the height is
            3/4 of it; both rounded to even).

    Raises:
        ValueError: ``game`` is neither, or ``width`` is out of range or not an int.

    Examples:
        >>> from spider import Game
        >>> picture = table_picture(Game.new("spider", suits=2, number=1), width=640)
        >>> picture.size, picture.mode
        ((640, 480), 'RGB')
    """
    position = _position_of(game)
    width = _even(_checked_width(width))
    table = _Table.of(position)
    layout = _Layout.of(table.options, width)
    image = Image.new("RGB", (layout.width, layout.height), _FELT)
    draw = ImageDraw.Draw(image)
    _header(draw, layout, table)
    _labels(draw, layout, table.options.column_count)
    for index, (down, up) in enumerate(zip(table.face_down, table.face_up, strict=True)):
        _column(draw, layout, index, down, up)
    if len(table.removed) == table.options.runs_to_win:
        _won(draw, layout)
    return image.reduce(_SUPERSAMPLE)


def table_array(game: Game | Position, width: int = DEFAULT_WIDTH) -> NDArray[np.uint8]:
    """:func:`table_picture` as a NumPy array of shape ``(height, width, 3)``, ``uint8``: what
    Gymnasium's ``render_mode="rgb_array"`` returns.

    Examples:
        >>> from spider import Game
        >>> table_array(Game.new("spiderette", suits=1, number=3), width=400).shape
        (300, 400, 3)
    """
    return np.asarray(table_picture(game, width), dtype=np.uint8)
