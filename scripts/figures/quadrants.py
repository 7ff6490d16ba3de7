#!/usr/bin/env python3
"""Draws docs/quadrants.svg, the guide's figure of the quadrant join (docs/counting.md): an 8×8
solution cut into quadrants, its west and east halves, its row set, and the diagonals that cross
between the halves (the bits of a half's key).

    python3 scripts/figures/quadrants.py [--check]

--check exits 1 if docs/quadrants.svg differs from what the script draws. Needs only Python.
"""
import pathlib
import sys

N = 8
H = N // 2
# A solution, for each column the 0-based row of its queen (row 0 is rank 1, at the bottom);
# `queens solve 8 --solver backtracking --format perm` prints it.
SOLUTION = [0, 6, 4, 7, 1, 3, 5, 2]
CELL = 46
LEFT, TOP = 70, 40
WEST, EAST = "#dbe7f7", "#fbe3cc"
WEST_QUEEN, EAST_QUEEN = "#1f4e9c", "#b35300"
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'


def x(column):
    return LEFT + column * CELL


def y(row):
    return TOP + (N - 1 - row) * CELL


def squares(out):
    """The board, its west and east halves shaded apart."""
    for row in range(N):
        for column in range(N):
            base = WEST if column < H else EAST
            shade = ' fill-opacity="0.55"' if (row + column) % 2 else ""
            out.append(
                f'<rect x="{x(column)}" y="{y(row)}" width="{CELL}" height="{CELL}" '
                f'fill="{base}"{shade}/>'
            )


def crossing_diagonals(out):
    """The diagonals of west queens that cross into the east half: the bits of the keys."""
    for column in range(H):
        row = SOLUTION[column]
        for step in (1, -1):
            end_column = column
            end_row = row
            while 0 <= end_column + 1 < N and 0 <= end_row + step < N:
                end_column += 1
                end_row += step
            if end_column >= H:
                out.append(
                    f'<line x1="{x(column) + CELL / 2}" y1="{y(row) + CELL / 2}" '
                    f'x2="{x(end_column) + CELL / 2}" y2="{y(end_row) + CELL / 2}" '
                    f'stroke="{WEST_QUEEN}" stroke-width="1.5" stroke-dasharray="4 3" '
                    f'stroke-opacity="0.6"/>'
                )


def quadrants(out):
    """Quadrant borders and labels, and the queens."""
    middle_x, middle_y = x(H), y(H - 1)
    out.append(
        f'<rect x="{LEFT}" y="{TOP}" width="{N * CELL}" height="{N * CELL}" fill="none" '
        f'stroke="#222" stroke-width="2"/>'
    )
    out.append(
        f'<line x1="{middle_x}" y1="{TOP - 10}" x2="{middle_x}" y2="{TOP + N * CELL + 10}" '
        f'stroke="#222" stroke-width="3"/>'
    )
    out.append(
        f'<line x1="{LEFT - 10}" y1="{middle_y}" x2="{LEFT + N * CELL + 10}" y2="{middle_y}" '
        f'stroke="#222" stroke-width="1.5" stroke-dasharray="6 4"/>'
    )
    for label, column, row in (("NW", 0, N - 1), ("NE", H, N - 1), ("SW", 0, H - 1), ("SE", H, H - 1)):
        out.append(
            f'<text x="{x(column) + 4}" y="{y(row) + 13}" font-size="11" fill="#555" {FONT}>{label}</text>'
        )
    for column in range(N):
        row = SOLUTION[column]
        colour = WEST_QUEEN if column < H else EAST_QUEEN
        out.append(
            f'<text x="{x(column) + CELL / 2}" y="{y(row) + CELL * 0.72}" font-size="{CELL * 0.62:.0f}" '
            f'text-anchor="middle" fill="{colour}" {FONT}>♛</text>'
        )


def coordinates(out, west_rows):
    """Coordinates, and the row set: the ranks whose queen stands in the west half."""
    for column in range(N):
        out.append(
            f'<text x="{x(column) + CELL / 2}" y="{TOP + N * CELL + 18}" font-size="12" '
            f'text-anchor="middle" fill="#333" {FONT}>{"abcdefgh"[column]}</text>'
        )
    for row in range(N):
        out.append(
            f'<text x="{LEFT - 14}" y="{y(row) + CELL / 2 + 4}" font-size="12" text-anchor="middle" '
            f'fill="#333" {FONT}>{row + 1}</text>'
        )
        if row in west_rows:
            out.append(
                f'<circle cx="{LEFT - 34}" cy="{y(row) + CELL / 2}" r="5" fill="{WEST_QUEEN}"/>'
            )


def notes(out, west_rows, height):
    """The notes beside the board and the caption under it."""
    ranks = ", ".join(str(row + 1) for row in west_rows)
    lines = [
        ("west half", WEST_QUEEN, "NW ⋈ SW: fills columns a–d"),
        ("", WEST_QUEEN, f"and its row set, ranks {ranks} (dots)"),
        ("east half", EAST_QUEEN, "NE ⋈ SE: fills columns e–h"),
        ("", EAST_QUEEN, "and the other ranks"),
        ("key", "#333", "the diagonals crossing the middle"),
        ("", "#333", "line (dashed: the west half's)"),
        ("solution", "#333", "a west and an east half whose"),
        ("", "#333", "keys share no bit"),
    ]
    base = LEFT + N * CELL + 24
    for index, (title, colour, text) in enumerate(lines):
        top = TOP + 22 + index * 22 + (index // 2) * 14
        if title:
            out.append(
                f'<text x="{base}" y="{top}" font-size="13" font-weight="bold" fill="{colour}" {FONT}>{title}</text>'
            )
        out.append(f'<text x="{base + 78}" y="{top}" font-size="13" fill="#333" {FONT}>{text}</text>')
    for index, line in enumerate(
        (
            "An 8×8 solution in the quadrant join: each half is built once for its row set and",
            "paired with all the other side's halves of that row set at once.",
        )
    ):
        out.append(
            f'<text x="{LEFT}" y="{height - 30 + index * 16}" font-size="12" fill="#555" {FONT}>{line}</text>'
        )


def draw():
    out = []
    width, height = LEFT + N * CELL + 370, TOP + N * CELL + 84
    out.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">'
    )
    out.append(f'<rect width="{width}" height="{height}" fill="white"/>')
    squares(out)
    crossing_diagonals(out)
    quadrants(out)
    west_rows = sorted(SOLUTION[column] for column in range(H))
    coordinates(out, west_rows)
    notes(out, west_rows, height)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    path = pathlib.Path(__file__).resolve().parents[2] / "docs" / "quadrants.svg"
    svg = draw()
    if "--check" in sys.argv[1:]:
        if not path.exists() or path.read_text(encoding="utf-8") != svg:
            print(f"{path} is out of date: run python3 scripts/figures/quadrants.py", file=sys.stderr)
            sys.exit(1)
        return
    path.write_text(svg, encoding="utf-8")


if __name__ == "__main__":
    main()
