"""The CI gate's comparison (Benchmarks/gate.sh): a quick package-benchmark run (JMH export)
against the committed baseline, Benchmarks/Baselines/ci.json.

Per benchmark, two numbers that do not depend on how fast or busy the machine is:
- time ratio: median wall time ÷ the median wall time of its suite's "Reference: …" benchmark,
  measured in the same process minutes apart (BenchmarkSupport.registerReference);
- mallocs: median count of malloc calls per iteration (package-benchmark's MallocInterposer).
A benchmark fails when its time ratio exceeds the baseline's × `timeRatio` tolerance, or its
mallocs exceed the baseline's × `mallocs` + `mallocSlack`. New benchmarks (no baseline) and
baseline entries this run lacks (e.g. the golden set without ../shared/data) are listed, not
failed.

    python3 gate.py Baselines/ci.json RUN.jmh.json [RUN2…]          check; exit 1 on a regression
    python3 gate.py --update Baselines/ci.json RUN.jmh.json         write the baseline from RUN

With several runs, a check takes each benchmark's best (lowest) numbers — gate.sh reruns the
suites that failed once, so a regression must show twice and one disturbed measurement on a
shared machine does not fail CI — and an update takes the highest (gate.sh --update runs the
pass twice), so the baseline is a typical run, not a lucky one. Prints the failing suites'
names last (`failing: A B`).
"""
import json
import sys

DEFAULT_TOLERANCE = {"timeRatio": 2.0, "mallocs": 1.10, "mallocSlack": 16}


def load_run(path):
    """{suite/name: (wall µs p50, mallocs p50)} and {suite: reference wall µs p50}."""
    results, references = {}, {}
    for element in json.load(open(path)):
        suite, name = element["benchmark"].split(".", 3)[2:]  # package.benchmark.SUITE.NAME
        metrics = element["secondaryMetrics"]
        wall = metrics["Time (wall clock)"]["scorePercentiles"]["50.0"]
        mallocs = metrics.get("Malloc (total)", {}).get("scorePercentiles", {}).get("50.0")
        key = f"{suite}/{name}"
        results[key] = (wall, mallocs)
        if name.startswith("Reference:"):
            references[suite] = wall
    return results, references


def main():
    update = "--update" in sys.argv
    baseline_path, *run_paths = [a for a in sys.argv[1:] if a != "--update"]
    measured = {}
    for run_path in run_paths:
        results, references = load_run(run_path)
        for key, (wall, mallocs) in results.items():
            suite = key.split("/", 1)[0]
            if suite not in references:
                sys.exit(f"gate: suite {suite} has no Reference benchmark")
            ratio = round(wall / references[suite], 5)
            if key in measured:
                pick = max if update else min
                ratio = pick(ratio, measured[key]["timeRatio"])
                if mallocs is not None and measured[key]["mallocs"] is not None:
                    mallocs = pick(mallocs, measured[key]["mallocs"])
            measured[key] = {"timeRatio": ratio, "mallocs": mallocs}
    try:
        baseline = json.load(open(baseline_path))
    except FileNotFoundError:
        baseline = {"tolerance": DEFAULT_TOLERANCE, "benchmarks": {}}
    if update:
        baseline["benchmarks"] = dict(sorted(measured.items()))
        baseline.setdefault("tolerance", DEFAULT_TOLERANCE)
        with open(baseline_path, "w") as f:
            json.dump(baseline, f, indent=2, ensure_ascii=False)
            f.write("\n")
        print(f"gate: wrote {len(measured)} baselines to {baseline_path}")
        return
    tolerance = baseline["tolerance"]
    failures = 0
    failing = set()
    print(f"{'benchmark':90s} {'time ratio':>22s} {'mallocs':>22s}  verdict")
    for key in sorted(set(measured) | set(baseline["benchmarks"])):
        now, base = measured.get(key), baseline["benchmarks"].get(key)
        if base is None:
            print(f"{key[:90]:90s} {now['timeRatio']:>22.4g} {now['mallocs']!s:>22s}  new (no baseline)")
            continue
        if now is None:
            print(f"{key[:90]:90s} {'–':>22s} {'–':>22s}  not run")
            continue
        verdicts = []
        if now["timeRatio"] > base["timeRatio"] * tolerance["timeRatio"]:
            verdicts.append(f"SLOWER ×{now['timeRatio'] / base['timeRatio']:.2f}")
        if base["mallocs"] is not None and now["mallocs"] is not None and \
                now["mallocs"] > base["mallocs"] * tolerance["mallocs"] + tolerance["mallocSlack"]:
            verdicts.append(f"MORE MALLOCS ×{now['mallocs'] / max(base['mallocs'], 1):.2f}")
        failures += bool(verdicts)
        if verdicts:
            failing.add(key.split("/", 1)[0])
        time_text = f"{now['timeRatio']:.4g} / {base['timeRatio']:.4g}"
        malloc_text = f"{now['mallocs']} / {base['mallocs']}"
        print(f"{key[:90]:90s} {time_text:>22s} {malloc_text:>22s}  {', '.join(verdicts) or 'ok'}")
    print(f"gate: {len(measured)} benchmarks, {failures} regression(s); tolerance: time ratio ×{tolerance['timeRatio']}, "
          f"mallocs ×{tolerance['mallocs']} + {tolerance['mallocSlack']} (now / baseline)")
    if failing:
        print("failing: " + " ".join(sorted(failing)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
