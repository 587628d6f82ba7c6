# JUnit checks shared by the black-box scenarios (sourced after lib.bash):
# each file kseries writes is checked as CI consumers check it.
#   xmllint --schema tests/schemas/junit.xsd (and $KSERIES_JUNIT_XSD when
#   it names a file, e.g. an official junit-10.xsd), then python3-junitparser
#   (Debian's python, /usr/bin/python3) for the totals.
command -v xmllint >/dev/null || { echo "skipped: xmllint (libxml2-utils) is not installed"; exit 77; }
/usr/bin/python3 -c 'import junitparser' 2>/dev/null \
  || { echo "skipped: python3-junitparser is not installed"; exit 77; }

# The strict flavour unless a test asks for GitLab's: a GitLab job (GITLAB_CI
# set) running these tests would otherwise get `file` attributes.
export KSERIES_JUNIT_FLAVOUR=junit-10

# check_junit FILE "tests=N failures=F errors=E skipped=S": valid against the
# schema(s), consistent counts, and these totals; the first non-passing
# testcase's line ends up in $TMP/junit.first.
check_junit() {
  local file=$1 want=$2 xsd
  for xsd in "$SRC/tests/schemas/junit.xsd" ${KSERIES_JUNIT_XSD:+"$KSERIES_JUNIT_XSD"}; do
    xmllint --noout --schema "$xsd" "$file" 2>"$TMP/xmllint.err" \
      || { cat "$TMP/xmllint.err"; fail "$file does not validate against $xsd"; }
  done
  /usr/bin/python3 "$SRC/tests/junit_totals.py" "$file" >"$TMP/junit.totals" 2>"$TMP/junit.problems" \
    || { cat "$TMP/junit.problems"; fail "$file: junitparser finds inconsistent counts"; }
  local got
  got=$(head -1 "$TMP/junit.totals")
  sed -n 's/^first: //p' "$TMP/junit.totals" >"$TMP/junit.first"
  [ "$got" = "$want" ] || fail "$file: junitparser reads '$got', kseries reported '$want'"
}

# The totals kseries reported on stdout ($TMP/out), per command.
apply_totals() {
  local f s
  f=$(grep -c '^FAILED ' "$TMP/out" || true); s=$(grep -c '^skipped ' "$TMP/out" || true)
  echo "tests=$(grep -cE '^(applied|FAILED|skipped) ' "$TMP/out" || true) failures=$f errors=0 skipped=$s"
}
build_totals() {
  local t f
  t=$(grep -cE '^(built|cached|FAILED|NOT-CONSTRUCTIBLE|configured) \S+ @ ' "$TMP/out" || true)
  f=$(grep -cE '^(FAILED|NOT-CONSTRUCTIBLE) \S+ @ ' "$TMP/out" || true)
  echo "tests=$t failures=$f errors=0 skipped=0"
}
# Cells: "  <status>  <cell>: ..."; an expected failure that held is a pass;
# an interrupt outside a cell adds one error testcase ("interrupted").
gate_totals() {
  local t f e s held
  t=$(grep -cE '^  (pass|fail|skip|error)  ' "$TMP/out" || true)
  f=$(grep -cE '^  fail  ' "$TMP/out" || true)
  e=$(grep -cE '^  error  ' "$TMP/out" || true)
  s=$(grep -cE '^  skip  ' "$TMP/out" || true)
  held=$(grep -c 'expected failure holds: ' "$TMP/out" || true)
  if grep -q '^gate: INTERRUPTED' "$TMP/out" && ! grep -qE '^  error  [^:]*: interrupted' "$TMP/out"; then
    t=$((t + 1)) e=$((e + 1))
  fi
  echo "tests=$t failures=$((f - held)) errors=$e skipped=$s"
}
# A boot's testcases from its stdout and results.json: boots, guest results,
# oracle verdicts, comparisons, timings (one kernel), skipped setups.
boot_totals() {  # boot_totals RESULTS_JSON
  /usr/bin/python3 - "$1" "$TMP/out" <<'PY'
import json, re, sys
js = json.load(open(sys.argv[1]))
out = open(sys.argv[2], encoding="utf-8", errors="replace").read().splitlines()
boots, oracle, comparison = js.get("boots", []), js.get("oracle", []), js.get("comparison", [])
kernels = js.get("kernels", {})
timing = sum(len(m) for k in kernels.values() for m in (k.get("setups") or {}).values()) \
    if len(kernels) == 1 else 0
result_lines = [l for l in out if re.match(r"^(?!FAILED )\S+ \S+ #\d+ \S+: ", l)
                or (l.startswith("FAILED ") and not re.match(r"^FAILED (boot|oracle) ", l))]
skipped_setups = [l for l in out if l.startswith("skipped setup ")]
failures = sum(1 for l in out if l.startswith("FAILED ")) + \
    sum(1 for c in comparison if c["verdict"] == "slower")
skipped = len(skipped_setups) + sum(1 for l in out if re.match(r"^skip \S+ #\d+ ", l)) + \
    sum(1 for o in oracle if o["status"] == "skip")
tests = len(boots) + len(oracle) + len(comparison) + len(result_lines) + len(skipped_setups) + timing
print("tests=%d failures=%d errors=0 skipped=%d" % (tests, failures, skipped))
PY
}
# An early end: one testcase, in error (or failed: a check that failed
# before any report), whose message is what stderr said after "error: ".
expect_early_end() {  # expect_early_end FILE "usage error"|... [failure|error]
  local file=$1 end=$2 kind=${3:-error} message
  if [ "$kind" = failure ]; then
    check_junit "$file" "tests=1 failures=1 errors=0 skipped=0"
  else
    check_junit "$file" "tests=1 failures=0 errors=1 skipped=0"
  fi
  message=$(sed -n 's/^kseries [a-z]*: error: //p' "$TMP/err" | head -1)
  [ -n "$message" ] || message=$(sed -n 's/^kseries [a-z]*: internal error: //p' "$TMP/err" | head -1)
  grep -qF -- "$kind kseries." "$TMP/junit.first" && grep -qF -- " $end: " "$TMP/junit.first" \
    && grep -qF -- "$message" "$TMP/junit.first" \
    || { cat "$TMP/junit.first"; fail "$file: not one '$end' $kind testcase naming '$message'"; }
}

# check_junit_gitlab FILE "tests=N ...": a file in kseries' gitlab flavour
# (GitLab's `file` attribute on <testcase>, which junit-10.xsd lacks) is,
# without those attributes, what check_junit accepts; "name<TAB>file" of
# every testcase (file empty when it has none) ends up in $TMP/junit.files.
check_junit_gitlab() {
  local file=$1 want=$2
  /usr/bin/python3 - "$file" "$TMP/junit.stripped.xml" "$TMP/junit.files" <<'PY'
import sys
import xml.etree.ElementTree as ET
tree = ET.parse(sys.argv[1])
with open(sys.argv[3], "w", encoding="utf-8") as out:
    for case in tree.iter("testcase"):
        out.write("%s\t%s\n" % (case.get("name"), case.get("file", "")))
        case.attrib.pop("file", None)
tree.write(sys.argv[2], encoding="UTF-8", xml_declaration=True)
PY
  check_junit "$TMP/junit.stripped.xml" "$want"
}
