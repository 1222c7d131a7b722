#!/usr/bin/env python3
"""Writes a campaigns file of N campaigns, ids 1 to N, for the benchmarks (bench/million.sh,
bench/profile-load.sh): alternately EVEN and ASAP, a year's flight over 2026, budgets that no load
runs out (a million dollars each).

  campaigns-file.py N FILE
"""
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    n, path = int(sys.argv[1]), sys.argv[2]
    with open(path, 'w') as f:
        f.write('{"campaigns":[\n')
        for i in range(1, n + 1):
            f.write('{"id":%d,"budgetMicros":1000000000000,"start":"2026-01-01T00:00:00Z","end":"2027-01-01T00:00:00Z","pacing":"%s"}%s\n'
                    % (i, "EVEN" if i % 2 else "ASAP", "," if i < n else ""))
        f.write(']}\n')


if __name__ == '__main__':
    main()
