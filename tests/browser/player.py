"""A model-based player for the web app: seeded random sequences of what a player does, each
step checked against the engine.

The model is the engine itself (a :class:`spider.Game` in CPython, from the same code as the
page's worker) plus the few settings that change what an input does. Each step drives the real
page the way a player would (the New game dialog with random options, the suits button, moves by
drag, tap and keyboard, undo, redo, restart, hint, settings, reload, a game link, a broken link)
and then checks that:

- the page shows exactly the model's game (:func:`webapp.assert_shows`);
- no warning was shown that the step did not call for (a refusal the player caused is expected;
  "the engine did not understand that request" never is);
- no dialog is left open, and the page raised no error.

A failure names the seed and the step, and the whole run replays from the seed.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from webapp import (
    assert_shows,
    click_action,
    drag,
    drop_point,
    grab_point,
    key_to_card,
    key_to_column,
    set_setting,
    settle,
    wait_ready,
)

from spider import Game, Move
from spider.autoplace import best_destination
from spider.codes import format_code
from spider.options import Options
from spider.solver.hint.nomoves import check_no_moves

# Every message the page shows over the table, in order ({text, tone}), kept across reloads
# of the same page only (the list starts empty on each load).
RECORD_MESSAGES = """(() => {
  window.__messages = [];
  const watch = () => {
    const box = document.querySelector('[data-message]');
    if (!box) return;
    new MutationObserver(() => {
      if (!box.hidden && box.textContent) {
        window.__messages.push({ text: box.textContent, tone: box.dataset.tone || '' });
      }
    }).observe(box, { attributes: true, childList: true, characterData: true, subtree: true });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch);
  else watch();
})()"""

TAKE_MESSAGES = "() => { const m = window.__messages ?? []; window.__messages = []; return m; }"


@dataclass
class Expect:
    """What a step may show besides the table: a refusal, a confirmation question."""

    refusal: bool = False  # the step may (or must, with ``must_refuse``) show a warning
    must_refuse: bool = False


@dataclass
class Player:
    """A player at the page, with the engine as the model of what the page must show."""

    page: Page
    profile: str
    rng: random.Random
    game: Game = field(default_factory=lambda: Game.new("spider", suits=1, number=1))
    tap: str = "off"
    auto_place: bool = False
    double_click: bool = True
    hinted: Move | None = None
    blocked_at: object = None  # the state the page said "No more moves" for
    log: list[str] = field(default_factory=list)

    # ------------------------------------------------------------------ the run

    def start(self, code: str) -> None:
        """Opens the app on a game code, with known settings."""
        self.page.add_init_script(RECORD_MESSAGES)
        self.page.goto(f"/?code={code}")
        wait_ready(self.page)
        self.game = Game.from_code(code)
        self.set_setting("tap", self.tap)
        # "No more moves" is then said only when asked (H): a dialog opening on its own, at a
        # moment that depends on the engine's timing, would make the run depend on it too.
        self.set_setting("noMoves", False)
        self.check("start")

    def step(self, number: int) -> None:
        """One random action of a player, then the checks."""
        actions: list[tuple[int, Callable[[], Expect]]] = [
            (30, self.play_move),
            (6, self.deal),
            (6, self.undo),
            (4, self.redo),
            (3, self.hint),
            (5, self.new_game),
            (2, self.cycle_suits),
            (2, self.restart),
            (3, self.change_setting),
            (2, self.reload),
            (2, self.open_link),
            (1, self.open_broken_link),
        ]
        weights = [w for w, _ in actions]
        action = self.rng.choices([a for _, a in actions], weights)[0]
        name = action.__name__
        self.log.append(f"{number}: {name}")
        try:
            expect = action()
        except AssertionError as error:
            recent = "\n  ".join(self.log[-12:])
            raise AssertionError(
                f"step {number} ({name}): {error}\nlast steps:\n  {recent}"
            ) from error
        self.check(f"step {number} ({name})", expect)

    def check(self, where: str, expect: Expect | None = None) -> None:
        expect = expect or Expect()
        try:
            assert_shows(self.page, self.game)
            settle(self.page)
            if expect.must_refuse:  # a refusal changes nothing on the table: wait for its words
                with contextlib.suppress(PlaywrightTimeout):  # said below
                    self.page.wait_for_function(
                        "() => (window.__messages ?? []).some((m) => m.tone === 'warn')",
                        timeout=10_000,
                    )
                # With the words, refused cards start back from where they were dropped: the
                # next step must not grab them in flight.
                settle(self.page)
            open_dialogs = self.page.evaluate(
                "() => [...document.querySelectorAll('dialog[open]')].map((d) => d.id)"
            )
            assert not open_dialogs, f"a dialog stays open: {open_dialogs}"
            shown: list[dict[str, str]] = self.page.evaluate(TAKE_MESSAGES)
            warnings = [m["text"] for m in shown if m["tone"] == "warn"]
            if expect.must_refuse:
                assert warnings, f"the step should have been refused with a message: {shown}"
            elif not expect.refusal:
                assert not warnings, f"unexpected messages: {warnings}"
        except AssertionError as error:
            recent = "\n  ".join(self.log[-12:])
            raise AssertionError(
                f"{where}: {error}\nlast steps:\n  {recent}\nthe model: {self.game.to_text()}"
            ) from error

    # ------------------------------------------------------------------ helpers

    def in_progress(self) -> bool:
        """Leaving this game asks first: a move made, not won, not shown blocked."""
        blocked = self.blocked_at == self.game.state_key()
        return self.game.moves > 0 and not self.game.is_won and not blocked

    def answer_confirm(self, asked: bool) -> bool:
        """Answers the "abandon this game?" question when it is asked: True to go on."""
        dialog = self.page.locator("#dlg-confirm")
        if not asked:
            return True
        try:
            dialog.wait_for(state="visible", timeout=15_000)
        except PlaywrightTimeout:
            raise AssertionError(
                "the page did not ask before leaving the game in progress"
            ) from None
        accept = self.rng.random() < 0.7
        button = "[data-confirm-ok]" if accept else "button[value='cancel']"
        dialog.locator(button).click()
        dialog.wait_for(state="hidden")
        return accept

    def fresh(self, options: Options, scoring: str) -> None:
        """The model follows a new deal of ``options``: its code is read off the page."""
        try:
            self.page.wait_for_function(
                """([game, old]) => {
                  const code = document.querySelector('[data-code]').textContent.trim();
                  return document.documentElement.dataset.game === game && code !== old
                    && document.querySelector('[data-moves]').textContent.trim() === '0'
                    && /^S[PD]\\d/.test(code);
                }""",
                arg=[options.game, self.game.code],
                timeout=15_000,
            )
        except PlaywrightTimeout:
            said = [m["text"] for m in self.page.evaluate(TAKE_MESSAGES)]
            raise AssertionError(f"no new {options} game was dealt; the page said {said}") from None
        code = self.page.locator("[data-code]").inner_text().strip()
        game = Game.from_code(code, scoring=scoring)
        assert game.options == options, f"dealt {game.options}, not {options}"
        self.game = game
        self.hinted = None

    def set_setting(self, key: str, value: str | bool) -> None:
        set_setting(self.page, key, value)

    def total(self, col: int) -> int:
        return len(self.game.columns[col].cards)

    # ------------------------------------------------------------------ the actions

    def play_move(self) -> Expect:
        moves = self.game.legal_moves()
        if not moves:
            return self.deal()
        move = self.rng.choice(moves)
        how = self.rng.choice(["drag", "tap", "keyboard"])
        self.log[-1] += f" {how} {move.text()} (tap {self.tap}, auto {self.auto_place})"
        if how == "drag":
            return self.drag_move(move)
        if how == "tap":
            return self.tap_move(move)
        return self.key_move(move)

    def drag_move(self, move: Move) -> Expect:
        idx = self.total(move.src) - move.count
        drag(self.page, self.profile, move.src, idx, move.dst)
        if self.auto_place:
            return self.play_auto(move.src, move.count)
        self.play(move)
        return Expect()

    def tap_move(self, move: Move) -> Expect:
        idx = self.total(move.src) - move.count
        x, y = grab_point(self.page, move.src, idx)
        if self.tap == "pick":
            self.page.mouse.click(x, y)
            tx, ty = drop_point(self.page, move.dst)
            self.page.mouse.click(tx, ty)
            self.play(move)
            return Expect()
        if self.tap == "best":
            self.page.mouse.click(x, y)
            return self.play_auto(move.src, move.count)
        # Taps do nothing; a double-click sends the cards to the best column when that is on.
        self.page.mouse.dblclick(x, y)
        return self.play_auto(move.src, move.count) if self.double_click else Expect()

    def play_auto(self, src: int, count: int) -> Expect:
        """The group goes where the engine sends it (the hinted column, if the hint named it)."""
        hinted = self.hinted
        if hinted is not None and hinted.src == src and hinted.count == count:
            self.play(hinted)
            return Expect()
        target = best_destination(self.game, src, count)
        if target is None:
            return Expect(refusal=True, must_refuse=True)
        self.play(target)
        return Expect()

    def key_move(self, move: Move) -> Expect:
        # Tab reaches the table at its one tab stop (the roving focus of keyboard.js).
        if self.page.evaluate("() => !document.activeElement?.closest('[data-column]')"):
            self.page.locator(
                "[data-column] [tabindex='0'], [data-column][tabindex='0']"
            ).first.focus()
        key_to_column(self.page, move.src)
        self.key_to_card(move.src, self.total(move.src) - move.count)
        self.page.keyboard.press("Enter")
        key_to_column(self.page, move.dst)
        self.page.keyboard.press("Space")
        self.play(move)
        return Expect()

    def key_to_card(self, col: int, idx: int) -> None:
        """Moves the focus along column ``col`` to its card at ``idx`` with the arrow keys."""
        key_to_card(self.page, col, idx)

    def play(self, move: Move) -> None:
        self.game.move(move.src, move.dst, move.count)
        self.hinted = None

    def deal(self) -> Expect:
        if self.rng.random() < 0.5:
            self.page.locator("[data-stock]").click()
        else:
            self.page.keyboard.press("d")
        if self.game.can_deal:
            self.game.deal()
            self.hinted = None
            return Expect()
        return Expect(refusal=True, must_refuse=True)

    def undo(self) -> Expect:
        self.page.keyboard.press("u" if self.rng.random() < 0.5 else "Control+z")
        if not self.game.can_undo:
            return Expect(refusal=True)
        self.game.undo()
        self.hinted = None
        return Expect()

    def redo(self) -> Expect:
        self.page.keyboard.press("Control+y")
        if not self.game.can_redo:
            return Expect(refusal=True)
        self.game.redo()
        self.hinted = None
        return Expect()

    def hint(self) -> Expect:
        """Asks for a hint; the move it marks is where a tap on that group then goes."""
        self.page.keyboard.press("h")
        self.page.locator("[data-message]").wait_for(state="visible")
        marked = self.page.evaluate(
            """() => {
              const dst = [...document.querySelectorAll('[data-column].hint-target')];
              const cards = [...document.querySelectorAll('.card.hinted')];
              if (dst.length !== 1 || !cards.length) return null;
              const col = cards[0].closest('[data-column]');
              return { src: Number(col.dataset.column), dst: Number(dst[0].dataset.column),
                       count: cards.length };
            }"""
        )
        if marked is not None:
            move = Move(marked["src"], marked["dst"], marked["count"])
            assert self.game.is_legal(move), f"the hint marks an illegal move {move}"
            self.hinted = move
        # With the notice off, H also asks whether any move is left: the page says "No more
        # moves" exactly when the engine proves it.
        if check_no_moves(self.game, node_limit=1_000_000).no_more_moves:
            dialog = self.page.locator("#dlg-nomoves")
            dialog.wait_for(state="visible", timeout=30_000)
            dialog.locator("button[value='close']").click()
            dialog.wait_for(state="hidden")
            self.blocked_at = self.game.state_key()
        return Expect()

    def new_game(self) -> Expect:
        """New game: random options in the dialog, then Deal (or Cancel)."""
        click_action(self.page, "new")
        dialog = self.page.locator("#dlg-new")
        dialog.wait_for(state="visible")
        game = self.rng.choice(["spider", "spiderette"])
        suits = self.rng.choice([1, 2, 4])
        scoring = self.rng.choice(["standard", "reveal"])
        for name, value in (("game", game), ("suits", str(suits)), ("scoring", scoring)):
            dialog.locator(f"label:has(input[name='{name}'][value='{value}'])").click()
        rule_field = dialog.locator("[data-rule-field]")
        if rule_field.is_visible():
            rule = self.rng.choice(["classic", "flexible"])
            dialog.locator(f"label:has(input[name='rule'][value='{rule}'])").click()
        rule = dialog.locator("input[name='rule']:checked").get_attribute("value") or "classic"
        shown_rule = rule if rule_field.is_visible() else "classic"
        self.log[-1] += f" {game} {suits} {shown_rule} {scoring}"
        if self.rng.random() < 0.1:
            dialog.locator("button[value='cancel']").click()
            return Expect()
        asked = self.in_progress()
        dialog.locator("[data-action='deal-new']").click()
        if not self.answer_confirm(asked):
            return Expect()
        self.fresh(Options.make(game, suits, shown_rule, scoring), scoring)
        return Expect()

    def cycle_suits(self) -> Expect:
        """The suits button deals the next suit count of the same game at once."""
        asked = self.in_progress()
        options = self.game.options
        click_action(self.page, "suits")
        if not self.answer_confirm(asked):
            return Expect()
        suits = {1: 2, 2: 4, 4: 1}[options.suits]
        rule = options.rule if options.game == "spider" else "classic"
        self.fresh(Options.make(options.game, suits, rule, options.scoring), options.scoring)
        return Expect()

    def restart(self) -> Expect:
        button = self.page.locator("[data-action='restart']")
        if not button.is_visible():
            self.page.locator("[data-action='menu']").click()
        if button.is_disabled():
            self.page.keyboard.press("Escape")
            return Expect()
        asked = self.game.moves > 0
        button.click()
        if not self.answer_confirm(asked):
            return Expect()
        self.game.restart()
        self.hinted = None
        return Expect()

    def change_setting(self) -> Expect:
        key = self.rng.choice(["tap", "autoPlace", "doubleClick", "lang", "look"])
        if key == "tap":
            self.tap = self.rng.choice(["best", "pick", "off"])
            self.set_setting("tap", self.tap)
        elif key == "autoPlace":
            self.auto_place = not self.auto_place
            self.set_setting("autoPlace", self.auto_place)
        elif key == "doubleClick":
            self.double_click = not self.double_click
            self.set_setting("doubleClick", self.double_click)
        elif key == "lang":
            self.set_setting(
                "lang", self.rng.choice(["", "en", "ca", "de", "es", "fr", "it", "nl", "pt"])
            )
        else:
            # What changes how the table looks (docs/accessibility.md), never what input does.
            key = self.rng.choice(["largeCards", "fourColor", "motion"])
            if key == "motion":
                self.set_setting(key, self.rng.choice(["system", "reduce", "full"]))
            else:
                self.set_setting(key, self.rng.random() < 0.5)
        self.log[-1] += f" {key}"
        return Expect()

    def reload(self) -> Expect:
        """Nothing is lost on a reload: the saved game comes back as it was."""
        self.blocked_at = None  # a new page load knows only what it checks itself
        self.page.reload()
        wait_ready(self.page)
        self.hinted = None
        return Expect()

    def open_link(self) -> Expect:
        """A link to another deal, opened in this tab: it asks before leaving a game."""
        self.blocked_at = None  # a new page load knows only what it checks itself
        options = self.rng.choice(Options.variants())
        code = format_code(options, self.rng.randrange(1, 10**6))
        self.log[-1] += f" {code}"
        asked = self.in_progress()
        self.page.goto(f"/?code={code}")
        wait_ready(self.page)
        self.hinted = None
        if self.answer_confirm(asked):
            self.game = Game.from_code(code, scoring=self.game.scoring)
        return Expect()

    def open_broken_link(self) -> Expect:
        """A link whose code cannot be read: said, and the game in progress stays."""
        self.blocked_at = None  # a new page load knows only what it checks itself
        code = self.rng.choice(["SP1-S2C-AAAAAA", "XX9-ZZZ", "SP1-S2C-AAAAAAD-", "%20"])
        asked = self.in_progress()
        self.page.goto(f"/?code={code}")
        wait_ready(self.page)
        self.hinted = None
        if not self.answer_confirm(asked):
            return Expect()
        return Expect(refusal=True, must_refuse=True)


def run(page: Page, profile: str, seed: int, steps: int, first_code: str) -> list[str]:
    """Plays ``steps`` random steps from ``seed``; returns the log of what was done."""
    player = Player(page, profile, random.Random(seed))
    player.start(first_code)
    for number in range(1, steps + 1):
        player.step(number)
    return player.log
