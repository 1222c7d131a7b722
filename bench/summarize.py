#!/usr/bin/env python3
"""Aggregates one bench/run.sh result folder into a Markdown summary (medians of the runs)."""
import glob, json, os, re, statistics, sys

out = sys.argv[1]
def load(pattern):
    runs = []
    for f in sorted(glob.glob(os.path.join(out, pattern))):
        try:
            runs.append(json.load(open(f)))
        except (ValueError, OSError):
            pass
    return runs
def med(xs):
    return statistics.median(xs) if xs else float('nan')

print(f"# Results of bench/run.sh ({os.path.basename(out)})\n")
print("```\n" + open(os.path.join(out, "machine.txt")).read().strip() + "\n```\n")

jmh = os.path.join(out, "jmh.json")
if os.path.exists(jmh):
    print("## JMH\n\n| benchmark | params | score | error | unit |\n|---|---|---|---|---|")
    for b in json.load(open(jmh)):
        m = b["primaryMetric"]
        params = ", ".join(f"{k}={v}" for k, v in (b.get("params") or {}).items())
        print(f"| {b['benchmark'].split('.')[-2]}.{b['benchmark'].split('.')[-1]} | {params} | {m['score']:,.1f} | ±{m['scoreError']:,.1f} | {m['scoreUnit']} |")
    print()

pacer, trivial = load("closed-pacer-*.json"), load("closed-trivial-*.json")
redis = []
for f in sorted(glob.glob(os.path.join(out, "redis-*.txt"))):
    m = re.search(r"([\d.]+) requests per second", open(f).read())
    if m:
        redis.append(float(m.group(1)))
if pacer:
    p = med([r["throughputPerSecond"] for r in pacer])
    print("## Closed loop, 8 connections x 16 in flight (median of %d runs)\n" % len(pacer))
    print("| server | decisions/s (median) | runs | p50 us | p99 us | errors |\n|---|---|---|---|---|---|")
    print(f"| pacer | {p:,.0f} | {', '.join(format(r['throughputPerSecond'], ',') for r in pacer)} | {med([r['latencyMicros']['p50'] for r in pacer]):,.0f} | {med([r['latencyMicros']['p99'] for r in pacer]):,.0f} | {sum(len(r['errors']) for r in pacer)} |")
    if trivial:
        t = med([r["throughputPerSecond"] for r in trivial])
        print(f"| trivial server (ceiling) | {t:,.0f} | {', '.join(format(r['throughputPerSecond'], ',') for r in trivial)} | {med([r['latencyMicros']['p50'] for r in trivial]):,.0f} | {med([r['latencyMicros']['p99'] for r in trivial]):,.0f} | {sum(len(r['errors']) for r in trivial)} |")
        print(f"\npacer / ceiling = **{p / t:.0%}**")
    if redis:
        print(f"\nRedis + Lua budget script (redis-benchmark -c 8 -P 16, median of {len(redis)}): {med(redis):,.0f} decisions/s "
              f"(runs {', '.join(format(x, ',.0f') for x in redis)}); pacer / Redis = **{p / med(redis):.1f}x**")
    print()

raw, viaclient, failsafe = load("client-raw-*.json"), load("client-client-*.json"), load("failsafe-*.json")
if raw and viaclient:
    r, c = med([x["throughputPerSecond"] for x in raw]), med([x["throughputPerSecond"] for x in viaclient])
    print("## Client library vs the generator's own connections (closed loop 8 x 16, same pacer, medians of %d runs)\n" % len(raw))
    print("| engine | decisions/s (median) | runs | p50 us | p99 us |\n|---|---|---|---|---|")
    for name, runs in (("raw", raw), ("client", viaclient)):
        print(f"| {name} | {med([x['throughputPerSecond'] for x in runs]):,.0f} | {', '.join(format(x['throughputPerSecond'], ',') for x in runs)} | "
              f"{med([x['latencyMicros']['p50'] for x in runs]):,.0f} | {med([x['latencyMicros']['p99'] for x in runs]):,.0f} |")
    print(f"\nclient / raw = **{c / r:.2f}**\n")
if failsafe:
    print("## Fail-safe latency against a stalled node (2,000 bids/s, 5 ms deadline, medians of %d runs)\n" % len(failsafe))
    print("| p50 us | p99 us | p99.9 us | max us | bids not failed safe |\n|---|---|---|---|---|")
    print(f"| {med([x['latencyMicros']['p50'] for x in failsafe]):,.0f} | {med([x['latencyMicros']['p99'] for x in failsafe]):,.0f} | "
          f"{med([x['latencyMicros']['p99.9'] for x in failsafe]):,.0f} | {med([x['latencyMicros']['max'] for x in failsafe]):,.0f} | "
          f"{sum(x['notFailSafe'] for x in failsafe)} |\n")

