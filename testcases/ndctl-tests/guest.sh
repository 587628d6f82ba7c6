#!/bin/busybox sh
# ndctl-tests: the ndctl project's unit tests (meson's `test()` list of
# ndctl's test/meson.build) run on nfit_test, the emulated NVDIMM buses of
# tools/testing/nvdimm built against this kernel (the test payload
# testcases/nvdimm). Each setup is one test, by its meson name (libndctl,
# dsm-fail, create.sh, ...), run as `meson test` runs it (NDCTL, DAXCTL,
# TEST_PATH, DATA_PATH, CXL; exit 77 is a skip) under a timeout of its own;
# the setup nfit_test is kseries' own check that the module loads. Each
# setup's result is a KTAP document, sent as the blob ktap-SETUP; the
# host's oracle (ktap) parses it with the tree's kunit_parser.py and judges
# every test against the base kernel's run. The result line here says only
# that the test ran.
#
# Arguments: setups=A:B:... (test names), timeout=S (seconds per test,
# default 600: meson's own for these tests).

. /testcases/lib/kseries.sh

NVDIMM_TAR=/testcases/nvdimm/nvdimm.tar
kseries_setups_and_timeout 600 "$@"

# The payload carries the host depmod's indexes (libkmod reads the .bin
# files), so no depmod here.
if [ ! -f "$NVDIMM_TAR" ]; then
  for t in $setups; do kseries_result fail "$t" "no test payload $NVDIMM_TAR in the initramfs"; done
  exit 0
fi
if ! tar -xf "$NVDIMM_TAR" -C / 2>/tmp/unpack.err || [ ! -f "/lib/modules/$(uname -r)/extra/nfit_test.ko" ]; then
  why="unpacking $NVDIMM_TAR: no /lib/modules/$(uname -r)/extra/nfit_test.ko $(head -c 200 /tmp/unpack.err | tr '\n=' ' :')"
  for t in $setups; do kseries_result fail "$t" "$why"; done
  exit 0
fi
ln -sf /ndctl/bin/bash /bin/bash
export PATH=/ndctl/bin:$PATH
export NDCTL=/ndctl/ndctl/ndctl DAXCTL=/ndctl/daxctl/daxctl CXL=/ndctl/cxl/cxl TEST_PATH=/ndctl/test DATA_PATH=/ndctl/test
cd /ndctl/test || exit 1

# meson's name of a test -> what runs (test/meson.build's find_program and
# executable names).
program_of() {
  case "$1" in
    max_extent_ns) echo ./max_available_extent_ns.sh ;;
    revoke-devmem) echo ./revoke_devmem ;;
    *.sh) echo ./"$1" ;;
    *) echo ./"$1" ;;
  esac
}

# What every process is blocked in (the kernel has no sysrq or hung-task
# detector here): state, wchan and the syscall it sits in
# (/proc/PID/syscall: number and arguments), on the console.
blocked_report() {
  for p in /proc/[0-9]*; do
    state=$(sed -n 's/^State:[[:space:]]*//p' "$p/status" 2>/dev/null)
    case "$state" in S*|D*) ;; *) continue ;; esac
    echo "kseries ndctl-tests: pid ${p#/proc/} $(cat "$p/comm" 2>/dev/null) $state wchan=$(cat "$p/wchan" 2>/dev/null) syscall=$(cat "$p/syscall" 2>/dev/null)"
  done
}

# run_bounded SECONDS COMMAND...: COMMAND under a timeout; when it is
# still running at the end, what blocks it goes to the console first.
run_bounded() {
  limit=$1
  shift
  "$@" &
  pid=$!
  waited=0
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge "$limit" ]; then
      echo "kseries ndctl-tests: '$*' still running after $limit s" >/dev/console
      blocked_report >/dev/console
      kill -9 "$pid"
      wait "$pid"
      return 124
    fi
    sleep 2
    waited=$((waited + 2))
  done
  wait "$pid"
}

