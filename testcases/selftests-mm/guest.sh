#!/bin/busybox sh
# selftests-mm: the kernel's own mm selftests, as the tree under test has
# them: tools/testing/selftests/mm/run_vmtests.sh -t CATEGORY for each setup
# (a run_vmtests.sh category: hmm, gup_test, madv_populate, mmap, ...), its
# output made KTAP (testcases/lib/kselftest-nest.awk) and sent as the blob
# ktap-CATEGORY. The host's oracle (ktap) parses it with the tree's own
# kunit_parser.py and judges every test against the base kernel's run: a
# result line here says only that the category ran.
#
# Arguments: setups=A:B:... (categories), timeout=S (seconds per category,
# default 900: run_vmtests.sh is killed after that, or as soon as the kernel
# says it left a task blocked after a recursive oops, or 30 s after any
# oops during the category; the program it was running is then "not ok ...
# # killed", and the results before it are sent).

. /testcases/lib/kseries.sh
. /testcases/lib/kselftest.sh

kseries_setups_and_timeout 900 "$@"

if ! kselftest_unpack; then
  for s in $setups; do kseries_result fail "$s" "$kselftest_error"; done
  exit 0
fi
cd /kselftest/mm || exit 1

# The kernel's line for a task it left blocked after an oops in its own
# exit: a test stuck there never ends, nor does run_vmtests.sh waiting for it.
recursive='Fixing recursive fault but reboot is needed'
# An oops during a category: the test that hit it is killed or blocked, and
# one blocked in the kernel never ends (seen: known-bad
# private-template-cache under the wall clock, an oops in dmirror_do_read
# and the category silent after it). The category gets this long after the
# oops to end by itself, then run_vmtests.sh is killed.
oops_grace=30
oops='Oops: |BUG: unable to handle|BUG: kernel NULL pointer'
for cat in $setups; do
  start=$(date +%s)
  faults=$(dmesg | grep -c "$recursive")
  oopses=$(dmesg | grep -c -E "$oops")
  oops_at=
  bash ./run_vmtests.sh -t "$cat" >/tmp/"$cat".raw 2>&1 &
  runner=$!
  why=""
  while kill -0 "$runner" 2>/dev/null; do
    if [ $(($(date +%s) - start)) -ge "$timeout" ]; then
      why="run_vmtests.sh killed after the case's timeout of $timeout s"
    elif [ "$(dmesg | grep -c "$recursive")" != "$faults" ]; then
      why="run_vmtests.sh killed: the kernel left a test blocked after an oops in its exit ($recursive!)"
    elif [ -z "$oops_at" ] && [ "$(dmesg | grep -c -E "$oops")" != "$oopses" ]; then
      oops_at=$(date +%s)
    elif [ -n "$oops_at" ] && [ $(($(date +%s) - oops_at)) -ge "$oops_grace" ]; then
      why="run_vmtests.sh killed $oops_grace s after a kernel oops during the category"
    fi
    if [ -n "$why" ]; then
      kill -KILL "$runner" 2>/dev/null
      break
    fi
    sleep 3
  done
  wait "$runner"
  rc=$?
  seconds=$(($(date +%s) - start))
  awk -v why="$why" -f /testcases/lib/kselftest-nest.awk /tmp/"$cat".raw >/tmp/"$cat".ktap
  programs=$(grep -c -E '^(ok|not ok) [0-9]+ ' /tmp/"$cat".ktap)
  if [ "$programs" = 0 ]; then
    kseries_result fail "$cat" "run_vmtests.sh -t $cat ran no program (exit $rc): $(tail -n 3 /tmp/"$cat".raw | tr '\n=' ' :' | head -c 300)"
    continue
  fi
  if kselftest_send "$cat" /tmp/"$cat".ktap; then
    kseries_result pass "$cat" "run_vmtests.sh -t $cat: $programs program run(s) in $seconds s, exit $rc${why:+; $why}"
  else
    kseries_result fail "$cat" "could not send its KTAP to the host"
  fi
done
exit 0
