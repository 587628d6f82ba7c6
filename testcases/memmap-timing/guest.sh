#!/bin/busybox sh
# memmap-timing: times memmap_init_zone_device() over repeated nd_pmem /
# dax_pmem driver binds on the legacy pmem namespace0.0 (memmap=SIZE!OFFSET).
#
# Arguments (key=value words; /init splits kseries.args on commas):
#   rebinds=N         rebinds after the first bind (default 30, as the seed)
#   setups=A+B+...    setups to run, in order (default all four below). The
#                     list may use '+' or ':' between names; because /init
#                     splits kseries.args on commas, bare words following
#                     setups= (setups=a,b,c on the command line) also count.
#   tracepoint=on|off enable page_ref:page_ref_set during each bind (off)
#
# Setup names: <fsdax|devdax>[4k|2m|1g]-<mem|dev>. mem = memmap in RAM (pfn
# mode "ram"), dev = memmap in the device (pfn mode "pmem"). The alignment
# defaults to 2m. fsdax-mem fsdax-dev devdax-mem devdax-dev are the standard.
#
# Per bind (iter=1 kind=first, iter=2..N+1 kind=rebind) it reports
#   memmap_init_ms  the pr_debug "memmap_init_zone_device initialised N pages
#                   in M ms" line(s) the bind printed (dmesg cleared before,
#                   read and cleared after the bind), pages=N
#   memmap_init_ns  the function_graph duration of memmap_init_zone_device()
#                   (ftrace filter on that one function; trace cleared before,
#                   read after the bind)
#   bind_ns         the bind write itself, from /testcases/bin/bindtime
#   page_ref_set_events  (tracepoint=on only) events the bind produced
# and the boot-time probe of the raw namespace as setup=boot-probe iter=0
# kind=probe. One "result" per setup, plus one for boot-probe.

ERR=/tmp/memmap-timing.err
. /testcases/lib/kseries.sh
. /testcases/lib/pmem.sh

T=/sys/kernel/tracing
TI=$T/instances/kseries-pageref
BINDTIME=/testcases/bin/bindtime
FN=memmap_init_zone_device
KLOG=/tmp/memmap-timing.dmesg

rebinds=30
setups=""
tracepoint=off
in_setups=0

usage_fail() {
  kseries_result fail arguments "$(echo "$*" | tr '=' ':')"
  exit 2
}

for arg in "$@"; do
  case "$arg" in
    rebinds=*)
      rebinds=${arg#rebinds=}; in_setups=0
      case "$rebinds" in '' | *[!0-9]*) usage_fail "rebinds must be a number: '$rebinds'" ;; esac ;;
    setups=*)
      setups="$setups $(echo "${arg#setups=}" | tr '+:' '  ')"; in_setups=1 ;;
    tracepoint=*)
      tracepoint=${arg#tracepoint=}; in_setups=0
      case "$tracepoint" in on | off) ;; *) usage_fail "tracepoint must be on or off: '$tracepoint'" ;; esac ;;
    *=*) usage_fail "unknown argument '$arg' (known: rebinds setups tracepoint)" ;;
    '') ;;
    *)
      if [ "$in_setups" = 1 ]; then setups="$setups $arg"
      else usage_fail "unexpected word '$arg' (arguments are key=value words such as rebinds=5)"
      fi ;;
  esac
done
[ -n "$(echo $setups)" ] || setups="fsdax-mem fsdax-dev devdax-mem devdax-dev"

# The pr_debug site must be enabled; case.conf puts it on the command line
# (so the boot-time probe is seen too). Turn it on anyway if it is not.
DDC=/sys/kernel/debug/dynamic_debug/control
if [ -w "$DDC" ] && ! grep -q "mm/mm_init.c.*=p.*$FN" "$DDC" 2>/dev/null; then
  echo "file mm/mm_init.c +p" >"$DDC" 2>/dev/null
fi

# pr_debug lines "initialised N pages in Mms" -> "N M" per line.
prdebug_lines() { sed -n "s/.*$FN initialised \([0-9]*\) pages in \([0-9]*\)ms.*/\1 \2/p" "$1"; }

# ---- boot-time probe of the raw namespace (already in dmesg) ----
dmesg >"$KLOG"
n=0
prdebug_lines "$KLOG" >/tmp/boot-probe.txt
while read -r pages ms; do
  n=$((n + 1))
  if [ "$n" = 1 ]; then
    kseries_measure boot-probe 0 memmap_init_ms "$ms" ms kind=probe pages="$pages"
  else
    kseries_measure boot-probe 0 memmap_init_ms "$ms" ms kind=probe pages="$pages" line="$n"
  fi
done </tmp/boot-probe.txt
if [ "$n" -gt 0 ]; then
  kseries_result pass boot-probe "$n boot-time line(s) of $NS"
else
  why=$(grep -E "$NS.*(misaligned|failed|error)" "$KLOG" | sed 's/^\[[^]]*\] *//' | head -n 3 | tr '\n' ' ')
  if [ -n "$why" ]; then
    skip boot-probe "no boot-time $FN line in dmesg; the boot-time probe of $NS failed: $why"
  else
    skip boot-probe "no boot-time $FN line in dmesg (pr_debug for mm/mm_init.c not enabled on the command line, or $NS not mapped at boot)"
  fi
fi
dmesg -c >/dev/null

# ---- ftrace function_graph on memmap_init_zone_device ----
. /testcases/lib/fgraph.sh
trace_setup
[ "$have_ns" = 1 ] || skip memmap_init_ns "$ns_skip"

