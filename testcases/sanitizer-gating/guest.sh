#!/bin/busybox sh
# sanitizer-gating: tracepoint-gating's guest with expect=slow: in a KASAN or
# KMSAN build the series' fast path must not run with the tracepoint on or
# off. A sanitizer report anywhere in the boot fails it through the host's
# triage of the serial log, whatever this script says. The evidence that
# does not depend on the series' names: 5 work binds per setup, whose
# memmap_init_zone_device() work the host compares with the base's
# (oracle slow-path-work; one boot a side decides under icount).
exec /testcases/tracepoint-gating/guest.sh expect=slow work=5 "$@"
