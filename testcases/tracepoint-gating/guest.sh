#!/bin/busybox sh
# tracepoint-gating (and sanitizer-gating, which runs this script with
# expect=slow): is the series' fast path gated the way its contract says?
# Per pmem setup, after the first bind:
#   bind "off": page_ref_set off. The fast-path function is counted with a
#               kprobe event (fastpath_calls kind=off).
#   bind "on":  page_ref_set on. Its events are counted (page_ref_set_events
#               kind=on): the slow path emits at least one per struct page it
#               initialises (init_page_count), so fewer means the fast path
#               ran while the tracepoint was on. The kprobe must not fire.
# With the tracepoint off nothing is emitted at all (a disabled tracepoint
# is a static branch), so "none from the memmap init" holds by construction
# and is not what is tested; the kprobe is the observable of the off bind.
#
# Arguments (key=value words):
#   setups=A+B+...     default fsdax-mem fsdax-dev devdax-mem devdax-dev
#   expect=tracepoint  (default) the fast path may run when page_ref_set is
#                      off and must not when it is on
#   expect=slow        sanitizer builds: the fast path must never run
#   fastpath=SYM       the fast path's function (default
#                      zone_device_page_init_from_template, the series' own);
#                      absent from the base kernel, which has no fast path.
#                      Extra information only: a series may name its helper
#                      otherwise or inline it, so its absence proves nothing
#   work=N             after the two binds, N more binds with page_ref_set
#                      off, memmap_init_zone_device() timed by function_graph
#                      (memmap_init_ns kind=work): the work of
#                      a function every kernel has, which the host compares
#                      with the base's (oracle slow-path-work). expect=slow
#                      needs it: it is the evidence that does not depend on
#                      the series' names (default 0)

ERR=/tmp/gating.err
. /testcases/lib/kseries.sh
. /testcases/lib/pmem.sh

T=/sys/kernel/tracing
TP=$T/instances/kseries-gating-tp
FP=$T/instances/kseries-gating-fp
FN=memmap_init_zone_device
KLOG=/tmp/gating.dmesg

setups=""
expect=tracepoint
fastpath=zone_device_page_init_from_template
work=0
in_setups=0
for arg in "$@"; do
  case "$arg" in
    setups=*) setups="$setups $(echo "${arg#setups=}" | tr '+:' '  ')"; in_setups=1 ;;
    expect=*) expect=${arg#expect=}; in_setups=0 ;;
    fastpath=*) fastpath=${arg#fastpath=}; in_setups=0 ;;
    work=*) work=${arg#work=}; in_setups=0 ;;
    '') ;;
    *=*) fail arguments "unknown argument '$arg' (known: setups expect fastpath work)"; exit 2 ;;
    *) if [ "$in_setups" = 1 ]; then setups="$setups $arg"; else fail arguments "unexpected word '$arg'"; exit 2; fi ;;
  esac
done
case "$expect" in tracepoint | slow) ;; *) fail arguments "expect must be tracepoint or slow"; exit 2 ;; esac
case "$work" in '' | *[!0-9]*) fail arguments "work must be a number"; exit 2 ;; esac
[ -n "$(echo $setups)" ] || setups="fsdax-mem fsdax-dev devdax-mem devdax-dev"

DDC=/sys/kernel/debug/dynamic_debug/control
[ -w "$DDC" ] && echo "file mm/mm_init.c +p" >"$DDC" 2>/dev/null

# ---- the two observables ----
have_tp=0
mkdir -p "$TP" "$FP" 2>/dev/null
if [ -w "$TP/events/page_ref/page_ref_set/enable" ]; then
  echo 16384 >"$TP/buffer_size_kb" 2>/dev/null
  have_tp=1
fi
have_fp=0
fp_why=""
# GCC may clone it (zone_device_page_init_from_template.constprop.0): take
# the first symbol that is the name or a clone of it.
fp_sym=$(awk -v f="$fastpath" '$3 == f || index($3, f ".") == 1 { print $3; exit }' /proc/kallsyms)
if [ -z "$fp_sym" ]; then
  fp_why="no $fastpath in /proc/kallsyms (no fast path in this kernel, or it was inlined)"
elif ! echo "p:kseries/fastpath $fp_sym" >>"$T/kprobe_events" 2>"$ERR"; then
  fp_why="kprobe on $fastpath refused: $(err | tr '\n' ' ')"
elif [ -w "$FP/events/kseries/fastpath/enable" ]; then
  echo 1024 >"$FP/buffer_size_kb" 2>/dev/null
  have_fp=1
else
  fp_why="no kseries/fastpath event in $FP"
fi
# The work binds' clock: function_graph on $FN (lib/fgraph.sh), set up once.
. /testcases/lib/fgraph.sh
[ "$work" -gt 0 ] && trace_setup

# Events since the last clear: entries kept plus entries overwritten.
count() { cat "$1"/per_cpu/cpu*/stats | awk '/^entries:/ || /^overrun:/ { n += $2 } END { print n + 0 }'; }
pages_of() { sed -n "s/.*$FN initialised \([0-9]*\) pages in.*/\1/p" "$KLOG" | awk '{ s += $1 } END { print s + 0 }'; }

# The fewest page_ref_set events a slow-path init of NAME's PAGES emits: one
# per struct page written; a vmemmap-optimised compound page (devdax, memmap
# in RAM) writes only its head and the 127 tails of its 2 unique vmemmap
# pages (compound_nr_pages()).
min_events() {
  case "$1" in
    devdax-mem | devdax2m-mem) echo $(( $2 / 512 * 128 )) ;;
    devdax1g-mem) echo $(( $2 / 262144 * 128 )) ;;
    *) echo "$2" ;;
  esac
}