# ---- page_ref_set events in an instance of their own ----
have_tp=0
if [ "$tracepoint" = on ]; then
  mkdir -p "$TI" 2>/dev/null
  if [ -w "$TI/events/page_ref/page_ref_set/enable" ]; then
    echo 8192 >"$TI/buffer_size_kb" 2>/dev/null
    echo 1 >"$TI/tracing_on"
    have_tp=1
  else
    skip page_ref_set "no page_ref/page_ref_set event in $TI (CONFIG_DEBUG_PAGE_REF off?)"
  fi
fi
tp_on() { [ "$have_tp" = 1 ] && { echo >"$TI/trace"; echo 1 >"$TI/events/page_ref/page_ref_set/enable"; }; }
tp_off() { [ "$have_tp" = 1 ] && echo 0 >"$TI/events/page_ref/page_ref_set/enable"; }
# Events written since the last clear: entries kept plus entries overwritten.
tp_count() {
  cat "$TI"/per_cpu/cpu*/stats | awk '/^entries:/ || /^overrun:/ { n += $2 } END { print n + 0 }'
}

# ---- one bind, measured and attributed ----
# measure_bind SETUP ITER KIND BINDFILE DEVICE: 0 if the bind succeeded (the
# missing-measurement problems are appended to $problems), 1 if it failed.
measure_bind() {
  local setup=$1 iter=$2 kind=$3 file=$4 dev=$5 ns pages ms lines n tp
  tp=""
  [ "$tracepoint" = on ] && tp="tracepoint=on"
  dmesg -c >/dev/null
  [ "$have_ns" = 1 ] && echo >"$T/trace"
  tp_on
  if ! ns=$("$BINDTIME" "$file" "$dev" 2>"$ERR"); then
    tp_off
    dmesg -c >"$KLOG"
    bind_error="$(err | tr '\n' ' ')$(grep -i -m 3 -E 'error|fail|busy|invalid|unsupported' "$KLOG" | sed 's/^\[[^]]*\] *//' | tr '\n' ' ')"
    return 1
  fi
  tp_off
  dmesg -c >"$KLOG"
  kseries_measure "$setup" "$iter" bind_ns "$ns" ns kind="$kind" $tp
  prdebug_lines "$KLOG" >/tmp/prdebug.txt
  n=$(wc -l </tmp/prdebug.txt)
  if [ "$n" -ge 1 ]; then
    pages=$(awk '{ s += $1 } END { print s }' /tmp/prdebug.txt)
    ms=$(awk '{ s += $2 } END { print s }' /tmp/prdebug.txt)
    if [ "$n" = 1 ]; then
      kseries_measure "$setup" "$iter" memmap_init_ms "$ms" ms kind="$kind" pages="$pages" $tp
    else
      kseries_measure "$setup" "$iter" memmap_init_ms "$ms" ms kind="$kind" pages="$pages" calls="$n" $tp
    fi
  else
    problems="$problems iter $iter printed no '$FN initialised' line;"
  fi
  if [ "$have_ns" = 1 ]; then
    set -- $(trace_read_ns)
    if [ "$1" -ge 1 ]; then
      if [ "$1" = 1 ]; then
        kseries_measure "$setup" "$iter" memmap_init_ns "$2" ns kind="$kind" $tp
      else
        kseries_measure "$setup" "$iter" memmap_init_ns "$2" ns kind="$kind" calls="$1" $tp
      fi
    else
      problems="$problems iter $iter left no $FN call in $T/trace;"
    fi
  fi
  if [ "$have_tp" = 1 ]; then
    kseries_measure "$setup" "$iter" page_ref_set_events "$(tp_count)" count kind="$kind" $tp
  fi
  return 0
}

# ---- one setup ----
# run_setup NAME: emits the measurements and exactly one result for NAME.
run_setup() {
  local name=$1 i rc
  problems=""
  pmem_configure "$name"
  rc=$?
  [ "$rc" = 2 ] && { skip "$name" "$setup_skip"; return; }
  [ "$rc" = 0 ] || { fail "$name" "$setup_error"; return; }

  # First bind: the pfn device to nd_pmem, or the dax device to dax_pmem
  # (whose probe creates daxR.N on the dax bus and binds it to device_dax).
  bind_error=""
  if ! measure_bind "$name" 1 first "$ND/drivers/$drv/bind" "$dev"; then
    fail "$name" "first bind: $bind_error"; free_ns; return
  fi
  pmem_bound || { fail "$name" "$setup_error"; free_ns; return; }

  i=2
  while [ "$i" -le $((rebinds + 1)) ]; do
    sysw "$unbindfile" "$bdev" || { fail "$name" "iter $i unbind: $(err)"; free_ns; return; }
    if ! measure_bind "$name" "$i" rebind "$bindfile" "$bdev"; then
      fail "$name" "iter $i rebind: $bind_error"; free_ns; return
    fi
    i=$((i + 1))
  done

  # Tear down so the next setup can claim the namespace.
  pmem_teardown || problems="$problems teardown: $(err);"
  if [ -n "$problems" ]; then
    fail "$name" "$problems"
  else
    kseries_result pass "$name" "$((rebinds + 1)) binds of $dev ($drv mode $mode align $align_bytes)"
  fi
}

for s in $setups; do
  run_setup "$s"
done
tp_off
trace_teardown
exit 0
