#!/usr/bin/env python3
"""report.html renders (docs/cli.md): every example is compiled, its report.html loaded in headless
Chromium, and what the page's layout produced read back from the rendered DOM (body[data-rendered],
written by the page's script after layout): one loop-table row per pipelined loop of report.json (the
kernel's and its task sequences'), and per loop a schedule chart with bars of positive width. A screenshot of each page is kept in --out.
With --chart-kernel, that kernel's chart is checked in detail against its report.json: every
operation of the critical recurrence is drawn highlighted. With --area-kernel, that kernel is compiled
with --area and its loop table must give each loop's LUTs and flip-flops.

    check_html.py --spvhls S --out DIR --inputs A.spv [B.spvasm ...] [--chart-kernel histogram]
"""
import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("check_html: no headless Chromium on the PATH (scripts/setup.sh installs the Debian package chromium)")


def render(browser, page, shot):
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1400,1000"]
    r = subprocess.run(flags + ["--virtual-time-budget=3000", "--dump-dom", "file://" + page],
                       capture_output=True, text=True, timeout=120)
    subprocess.run(flags + ["--screenshot=" + shot, "file://" + page], capture_output=True, timeout=120)
    m = re.search(r'data-rendered="([^"]*)"', r.stdout)
    return (json.loads(html.unescape(m.group(1))) if m else None), r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--inputs", nargs="+", required=True)
    ap.add_argument("--chart-kernel")
    ap.add_argument("--area-kernel", help="compiled with --area: its loop table shows each loop's yosys area")
    a = ap.parse_args()
    browser = chromium()
    problems = []
    for inp in a.inputs:
        stem = os.path.splitext(os.path.basename(inp))[0]
        out = os.path.abspath(os.path.join(a.out, stem))
        area = ["--area"] if stem == a.area_kernel else []
        r = subprocess.run([a.spvhls, "compile", inp, "-o", out] + area, capture_output=True, text=True)
        if r.returncode != 0:
            problems.append(f"{stem}: spvhls compile failed: {r.stderr.strip()[-500:]}")
            continue
        report = json.load(open(os.path.join(out, "report.json")))
        shot = os.path.join(out, "report.png")
        rendered, dom = render(browser, os.path.join(out, "report.html"), shot)
        if rendered is None:
            problems.append(f"{stem}: the page did not report its layout (no body[data-rendered])")
            continue
        loops = report["loops"] + [l for t in report["task_sequences"] for l in t["report"]["loops"]]
        if rendered["loopRows"] != len(loops):
            problems.append(f"{stem}: {rendered['loopRows']} loop-table rows for {len(loops)} loops")
        if len(rendered["charts"]) != len(loops):
            problems.append(f"{stem}: {len(rendered['charts'])} schedule charts for {len(loops)} loops")
        for ch in rendered["charts"]:
            if ch["bars"] == 0 or ch["width"] == 0:
                problems.append(f"{stem}: the chart of loop {ch['loop']} rendered no bars")
        if not os.path.exists(shot) or os.path.getsize(shot) < 10000:
            problems.append(f"{stem}: no screenshot")
        print(f"{stem}: {len(loops)} loop(s), charts {rendered['charts']}, screenshot {shot}")
        if area:
            cells = re.findall(r'<td class="num">(\d+) LUT6, (\d+) FF</td>', dom)
            print(f"{stem}: loop areas {cells}")
            if len(cells) != len(loops) or any(int(l) == 0 or int(f) == 0 for l, f in cells):
                problems.append(f"{stem}: --area gave {len(cells)} loop areas for {len(loops)} loops: {cells}")
        nd = report.get("nd_range")
        if nd is not None:
            # An ND-range kernel's section: one table row per subgroup operation (lane_logic).
            rows = re.findall(r"<tr><td>Sg[A-Za-z]+[^<]*</td><td>\d+</td><td>(wires|crossbar|chain)</td>", dom)
            want = [l["built"] for l in nd.get("lane_logic", [])]
            if "<h2>ND-range</h2>" not in dom or rows != want:
                problems.append(f"{stem}: the ND-range section shows {rows}, report.json has {want}")
        if stem == a.chart_kernel:
            # The critical recurrence of loop 0, as report.json names it, is drawn in red, op by op.
            recurrence = loops[0]["critical_recurrence"]
            crit = re.findall(r'<rect class="bar crit"[^>]*><title>([^<]*)</title>', dom)
            names = [c.split(":")[0] for c in crit]
            print(f"{stem}: critical recurrence {recurrence!r}; highlighted {names}")
            if not crit or rendered["charts"][0]["critical"] != len(crit):
                problems.append(f"{stem}: the critical recurrence is not highlighted in the chart")
            for name in names:
                if html.unescape(name) not in recurrence:
                    problems.append(f"{stem}: {name} is highlighted but not in the recurrence {recurrence!r}")
    if problems:
        print("HTML FAIL:\n" + "\n".join(problems))
        return 1
    print("HTML PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
