#!/usr/bin/env python3
"""Renders one point field of a 2D triangle .vtu (as the library's writers produce: ASCII XML,
VTK_TRIANGLE cells) to a PNG, with nothing but the standard library (no numpy or matplotlib on
the machines that make the docs' pictures).

    scripts/plot_vtu_field.py FILE.vtu FIELD OUT.png [--width 1200] [--contours 30] [--xmax X]

Each triangle is filled by linear interpolation of the field at its corners (u_h sampled on
sub-triangles, so p = 1 fields are exact); colours from a perceptual blue-to-yellow ramp over
the field's range, with --contours dark lines at equally spaced levels, as the classic
pictures of shock problems show density.
"""
import argparse
import re
import struct
import sys
import zlib


def read_vtu(path, field):
    """Points (x, y), triangles (index triples) and the field's values at the points."""
    with open(path) as file:
        text = file.read()

    def array(name):
        match = re.search(r'<DataArray[^>]*Name="%s"[^>]*>(.*?)</DataArray>' % re.escape(name), text,
                          re.S)
        if match is None:
            sys.exit(f"plot_vtu_field: {path} has no array named {name}")
        return match.group(1).split()

    points = [float(x) for x in array("Points") if x] if 'Name="Points"' in text else None
    if points is None:  # the Points element's DataArray may be unnamed
        match = re.search(r"<Points>\s*<DataArray[^>]*>(.*?)</DataArray>", text, re.S)
        if match is None:
            sys.exit(f"plot_vtu_field: {path} has no Points")
        points = [float(x) for x in match.group(1).split()]
    xy = [(points[i], points[i + 1]) for i in range(0, len(points), 3)]
    connectivity = [int(x) for x in array("connectivity")]
    triangles = [connectivity[i:i + 3] for i in range(0, len(connectivity), 3)]
    values = [float(x) for x in array(field)]
    if len(values) != len(xy):
        sys.exit(f"plot_vtu_field: {field} has {len(values)} values for {len(xy)} points")
    return xy, triangles, values


def colour(t):
    """A blue-to-yellow ramp (dark blue, teal, green, yellow) at t in [0, 1]."""
    stops = [(0.0, (48, 18, 59)), (0.25, (50, 100, 200)), (0.5, (30, 180, 160)),
             (0.75, (150, 220, 60)), (1.0, (250, 240, 40))]
    t = min(max(t, 0.0), 1.0)
    for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
        if t <= t1:
            s = (t - t0) / (t1 - t0)
            return tuple(int(a + s * (b - a)) for a, b in zip(c0, c1))
    return stops[-1][1]


def render(xy, triangles, values, width, contours, xmax=None):
    xs = [p[0] for p in xy]
    ys = [p[1] for p in xy]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    if xmax is not None:
        x1 = min(x1, xmax)  # pixels right of xmax fall outside the picture and are skipped
    height = max(1, int(round(width * (y1 - y0) / (x1 - x0))))
    scale = (width - 1) / (x1 - x0)
    low, high = min(values), max(values)
    span = high - low or 1.0
    pixels = [[(255, 255, 255)] * width for _ in range(height)]
    for a, b, c in triangles:
        (ax, ay), (bx, by), (cx, cy) = xy[a], xy[b], xy[c]
        pa = ((ax - x0) * scale, (y1 - ay) * scale)
        pb = ((bx - x0) * scale, (y1 - by) * scale)
        pc = ((cx - x0) * scale, (y1 - cy) * scale)
        det = (pb[0] - pa[0]) * (pc[1] - pa[1]) - (pc[0] - pa[0]) * (pb[1] - pa[1])
        if det == 0:
            continue
        for row in range(max(0, int(min(pa[1], pb[1], pc[1]))),
                         min(height, int(max(pa[1], pb[1], pc[1])) + 2)):
            for col in range(max(0, int(min(pa[0], pb[0], pc[0]))),
                             min(width, int(max(pa[0], pb[0], pc[0])) + 2)):
                # Barycentric coordinates of the pixel centre.
                l1 = ((col - pa[0]) * (pc[1] - pa[1]) - (pc[0] - pa[0]) * (row - pa[1])) / det
                l2 = ((pb[0] - pa[0]) * (row - pa[1]) - (col - pa[0]) * (pb[1] - pa[1])) / det
                l0 = 1 - l1 - l2
                if min(l0, l1, l2) < -1e-9:
                    continue
                value = l0 * values[a] + l1 * values[b] + l2 * values[c]
                t = (value - low) / span
                shade = colour(t)
                if contours > 0:
                    # A dark line where the value is within a sliver of a contour level.
                    level = t * contours
                    if abs(level - round(level)) < 0.03:
                        shade = tuple(v // 3 for v in shade)
                pixels[row][col] = shade
    return pixels


def write_png(path, pixels):
    height, width = len(pixels), len(pixels[0])
    raw = b"".join(b"\x00" + bytes(v for rgb in row for v in rgb) for row in pixels)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n")
        file.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        file.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        file.write(chunk(b"IEND", b""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("vtu")
    parser.add_argument("field")
    parser.add_argument("png")
    parser.add_argument("--width", type=int, default=1200)
    parser.add_argument("--contours", type=int, default=30)
    parser.add_argument("--xmax", type=float, default=None, help="crop the picture at x = XMAX")
    arguments = parser.parse_args()
    xy, triangles, values = read_vtu(arguments.vtu, arguments.field)
    write_png(arguments.png, render(xy, triangles, values, arguments.width, arguments.contours,
                                             arguments.xmax))
    print(f"{arguments.png}: {arguments.field} in [{min(values):.4g}, {max(values):.4g}]")


if __name__ == "__main__":
    main()
