#!/usr/bin/env python3
"""Draws the docs' figures of memory access patterns as SVG files.

    python3 docs/figures.py            # writes docs/fig_*.svg
    python3 docs/figures.py --check    # exit 1 if a committed SVG differs from what it would write

Standard library only. The output is deterministic (no dates, no random
numbers), so the committed SVGs are exactly what this script writes; edit the
script, run it, and commit both.

    fig_coalescing.svg   a warp reading one row (coalesced) against one byte
                         of 32 rows (strided), with the 32-byte sectors moved
    fig_tile_halo.svg    a work-group's tile in local memory, its halo of
                         radius R, and clamp-to-edge at the image's corner
    fig_transpose.svg    a transpose through a local tile: coalesced load,
                         barrier, column read, coalesced store, and the +1
                         padding against bank conflicts
"""

import argparse
import pathlib
import sys

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"

INK = "#222222"
MUTED = "#555555"
GRID = "#b8b8b8"
BLUE = "#2166ac"         # bytes a warp asked for, coalesced
BLUE_LIGHT = "#d1e5f0"
ORANGE = "#b35806"       # bytes a warp asked for, strided
ORANGE_LIGHT = "#fee0b6"
GREEN = "#1b7837"        # a work-group's own pixels
GREEN_LIGHT = "#d9f0d3"
PURPLE = "#762a83"       # halo
PURPLE_LIGHT = "#e7d4e8"
OUTSIDE = "#ececec"      # outside the image
RED = "#b2182b"


