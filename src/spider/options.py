"""Game options (game, suits, rule, scoring) and the layout each game uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from spider.cards import SUITS
from spider.limits import excerpt

__all__ = ["GAMES", "RULES", "SCORINGS", "SUIT_COUNTS", "Options"]

GAMES: Final = ("spider", "spiderette")
SUIT_COUNTS: Final = (1, 2, 4)
RULES: Final = ("classic", "flexible")
SCORINGS: Final = ("standard", "reveal")

# Cards dealt to each column at the start, left to right.
_INITIAL_COLUMNS: Final = {
    "spider": (6, 6, 6, 6, 5, 5, 5, 5, 5, 5),
    "spiderette": (1, 2, 3, 4, 5, 6, 7),
}
_DECKS: Final = {"spider": 2, "spiderette": 1}


@dataclass(frozen=True, slots=True)
class Options:
    """The choices that define a game, validated and normalised.

    ``Options.make("spider", 1, "flexible")`` gives rule ``"classic"``: with one suit the two
    rules play the same.  Spiderette is classic only.
    """

    game: str = "spider"
    suits: int = 1
    rule: str = "classic"
    scoring: str = "standard"

    def __reduce__(self) -> tuple[type[Options], tuple[str, int, str, str]]:
        """Pickled and copied through the constructor, as the compiled build requires."""
        return (Options, (self.game, self.suits, self.rule, self.scoring))

    @classmethod
    def make(
        cls, game: str = "spider", suits: int = 1, rule: str = "classic", scoring: str = "standard"
    ) -> Options:
        """Validate and normalise the options; ``ValueError`` says which one is wrong."""
        if game not in GAMES:
            raise ValueError(f"game must be 'spider' or 'spiderette', not {excerpt(game)}")
        if isinstance(suits, bool) or suits not in SUIT_COUNTS:
            raise ValueError(f"suits must be 1, 2 or 4, not {excerpt(suits)}")
        if rule not in RULES:
            raise ValueError(f"rule must be 'classic' or 'flexible', not {excerpt(rule)}")
        if scoring not in SCORINGS:
            raise ValueError(f"scoring must be 'standard' or 'reveal', not {excerpt(scoring)}")
        if rule == "flexible" and game == "spiderette":
            raise ValueError("spiderette is played with the classic rule only")
        if rule == "flexible" and suits == 1:
            rule = "classic"
        return cls(game, suits, rule, scoring)

    @property
    def flexible(self) -> bool:
        """True when any descending run moves as a group, whatever its suits."""
        return self.rule == "flexible"

    @property
    def initial_columns(self) -> tuple[int, ...]:
        """How many cards each column gets at the start."""
        return _INITIAL_COLUMNS[self.game]

    @property
    def column_count(self) -> int:
        """10 for spider, 7 for spiderette."""
        return len(_INITIAL_COLUMNS[self.game])

    @property
    def decks(self) -> int:
        """2 for spider, 1 for spiderette."""
        return _DECKS[self.game]

    @property
    def card_count(self) -> int:
        """104 for spider, 52 for spiderette."""
        return 52 * self.decks

    @property
    def stock_size(self) -> int:
        """Cards in the stock at the start: 50 for spider, 24 for spiderette."""
        return self.card_count - sum(self.initial_columns)

    @property
    def runs_to_win(self) -> int:
        """Runs to remove to win: 8 for spider, 4 for spiderette."""
        return self.card_count // 13

    @property
    def suit_letters(self) -> tuple[str, ...]:
        """The suits in play: ('S',), ('S', 'H') or all four."""
        return SUITS[: self.suits]

    @property
    def score_floor(self) -> int | None:
        """Lowest standard score (0 in spider), or None where there is no bound (spiderette)."""
        return 0 if self.game == "spider" else None

    @classmethod
    def variants(cls) -> list[Options]:
        """Every game the player can choose (standard scoring), in menu order: Spider with 1
        suit, 2 and 4 suits under each rule, then Spiderette with 1, 2 and 4 suits."""
        found: list[Options] = []
        for game in GAMES:
            for suits in SUIT_COUNTS:
                for rule in RULES:
                    try:
                        options = cls.make(game, suits, rule)
                    except ValueError:
                        continue  # a rule this game is not played with
                    if options not in found:
                        found.append(options)
        return found

    def deals_left(self, stock_cards: int) -> int:
        """How many deals ``stock_cards`` cards make (the last deal may be short)."""
        return -(-stock_cards // self.column_count)

    def composition(self) -> list[int]:
        """Every card of the game as engine ints, in the documented unshuffled order.

        Suits in the order S, H, D, C; for each suit its copies one after the other; each copy
        Ace to King.
        """
        copies = self.runs_to_win // self.suits
        return [
            suit_index << 4 | rank
            for suit_index in range(self.suits)
            for _ in range(copies)
            for rank in range(1, 14)
        ]
