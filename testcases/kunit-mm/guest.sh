#!/bin/busybox sh
# kunit-mm: KUnit suites built as modules of the kernel under test (the
# test payload's /lib/modules), one module per setup. Loading a KUnit test
# module runs its suites and prints their KTAP in the kernel log; that log
# (from a cleared ring buffer to the end of the load) is sent as the blob
# ktap-MODULE, parsed on the host by the tree's kunit_parser.py and judged
# against the base kernel's run (oracle ktap). A result line here says only
# that the module loaded and printed KTAP.
#
# Arguments: setups=A:B:... (module names, as modprobe knows them).

. /testcases/lib/kseries.sh
. /testcases/lib/kselftest.sh

setups=""
in_setups=0
for arg in "$@"; do
  case "$arg" in
    setups=*) setups="$setups $(echo "${arg#setups=}" | tr '+:' '  ')"; in_setups=1 ;;
    *=*) kseries_result fail arguments "unknown argument $(echo "$arg" | tr '=' ':') (setups)"; exit 2 ;;
    '') ;;
    *) [ "$in_setups" = 1 ] && setups="$setups $arg" ;;
  esac
done

if ! kselftest_unpack; then
  for s in $setups; do kseries_result fail "$s" "$kselftest_error"; done
  exit 0
fi

for module in $setups; do
  dmesg -c >/dev/null
  start=$(date +%s)
  modprobe "$module" 2>/tmp/modprobe.err
  rc=$?
  seconds=$(($(date +%s) - start))
  dmesg -c >/tmp/"$module".log
  modprobe -r "$module" 2>/dev/null
  if ! grep -q 'KTAP version' /tmp/"$module".log; then
    kseries_result fail "$module" "no KTAP in the kernel log after modprobe $module (exit $rc: $(head -c 200 /tmp/modprobe.err | tr '\n=' ' :'))"
    continue
  fi
  if kselftest_send "$module" /tmp/"$module".log; then
    kseries_result pass "$module" "modprobe $module: KTAP in $seconds s (exit $rc)"
  else
    kseries_result fail "$module" "could not send its KTAP to the host"
  fi
done
exit 0
