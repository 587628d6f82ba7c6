# The memmap dumper (memmap_dump.ko) and the page_ref_set trace instance,
# shared by the guest scripts that dump struct pages (memmap-equivalence,
# memmap-types, hugetlb-tails). Sourced after kseries.sh and pmem.sh (for
# fail, skip, err and $ERR).

MMD=/sys/kernel/debug/memmap_dump
PARAMS=/sys/module/memmap_dump/parameters
TI=/sys/kernel/tracing/instances/kseries-pageref

# mmd_load MODULE SETUP...: loads the dumper (MODULE, or the one kseries put
# in this kernel's initramfs). If it is missing, every SETUP is skipped; if
# insmod fails, every SETUP fails with the reason. Returns 1 in both cases.
mmd_load() {
  local module=$1 why
  shift
  [ -n "$module" ] || module=/testcases/memmap-dump/memmap_dump.ko
  if [ ! -f "$module" ]; then
    for s in "$@"; do skip "$s" "no memmap_dump.ko in the initramfs (kseries build makes it for each kernel)"; done
    return 1
  fi
  if ! insmod "$module" 2>"$ERR"; then
    why="insmod $module: $(err | tr '\n' ' ') $(dmesg | grep -i -m 3 -E 'memmap_dump|kretprobe|module' | tr '\n' ' ')"
    for s in "$@"; do fail "$s" "$why"; done
    return 1
  fi
  return 0
}

# page_ref_set in a trace instance of its own: have_tp=1 if the event exists
# (CONFIG_DEBUG_PAGE_REF); tp_on clears and enables it, tp_off disables it,
# tp_count prints the events since tp_on (entries kept plus overwritten).
tp_setup() {
  have_tp=0
  mkdir -p "$TI" 2>/dev/null
  if [ -w "$TI/events/page_ref/page_ref_set/enable" ]; then
    echo 1024 >"$TI/buffer_size_kb" 2>/dev/null
    echo 1 >"$TI/tracing_on"
    have_tp=1
  fi
}
tp_on() { echo >"$TI/trace"; echo 1 >"$TI/events/page_ref/page_ref_set/enable"; }
tp_off() { echo 0 >"$TI/events/page_ref/page_ref_set/enable" 2>/dev/null; }
tp_count() { cat "$TI"/per_cpu/cpu*/stats | awk '/^entries:/ || /^overrun:/ { n += $2 } END { print n + 0 }'; }

# mmd_dump SETUP KIND: snapshot the memmap of the last memmap_init_zone_device()
# range (the device just bound or mapped), send it as blob SETUP-KIND, with
# the measure dump_bytes. Appends to $problems on failure.
mmd_dump() {
  local f="/tmp/$1-$2.mmd"
  if ! cat "$MMD/dump" >"$f" 2>"$ERR"; then
    problems="$problems dump $2: $(err) (last: $(cat "$MMD/last"));"
    return 1
  fi
  kseries_measure "$1" 0 dump_bytes "$(wc -c <"$f")" bytes kind="$2" last="$(tr ' =' ',:' <"$MMD/last")"
  kseries_put "$1-$2" "$f" || problems="$problems kseries_put $1-$2 failed;"
  rm -f "$f"
}

# The fast bind's work, the evidence that a series' new path ran (issue 45):
# function_graph on memmap_init_zone_device() (lib/fgraph.sh) around one
# bind or create, sent as memmap_init_ns kind=work calls=N. The host compares
# it with the base kernel's on the same setup (oracle/fast_path_ran.h): a
# kernel that runs the base's code does the base's work. Without
# function_graph nothing is sent and the host says so.
work_setup() {
  T=/sys/kernel/tracing
  FN=memmap_init_zone_device
  . /testcases/lib/fgraph.sh
  trace_setup
  [ "$have_ns" = 1 ] && echo 0 >"$T/tracing_on"
}
work_begin() { [ "$have_ns" = 1 ] || return 0; echo >"$T/trace"; echo 1 >"$T/tracing_on"; }
# work_end SETUP: the calls and their summed ns since work_begin.
work_end() {
  [ "$have_ns" = 1 ] || return 0
  echo 0 >"$T/tracing_on"
  set -- "$1" $(trace_read_ns)
  [ "${2:-0}" -ge 1 ] || { problems="$problems the fast bind left no $FN call in the trace;"; return 1; }
  kseries_measure "$1" 1 memmap_init_ns "$3" ns kind=work calls="$2"
}

# The slow path's own count, the evidence that does not depend on how much
# work either path does (issue 45): a kprobe event on
# __init_zone_device_page() (the base's per-struct-page init, a static
# function every revision keeps; GCC may clone it: .constprop.0), counted in
# a trace instance of its own around a bind. The slow bind calls it once per
# struct page it writes; a fast path that runs calls it for its template
# only. Sent as slow_init_calls kind=fast|slow; without the symbol (renamed
# or inlined) nothing is sent and the host falls back on the work.
SI=/sys/kernel/tracing/instances/kseries-slowinit
have_si=0
slowinit_setup() {
  local sym
  sym=$(awk '$3 == "__init_zone_device_page" || index($3, "__init_zone_device_page.") == 1 { print $3; exit }' /proc/kallsyms)
  [ -n "$sym" ] || return 0
  echo "p:kseries/slowinit $sym" >>/sys/kernel/tracing/kprobe_events 2>/dev/null || return 0
  mkdir -p "$SI" 2>/dev/null
  echo 64 >"$SI/buffer_size_kb" 2>/dev/null
  [ -w "$SI/events/kseries/slowinit/enable" ] && have_si=1
}
slowinit_begin() {
  [ "$have_si" = 1 ] || return 0
  echo >"$SI/trace"
  echo 1 >"$SI/events/kseries/slowinit/enable"
}
# slowinit_end SETUP KIND: the calls since slowinit_begin (kept + overwritten).
slowinit_end() {
  [ "$have_si" = 1 ] || return 0
  echo 0 >"$SI/events/kseries/slowinit/enable"
  kseries_measure "$1" 0 slow_init_calls \
    "$(cat "$SI"/per_cpu/cpu*/stats | awk '/^entries:/ || /^overrun:/ { n += $2 } END { print n + 0 }')" \
    count kind="$2"
}
slowinit_teardown() {
  [ "$have_si" = 1 ] || return 0
  echo "-:kseries/slowinit" >>/sys/kernel/tracing/kprobe_events 2>/dev/null
}
