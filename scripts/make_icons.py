"""Draw the app icons (SVG and PNG) from one description, with the standard library only.

    python scripts/make_icons.py

writes src/spider/web/icons/{icon.svg, icon-192.png, icon-512.png, maskable-512.png}. The PNGs are
rasterised here with 4x4 supersampling, so the build needs no image library; the generated files
are committed.
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "spider" / "web" / "icons"

# Geometry on a 512 x 512 canvas.
FELT = (15, 91, 62)
FELT_DARK = (10, 67, 48)
BACK = (45, 91, 196)
BACK_EDGE = (243, 241, 234)
CARD = (255, 253, 248)
INK = (23, 25, 28)
RED = (196, 22, 28)

CARD_W, CARD_H, CARD_R = 210, 294, 22
BACK_CARD = {"cx": 300, "cy": 250, "angle": 14}
FRONT_CARD = {"cx": 226, "cy": 266, "angle": -8}
SPADE_SIZE = 62

Shape = Callable[[float, float], bool]


def rounded_rect(cx: float, cy: float, w: float, h: float, r: float, angle: float) -> Shape:
    cos, sin = math.cos(math.radians(-angle)), math.sin(math.radians(-angle))

    def inside(x: float, y: float) -> bool:
        dx, dy = x - cx, y - cy
        lx, ly = dx * cos - dy * sin, dx * sin + dy * cos
        qx, qy = abs(lx) - (w / 2 - r), abs(ly) - (h / 2 - r)
        if qx <= 0 or qy <= 0:
            return abs(lx) <= w / 2 and abs(ly) <= h / 2
        return qx * qx + qy * qy <= r * r

    return inside


def _tri(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> Shape:
    def inside(x: float, y: float) -> bool:
        def side(p: tuple[float, float], q: tuple[float, float]) -> float:
            return (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0])

        d1, d2, d3 = side(a, b), side(b, c), side(c, a)
        neg = d1 < 0 or d2 < 0 or d3 < 0
        pos = d1 > 0 or d2 > 0 or d3 > 0
        return not (neg and pos)

    return inside


def spade_parts(
    s: float,
) -> tuple[list[tuple[float, float, float]], list[list[tuple[float, float]]]]:
    """Circles (x, y, r) and triangles of a spade of half-height ``s``, centred on (0, 0)."""
    circles = [(-0.47 * s, 0.22 * s, 0.5 * s), (0.47 * s, 0.22 * s, 0.5 * s)]
    triangles = [
        [(-0.93 * s, 0.34 * s), (0.93 * s, 0.34 * s), (0.0, -1.0 * s)],
        [(0.0, 0.2 * s), (-0.36 * s, 1.0 * s), (0.36 * s, 1.0 * s)],
    ]
    return circles, triangles


def placed(card: dict[str, float], px: float, py: float) -> tuple[float, float]:
    """Card-local point to canvas coordinates."""
    a = math.radians(card["angle"])
    return (
        card["cx"] + px * math.cos(a) - py * math.sin(a),
        card["cy"] + px * math.sin(a) + py * math.cos(a),
    )


def spade_shape(card: dict[str, float], dx: float, dy: float, s: float) -> Shape:
    circles, triangles = spade_parts(s)
    cos, sin = math.cos(math.radians(-card["angle"])), math.sin(math.radians(-card["angle"]))
    tris = [_tri(*t) for t in triangles]

    def inside(x: float, y: float) -> bool:
        ox, oy = x - card["cx"], y - card["cy"]
        lx, ly = ox * cos - oy * sin - dx, ox * sin + oy * cos - dy
        if any((lx - cx) ** 2 + (ly - cy) ** 2 <= r * r for cx, cy, r in circles):
            return True
        return any(t(lx, ly) for t in tris)

    return inside


def layers(scale: float, full_bleed: bool) -> list[tuple[Shape, tuple[int, int, int]]]:
    """The picture, back to front, on a canvas of 512 * scale pixels."""

    def sc(card: dict[str, float]) -> dict[str, float]:
        # Scale about the canvas centre (maskable icons keep their content in the safe zone).
        return {
            "cx": 256 + (card["cx"] - 256) * scale,
            "cy": 256 + (card["cy"] - 256) * scale,
            "angle": card["angle"],
        }

    back, front = sc(BACK_CARD), sc(FRONT_CARD)
    w, h, r = CARD_W * scale, CARD_H * scale, CARD_R * scale
    bg_r = 0 if full_bleed else 96
    edge = 12 * scale
    out: list[tuple[Shape, tuple[int, int, int]]] = [
        (rounded_rect(256, 256, 512, 512, bg_r, 0), FELT),
        (rounded_rect(256, 256 + 6, 512 - 24, 512 - 36, max(bg_r - 12, 0), 0), FELT_DARK),
        (rounded_rect(256, 256, 512 - 24, 512 - 36, max(bg_r - 12, 0), 0), FELT),
        (rounded_rect(back["cx"], back["cy"], w, h, r, back["angle"]), BACK_EDGE),
        (
            rounded_rect(
                back["cx"], back["cy"], w - 2 * edge, h - 2 * edge, r - edge / 2, back["angle"]
            ),
            BACK,
        ),
        (rounded_rect(front["cx"] + 4, front["cy"] + 7, w, h, r, front["angle"]), FELT_DARK),
        (rounded_rect(front["cx"], front["cy"], w, h, r, front["angle"]), CARD),
        (spade_shape(front, 0, 12 * scale, SPADE_SIZE * scale * 1.25), INK),
        (spade_shape(front, -w / 2 + 34 * scale, -h / 2 + 44 * scale, 17 * scale), INK),
    ]
    return out


def rasterise(size: int, scale: float, full_bleed: bool) -> bytes:
    pic = layers(scale, full_bleed)
    k = 512 / size
    sub = [(i + 0.5) / 4 for i in range(4)]
    rows = []
    for py in range(size):
        row = bytearray([0])  # filter type 0
        for px in range(size):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sy in sub:
                for sx in sub:
                    x, y = (px + sx) * k, (py + sy) * k
                    colour = None
                    for shape, c in pic:
                        if shape(x, y):
                            colour = c
                    if colour is not None:
                        acc[0] += colour[0]
                        acc[1] += colour[1]
                        acc[2] += colour[2]
                        acc[3] += 1
            n = acc[3]
            if n:
                row += bytes(
                    [round(acc[0] / n), round(acc[1] / n), round(acc[2] / n), round(255 * n / 16)]
                )
            else:
                row += b"\0\0\0\0"
        rows.append(bytes(row))
    return png(size, size, b"".join(rows))


def png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def svg() -> str:
    def hexc(c: tuple[int, int, int]) -> str:
        return "#{:02x}{:02x}{:02x}".format(*c)

    def card(
        c: dict[str, float],
        w: float,
        h: float,
        r: float,
        fill: tuple[int, int, int],
        dx: float = 0,
        dy: float = 0,
    ) -> str:
        x, y = c["cx"] - w / 2 + dx, c["cy"] - h / 2 + dy
        pivot = f"{c['cx'] + dx:.1f} {c['cy'] + dy:.1f}"
        return (
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" rx="{r}" '
            f'fill="{hexc(fill)}" transform="rotate({c["angle"]} {pivot})"/>'
        )

    def spade(c: dict[str, float], dx: float, dy: float, s: float) -> str:
        circles, triangles = spade_parts(s)
        parts = [
            f'<circle cx="{x + dx:.1f}" cy="{y + dy:.1f}" r="{r:.1f}"/>' for x, y, r in circles
        ]
        for t in triangles:
            pts = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for x, y in t)
            parts.append(f'<polygon points="{pts}"/>')
        return (
            f'<g fill="{hexc(INK)}" '
            f'transform="translate({c["cx"]} {c["cy"]}) rotate({c["angle"]})">'
            + "".join(parts)
            + "</g>"
        )

    edge = 12
    return "\n".join(
        [
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">',
            f'<rect width="512" height="512" rx="96" fill="{hexc(FELT)}"/>',
            f'<rect x="12" y="24" width="488" height="476" rx="84" fill="{hexc(FELT_DARK)}"/>',
            f'<rect x="12" y="18" width="488" height="476" rx="84" fill="{hexc(FELT)}"/>',
            card(BACK_CARD, CARD_W, CARD_H, CARD_R, BACK_EDGE),
            card(BACK_CARD, CARD_W - 2 * edge, CARD_H - 2 * edge, CARD_R - edge / 2, BACK),
            card(FRONT_CARD, CARD_W, CARD_H, CARD_R, FELT_DARK, 4, 7),
            card(FRONT_CARD, CARD_W, CARD_H, CARD_R, CARD),
            spade(FRONT_CARD, 0, 12, SPADE_SIZE * 1.25),
            spade(FRONT_CARD, -CARD_W / 2 + 34, -CARD_H / 2 + 44, 17),
            "</svg>",
            "",
        ]
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon.svg").write_text(svg(), encoding="utf-8")
    (OUT / "icon-192.png").write_bytes(rasterise(192, 1.0, full_bleed=False))
    (OUT / "icon-512.png").write_bytes(rasterise(512, 1.0, full_bleed=False))
    (OUT / "maskable-512.png").write_bytes(rasterise(512, 0.78, full_bleed=True))
    for name in ("icon.svg", "icon-192.png", "icon-512.png", "maskable-512.png"):
        print(OUT / name, (OUT / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
