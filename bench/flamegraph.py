#!/usr/bin/env python3
"""Renders async-profiler's collapsed stacks ("frame;frame;frame count" per line) as a
self-contained SVG flame graph: one box per frame, width proportional to samples, callers below
callees; hover a box for its name and share. Usage: flamegraph.py IN.collapsed OUT.svg "title"
[--thread NAME-PREFIX] (keep only stacks of threads whose name starts so; needs the profiler's
'threads' option)."""
import html, sys, zlib

args = [a for a in sys.argv[1:] if not a.startswith("--thread")]
only = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--thread=")), None)
src, dst, title = args[0], args[1], args[2] if len(args) > 2 else "flame graph"

root = {"n": 0, "c": {}}
for line in open(src):
    stack, _, count = line.rstrip("\n").rpartition(" ")
    if not stack or not count.isdigit():
        continue
    frames = stack.split(";")
    if frames[0].startswith("["):
        if only and not frames[0][1:].startswith(only):
            continue
        frames = frames[1:]
    elif only:
        continue
    node = root
    node["n"] += int(count)
    for f in frames:
        node = node["c"].setdefault(f, {"n": 0, "c": {}})
        node["n"] += int(count)

W, H, PAD = 1600, 16, 30
total = root["n"] or 1
boxes, depth_max = [], 0
def walk(node, x, depth):
    global depth_max
    depth_max = max(depth_max, depth)
    for name, child in sorted(node["c"].items()):
        w = child["n"] / total * (W - 20)
        if w >= 0.3:
            boxes.append((x, depth, w, name, child["n"]))
            walk(child, x, depth + 1)
        x += w
walk(root, 10, 0)

def colour(name):
    h = zlib.crc32(name.encode()) % 60
    if "io/pacer" in name or "io.pacer" in name:
        return f"rgb(80,{150 + h},{200 + h // 2})"
    if name.endswith("_[k]"):
        return f"rgb({200 + h // 2},{120 + h},60)"
    if "/" in name or "." in name:
        return f"rgb(90,{180 + h},90)"
    return f"rgb({210 + h // 3},{90 + h},{70 + h // 2})"

height = (depth_max + 2) * H + 2 * PAD
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" font-family="monospace" font-size="11">',
       f'<rect width="100%" height="100%" fill="#fdfdf8"/>',
       f'<text x="10" y="20" font-size="15">{html.escape(title)} ({total:,} samples)</text>']
for x, depth, w, name, n in boxes:
    y = height - PAD - (depth + 1) * H
    label = html.escape(name)
    out.append(f'<g><title>{label} ({n:,} samples, {100 * n / total:.2f}%)</title>'
               f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{H - 1}" fill="{colour(name)}" rx="2"/>')
    chars = int(w / 6.6)
    if chars >= 3:
        text = name if len(name) <= chars else name[:chars - 2] + ".."
        out.append(f'<text x="{x + 2:.1f}" y="{y + H - 4}">{html.escape(text)}</text>')
    out.append('</g>')
out.append('</svg>')
open(dst, "w").write("\n".join(out))
print(f"{dst}: {len(boxes)} frames, {total:,} samples")
