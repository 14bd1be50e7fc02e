"""Helpers for the accessibility tests: the axe-core audit (pinned in package-lock.json, installed
by ``npm ci``) and Chromium's own accessibility tree, read through the DevTools protocol."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

# The rules left out, each with its reason (an empty list would be better; each costs a reason).
#  - label-content-name-mismatch on the face-up cards: a card shows its index ("Q♠") and is named
#    "Queen of spades". The index is the symbolic abbreviation every deck prints, the case WCAG
#    2.5.3 leaves out ("symbolic text characters"); reading "Q, black spade suit" to a screen
#    reader would be worse. The rule still runs on every other element.
CARD_NAME_RULE = "label-content-name-mismatch"

_RUN = """async ([cards]) => {
  const brief = (r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")}: ${n.failureSummary}`),
  }));
  const all = await axe.run(document, { rules: { [cards]: { enabled: false } } });
  const named = await axe.run(
    { include: [document], exclude: [[".card.face"]] },
    { runOnly: { type: "rule", values: [cards] } },
  );
  return [...brief(all), ...brief(named)];
}"""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Every violation axe-core finds in the page as it is now (all impacts, best practices
    included), but for the one rule left out on the cards (:data:`CARD_NAME_RULE`)."""
    if not AXE.is_file():
        raise AssertionError(f"no axe-core at {AXE}: run `make setup` (npm ci)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated through the DevTools protocol: the page's Content-Security-Policy allows no
        # injected <script>, and it need not be weakened for a test.
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    found: list[dict[str, Any]] = page.evaluate(_RUN, [CARD_NAME_RULE])
    return found


@dataclass
class AXNode:
    """One node of Chromium's accessibility tree."""

    id: str
    role: str
    name: str
    parent: str | None
    focused: bool
    ignored: bool
    properties: dict[str, Any]


def ax_tree(page: Page) -> dict[str, AXNode]:
    """Chromium's full accessibility tree of the page (``Accessibility.getFullAXTree``), the
    tree a screen reader reads, by node id (ignored nodes are kept, marked, for their
    children's sake)."""
    cdp = page.context.new_cdp_session(page)
    try:
        raw = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    nodes: dict[str, AXNode] = {}
    for n in raw:
        props = {p["name"]: p["value"].get("value") for p in n.get("properties", [])}
        nodes[n["nodeId"]] = AXNode(
            id=n["nodeId"],
            role=str(n.get("role", {}).get("value", "")),
            name=str(n.get("name", {}).get("value", "")),
            parent=n.get("parentId"),
            focused=bool(props.get("focused")),
            ignored=bool(n.get("ignored")),
            properties=props,
        )
    return nodes


def ancestors(tree: dict[str, AXNode], node: AXNode) -> list[AXNode]:
    """The node's ancestors in the tree that a screen reader sees, nearest first."""
    out: list[AXNode] = []
    parent = node.parent
    seen: set[str] = set()
    while parent is not None and parent not in seen:
        seen.add(parent)
        up = tree.get(parent)
        if up is None:
            break
        if not up.ignored:
            out.append(up)
        parent = up.parent
    return out


def focused(tree: dict[str, AXNode]) -> AXNode | None:
    """The element that has the keyboard focus (the document itself counts as focused too)."""
    return next((x for x in tree.values() if x.focused and x.role != "RootWebArea"), None)
