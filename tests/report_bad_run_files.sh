# A run directory whose JSON is hostile or broken: a value of the wrong type
# ("series": 5) was "internal error: [json.exception.type_error...]" without
# the file; 200,000 levels of nesting crashed a recursive copy (SIGSEGV).
# Both are a usage error naming the file, exit 2, and no report is left
# half-written.
source "$(dirname "$0")/lib.bash"
mkdir -p "$TMP/typed" "$TMP/deep"
printf '{"kind": "gate", "series": [{"series": 5}], "cells": []}\n' >"$TMP/typed/gate.json"
expect_exit 2 "$KSERIES" report --run "$TMP/typed" --html "$TMP/typed.html"
expect_grep "error: $TMP/typed/gate.json: .*type" "$TMP/err"
grep -q "internal error" "$TMP/err" && fail "a wrong JSON type is an internal error"
python3 -c 'print("{\"kind\": \"gate\", \"cells\": " + "[" * 200000 + "]" * 200000 + "}")' \
  >"$TMP/deep/gate.json"
expect_exit 2 "$KSERIES" report --run "$TMP/deep" --html "$TMP/deep.html"
expect_grep "$TMP/deep/gate.json: not a JSON object" "$TMP/err"
[ ! -e "$TMP/deep.html" ] || fail "a report was written for an unreadable run"
echo "PASS"
