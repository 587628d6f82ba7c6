#!/bin/busybox sh
# sanitizer-gating: tracepoint-gating's guest with expect=slow: in a KASAN or
# KMSAN build the series' fast path must not run with the tracepoint on or
# off. A sanitizer report anywhere in the boot fails it through the host's
# triage of the serial log, whatever this script says.
exec /testcases/tracepoint-gating/guest.sh expect=slow "$@"
