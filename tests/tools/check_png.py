#!/usr/bin/env python3
"""Checks a screenshot as a person glancing at it would: a PNG of the
expected size, not blank (many colours), with the verdict banner's colour
across its top rows. Standard library only (no PIL).
Usage: check_png.py FILE R,G,B; prints what it saw, exits 1 when wrong."""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit(f"{path}: unsupported PNG (depth {depth}, colour type {colour})")
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


width, height, rows = decode(sys.argv[1])
banner = tuple(int(v) for v in sys.argv[2].split(","))
colours = {p for row in rows[::4] for p in row[::4]}
top = rows[5]
share = sum(1 for p in top if p == banner) / width
print(f"{width}x{height}, {len(colours)} colours (sampled), banner colour {banner} "
      f"on {share:.0%} of row 5")
if len(colours) < 20:
    sys.exit("blank or nearly blank screenshot")
if share < 0.5:
    sys.exit(f"the top of the page is not the verdict banner {banner}")