waits = [w for w in ("phased", "blocking", "sleeping", "yielding") if os.path.exists(os.path.join(out, f"wait-{w}.json"))]
if waits:
    print("## Wait strategies (closed loop 8 x 16, one run each; idle CPU of the whole server process)\n")
    print("| wait strategy | decisions/s | p50 us | p99 us | idle CPU, % of one core |\n|---|---|---|---|---|")
    for w in waits:
        r = json.load(open(os.path.join(out, f"wait-{w}.json")))
        idle = open(os.path.join(out, f"idle-{w}.txt")).read().strip()
        print(f"| {w} | {r['throughputPerSecond']:,} | {r['latencyMicros']['p50']:,.0f} | {r['latencyMicros']['p99']:,.0f} | {idle} |")
    print()

def compare_setting(name, title):
    if not glob.glob(os.path.join(out, f"{name}-true-closed-*.json")):
        return
    print(f"## {title}\n")
    print(f"| {name} | closed loop decisions/s | closed p99 us | open 100k/s p99 us | open 100k/s p99.9 us |\n|---|---|---|---|---|")
    for enabled in ("true", "false"):
        closed, opened = load(f"{name}-{enabled}-closed-*.json"), load(f"{name}-{enabled}-open-*.json")
        print(f"| {'on' if enabled == 'true' else 'off'} | {med([r['throughputPerSecond'] for r in closed]):,.0f} | "
              f"{med([r['latencyMicros']['p99'] for r in closed]):,.0f} | {med([r['latencyMicros']['p99'] for r in opened]):,.0f} | "
              f"{med([r['latencyMicros']['p99.9'] for r in opened]):,.0f} |")
    print()

compare_setting("metrics", "Metrics on vs off (same run, alternating, medians)")
compare_setting("journal", "Journal on vs off (same run, alternating, medians; fsync periodic 100 ms)")

deadline = {d: load(f"deadline-{d}-*.json") for d in ("0s", "5ms")}
if deadline["0s"] and deadline["5ms"]:
    probe = json.load(open(os.path.join(out, "deadline-probe.json")))["throughputPerSecond"]
    print(f"## Queue deadline above capacity (open loop at 1.5x the closed-loop probe's {probe:,}/s, medians)\n")
    print("| queue-deadline | p50 us | p99 us | p99.9 us | OVERLOADED share |\n|---|---|---|---|---|")
    for d, runs in deadline.items():
        shed = med([r["decisions"]["OVERLOADED"] / max(1, r["measuredAnswers"]) for r in runs])
        print(f"| {d} | {med([r['latencyMicros']['p50'] for r in runs]):,.0f} | {med([r['latencyMicros']['p99'] for r in runs]):,.0f} | "
              f"{med([r['latencyMicros']['p99.9'] for r in runs]):,.0f} | {shed:.1%} |")
    print()

plain, tls, mtls = load("tls-plain-*.json"), load("tls-tls-*.json"), load("tls-mtls-*.json")
if plain and tls:
    provider = open(os.path.join(out, "tls-provider.txt")).read().strip() if os.path.exists(os.path.join(out, "tls-provider.txt")) else "?"
    print(f"## TLS on the gateway (closed loop 8 x 16, alternating, medians; {provider})\n")
    print("| gateway | decisions/s | p50 us | p99 us |\n|---|---|---|---|")
    for name, runs in (("plain", plain), ("TLS", tls), ("mutual TLS, with permissions", mtls)):
        if runs:
            print(f"| {name} | {med([r['throughputPerSecond'] for r in runs]):,.0f} | {med([r['latencyMicros']['p50'] for r in runs]):,.0f} | "
                  f"{med([r['latencyMicros']['p99'] for r in runs]):,.0f} |")
    print(f"\nTLS / plain = **{med([r['throughputPerSecond'] for r in tls]) / med([r['throughputPerSecond'] for r in plain]):.2f}**")
    if mtls:
        print(f"; mutual TLS / TLS = **{med([r['throughputPerSecond'] for r in mtls]) / med([r['throughputPerSecond'] for r in tls]):.2f}**")
    print()

if os.path.exists(os.path.join(out, "replay.json")):
    rep = json.load(open(os.path.join(out, "replay.json")))
    ms = int(open(os.path.join(out, "replay-ms.txt")).read())
    rec = int(open(os.path.join(out, "recovery-ms.txt")).read())
    print("## Replay and recovery\n")
    print(f"- journal: {rep['events']:,} events, {open(os.path.join(out, 'replay-size.txt')).read().strip()} on disk; mismatches {rep['mismatches']}")
    print(f"- `pacer replay` (JVM start included): {ms:,} ms = **{rep['events'] / (ms / 1000):,.0f} events/s**")
    print(f"- recovery: `pacer serve` start to /health UP on that journal: **{rec:,} ms**")
    print()

