#!/usr/bin/env python3
"""Summarises `ncu --page source --print-source sass --csv` output (scripts/gpu/profile-assembly.sh):
per kernel, the SASS lines with the most stall samples, the executed instructions by opcode, and
by execution count (lines run once per warp's item, once per point, ...: where the work is), and
the lines before the hottest few (what they wait on).
   scripts/gpu/sass_hot_spots.py FILE.csv [lines per kernel, default 25] [context lines, default 0]"""
import csv
import sys
from collections import Counter

path = sys.argv[1]
top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
context = int(sys.argv[3]) if len(sys.argv) > 3 else 0
sections, name, header, rows = [], None, None, []
with open(path, newline="") as f:
    for record in csv.reader(f):
        if not record:
            continue
        if record[0] == "Kernel Name":
            if name is not None:
                sections.append((name, header, rows))
            name, header, rows = record[1], None, []
        elif header is None:
            header = record
        else:
            rows.append(dict(zip(header, record)))
if name is not None:
    sections.append((name, header, rows))
# ncu's source page lists each launch twice, the same rows: keep one.
sections = [section for k, section in enumerate(sections) if k == 0 or section != sections[k - 1]]


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


for name, header, rows in sections:
    short = name.split("<")[0].split("::")[-1] + "<" + name.split("<")[1].split("::")[-1][:40]
    samples = sum(number(r.get("Warp Stall Sampling (All Samples)", "0")) for r in rows)
    executed = sum(number(r.get("Instructions Executed", "0")) for r in rows)
    print(f"=== {short}: {len(rows)} SASS lines, {executed:.3g} warp instructions, {samples:.0f} samples")
    opcodes = Counter()
    for r in rows:
        opcodes[r["Source"].split()[0].lstrip("@!P0123456789T ").split(".")[0] if r["Source"].strip() else "?"] += number(r.get("Instructions Executed", "0"))
    print("  executed by opcode:", ", ".join(f"{op} {count / max(executed, 1):.1%}" for op, count in opcodes.most_common(14)))
    stall_columns = [c for c in header if c.startswith("stall_")]
    totals = sorted(((sum(number(r[c]) for r in rows), c[6:]) for c in stall_columns), reverse=True)
    print("  stall samples by reason:", ", ".join(f"{why} {v / max(samples, 1):.1%}" for v, why in totals[:10] if v))
    for r in sorted(rows, key=lambda r: -number(r.get("Warp Stall Sampling (All Samples)", "0")))[:top]:
        s = number(r.get("Warp Stall Sampling (All Samples)", "0"))
        reasons = sorted(((number(r[c]), c[6:]) for c in stall_columns), reverse=True)[:2]
        print(f"  {s / max(samples, 1):6.1%} {r['Address']:>6} {r['Source'][:60]:60} exec {number(r.get('Instructions Executed', '0')):9.0f}  "
              + " ".join(f"{why}:{v:.0f}" for v, why in reasons if v))
    by_count = {}
    for r in rows:
        count = number(r.get("Instructions Executed", "0"))
        lines, instructions, stalls = by_count.get(count, (0, 0.0, 0.0))
        by_count[count] = (lines + 1, instructions + count,
                           stalls + number(r.get("Warp Stall Sampling (All Samples)", "0")))
    print("  by execution count (count: lines, % of instructions, % of samples):")
    for count, (lines, instructions, stalls) in sorted(by_count.items(), key=lambda e: -e[1][2])[:8]:
        print(f"    {count:9.0f}: {lines:5d} lines, {instructions / max(executed, 1):6.1%}, {stalls / max(samples, 1):6.1%}")
    if context:
        hottest = sorted(range(len(rows)), key=lambda i: -number(rows[i].get("Warp Stall Sampling (All Samples)", "0")))[:3]
        for i in hottest:
            print(f"  --- before {rows[i]['Address']}:")
            for r in rows[max(0, i - context):i + 2]:
                print(f"      {r['Address']:>6} {r['Source'][:70]:70} exec {number(r.get('Instructions Executed', '0')):9.0f}"
                      f" samples {number(r.get('Warp Stall Sampling (All Samples)', '0')):6.0f}")
