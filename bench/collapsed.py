#!/usr/bin/env python3
"""Per-decision views of async-profiler's collapsed stacks (bench/profile-load.sh writes them).

  collapsed.py threads FILE... [-n N]        samples by thread, the N busiest
  collapsed.py top FILE... [--thread T] [-n N] the threads' ns a decision by frame, inclusive and self
  collapsed.py diff A B [--thread T] [-n N]    the N frames whose ns a decision differ most, A minus B

With interval=1ms a sample is a millisecond of CPU; a decision's share is samples x 1e6 / decisions,
the decisions read from X.decisions for X.collapsed (bench/profile-load.sh writes both). --thread
is a prefix: every thread whose name starts with it is summed, pacer-gateway-io by default (in
shared threading, the gateway I/O threads read, decide and answer).
"""
import argparse
import collections
import sys


def stacks(path):
    """(frames, samples) for each non-blank line of a collapsed-stacks file."""
    with open(path) as f:
        for line in f:
            if line.strip():
                stack, count = line.rsplit(' ', 1)
                yield stack.split(';'), int(count)


def load(path, thread):
    inclusive, own, total = collections.Counter(), collections.Counter(), 0
    for frames, count in stacks(path):
        if not frames[0].startswith('[' + thread):
            continue
        total += count
        for frame in set(frames[1:]):
            inclusive[frame] += count
        own[frames[-1]] += count
    if total == 0:
        sys.exit('%s: no samples of a thread named %s* (profiled without "threads"?)' % (path, thread))
    return total, inclusive, own


def decisions(path):
    """The decisions beside X.collapsed, in X.decisions (as bench/profile-load.sh names it)."""
    base = path[:-len('.collapsed')] if path.endswith('.collapsed') else path
    with open(base + '.decisions') as f:
        n = float(f.read())
    if n <= 0:
        sys.exit('%s.decisions: no decisions' % base)
    return n


def per_decision(counter, n):
    return {frame: samples * 1e6 / n for frame, samples in counter.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('view', choices=['threads', 'top', 'diff'])
    parser.add_argument('files', nargs='+')
    parser.add_argument('--thread', default='pacer-gateway-io')
    parser.add_argument('-n', type=int, default=25, help='frames to show')
    args = parser.parse_args()
    if args.view == 'threads':
        for path in args.files:
            by_thread = collections.Counter()
            for frames, count in stacks(path):
                by_thread[frames[0]] += count
            print(path, sum(by_thread.values()), 'samples')
            for name, samples in by_thread.most_common(args.n):
                print('%8d %s' % (samples, name))
        return
    if args.view == 'top':
        for path in args.files:
            n = decisions(path)
            total, inclusive, own = load(path, args.thread)
            print('%s: %s, %.0f ns a decision (%d samples, %.0f decisions)' % (path, args.thread, total * 1e6 / n, total, n))
            for title, counter in (('inclusive', inclusive), ('self', own)):
                print('-- %s, ns a decision' % title)
                for frame, samples in counter.most_common(args.n):
                    print('%7.0f %s' % (samples * 1e6 / n, frame[:150]))
        return
    if len(args.files) != 2:
        sys.exit('diff takes two files')
    a, b = args.files
    (ta, ia, oa), (tb, ib, ob) = load(a, args.thread), load(b, args.thread)
    na, nb = decisions(a), decisions(b)
    print('%s: A %.0f, B %.0f ns a decision (A %s, B %s)' % (args.thread, ta * 1e6 / na, tb * 1e6 / nb, a, b))
    for title, ca, cb in (('inclusive', ia, ib), ('self', oa, ob)):
        pa, pb = per_decision(ca, na), per_decision(cb, nb)
        frames = sorted(set(pa) | set(pb), key=lambda k: -abs(pa.get(k, 0) - pb.get(k, 0)))
        print('-- %s, ns a decision: A-B, A, B' % title)
        for frame in frames[:args.n]:
            print('%7.0f %7.0f %7.0f %s' % (pa.get(frame, 0) - pb.get(frame, 0), pa.get(frame, 0), pb.get(frame, 0), frame[:120]))


if __name__ == '__main__':
    main()
