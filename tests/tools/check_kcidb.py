#!/usr/bin/env python3
"""Checks a KCIDB file kseries wrote: valid against tests/schemas/
kcidb.schema.json (kseries' subset of the KCIDB v5 schema), ids unique, every
build's checkout and every test's build present in the file.
Usage: check_kcidb.py SCHEMA FILE; prints one line per problem, exits 1 if any."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
data = json.load(open(sys.argv[2]))
problems = []
validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
for error in sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path)):
    where = "/".join(str(p) for p in error.absolute_path)
    problems.append(f"schema: {where}: {error.message[:200]}")
for kind in ("checkouts", "builds", "tests"):
    ids = [item.get("id") for item in data.get(kind, [])]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        problems.append(f"{kind}: duplicate id {dup}")
checkouts = {c["id"] for c in data.get("checkouts", [])}
builds = {b["id"] for b in data.get("builds", [])}
for b in data.get("builds", []):
    if b.get("checkout_id") not in checkouts:
        problems.append(f"builds: {b['id']}: no checkout {b.get('checkout_id')}")
for t in data.get("tests", []):
    if t.get("build_id") not in builds:
        problems.append(f"tests: {t['id']}: no build {t.get('build_id')}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
