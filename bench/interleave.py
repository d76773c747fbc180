#!/usr/bin/python3
"""Interleaved comparison of `ge run` configurations on one machine (shared VMs drift by tens of percent within
minutes: only interleaved repetitions compare fairly).

usage: interleave.py [--reps N] [--loop N] LABEL "COMMAND" [LABEL "COMMAND" ...]
  Each COMMAND is a `ge run ...` command line without --loop/--json; every repetition runs each command once, in
  order, with --loop and --json added. Prints per label the median of the runs' medians, the minimum of their
  minimums (least disturbed by other load) and each relative to the first label.
example:
  bench/interleave.py --reps 7 dyn "build/bin/ge run --model=gpt.om --vary=ids:1:64~64" \\
                               static "build/bin/ge run --model=gpt_s64.om"
"""
import argparse
import json
import shlex
import statistics
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--loop", type=int, default=300)
    ap.add_argument("pairs", nargs="+", help="LABEL COMMAND pairs")
    args = ap.parse_args()
    if len(args.pairs) % 2 != 0:
        ap.error("give LABEL COMMAND pairs")
    labels, commands = args.pairs[0::2], args.pairs[1::2]
    medians = {l: [] for l in labels}
    minimums = {l: [] for l in labels}
    for _ in range(args.reps):
        for label, command in zip(labels, commands):
            p = subprocess.run(shlex.split(command) + [f"--loop={args.loop}", "--json"], capture_output=True, text=True)
            lines = p.stdout.strip().splitlines()
            if p.returncode != 0 or not lines:
                sys.exit(f"{label}: exit {p.returncode}: {(p.stdout + p.stderr).strip()[-300:]}")
            report = json.loads(lines[-1])
            medians[label].append(report["median_ms"])
            minimums[label].append(report["min_ms"])
    base_med = statistics.median(medians[labels[0]])
    base_min = min(minimums[labels[0]])
    for label in labels:
        med, mn = statistics.median(medians[label]), min(minimums[label])
        print(f"{label:24s} median-of-medians {med:9.4f} ms ({med / base_med:5.3f}x)  "
              f"min-of-mins {mn:9.4f} ms ({mn / base_min:5.3f}x)")


if __name__ == "__main__":
    main()
