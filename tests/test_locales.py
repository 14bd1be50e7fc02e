"""The web app's texts for the hint, in every language: one for each reason code the engine can
give, and none that tells the player to deal (seed 004: that choice stays the player's)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spider.solver.hint import REASONS
from tests.helpers import ADVICE_TO_DEAL

LOCALES = Path(__file__).resolve().parents[1] / "src" / "spider" / "web" / "locales"
LANGUAGES = ("en", "ca", "es", "it")

# A top-level entry written on one line: "key": "text", or "key": { one: "…", other: "…" },
_TEXT = r'"(?:[^"\\]|\\.)*"'
_ENTRY = re.compile(rf'^  "(?P<key>[^"]+)": (?P<value>{_TEXT}|\{{(?:[^{{}}"]|{_TEXT})*\}}),$')
_FORM = re.compile(rf"(\w+): ({_TEXT})")


def strings(lang: str) -> dict[str, str | dict[str, str]]:
    """The one-line entries of a locale module: plain texts and plural forms."""
    found: dict[str, str | dict[str, str]] = {}
    for line in (LOCALES / f"{lang}.js").read_text(encoding="utf-8").splitlines():
        match = _ENTRY.match(line)
        if not match:
            continue
        value = match["value"]
        if value.startswith('"'):
            found[match["key"]] = json.loads(value)
        else:
            found[match["key"]] = {form: json.loads(text) for form, text in _FORM.findall(value)}
    return found


def keys(lang: str) -> set[str]:
    """Every top-level key of a locale module, whatever the layout of its value."""
    text = (LOCALES / f"{lang}.js").read_text(encoding="utf-8")
    return set(re.findall(r'^  "([^"]+)":', text, re.M))


def texts(value: str | dict[str, str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value.values())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_hint_reason_has_a_text(lang: str) -> None:
    table = strings(lang)
    missing = sorted(code for code in REASONS if f"hint.reason.{code}" not in table)
    assert not missing
    unknown = sorted(
        key
        for key in table
        if key.startswith("hint.reason.") and key.removeprefix("hint.reason.") not in REASONS
    )
    assert not unknown  # a text for a code the engine no longer gives
    # The deals left are a number: every plural form shows it, or says one.
    left = table["hint.reason.nothing-helps-deals-left"]
    assert isinstance(left, dict) and set(left) >= {"one", "other"}
    assert "{n}" in left["other"] and "1" in left["one"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_hint_text_tells_the_player_to_deal(lang: str) -> None:
    advice = ADVICE_TO_DEAL[lang]
    for key, value in strings(lang).items():
        if key.startswith("hint."):
            for text in texts(value):
                assert not advice.search(text), f"{lang} {key}: {text}"


# The texts this project's hint used to show: the check above must catch each of them.
_FORMER = {
    "en": [
        "No move helps: deal a new row.",
        "It fills an empty column so that you can deal.",
        "No move seems to help. Filling the empty columns would let you deal.",
    ],
    "ca": [
        "Cap jugada no ajuda: reparteix una fila nova.",
        "Omple una columna buida perquè pugueu repartir.",
        "Cap jugada no sembla ajudar. Si ompliu les columnes buides, podreu repartir.",
    ],
    "es": [
        "Ninguna jugada ayuda: reparte una fila nueva.",
        "Llena una columna vacía para que puedas repartir.",
        "Ninguna jugada parece ayudar. Si llenas las columnas vacías, podrás repartir.",
    ],
    "it": [
        "Nessuna mossa aiuta: distribuisci una nuova riga.",
        "Riempie una colonna vuota così puoi distribuire.",
        "Nessuna mossa sembra utile. Riempiendo le colonne vuote potrai distribuire.",
    ],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_check_catches_advice_to_deal(lang: str) -> None:
    for text in _FORMER[lang]:
        assert ADVICE_TO_DEAL[lang].search(text), text


def test_every_language_has_the_same_keys() -> None:
    found = {lang: keys(lang) for lang in LANGUAGES}
    assert len(found["en"]) > 150  # the parser reads the modules, not a handful of lines
    assert {"settings.noMoves", "hint.reason.fills-column"} <= found["en"]
    for lang in LANGUAGES[1:]:
        assert found[lang] == found["en"], lang
