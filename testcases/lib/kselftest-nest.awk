# kselftest's nesting as KTAP v1's, so the kernel's own KTAP parser
# (tools/testing/kunit/kunit_parser.py, run on the host) sees every level.
#
# run_vmtests.sh (and kselftest's runner.sh) print one result line per
# program and the program's own output before it, behind "# ": a program's
# KTAP (hmm-tests' 52 results) is a comment there, and the plan comes last,
# after the results, which kunit_parser cannot take (it loops on a trailing
# plan: docs/selftests.md). This filter, for one run_vmtests.sh output:
#   - "TAP version 13" becomes "KTAP version 1"; the trailing plan is dropped
#     (kunit_parser then ends the document at its end);
#   - each program's block (the lines from "# running CMD" to its result
#     line) loses one "# "; when it holds a KTAP version line, a
#     "# Subtest: NAME" (NAME as the result line names it) follows that line,
#     so the program's results nest under it; trailing plans inside are
#     dropped too;
#   - a result with no description ("ok 3 # SKIP mbind() failed", as
#     kselftest.h prints ksft_test_result_skip() of mkdirty), which
#     kunit_parser's result pattern does not match (it wants a space
#     before the "#" after the number's), gets a second space: the same
#     result with the same empty name;
#   - a block still open at the end (run_vmtests.sh killed by the case's
#     timeout) ends with "not ok N NAME # killed: TIMEOUT_WHY".
# Nothing is judged here: results pass through as the programs wrote them.
# Variable: why (the runner's reason for a kill, e.g. "timeout after 900 s").

function result_name(line,    s) {
  s = line
  sub(/^[ \t]*(not ok|ok)[ \t]+[0-9]+[ \t]+(- )?/, "", s)
  sub(/[ \t]+#.*$/, "", s)
  sub(/[ \t]+$/, "", s)
  return s
}

# LINE with a second space between a result's number and a "#" that
# follows it at once (no description): see above.
function unnamed(line) {
  if (line ~ /^[ \t]*(ok|not ok)[ \t]+[0-9]+ #/) {
    sub(/ #/, "  #", line)
  }
  return line
}

function is_result(line) { return line ~ /^[ \t]*(ok|not ok)[ \t]+[0-9]+([ \t]|$)/ }
function is_plan(line) { return line ~ /^[ \t]*1\.\.[0-9]+/ }
function is_version(line) { return line ~ /^[ \t]*K?TAP version [0-9]+$/ }

# The buffered block, then LINE (its result line).
function flush(line,    name, i, seen_version, seen_result, l) {
  name = result_name(line)
  seen_version = 0
  seen_result = 0
  for (i = 1; i <= n; i++) {
    l = block[i]
    if (has_version && is_version(l) && !seen_version) {
      print l
      print "# Subtest: " name
      seen_version = 1
      continue
    }
    if (!has_version || !seen_version) {
      print "# " l
      continue
    }
    if (is_result(l)) {
      l = unnamed(l)
      seen_result = 1
    } else if (is_plan(l) && seen_result) {
      continue
    }
    print l
  }
  print line
  n = 0
  has_version = 0
  open_block = 0
}

BEGIN { n = 0; open_block = 0; has_version = 0; count = 0 }

NR == 1 && /^TAP version [0-9]+$/ { print "KTAP version 1"; next }

# A program's block starts at "# running CMD" (after a "# ---" rule, kept).
/^# running / {
  open_block = 1
  running = substr($0, 11)
  sub(/^(bash )?\.\//, "", running)
  block[++n] = substr($0, 3)
  next
}

is_result($0) {
  count++
  if (open_block) {
    flush($0)
  } else {
    print
  }
  next
}

is_plan($0) { next }

open_block {
  l = $0
  if (l ~ /^# /) {
    l = substr(l, 3)
  } else if (l == "#") {
    l = ""
  }
  block[++n] = l
  if (is_version(l)) {
    has_version = 1
  }
  next
}

{ print }

END {
  if (open_block) {
    flush("not ok " (count + 1) " " running " # killed: " why)
  }
}
