"""Lints the CI templates under ci/templates/ (called by ci_templates.sh).

Usage: ci_templates.py KSERIES TEMPLATE...
Each template must be well-formed YAML with the sharded-gate shape (a gate
job per shard running `kseries gate --shard`, a merge job after them that
keeps the JUnit report), and every kseries command line in it must name a
command `kseries --help` lists, with options that command's --help lists.
"""
import re
import subprocess
import sys

import yaml

KSERIES = sys.argv[1]
problems = []


def help_text(*args):
    return subprocess.run([KSERIES, *args, "--help"], capture_output=True, text=True,
                          check=True).stdout


COMMANDS = set(re.findall(r"^  ([a-z]+) ", help_text(), re.M))


def shell_lines(node):
    """Every string under the run:/script: keys, continuation lines joined."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("run", "script", "before_script", "after_script"):
                for text in value if isinstance(value, list) else [value]:
                    yield from str(text).replace("\\\n", " ").splitlines()
            else:
                yield from shell_lines(value)
    elif isinstance(node, list):
        for item in node:
            yield from shell_lines(item)


def check_calls(name, doc):
    calls = 0
    for line in shell_lines(doc):
        for match in re.finditer(r'(?:"\$KSERIES"|\$KSERIES|\bkseries)\s+([a-z-]+)(.*)', line):
            calls += 1
            command, rest = match.group(1), match.group(2).split("|")[0]
            if command not in COMMANDS:
                problems.append(f"{name}: 'kseries {command}' is not a kseries command")
                continue
            # Option names where --help declares them ("  --shard arg", "  -j [ --jobs ] arg"),
            # not where a description mentions another command's option.
            options = set(re.findall(r"^  (?:-\w \[ )?--([a-z][a-z-]*)", help_text(command), re.M))
            for option in re.findall(r"(?:^|\s)--([a-z][a-z-]*)", rest):
                if option not in options:
                    problems.append(f"{name}: 'kseries {command}' has no option --{option}")
    return calls


def commands_of(job):
    return "\n".join(shell_lines(job))


def check_github(name, doc):
    jobs = doc.get("jobs", {})
    gate, merge = jobs.get("gate", {}), jobs.get("merge", {})
    shards = gate.get("strategy", {}).get("matrix", {}).get("shard", "")
    if "needs.plan.outputs" not in str(shards) or "plan" not in str(gate.get("needs")):
        problems.append(f"{name}: the gate job's matrix is not generated from the plan job")
    if "kseries plan" not in commands_of(jobs.get("plan", {})).replace('"$KSERIES"', "kseries"):
        problems.append(f"{name}: the plan job does not run kseries plan")
    if "--shard" not in commands_of(gate):
        problems.append(f"{name}: the gate job does not run kseries gate --shard")
    if "gate" not in str(merge.get("needs")) or "--junit" not in commands_of(merge):
        problems.append(f"{name}: no merge job after the gate jobs writing JUnit")
    if "upload-artifact" not in str(merge.get("steps")):
        problems.append(f"{name}: the merge job uploads no report")


def check_gitlab(name, doc):
    gate, merge = doc.get("gate", {}), doc.get("merge", {})
    matrix = gate.get("parallel", {}).get("matrix", [])
    if not matrix or "--shard" not in commands_of(gate):
        problems.append(f"{name}: no parallel:matrix gate job running kseries gate --shard")
    else:
        shards = matrix[0].get("SHARD", [])
        total = str(doc.get("variables", {}).get("SHARDS"))
        want = [f"{i}/{total}" for i in range(1, int(total) + 1)]
        if shards != want:
            problems.append(f"{name}: SHARD {shards} is not {want} (SHARDS={total})")
    if "gate" not in merge.get("needs", []) or "--junit" not in commands_of(merge):
        problems.append(f"{name}: no merge job after the gate jobs writing JUnit")
    if "junit" not in merge.get("artifacts", {}).get("reports", {}):
        problems.append(f"{name}: the merge job does not keep the JUnit report")


for path in sys.argv[2:]:
    try:
        with open(path) as f:
            doc = yaml.safe_load(f)
    except yaml.YAMLError as e:
        problems.append(f"{path}: not well-formed YAML: {e}")
        continue
    if not isinstance(doc, dict):
        problems.append(f"{path}: not a YAML mapping")
        continue
    if check_calls(path, doc) == 0:
        problems.append(f"{path}: calls no kseries command")
    (check_github if "jobs" in doc else check_gitlab)(path, doc)

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
