"""The web app's texts in every language: the same keys everywhere, the plural forms each
language's Intl.PluralRules picks, every language listed wherever languages are listed, and for
the hint one text for each reason code the engine can give and none that tells the player to deal
(that choice stays the player's)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spider.solver.hint.quick import REASONS
from tests.helpers import ADVICE_TO_DEAL

WEB = Path(__file__).resolve().parents[1] / "src" / "spider" / "web"
LOCALES = WEB / "locales"
LANGUAGES = ("en", "ca", "es", "it", "fr", "de", "pt", "nl")

# The plural categories Intl.PluralRules gives whole numbers in each language (CLDR 46, as in
# Chromium): "many" is for round millions in the Romance languages, where "other" reads as well.
PLURAL_CATEGORIES = {
    "en": {"one", "other"},
    "ca": {"one", "many", "other"},
    "es": {"one", "many", "other"},
    "it": {"one", "many", "other"},
    "fr": {"one", "many", "other"},
    "de": {"one", "other"},
    "pt": {"one", "many", "other"},
    "nl": {"one", "other"},
}
# Languages whose "one" is 0 as well as 1 (Intl.PluralRules("fr").select(0) === "one"): their
# "one" forms show the number itself, never a written "1".
ZERO_IS_ONE = {"fr", "pt"}

# A top-level entry: "key": "text", or "key": { one: "…", other: "…" }, the forms on one line
# or several.
_TEXT = r'"(?:[^"\\]|\\.)*"'
_ENTRY = re.compile(rf'^  "(?P<key>[^"]+)": (?P<value>{_TEXT}|\{{(?:[^{{}}"]|{_TEXT})*\}}),$', re.M)
_FORM = re.compile(rf'"?(\w+)"?: ({_TEXT})')


def strings(lang: str) -> dict[str, str | dict[str, str]]:
    """The texts of a locale module: plain texts and plural forms (not the help pages)."""
    found: dict[str, str | dict[str, str]] = {}
    for match in _ENTRY.finditer((LOCALES / f"{lang}.js").read_text(encoding="utf-8")):
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
    assert "{n}" in left["other"] and ("1" in left["one"] or "{n}" in left["one"])


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
    "fr": [
        "Aucun coup n'aide : distribuez une nouvelle rangée.",
        "Ce coup remplit une colonne vide pour que vous puissiez distribuer.",
        "Aucun coup ne semble utile. En remplissant les colonnes vides, vous pourrez distribuer.",
    ],
    "de": [
        "Kein Zug hilft: Teile eine neue Reihe aus.",
        "Der Zug füllt eine leere Spalte, damit du austeilen kannst.",
        "Kein Zug scheint zu helfen. Wenn du die leeren Spalten füllst, kannst du austeilen.",
    ],
    "pt": [
        "Nenhuma jogada ajuda: distribua uma nova fileira.",
        "Preenche uma coluna vazia para que você possa distribuir.",
        "Nenhuma jogada parece ajudar. Se preencher as colunas vazias, você poderá distribuir.",
    ],
    "nl": [
        "Geen zet helpt: deel een nieuwe rij.",
        "Deze zet vult een lege kolom zodat je kunt delen.",
        "Geen zet lijkt te helpen. Als je de lege kolommen vult, kun je delen.",
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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_are_the_languages_own(lang: str) -> None:
    plurals = {key: value for key, value in strings(lang).items() if isinstance(value, dict)}
    text = (LOCALES / f"{lang}.js").read_text(encoding="utf-8")
    assert len(plurals) == len(re.findall(r'^  "[^"]+": \{', text, re.M)) >= 13, lang
    for key, forms in plurals.items():
        assert {"one", "other"} <= set(forms) <= PLURAL_CATEGORIES[lang], (lang, key)
        assert "{" in forms["other"], (lang, key)  # "other" always shows its number
        if lang in ZERO_IS_ONE:  # "one" is shown for 0 too: never a written 1
            assert not re.search(r"\b1\b", forms["one"]), (lang, key, forms["one"])


def _listed(pattern: str, path: Path) -> list[tuple[str, ...]]:
    return [
        m if isinstance(m, tuple) else (m,)
        for m in re.findall(pattern, path.read_text(encoding="utf-8"))
    ]


def test_every_language_is_listed_wherever_languages_are_listed() -> None:
    i18n = (WEB / "i18n.js").read_text(encoding="utf-8")
    block = i18n.split("export const LANGUAGES = {", 1)[1].split("};", 1)[0]
    names = dict(re.findall(r'^  (\w+): "([^"]+)",$', block, re.M))
    assert set(names) == set(LANGUAGES)
    loaders = re.findall(r'^  (\w+): \(\) => import\("\./locales/(\w+)\.js"\),$', i18n, re.M)
    assert [code for code, _ in loaders] == list(names)
    assert all(code == module for code, module in loaders)
    # The Settings picker: every language in its own name, marked with its language.
    options = _listed(r'<option value="(\w+)" lang="(\w+)">([^<]+)</option>', WEB / "index.html")
    assert [(code, code, names[code]) for code in names] == options
    precached = _listed(r'"/locales/(\w+)\.js"', WEB / "sw.js")
    assert sorted(code for (code,) in precached) == sorted(names)
    assert sorted(path.stem for path in LOCALES.glob("*.js")) == sorted(names)