# bind_once KIND TRACE: unbind, clear the counters, bind with page_ref_set
# TRACE (on|off) and the kprobe enabled. Sets pages fp_calls tp_events.
bind_once() {
  sysw "$unbindfile" "$bdev" || { problems="$problems $1 unbind: $(err);"; return 1; }
  dmesg -c >/dev/null
  echo >"$TP/trace"; echo >"$FP/trace"
  [ "$have_fp" = 1 ] && echo 1 >"$FP/events/kseries/fastpath/enable"
  [ "$have_tp" = 1 ] && [ "$2" = on ] && echo 1 >"$TP/events/page_ref/page_ref_set/enable"
  sysw "$bindfile" "$bdev"
  local rc=$?
  [ "$have_tp" = 1 ] && echo 0 >"$TP/events/page_ref/page_ref_set/enable"
  [ "$have_fp" = 1 ] && echo 0 >"$FP/events/kseries/fastpath/enable"
  dmesg -c >"$KLOG"
  [ "$rc" = 0 ] || { problems="$problems $1 bind: $(err);"; return 1; }
  pages=$(pages_of)
  fp_calls=$(count "$FP")
  tp_events=$(count "$TP")
  [ "$have_fp" = 1 ] && kseries_measure "$setup" 0 fastpath_calls "$fp_calls" count kind="$1"
  [ "$have_tp" = 1 ] && [ "$2" = on ] && kseries_measure "$setup" 0 page_ref_set_events "$tp_events" count kind="$1" pages="$pages"
  return 0
}

# work_binds: $work binds with page_ref_set and the kprobe off, each timing
# $FN. Appends to $problems and returns 1 when one cannot be measured.
work_binds() {
  local i=1
  [ "$work" -gt 0 ] || return 0
  [ "$have_ns" = 1 ] || { problems="$problems no work measurement: $ns_skip;"; return 1; }
  while [ "$i" -le "$work" ]; do
    sysw "$unbindfile" "$bdev" || { problems="$problems work unbind: $(err);"; return 1; }
    echo >"$T/trace"
    sysw "$bindfile" "$bdev" || { problems="$problems work bind $i: $(err);"; return 1; }
    set -- $(trace_read_ns)
    [ "$1" -ge 1 ] || { problems="$problems work bind $i left no $FN call in $T/trace;"; return 1; }
    kseries_measure "$setup" $((i + 1)) memmap_init_ns "$2" ns kind=work calls="$1"
    i=$((i + 1))
  done
}

run_setup() {
  local setup=$1 rc off_calls min facts=""
  problems=""
  pmem_configure "$setup"
  rc=$?
  [ "$rc" = 2 ] && { skip "$setup" "$setup_skip"; return; }
  [ "$rc" = 0 ] || { fail "$setup" "$setup_error"; return; }
  sysw "$ND/drivers/$drv/bind" "$dev" || { fail "$setup" "first bind: $(err)"; free_ns; return; }
  pmem_bound || { fail "$setup" "$setup_error"; free_ns; return; }

  bind_once off off || { fail "$setup" "$problems"; free_ns; return; }
  off_calls=$fp_calls
  bind_once on on || { fail "$setup" "$problems"; free_ns; return; }
  work_binds || { fail "$setup" "$problems"; free_ns; return; }
  pmem_teardown || problems="$problems teardown: $(err);"

  if [ "$have_fp" = 1 ]; then
    facts="fast path ($fp_sym) called $off_calls times with page_ref_set off, $fp_calls with it on"
    [ "$fp_calls" = 0 ] || problems="$problems the fast path ran $fp_calls times with page_ref_set on;"
    if [ "$expect" = slow ] && [ "$off_calls" != 0 ]; then
      problems="$problems the fast path ran $off_calls times in a sanitizer build (it must stay on the slow path);"
    fi
  else
    facts="$fp_why"
  fi
  [ "$work" -gt 0 ] && facts="$facts; $work work binds timed (judged against the base's on the host)"
  if [ "$expect" = slow ] && [ "$work" = 0 ] && [ "$have_fp" = 0 ]; then
    problems="$problems no evidence that the slow path ran with page_ref_set off: $fp_why, and no work binds (work=N);"
  fi
  if [ "$have_tp" = 1 ]; then
    min=$(min_events "$setup" "$pages")
    facts="$facts; page_ref_set on: $tp_events events for $pages pages (slow path writes at least $min)"
    [ "$pages" -gt 0 ] || problems="$problems no '$FN initialised' line for the traced bind;"
    [ "$tp_events" -ge "$min" ] || problems="$problems the bind with page_ref_set on emitted $tp_events events, fewer than the $min struct pages the slow path initialises: the fast path ran with the tracepoint on;"
  elif [ "$expect" = tracepoint ]; then
    skip "$setup" "no page_ref/page_ref_set event (CONFIG_DEBUG_PAGE_REF off: the tracepoint is compiled out)"
    return
  fi
  if [ -n "$problems" ]; then
    fail "$setup" "$problems ($facts)"
  elif [ "$have_fp" = 0 ] && [ "$have_tp" = 0 ] && [ "$work" = 0 ]; then
    skip "$setup" "nothing to observe: $fp_why, and no page_ref_set tracepoint"
  else
    kseries_result pass "$setup" "$(clean "$facts")"
  fi
}

for setup in $setups; do
  run_setup "$setup"
done
trace_teardown
[ "$have_fp" = 1 ] && echo "-:kseries/fastpath" >>"$T/kprobe_events" 2>/dev/null
exit 0
