#!/usr/bin/python3
"""Reads a kseries JUnit file the way CI consumers do (python3-junitparser)
and prints its totals counted from the testcases:
    tests=N failures=F errors=E skipped=S
then, for the first testcase that did not pass, one line
    first: <failure|error|skipped> <classname> <name>: <message>
It exits 1 when a count attribute (of a <testsuite> or of <testsuites>)
disagrees with the testcases, or when a failure's or error's text does not
start with its message (GitLab shows only the text)."""
import sys

from junitparser import Error, Failure, JUnitXml, Skipped


def main(path):
    xml = JUnitXml.fromfile(path)
    problems = []
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    first = None
    for suite in xml:
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for case in suite:
            counts["tests"] += 1
            results = case.result if isinstance(case.result, list) else [case.result]
            for result in results:
                if result is None:
                    continue
                kind = {Failure: "failures", Error: "errors", Skipped: "skipped"}[type(result)]
                counts[kind] += 1
                if first is None:
                    first = "first: %s %s %s: %s" % (result._tag, case.classname, case.name,
                                                     result.message)
                if kind != "skipped" and not (result.text or "").startswith(result.message or ""):
                    problems.append("%s %s: the text does not open with the message" %
                                    (case.classname, case.name))
        for key, count in counts.items():
            written = getattr(suite, key)
            if written != count:
                problems.append("testsuite %r says %s=%s, its testcases %d" %
                                (suite.name, key, written, count))
            totals[key] += count
    for key in ("tests", "failures", "errors"):
        written = xml._elem.get(key)
        if written is None or int(written) != totals[key]:
            problems.append("testsuites says %s=%s, its testcases %d" % (key, written, totals[key]))
    print("tests=%(tests)d failures=%(failures)d errors=%(errors)d skipped=%(skipped)d" % totals)
    if first:
        print(first)
    for problem in problems:
        print("problem: " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
