#!/bin/busybox sh
# ndctl-tests: the ndctl project's unit tests (meson's `test()` list of
# ndctl's test/meson.build) run on nfit_test, the emulated NVDIMM buses of
# tools/testing/nvdimm built against this kernel (the test payload
# testcases/nvdimm). Each setup is one test, by its meson name (libndctl,
# dsm-fail, create.sh, ...), run as `meson test` runs it (NDCTL, DAXCTL,
# TEST_PATH, DATA_PATH; exit 77 is a skip) under a timeout of its own. The
# results are one KTAP document, sent as the blob ktap-ndctl; the host's
# oracle (ktap) parses it with the tree's kunit_parser.py and judges every
# test against the base kernel's run. The result line here says only that
# the tests ran.
#
# Arguments: setups=A:B:... (test names), timeout=S (seconds per test,
# default 600: meson's own for these tests).

. /testcases/lib/kseries.sh

NVDIMM_TAR=/testcases/nvdimm/nvdimm.tar
setups=""
timeout=600
in_setups=0
for arg in "$@"; do
  case "$arg" in
    setups=*) setups="$setups $(echo "${arg#setups=}" | tr '+:' '  ')"; in_setups=1 ;;
    timeout=*) timeout=${arg#timeout=}; in_setups=0 ;;
    *=*) kseries_result fail arguments "unknown argument $(echo "$arg" | tr '=' ':') (setups, timeout)"; exit 2 ;;
    '') ;;
    *) [ "$in_setups" = 1 ] && setups="$setups $arg" ;;
  esac
done
case "$timeout" in '' | *[!0-9]*) kseries_result fail arguments "timeout must be seconds"; exit 2 ;; esac

# The payload carries the host depmod's indexes (libkmod reads the .bin
# files), so no depmod here.
if [ ! -f "$NVDIMM_TAR" ]; then
  kseries_result fail ndctl "no test payload $NVDIMM_TAR in the initramfs"
  exit 0
fi
if ! tar -xf "$NVDIMM_TAR" -C / 2>/tmp/unpack.err || [ ! -f "/lib/modules/$(uname -r)/extra/nfit_test.ko" ]; then
  kseries_result fail ndctl "unpacking $NVDIMM_TAR: no /lib/modules/$(uname -r)/extra/nfit_test.ko $(head -c 200 /tmp/unpack.err)"
  exit 0
fi
ln -sf /ndctl/bin/bash /bin/bash
export PATH=/ndctl/bin:$PATH
export NDCTL=/ndctl/ndctl/ndctl DAXCTL=/ndctl/daxctl/daxctl TEST_PATH=/ndctl/test DATA_PATH=/ndctl/test
cd /ndctl/test || exit 1

# meson's name of a test -> what runs (test/meson.build's find_program and
# executable names).
program_of() {
  case "$1" in
    max_extent_ns) echo ./max_available_extent_ns.sh ;;
    *.sh) echo ./"$1" ;;
    *) echo ./"$1" ;;
  esac
}

# Result 1, nfit_test itself (a check of kseries', not ndctl's): the
# module loads and registers its two buses, nfit_test.0 and nfit_test.1.
# ndctl's tests report a missing nfit_test as a skip (exit 77), which the
# oracle does not fail ("skipped on the candidate, ran on the base"): a
# kernel whose nfit_test broke must fail here.
nfit_test_loads() {
  modprobe nfit_test || { echo "modprobe nfit_test failed"; return 1; }
  for bus in nfit_test.0 nfit_test.1; do
    $NDCTL list -b "$bus" -D | grep -q 'nmem[0-9]' || { echo "no DIMMs on bus $bus:"; $NDCTL list -B; return 1; }
  done
  $NDCTL list -B -D -R
  modprobe -r nfit_test || { echo "modprobe -r nfit_test failed"; return 1; }
}

n=1
for t in $setups; do n=$((n + 1)); done
ktap=/tmp/ndctl.ktap
{ echo "KTAP version 1"; echo "1..$n"; } >$ktap
nfit_test_loads >/tmp/nfit_test.log 2>&1
rc=$?
tail -n 60 /tmp/nfit_test.log | sed 's/^/# /' >>$ktap
if [ "$rc" = 0 ]; then echo "ok 1 nfit_test" >>$ktap; else echo "not ok 1 nfit_test" >>$ktap; fi
i=1
passed=0
failed=0
skipped=0
for t in $setups; do
  i=$((i + 1))
  program=$(program_of "$t")
  kseries_step ndctl "$t"
  start=$(date +%s)
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
  seconds=$(($(date +%s) - start))
  # The test's own output, as KTAP diagnostics (its last 60 lines).
  tail -n 60 /tmp/"$t".log | sed 's/^/# /' >>$ktap
  echo "# $t: exit $rc in $seconds s" >>$ktap
  last=$(grep -v '^\s*$' /tmp/"$t".log | tail -n 1 | tr -d '#' | head -c 160)
  case "$rc" in
    0) echo "ok $i $t" >>$ktap; passed=$((passed + 1)) ;;
    77) echo "ok $i $t # SKIP $last" >>$ktap; skipped=$((skipped + 1)) ;;
    137) echo "not ok $i $t # killed after the timeout of $timeout s" >>$ktap; failed=$((failed + 1)) ;;
    *) echo "not ok $i $t # exit $rc" >>$ktap; failed=$((failed + 1)) ;;
  esac
  # A test that fails half way leaves nfit_test's regions as they were;
  # the next one starts from a fresh module, as its own setup expects.
  modprobe -r nfit_test 2>/dev/null
done
if kseries_put ktap-ndctl $ktap; then
  kseries_result pass ndctl "nfit_test and $((i - 1)) test(s) ran: $passed exit 0, $skipped exit 77 (skip), $failed failed"
else
  kseries_result fail ndctl "could not send its KTAP to the host"
fi
exit 0
