#!/usr/bin/env python3
"""The baseline bench-records compares against: read a CSV with csv.DictReader and parse each
row's date (in the column named by the second argument, default `date`) with
datetime.strptime, nothing more. Prints the number of rows read."""
import csv
import sys
from datetime import datetime


def main(path, date_column):
    rows = 0
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            datetime.strptime(row[date_column], "%Y-%m-%d %H:%M")
            rows += 1
    print(rows)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "date")
