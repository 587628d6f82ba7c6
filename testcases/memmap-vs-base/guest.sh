#!/bin/busybox sh
# memmap-vs-base: the guest side is memmap-equivalence's (same devices, same
# bind sequence, dumps <setup>-fast and <setup>-slow), without the
# unwritten-page proof (that one is per kernel, in memmap-equivalence). The
# host compares the dumps of the base kernel's boot with the series kernel's.
exec /testcases/memmap-equivalence/guest.sh unwritten=off "$@"
