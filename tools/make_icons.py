"""Draw the web app's home-screen icons (web/icons/icon-192.png, icon-512.png).

The same picture as web/favicon.svg: a blue hexagon edged in red with a white 7,
here on the header's dark ground so that the square icon (and a platform's
round or rounded mask of it: the picture keeps inside the central 80 %) reads
on any launcher. Pure Python (zlib only): no imaging package for two files that
change once in a while. Run: python tools/make_icons.py
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "web" / "icons"
SIZES = (192, 512)
SUBROWS = 4  # vertical samples per pixel; across a row the coverage is exact

Colour = tuple[int, int, int]
Polygon = list[tuple[float, float]]

GROUND: Colour = (0x1B, 0x22, 0x30)
BLUE: Colour = (0x2F, 0x6F, 0xDE)
RED: Colour = (0xD6, 0x45, 0x41)
WHITE: Colour = (0xFF, 0xFF, 0xFF)


def hexagon(radius: float) -> Polygon:
    """A pointy-top hexagon about (0, 0), in units where the icon spans -10..10."""
    return [
        (radius * math.cos(math.radians(60 * k - 90)), radius * math.sin(math.radians(60 * k - 90)))
        for k in range(6)
    ]


# The picture in favicon.svg's units (-10..10), scaled to keep within the mask's safe zone.
SCALE = 0.78
SHAPES: list[tuple[Colour, Polygon]] = [
    (RED, hexagon(10.0)),
    (BLUE, hexagon(8.0)),
    # The 7: its bar, and its stroke down to the left.
    (WHITE, [(-3.4, -4.6), (3.6, -4.6), (3.6, -2.7), (-3.4, -2.7)]),
    (WHITE, [(1.75, -3.2), (3.6, -3.2), (3.6, -2.7), (-0.6, 5.4), (-2.8, 5.4), (1.5, -2.7)]),
]


def span(polygon: Polygon, y: float) -> tuple[float, float] | None:
    """Where the horizontal line at `y` crosses a convex polygon: (x_min, x_max)."""
    xs = []
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 <= y < y2) or (y2 <= y < y1):
            xs.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    return (min(xs), max(xs)) if len(xs) >= 2 else None


def render(size: int) -> list[list[Colour]]:
    pixels = [[GROUND] * size for _ in range(size)]
    unit = size / 20 * SCALE
    to_px = [(colour, [(size / 2 + x * unit, size / 2 + y * unit) for x, y in shape])
             for colour, shape in SHAPES]
    for row in range(size):
        for colour, shape in to_px:
            cover = [0.0] * size
            for k in range(SUBROWS):
                crossing = span(shape, row + (k + 0.5) / SUBROWS)
                if crossing is None:
                    continue
                left, right = crossing
                for x in range(max(0, math.floor(left)), min(size, math.ceil(right))):
                    cover[x] += (min(right, x + 1) - max(left, x)) / SUBROWS
            line = pixels[row]
            for x, amount in enumerate(cover):
                if amount > 0:
                    a = min(1.0, amount)
                    r, g, b = (round(old * (1 - a) + new * a)
                               for old, new in zip(line[x], colour, strict=True))
                    line[x] = (r, g, b)
    return pixels


def png(pixels: list[list[Colour]]) -> bytes:
    height, width = len(pixels), len(pixels[0])
    raw = b"".join(b"\x00" + bytes(v for px in line for v in px) for line in pixels)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main() -> int:
    ICONS.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        path = ICONS / f"icon-{size}.png"
        path.write_bytes(png(render(size)))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