# The setup nfit_test (a default one), nfit_test itself (a check of kseries', not ndctl's): the
# module loads and registers its two buses, nfit_test.0 and nfit_test.1.
# ndctl's tests report a missing nfit_test as a skip (exit 77), which the
# oracle does not fail ("skipped on the candidate, ran on the base"): a
# kernel whose nfit_test broke must fail here. Each step is bounded and
# says on the console that it started.
nfit_test_loads() {
  echo "kseries ndctl-tests: modprobe nfit_test" >/dev/console
  run_bounded 300 modprobe nfit_test || { echo "modprobe nfit_test failed"; return 1; }
  for bus in nfit_test.0 nfit_test.1; do
    echo "kseries ndctl-tests: ndctl list -b $bus -D" >/dev/console
    run_bounded 300 $NDCTL list -b "$bus" -D >/tmp/list.out 2>&1
    cat /tmp/list.out
    grep -q 'nmem[0-9]' /tmp/list.out || { echo "no DIMMs on bus $bus:"; $NDCTL list -B; return 1; }
  done
  echo "kseries ndctl-tests: ndctl list -B -D -R" >/dev/console
  run_bounded 300 $NDCTL list -B -D -R
  echo "kseries ndctl-tests: unload nfit_test" >/dev/console
  nfit_unload || { echo "nfit_test does not unload"; cat /sys/module/nfit_test/refcnt; return 1; }
}

# ndctl's test/common _cleanup: every enabled region pins its bus's
# provider (drivers/nvdimm/bus.c, to_bus_provider()), so both buses'
# regions are disabled before the module goes; the tests expect to find it
# unloaded (test/core.c disables only nfit_test.0's before unloading).
nfit_unload() {
  run_bounded 300 $NDCTL disable-region -b nfit_test.0 all
  run_bounded 300 $NDCTL disable-region -b nfit_test.1 all
  run_bounded 300 modprobe -r nfit_test
}

# One KTAP document per setup, sent as the blob ktap-SETUP (the oracle
# judges each setup on its own document): the setup `nfit_test` is the check
# above, every other setup one of ndctl's tests.
passed=0
failed=0
skipped=0
for t in $setups; do
  ktap=/tmp/ktap-$t
  { echo "KTAP version 1"; echo "1..1"; } >$ktap
  kseries_step ndctl "$t"
  start=$(date +%s)
  if [ "$t" = nfit_test ]; then
    nfit_test_loads >/tmp/"$t".log 2>&1
    rc=$?
  else
    program=$(program_of "$t")
    if [ -f "$program" ]; then
      case "$program" in
        # bash with the script's own flags (#!/bin/bash -x: a trace in its log)
        *.sh) timeout -s KILL "$timeout" bash $(head -n 1 "$program" | sed -n 's|^#!/bin/bash||p') \
                "$program" >/tmp/"$t".log 2>&1 ;;
        *) timeout -s KILL "$timeout" "$program" >/tmp/"$t".log 2>&1 ;;
      esac
      rc=$?
    else
      echo "no such test program: $program (not built, or not in ndctl's test list)" >/tmp/"$t".log
      rc=127
    fi
    # A test that fails half way leaves nfit_test's regions as they were;
    # the next one starts from a fresh module, as its own setup expects.
    nfit_unload >/dev/null 2>&1
  fi
  seconds=$(($(date +%s) - start))
  # The test's own output, as KTAP diagnostics (its last 60 lines).
  tail -n 60 /tmp/"$t".log | sed 's/^/# /' >>$ktap
  echo "# $t: exit $rc in $seconds s" >>$ktap
  last=$(grep -v '^\s*$' /tmp/"$t".log | tail -n 1 | tr -d '#' | head -c 160)
  case "$rc" in
    0) echo "ok 1 $t" >>$ktap; passed=$((passed + 1)) ;;
    77) echo "ok 1 $t # SKIP $last" >>$ktap; skipped=$((skipped + 1)) ;;
    137) echo "not ok 1 $t # killed after the timeout of $timeout s" >>$ktap; failed=$((failed + 1)) ;;
    *) echo "not ok 1 $t # exit $rc" >>$ktap; failed=$((failed + 1)) ;;
  esac
  # That it ran and how it ended; whether that is a failure is the
  # oracle's, against the base's run.
  if kseries_put "ktap-$t" $ktap; then
    kseries_result pass "$t" "ran: exit $rc in $seconds s"
  else
    kseries_result fail "$t" "could not send its KTAP to the host"
  fi
done
echo "kseries ndctl-tests: $passed exit 0, $skipped exit 77 (skip), $failed failed" >/dev/console
exit 0
