"""Fit a line to water's boiling point against altitude.

Reads data/boiling.csv and writes results/R1.json with the slope in °C per
kilometre and the number of rows it used. Standard library only.
"""
import csv
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)

with open(os.path.join(root, "data", "boiling.csv"), newline="") as f:
    rows = [(float(r["altitude_m"]) / 1000, float(r["boiling_point_c"])) for r in csv.DictReader(f)]

n = len(rows)
mean_x = sum(x for x, _ in rows) / n
mean_y = sum(y for _, y in rows) / n
slope = sum((x - mean_x) * (y - mean_y) for x, y in rows) / sum((x - mean_x) ** 2 for x, _ in rows)

os.makedirs(os.path.join(root, "results"), exist_ok=True)
with open(os.path.join(root, "results", "R1.json"), "w") as f:
    json.dump({"slope_c_per_km": round(slope, 2), "rows": n}, f)
    f.write("\n")