def num(value):
    """A coordinate as short, stable text."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Svg:
    """A minimal SVG writer: shapes in document order, arrow markers by colour."""

    def __init__(self, width, height, title, desc):
        self.width = width
        self.height = height
        self.title = title
        self.desc = desc
        self.items = []
        self.markers = {}
        self.patterns = []

    def _marker(self, colour):
        if colour not in self.markers:
            self.markers[colour] = f"arrow{len(self.markers)}"
        return self.markers[colour]

    def hatch(self, name, colour, background):
        self.patterns.append(
            f'<pattern id="{name}" width="6" height="6" patternUnits="userSpaceOnUse" '
            f'patternTransform="rotate(45)"><rect width="6" height="6" fill="{background}"/>'
            f'<line x1="0" y1="0" x2="0" y2="6" stroke="{colour}" stroke-width="1.6"/></pattern>')
        return f"url(#{name})"

    def rect(self, x, y, w, h, fill="none", stroke="none", width=1.0, dash=None, rx=0, opacity=None):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        extra += f' rx="{num(rx)}"' if rx else ""
        extra += f' fill-opacity="{num(opacity)}"' if opacity is not None else ""
        self.items.append(
            f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{num(width)}"{extra}/>')

    def line(self, x1, y1, x2, y2, colour=INK, width=1.0, dash=None, arrow=False):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        if arrow:
            extra += f' marker-end="url(#{self._marker(colour)})"'
        self.items.append(
            f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" stroke="{colour}" '
            f'stroke-width="{num(width)}"{extra}/>')

    def path(self, d, colour=INK, width=1.0, fill="none", dash=None, arrow=False):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        if arrow:
            extra += f' marker-end="url(#{self._marker(colour)})"'
        self.items.append(f'<path d="{d}" fill="{fill}" stroke="{colour}" stroke-width="{num(width)}"{extra}/>')

    def text(self, x, y, content, size=13, anchor="start", colour=INK, weight="normal", mono=False,
             italic=False):
        family = MONO if mono else FONT
        extra = ' font-weight="bold"' if weight == "bold" else ""
        extra += ' font-style="italic"' if italic else ""
        self.items.append(
            f'<text x="{num(x)}" y="{num(y)}" font-family="{family}" font-size="{num(size)}" '
            f'text-anchor="{anchor}" fill="{colour}"{extra}>{escape(content)}</text>')

    def lines(self, x, y, contents, size=13, leading=1.35, **kwargs):
        for i, content in enumerate(contents):
            self.text(x, y + i * size * leading, content, size=size, **kwargs)

    def brace_h(self, x1, x2, y, label, colour=INK, size=12, up=True):
        """A square bracket over [x1, x2] at y, with a label centred on it."""
        tick = -5 if up else 5
        self.path(f"M{num(x1)},{num(y - tick)} V{num(y)} H{num(x2)} V{num(y - tick)}", colour=colour)
        self.text((x1 + x2) / 2, y + (-5 if up else 15), label, size=size, anchor="middle", colour=colour)

    def render(self):
        defs = []
        for colour, name in self.markers.items():
            defs.append(
                f'<marker id="{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
                f'fill="{colour}"/></marker>')
        defs.extend(self.patterns)
        out = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" role="img">',
            f"<title>{escape(self.title)}</title>",
            f"<desc>{escape(self.desc)}</desc>",
            "<!-- Generated by docs/figures.py; edit the script, not this file. -->",
        ]
        if defs:
            out.append("<defs>")
            out.extend(defs)
            out.append("</defs>")
        out.append(f'<rect width="{self.width}" height="{self.height}" fill="#ffffff"/>')
        out.extend(self.items)
        out.append("</svg>")
        return "\n".join(out) + "\n"


# --- (a) coalesced against strided ---------------------------------------------------

def coalescing():
    cols, rows = 36, 32          # bytes of a row shown, rows shown
    cw, ch = 10, 8               # one cell = one byte (one 8-bit pixel)
    sector = 32                  # bytes in a sector
    svg = Svg(980, 600, "Coalesced against strided access",
              "Left: the 32 lanes of a warp read 32 neighbouring bytes of one row: one 32-byte sector. "
              "Right: each lane reads one byte of its own row: 32 sectors, 1024 bytes moved for 32 used.")
    svg.text(490, 28, "One load instruction of one warp (32 lanes), 8-bit pixels: which 32-byte sectors it touches",
             size=16, anchor="middle", weight="bold")

    def grid(gx, gy, hot, warm, hot_colour, warm_colour, labels=True):
        """The image's first `cols` bytes of `rows` rows; hot = (col,row) asked for, warm = moved.
        Drawn as runs of filled cells under one set of grid lines, to keep the file small."""
        svg.rect(gx, gy, cols * cw, rows * ch, fill="#ffffff")
        for cells, colour in ((warm - hot, warm_colour), (hot, hot_colour)):
            for r in range(rows):
                run = sorted(c for c, rr in cells if rr == r)
                start = None
                for i, c in enumerate(run):
                    if start is None:
                        start = c
                    if i + 1 == len(run) or run[i + 1] != c + 1:
                        svg.rect(gx + start * cw, gy + r * ch, (c - start + 1) * cw, ch, fill=colour)
                        start = None
        for c in range(1, cols):
            svg.line(gx + c * cw, gy, gx + c * cw, gy + rows * ch, colour=GRID, width=0.5)
        for r in range(1, rows):
            svg.line(gx, gy + r * ch, gx + cols * cw, gy + r * ch, colour=GRID, width=0.5)
        # Sector boundaries: every 32 bytes along a row.
        for c in range(0, cols + 1, sector):
            svg.line(gx + c * cw, gy - 4, gx + c * cw, gy + rows * ch + 4, colour=INK, width=1.6)
        svg.rect(gx, gy, cols * cw, rows * ch, stroke=INK, width=1.0)
        # The next sector, cut off at the right: fade it.
        svg.rect(gx + sector * cw + 0.8, gy, (cols - sector) * cw - 0.8, rows * ch, fill="#ffffff", opacity=0.45)
        for r in (0, 8, 16, 24, 31) if labels else ():
            svg.text(gx - 6, gy + r * ch + 7, f"row {r}", size=10, anchor="end", colour=MUTED)
        svg.brace_h(gx, gx + sector * cw, gy - 8, "one 32-byte sector of each row", size=11)
        svg.text(gx + cols * cw + 2, gy - 13, "next sector", size=10, anchor="end", colour=MUTED)

    # Left: coalesced. Lane i reads byte i of row 0.
    lx, ly = 96, 170
    svg.text(lx - 70, 62, "Coalesced: lane i reads in[y*pitch + x0 + i]", size=14, weight="bold", colour=BLUE)
    svg.text(lx - 70, 80, "naive blur (ch. 01), rgv and the FIR passes (ch. 03), tiled loads (ch. 04, 05)",
             size=11, colour=MUTED)
    for i in range(32):
        svg.rect(lx + i * cw, 100, cw, 12, fill=BLUE, stroke="#ffffff", width=0.6)
        svg.line(lx + i * cw + cw / 2, 113, lx + i * cw + cw / 2, ly - 26, colour=BLUE, width=0.6)
    svg.text(lx, 96, "lane 0", size=10, colour=BLUE)
    svg.text(lx + 32 * cw, 96, "lane 31", size=10, anchor="end", colour=BLUE)
    hot = {(c, 0) for c in range(32)}
    grid(lx, ly, hot, set(), BLUE, BLUE_LIGHT)
    svg.lines(lx - 70, ly + rows * ch + 34, [
        "1 request → 1 sector: 32 bytes moved, 32 used (100%)",
        "32 floats instead: 128 bytes = one 128-byte line,",
        "4 sectors, all of them used",
    ], size=13)

    # Right: strided. Lane i reads byte t of row i (one work-item per row, step t).
    rx, t = 600, 3
    svg.text(rx - 70, 62, "Strided: lane i reads in[i*pitch + t]", size=14, weight="bold", colour=ORANGE)
    svg.text(rx - 70, 80, "rgh, one work-item per row (ch. 03); the naive transpose's writes (ch. 04)",
             size=11, colour=MUTED)
    hot = {(t, r) for r in range(rows)}
    warm = {(c, r) for r in range(rows) for c in range(sector)}
    grid(rx, ly, hot, warm, ORANGE, ORANGE_LIGHT, labels=False)
    for i in range(32):
        svg.rect(rx - 20, ly + i * ch, 12, ch, fill=ORANGE, stroke="#ffffff", width=0.6)
    for i in (0, 8, 16, 24, 31):
        svg.text(rx - 26, ly + i * ch + 7, f"lane {i}", size=10, anchor="end", colour=ORANGE)
    for i in (0, 31):
        svg.line(rx - 8, ly + i * ch + ch / 2, rx + t * cw - 1, ly + i * ch + ch / 2, colour=ORANGE, width=1,
                 arrow=True)
    svg.text(rx - 26, ly - 22, "lane i: row i", size=10, anchor="end", colour=ORANGE)
    svg.lines(rx - 70, ly + rows * ch + 34, [
        "1 request → 32 sectors: 1024 bytes moved, 32 used (3%)",
        "32 floats instead: 32 sectors, 128 of 1024 bytes used",
        "Chapter 03 measures rgh at 32.0 sectors per request",
    ], size=13)

    # Legend.
    ky = 560
    svg.rect(26, ky - 10, 14, 10, fill=BLUE, stroke=INK, width=0.5)
    svg.rect(42, ky - 10, 14, 10, fill=ORANGE, stroke=INK, width=0.5)
    svg.text(62, ky, "bytes the lanes asked for", size=12)
    svg.rect(250, ky - 10, 14, 10, fill=ORANGE_LIGHT, stroke=INK, width=0.5)
    svg.text(270, ky, "bytes of the touched sectors: moved, not used", size=12)
    svg.line(590, ky - 12, 590, ky + 2, colour=INK, width=1.6)
    svg.text(598, ky, "sector boundary (every 32 bytes)", size=12)
    svg.text(26, ky + 22, "One cell = one byte (one 8-bit pixel); a row is pitch bytes long, so row i starts "
             "i * pitch bytes after row 0. Ideal counts, for aligned rows.", size=11, colour=MUTED)
    return svg


# --- (b) a tile and its halo -----------------------------------------------------------

def tile_halo():
    gx_items, gy_items, radius = 8, 4, 2
    tile_w, tile_h = gx_items + 2 * radius, gy_items + 2 * radius
    cell = 26
    svg = Svg(980, 560, "A work-group's tile in local memory, with its halo",
              "A work-group of 8 x 4 items at the image's top-left corner, radius 2: the tile holds its "
              "8 x 4 pixels and a halo of 2 cells on every side; halo cells outside the image are loaded "
              "from the nearest edge pixel (clamp-to-edge).")
    svg.text(490, 28, "A work-group's tile: its pixels, a halo of R cells on every side, clamped at the image's edge",
             size=16, anchor="middle", weight="bold")
    outside = svg.hatch("outside", "#c4c4c4", OUTSIDE)

    # Left: the image around its top-left corner. Columns/rows -R .. shown.
    ox, oy = 60, 110                     # where image column -R, row -R is drawn
    shown_c, shown_r = tile_w + 6, tile_h + 3
    svg.text(ox - 24, 66, "The image (top-left corner) and group (0, 0)", size=14, weight="bold")
    svg.text(ox - 24, 84, "drawn 8 x 4 items, R = 2; chapter 05 runs 32 x 8 items", size=11, colour=MUTED)
    for r in range(shown_r):
        for c in range(shown_c):
            ix, iy = c - radius, r - radius
            inside = ix >= 0 and iy >= 0
            in_tile = c < tile_w and r < tile_h
            own = 0 <= ix < gx_items and 0 <= iy < gy_items
            if own:
                fill = GREEN_LIGHT
            elif in_tile and inside:
                fill = PURPLE_LIGHT
            elif in_tile:
                fill = svg.hatch("clamped", "#b98fc4", PURPLE_LIGHT) if (r, c) == (0, 0) else "url(#clamped)"
            elif inside:
                fill = "#ffffff"
            else:
                fill = outside
            svg.rect(ox + c * cell, oy + r * cell, cell, cell, fill=fill, stroke=GRID, width=0.6)
    # The image's edges.
    svg.line(ox + radius * cell, oy + radius * cell, ox + shown_c * cell, oy + radius * cell, colour=INK, width=2.4)
    svg.line(ox + radius * cell, oy + radius * cell, ox + radius * cell, oy + shown_r * cell, colour=INK, width=2.4)
    svg.text(ox + shown_c * cell, oy + radius * cell - 6, "image edge (row 0)", size=11, anchor="end")
    svg.text(ox + radius * cell - 6, oy + shown_r * cell + 16, "column 0", size=11, anchor="middle")
    svg.text(ox + 4 * cell, oy + shown_r * cell + 16, "arrows: a halo cell outside the image loads the nearest edge pixel",
             size=11, colour=MUTED)
    svg.text(ox + 4, oy - 8, "outside the image", size=11, colour=MUTED)
    # The tile and the group.
    svg.rect(ox, oy, tile_w * cell, tile_h * cell, stroke=PURPLE, width=2.2)
    svg.rect(ox + radius * cell, oy + radius * cell, gx_items * cell, gy_items * cell, stroke=GREEN, width=2.2)
    for i in range(gx_items):
        for j in range(gy_items):
            svg.text(ox + (radius + i) * cell + cell / 2, oy + (radius + j) * cell + cell / 2 + 4,
                     str(j * gx_items + i), size=9, anchor="middle", colour=GREEN)
    # R brackets.
    svg.brace_h(ox + tile_w * cell - radius * cell, ox + tile_w * cell, oy - 4, "R", colour=PURPLE, size=12)
    # The window of item 7 (pixel (7, 0)): 5 x 5 around it reaches R cells into the halo.
    wx, wy = radius + 7 - radius, radius + 0 - radius
    svg.rect(ox + wx * cell + 2, oy + wy * cell + 2, (2 * radius + 1) * cell - 4, (2 * radius + 1) * cell - 4,
             stroke=RED, width=1.8, dash="5,3")
    svg.text(ox + (wx + 2 * radius + 1) * cell + 6, oy + (wy + 2 * radius + 1) * cell + 14,
             "item 7's 5 x 5 window", size=11, colour=RED)
    # Clamp arrows: a few outside cells and the edge pixel they load.
    for (c, r), (tc, tr) in (((0, 3), (2, 3)), ((4, 0), (4, 2)), ((1, 1), (2, 2))):
        svg.line(ox + c * cell + cell / 2, oy + r * cell + cell / 2,
                 ox + tc * cell + cell / 2 - (5 if tc != c else 0), oy + tr * cell + cell / 2 - (5 if tr != r else 0),
                 colour=INK, width=1.2, arrow=True)

    # Right: the tile in local memory.
    tx, ty = 640, 150
    svg.text(tx - 20, 66, "The tile in local memory", size=14, weight="bold")
    svg.text(tx - 20, 84, "__local float tile[Y + 2R][X + 2R];  (12 x 8 here)", size=11, colour=MUTED, mono=True)
    small = 22
    for r in range(tile_h):
        for c in range(tile_w):
            own = radius <= c < radius + gx_items and radius <= r < radius + gy_items
            clamped = c < radius or r < radius
            fill = GREEN_LIGHT if own else ("url(#clamped)" if clamped else PURPLE_LIGHT)
            svg.rect(tx + c * small, ty + r * small, small, small, fill=fill, stroke=GRID, width=0.6)
            item = (r % gy_items) * gx_items + c % gx_items  # blur_tiled's 2-D stride
            svg.text(tx + c * small + small / 2, ty + r * small + small / 2 + 4, str(item), size=9,
                     anchor="middle", colour=GREEN if own else INK)
    svg.rect(tx, ty, tile_w * small, tile_h * small, stroke=PURPLE, width=2.2)
    svg.rect(tx + radius * small, ty + radius * small, gx_items * small, gy_items * small, stroke=GREEN, width=2.2)
    svg.text(tx, ty - 10, "the number in a cell: the item that loads it", size=11, colour=MUTED)
    svg.lines(tx - 20, ty + tile_h * small + 30, [
        "1. item (lx, ly) loads cells (lx + kX, ly + mY), all of",
        "   them inside the tile: 2 or 4 cells each here;",
        "   the image coordinates are clamped",
        "2. barrier: every cell stored before any is read",
        "3. item (lx, ly) sums its window,",
        "   tile[ly .. ly + 2R][lx .. lx + 2R]",
    ], size=12)

    # Legend and the count.
    ky = 470
    legend = ((GREEN_LIGHT, GREEN, "the group's pixels, one per item"),
              (PURPLE_LIGHT, PURPLE, "halo: R cells on every side, inside the image"),
              ("url(#clamped)", PURPLE, "halo outside the image: a copy of the nearest edge pixel"),
              (outside, GRID, "outside the image, never read"))
    for i, (fill, stroke, label) in enumerate(legend):
        x = 36 + (i % 2) * 470
        y = ky + (i // 2) * 24
        svg.rect(x, y - 12, 16, 14, fill=fill, stroke=stroke, width=1.2)
        svg.text(x + 24, y, label, size=12)
    svg.text(36, ky + 62, "Loaded: (X + 2R)(Y + 2R) cells for X Y pixels: 96 for 32 here; chapter 05's 32 x 8 group "
             "at R = 2: 36 x 12 = 432 cells for 256 pixels (69% extra).", size=12, colour=MUTED)
    return svg


# --- (c) transpose through local memory --------------------------------------------------

def transpose():
    n = 8                              # drawn tile size (32 on the GPU)
    cell = 24
    svg = Svg(980, 612, "A transpose through local memory",
              "A warp reads a row of the input tile (coalesced) into a row of the local tile; after a barrier "
              "it reads a column of the local tile and writes it as a row of the output (coalesced). The "
              "padding column makes a column's elements fall into different banks.")
    svg.text(490, 28, "Transpose through local memory: both global accesses by rows, the column read on chip",
             size=16, anchor="middle", weight="bold")
    pad = svg.hatch("pad", "#9a9a9a", "#f4f4f4")

    def block(x, y, label, sub, highlight_row=None, highlight_col=None, colour=BLUE, light=BLUE_LIGHT,
              padded=False, names=None):
        for r in range(n):
            for c in range(n + (1 if padded else 0)):
                fill = "#ffffff"
                if c == n:
                    fill = pad
                elif highlight_row is not None and r == highlight_row:
                    fill = colour
                elif highlight_col is not None and c == highlight_col:
                    fill = colour
                elif names:
                    fill = light
                svg.rect(x + c * cell, y + r * cell, cell, cell, fill=fill, stroke=GRID, width=0.6)
                if names and c < n:
                    hot = (highlight_row is not None and r == highlight_row) or (
                        highlight_col is not None and c == highlight_col)
                    svg.text(x + c * cell + cell / 2, y + r * cell + cell / 2 + 4, names(r, c), size=9,
                             anchor="middle", colour="#ffffff" if hot else MUTED)
        svg.rect(x, y, n * cell, n * cell, stroke=INK, width=1.4)
        svg.text(x, y - 26, label, size=14, weight="bold")
        svg.text(x, y - 10, sub, size=11, colour=MUTED, mono=True)

    top = 110
    ix, lx_, ox = 40, 370, 730
    letters = "abcdefgh"
    block(ix, top, "1. in: the group's tile", "in(x0 + lx, y0 + ly)", highlight_row=2,
          names=lambda r, c: f"{letters[r]}{c}")
    block(lx_, top, "2. local tile, padded", "tile[ly][lx], TILE x (TILE+1)", highlight_row=2, padded=True,
          names=lambda r, c: f"{letters[r]}{c}")
    block(ox, top, "3. out: rows of the transpose", "out(y0 + lx, x0 + ly)", highlight_row=2, colour=ORANGE,
          light=ORANGE_LIGHT, names=lambda r, c: f"{letters[c]}{r}")
    # The column of the local tile that becomes out's row 2.
    svg.rect(lx_ + 2 * cell + 1.5, top + 1.5, cell - 3, n * cell - 3, stroke=ORANGE, width=2.6)

    # Arrows between the stages.
    ay = top + 2 * cell + cell / 2
    svg.line(ix + n * cell + 8, ay, lx_ - 8, ay, colour=BLUE, width=2, arrow=True)
    svg.lines(ix + n * cell + 14, ay + 30, ["a warp reads a row", "of in: coalesced,", "stores a row of tile"],
              size=11, colour=BLUE)
    x1, x2 = lx_ + (n + 1) * cell + 8, ox - 8
    svg.line(x1, ay, x2, ay, colour=ORANGE, width=2, arrow=True)
    svg.rect((x1 + x2) / 2 - 34, ay - 11, 68, 22, fill="#fff7bc", stroke=INK, width=1, rx=4)
    svg.text((x1 + x2) / 2, ay + 4, "barrier", size=11, anchor="middle")
    svg.lines(x1 + 2, ay + 30, ["then a warp reads", "a COLUMN of tile", "and writes it as a", "row of out:",
                               "coalesced"], size=11, colour=ORANGE)
    svg.text(lx_ + n * cell + cell, top + n * cell + 18, "padding column", size=11, anchor="end", colour=MUTED)
    svg.text(ix, top + n * cell + 24, "the global accesses are both by rows;", size=11, colour=MUTED)
    svg.text(ix, top + n * cell + 38, "the strided one moved on chip", size=11, colour=MUTED)

    # Banks: the column read with and without padding.
    by = 420
    svg.text(40, by - 48, "Why +1: local memory is split into banks; a warp's accesses to one bank are served one after another",
             size=13, weight="bold")
    svg.text(40, by - 30, "drawn with 8 banks and an 8 x 8 tile; a GPU has 32 banks of 4 bytes, and 32 x 32 float tiles: "
             "bank = (row * row length + column) mod 32", size=11, colour=MUTED)
    small = 19

    def banks(x, y, width, label, verdict, colour):
        for r in range(n):
            for c in range(width):
                bank = (r * width + c) % n
                hot = c == 0
                fill = colour if hot else ("#f4f4f4" if c == n else "#ffffff")
                if c == n:
                    fill = pad
                svg.rect(x + c * small, y + r * small, small, small, fill=fill, stroke=GRID, width=0.5)
                svg.text(x + c * small + small / 2, y + r * small + small / 2 + 4, str(bank), size=9,
                         anchor="middle", colour="#ffffff" if hot else MUTED)
        svg.rect(x, y, n * small, n * small, stroke=INK, width=1.2)
        svg.text(x + width * small + 12, y + 16, label, size=12, weight="bold", mono=True)
        svg.lines(x + width * small + 12, y + 36, verdict, size=12, colour=colour)

    banks(40, by, n, "tile[8][8]", ["column 0: every element", "in bank 0: 8 accesses", "one after another",
                                   "(8-way conflict)"], RED)
    banks(520, by, n + 1, "tile[8][9]", ["column 0: banks 0, 1, ..., 7:", "all different, one pass",
                                        "(the padding column", "is never used)"], GREEN)
    svg.text(40, by + n * small + 28, "The numbers in the cells are bank numbers. Chapter 04 runs 32 x 8 items over a "
             "32 x 33 tile; its Nsight Compute table shows the effect of the padding on float tiles.", size=11,
             colour=MUTED)
    return svg


FIGURES = {
    "fig_coalescing.svg": coalescing,
    "fig_tile_halo.svg": tile_halo,
    "fig_transpose.svg": transpose,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a committed SVG differs from what would be written")
    parser.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parent),
                        help="folder to write into (default: the script's folder, docs/)")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    stale = []
    for name, draw in FIGURES.items():
        text = draw().render()
        path = out / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print("out of date (run python3 docs/figures.py and commit the SVGs): " + ", ".join(stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