rates = sorted({int(re.search(r"open-(\d+)-", f).group(1)) for f in glob.glob(os.path.join(out, "open-*-*.json"))})
if rates:
    print("## Open loop, 8 connections, latency from intended send time (median of runs)\n")
    print("| target/s | achieved/s | p50 us | p99 us | p99.9 us | max us | errors |\n|---|---|---|---|---|---|---|")
    for rate in rates:
        rs = load(f"open-{rate}-*.json")
        lat = lambda k: med([r["latencyMicros"][k] for r in rs])
        errs = sorted({k for r in rs for k in r["errors"]})
        print(f"| {rate:,} | {med([r['throughputPerSecond'] for r in rs]):,.0f} | {lat('p50'):,.0f} | {lat('p99'):,.0f} | {lat('p99.9'):,.0f} | {lat('max'):,.0f} | {', '.join(errs) or 'none'} |")
    print()

gc = os.path.join(out, "gc-count.txt")
if os.path.exists(gc):
    before, after = (int(x) for x in open(gc).read().split())
    def jstat(name):
        lines = open(os.path.join(out, name)).read().split("\n")
        return dict(zip(lines[0].split(), (float(x) for x in lines[1].split())))
    b, a = jstat("jstat-before.txt"), jstat("jstat-after.txt")
    load_run = json.load(open(os.path.join(out, "gc-load.json")))
    young = int(a["YGC"] - b["YGC"])
    # allocated ~ eden used now - eden used before + one eden per young collection (KiB)
    allocated = (a["EU"] - b["EU"] + young * a["EC"]) * 1024
    print("## GC during the fixed-rate run (GC_RATE, default 500k/s)\n")
    print(f"- requests answered: {load_run['answers']:,} ({load_run['throughputPerSecond']:,}/s achieved)")
    print(f"- young collections: **{young}** (GC log: {after - before} 'Pause Young')")
    print(f"- allocated (jstat eden estimate): {allocated / 1e6:,.1f} MB = **{allocated / max(1, load_run['answers']):.1f} bytes per request**")
    print()

pacing = os.path.join(out, "pacing.txt")
if os.path.exists(pacing):
    print("## Pacing quality (bin/pacer demo)\n\n```\n" + open(pacing).read().strip() + "\n```")

# threading modes x wait strategies (bench/run.sh part "modes")
settings = sorted({re.sub(r"-(closed|open\d+)-\d+\.json$", "", os.path.basename(f))[len("modes-"):]
                   for f in glob.glob(os.path.join(out, "modes-*-closed-*.json"))})
if settings:
    print("## Threading mode x wait strategy (medians of %d runs; same run, alternating)\n" % len(load("modes-trivial-closed-*.json")))
    print("Closed loop 8 x 16 with a notice after every BID; open loop at 10k, 100k and 250k requests/s. Latency in us. "
          "Idle CPU: the server process over 3 s with no traffic, % of one core.\n")
    print("| setting | closed decisions/s | vs trivial | open 10k p50 / p99 / p99.9 | open 100k p50 / p99 / p99.9 | open 250k p50 / p99 / p99.9 | idle CPU % |")
    print("|---|---|---|---|---|---|---|")
    trivial_closed = med([r["throughputPerSecond"] for r in load("modes-trivial-closed-*.json")])
    for setting in ["trivial"] + [x for x in settings if x != "trivial"]:
        closed = med([r["throughputPerSecond"] for r in load(f"modes-{setting}-closed-*.json")])
        cells = []
        for rate in (10000, 100000, 250000):
            runs = load(f"modes-{setting}-open{rate}-*.json")
            cells.append(" / ".join(f"{med([r['latencyMicros'][p] for r in runs]):,.0f}" for p in ("p50", "p99", "p99.9")) if runs else "-")
        idle = [int(open(f).read()) for f in glob.glob(os.path.join(out, f"modes-{setting}-idle-*.txt"))]
        print(f"| {setting} | {closed:,.0f} | {closed / trivial_closed:.2f} | {' | '.join(cells)} | {med(idle) if idle else '-'} |")
    print()

# this build against BASE_JAR (part "before")
if glob.glob(os.path.join(out, "before-this-closed-*.json")):
    print("## This build against the base build (medians, same run, alternating)\n")
    print("| build | closed decisions/s | open 100k p50 / p99 / p99.9 us |\n|---|---|---|")
    res = {}
    for which in ("base", "this"):
        c = med([r["throughputPerSecond"] for r in load(f"before-{which}-closed-*.json")])
        o = load(f"before-{which}-open-*.json")
        res[which] = c
        print(f"| {which} | {c:,.0f} | {' / '.join(format(med([r['latencyMicros'][p] for r in o]), ',.0f') for p in ('p50', 'p99', 'p99.9'))} |")
    print(f"\nthis / base, closed loop = **{res['this'] / res['base']:.2f}**\n")
