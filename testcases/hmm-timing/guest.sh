#!/bin/busybox sh
# hmm-timing: the seed's supplementary figure, test_hmm.ko's memremap time,
# with the stock lib/test_hmm.c of the tree under test: each load of
# test_hmm.ko creates two MEMORY_DEVICE_PRIVATE dmirror devices, each
# memremap_pages()ing one 256 MiB chunk (65536 struct pages), and each
# unload memunmap_pages() them. Per load (iter=1 kind=first, then
# kind=rebind):
#   memremap_ns     function_graph ns of memremap_pages(), summed over the
#                   load's calls (calls=N), what the seed reports
#   memmap_init_ns  the same of memmap_init_zone_device() inside them: the
#                   window the memory clock models (memmap_init_mns)
#   memmap_init_ms  the pr_debug lines' ms, summed
# and the boot-time probe of the pmem namespace as setup=boot-probe (its
# memmap_init_zone_device() call is a memory-clock window too).
#
# Arguments: setups=private (the only setup), rounds=N loads after the
# first (default 10).

. /testcases/lib/kseries.sh
. /testcases/lib/kselftest.sh
. /testcases/lib/pmem.sh

T=/sys/kernel/tracing
rounds=10
setups=""
for arg in "$@"; do
  case "$arg" in
    setups=*) setups="$setups $(echo "${arg#setups=}" | tr '+:' '  ')" ;;
    rounds=*) rounds=${arg#rounds=} ;;
    *=*) kseries_result fail arguments "unknown argument $(echo "$arg" | tr '=' ':') (setups, rounds)"; exit 2 ;;
  esac
done
[ -n "$(echo $setups)" ] || setups=private
case "$rounds" in '' | *[!0-9]*) kseries_result fail arguments "rounds must be a number"; exit 2 ;; esac

FN=memmap_init_zone_device
prdebug_lines() { sed -n "s/.*$FN initialised \([0-9]*\) pages in \([0-9]*\)ms.*/\1 \2/p" "$1"; }

# The boot-time probe of the pmem namespace, as memmap-timing reports it.
dmesg >/tmp/boot.dmesg
n=0
prdebug_lines /tmp/boot.dmesg >/tmp/boot-probe.txt
while read -r pages ms; do
  n=$((n + 1))
  kseries_measure boot-probe 0 memmap_init_ms "$ms" ms kind=probe pages="$pages" line="$n"
done </tmp/boot-probe.txt
kseries_result pass boot-probe "$n boot-time line(s)"
dmesg -c >/dev/null

# function_graph on both functions; trace_read_ns sums one of them.
trace_both() {
  sysw "$T/tracing_on" 0 && sysw "$T/current_tracer" nop &&
    sysw "$T/set_ftrace_filter" "memremap_pages $FN" && sysw "$T/current_tracer" function_graph ||
    return 1
  echo 1 >"$T/options/funcgraph-tail" 2>/dev/null
  echo 0 >"$T/options/funcgraph-irqs" 2>/dev/null
  echo >"$T/trace"
  sysw "$T/tracing_on" 1
}
. /testcases/lib/fgraph.sh

run_private() {
  local i kind out pages ms calls ns problems=""
  if ! kselftest_unpack; then fail private "$kselftest_error"; return; fi
  if ! modinfo test_hmm >/dev/null 2>&1; then
    fail private "no test_hmm module for $(uname -r) in the payload (CONFIG_TEST_HMM=m?)"; return
  fi
  trace_both || { fail private "function_graph on memremap_pages and $FN: $(err)"; return; }
  have_ns=1
  i=1
  while [ "$i" -le $((rounds + 1)) ]; do
    kind=rebind
    [ "$i" = 1 ] && kind=first
    echo >"$T/trace"
    dmesg -c >/dev/null
    if ! modprobe test_hmm 2>/tmp/modprobe.err; then
      fail private "load $i: modprobe test_hmm: $(head -c 200 /tmp/modprobe.err) $(dmesg | tail -n 3 | tr '\n' ' ')"
      return
    fi
    dmesg -c >/tmp/load.dmesg
    FN=memremap_pages
    set -- $(trace_read_ns)
    [ "$1" -ge 1 ] && kseries_measure private "$i" memremap_ns "$2" ns kind="$kind" calls="$1" ||
      problems="$problems load $i: no memremap_pages() in the trace;"
    FN=memmap_init_zone_device
    set -- $(trace_read_ns)
    [ "$1" -ge 1 ] && kseries_measure private "$i" memmap_init_ns "$2" ns kind="$kind" calls="$1" ||
      problems="$problems load $i: no $FN() in the trace;"
    prdebug_lines /tmp/load.dmesg >/tmp/load.prdebug
    if [ -s /tmp/load.prdebug ]; then
      pages=$(awk '{ s += $1 } END { print s }' /tmp/load.prdebug)
      ms=$(awk '{ s += $2 } END { print s }' /tmp/load.prdebug)
      calls=$(wc -l </tmp/load.prdebug)
      kseries_measure private "$i" memmap_init_ms "$ms" ms kind="$kind" pages="$pages" calls="$calls"
    fi
    if ! modprobe -r test_hmm 2>/tmp/modprobe.err; then
      fail private "unload $i: modprobe -r test_hmm: $(head -c 200 /tmp/modprobe.err)"
      return
    fi
    i=$((i + 1))
  done
  trace_teardown
  if [ -n "$problems" ]; then
    fail private "$problems"
  else
    kseries_result pass private "$((rounds + 1)) loads of test_hmm.ko (two DEVICE_PRIVATE chunks of 256 MiB each)"
  fi
}

for s in $setups; do
  case "$s" in
    private) run_private ;;
    *) kseries_result fail "$s" "unknown setup (hmm-timing has: private)" ;;
  esac
done
exit 0
