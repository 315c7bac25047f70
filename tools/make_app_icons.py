"""Draw the app's icons (static/icons/*.png) with Pillow: the header's flag mark, white on the accent green.

Run from the repository root: `.venv/bin/python tools/make_app_icons.py`. The PNGs are committed; this
script is how they were made (run it again after changing the mark or the colours).

- icon-192.png, icon-512.png: "any" purpose, the mark on a rounded green square.
- icon-maskable-192.png, icon-maskable-512.png: "maskable", green to every edge and the mark inside
  the central 80% circle that every launcher's mask keeps.
- apple-touch-icon.png (180x180): iPhones round the corners themselves, so a full square.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ACCENT = (11, 110, 79)  # --accent of static/css/app.css (#0b6e4f), also the manifest's theme colour
WHITE = (255, 255, 255)
SUPERSAMPLE = 4  # drawn this many times larger, then scaled down: smooth edges without antialiasing
ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"


def draw_mark(draw: ImageDraw.ImageDraw, size: int, scale: float) -> None:
    """The flag of templates/base.html's brand mark (a 24-unit box), `scale` of the icon's width."""
    unit = size * scale / 24
    left = (size - 24 * unit) / 2
    top = (size - 24 * unit) / 2

    def at(x: float, y: float) -> tuple[float, float]:
        return (left + x * unit, top + y * unit)

    stroke = round(2.2 * unit)
    pole_x = 7
    draw.line([at(pole_x, 3), at(pole_x, 21)], fill=WHITE, width=stroke)
    draw.polygon([at(pole_x, 3), at(18, 7.5), at(pole_x, 12)], fill=WHITE)
    draw.ellipse([at(3, 19.4), at(15, 22.6)], fill=WHITE)


def make_icon(size: int, *, maskable: bool, rounded: bool) -> Image.Image:
    """One icon of `size` pixels: the mark at 62% of the width (50% in the maskable safe circle)."""
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if rounded:
        draw.rounded_rectangle([0, 0, big - 1, big - 1], radius=big // 6, fill=ACCENT)
    else:
        draw.rectangle([0, 0, big - 1, big - 1], fill=ACCENT)
    draw_mark(draw, big, 0.5 if maskable else 0.62)
    small = image.resize((size, size), Image.Resampling.LANCZOS)
    # A palette of a few colours: the same picture in a fraction of the bytes (the offline budget).
    return small.quantize(colors=64, method=Image.Quantize.FASTOCTREE)


def main() -> None:
    """Write every icon into static/icons/."""
    ICONS.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        make_icon(size, maskable=False, rounded=True).save(ICONS / f"icon-{size}.png", optimize=True)
        make_icon(size, maskable=True, rounded=False).save(ICONS / f"icon-maskable-{size}.png", optimize=True)
    make_icon(180, maskable=False, rounded=False).save(ICONS / "apple-touch-icon.png", optimize=True)
    for path in sorted(ICONS.glob("*.png")):
        print(f"{path.name}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
