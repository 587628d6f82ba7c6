#!/bin/busybox sh
# hugetlb-timing: how long the kernel takes to initialise the tail struct
# pages of HugeTLB pages, per page size, measured without patching it.
#
# 1G (boot-time gigantic pages, HVO off): in 6.12 page_alloc_init_late()
# calls hugetlb_bootmem_struct_page_init() (upstream's
# gather_bootmem_prealloc) from kernel_init_freeable(), *before*
# do_basic_setup() runs the initcalls. At that point of boot:
#   - function_graph is not there yet: init_graph_trace() is a
#     core_initcall, so ftrace=function_graph starts after the pages are done;
#   - kprobe events from the command line (kprobe_event=) are set up by
#     init_kprobe_trace(), an fs_initcall: too late too;
#   - initcall_debug times initcalls, and this is not one;
#   - the page_ref tracepoints fire once per tail in the base kernel only
#     (page_ref_freeze()), so enabling them would time the tracer;
#   - the plain function tracer is live: tracer_alloc_buffers() registers it
#     from early_trace_init() in start_kernel(), and ftrace_filter= is applied
#     in ftrace_init(), so ftrace=function records the entries of the filtered
#     functions from the start (init functions included).
# The function tracer records entries, not returns, so a duration is the
# time from one entry to the next entry of the same task in task context
# (case.conf's filter; interrupts are skipped by their hardirq/softirq flag):
#   hugetlb_bootmem_struct_page_init      S   start of the gather
#     hugetlb_folio_init_tail_vmemmap(1..64)       per folio (head + 63 tails)
#     hugetlb_vmemmap_optimize_folios     H   HVO (off: a quick no-op)
#     hugetlb_folio_init_tail_vmemmap(64..262144)  per folio, the fallback
#   _printk                               E   mem_init_print_info()'s "Memory:"
#   tail_init_ns  per folio: from its fallback call to the next folio's (the
#                 last one: to E). The tail loop of 262080 struct pages plus
#                 the folio's accounting and enqueue (a few hundred
#                 instructions). One sample per folio: the comparison's samples
#   tails_ns      H to E: every folio's fallback tail init (kind=first)
#   gather_ns     S to E: the whole boot-time gather (kind=first)
# A kernel whose hugetlb_folio_init_tail_vmemmap() is inlined has no
# per-folio figure: setup 1G then fails (nothing to compare), naming it.
#
# 2M: boot-time 2 MiB pages come from the buddy allocator in hugetlb_init(),
# a subsys_initcall, through alloc_pool_huge_folio() -> prep_compound_page(),
# the same path as growing the pool at run time. So the guest grows the 2 MiB
# pool by pages2m pages with function_graph on prep_compound_page below
# alloc_pool_huge_folio (this shell's pid only), and each call's duration is
# one sample:
#   tail_init_ns  prep_compound_page(page, 9): 511 tails and the head; the
#                 calls a timer interrupt hit are left out (counted)
# The HugeTLB series does not touch this path: it is the control.
#
# Arguments: setups=1G+2M  pages2m=N (default 64)

ERR=/tmp/hugetlb-timing.err
. /testcases/lib/kseries.sh
. /testcases/lib/pmem.sh

T=/sys/kernel/tracing
HP=/sys/kernel/mm/hugepages
BOOT_TRACE=/tmp/boot-trace.txt

setups=""
pages2m=64
in_setups=0
for arg in "$@"; do
  case "$arg" in
    setups=*) setups="$setups $(echo "${arg#setups=}" | tr '+:' '  ')"; in_setups=1 ;;
    pages2m=*)
      pages2m=${arg#pages2m=}; in_setups=0
      case "$pages2m" in '' | *[!0-9]*) fail arguments "pages2m must be a number: '$pages2m'"; exit 2 ;; esac ;;
    '') ;;
    *=*) fail arguments "unknown argument '$arg' (known: setups pages2m)"; exit 2 ;;
    *) if [ "$in_setups" = 1 ]; then setups="$setups $arg"; else fail arguments "unexpected word '$arg'"; exit 2; fi ;;
  esac
done
[ -n "$(echo $setups)" ] || setups="1G 2M"

# The boot-time trace is read before anything changes the tracer (a new
# tracer empties the buffer).
cat "$T/trace" >"$BOOT_TRACE" 2>"$ERR" || echo "reading $T/trace: $(err)" >"$BOOT_TRACE.err"
echo 0 >"$T/tracing_on" 2>/dev/null
# The raw traces go to the bulk disk too (blobs boot-trace, graph-trace-2m):
# the evidence behind the figures, kept in the run directory's bulk image.
[ -s "$BOOT_TRACE" ] && kseries_put boot-trace "$BOOT_TRACE"

# boot_figures: the 1G figures from $BOOT_TRACE (boot-figures.awk).
boot_figures() { awk -v folios="$1" -f /testcases/hugetlb-timing/boot-figures.awk "$BOOT_TRACE"; }

run_1g() {
  local folios line what calls_small calls_big n
  folios=$(cat "$HP/hugepages-1048576kB/nr_hugepages" 2>/dev/null)
  if [ -z "$folios" ] || [ "$folios" = 0 ]; then
    fail 1G "no boot-time 1 GiB HugeTLB page ($(dmesg | grep -m 3 -E 'HugeTLB|hugepage' | tr '\n' ' '))"
    return
  fi
  if [ -e "$BOOT_TRACE.err" ]; then
    fail 1G "$(cat "$BOOT_TRACE.err")"
    return
  fi
  if ! grep -q '^# tracer: function$' "$BOOT_TRACE"; then
    fail 1G "the boot tracer is not 'function' ($(head -n 1 "$BOOT_TRACE")); ftrace= on the command line?"
    return
  fi
  boot_figures "$folios" >/tmp/boot-figures.txt
  what=$(sed -n 's/^missing //p' /tmp/boot-figures.txt)
  if [ -n "$what" ]; then
    fail 1G "$what ($(grep -m 1 'entries-in-buffer' "$BOOT_TRACE" | tr -d '#'))"
    return
  fi
  set -- $(sed -n 's/^calls //p' /tmp/boot-figures.txt)
  calls_small=$1 calls_big=$2
  kseries_measure 1G 1 gather_ns "$(sed -n 's/^gather //p' /tmp/boot-figures.txt)" ns kind=first folios="$folios"
  kseries_measure 1G 1 tails_ns "$(sed -n 's/^tails //p' /tmp/boot-figures.txt)" ns kind=first folios="$folios"
  n=0
  while read -r what k value; do
    [ "$what" = folio ] || continue
    kseries_measure 1G "$k" tail_init_ns "$value" ns kind=folio pages=262080
    n=$((n + 1))
  done </tmp/boot-figures.txt
  if [ "$calls_big" = 0 ] && [ "$calls_small" = 0 ]; then
    fail 1G "no hugetlb_folio_init_tail_vmemmap entry in the boot trace (inlined in this kernel?): no per-folio figure; the whole fallback took $(sed -n 's/^tails //p' /tmp/boot-figures.txt) ns"
  elif [ "$calls_big" != "$folios" ] || [ "$calls_small" != "$folios" ]; then
    fail 1G "$folios gigantic pages but $calls_small calls of hugetlb_folio_init_tail_vmemmap before HVO and $calls_big after: the trace does not match 6.12's gather"
  else
    kseries_result pass 1G "$folios boot-time 1 GiB pages: $n per-folio tail init figures (boot-time function tracer)"
  fi
}

# The calls of $FN in $T/trace, "clean NS" or "interrupted NS" a line
# (graph-durations.awk).
graph_durations_ns() { awk -v fn="$FN" -f /testcases/hugetlb-timing/graph-durations.awk "$T/trace"; }

# graph_setup_2m: function_graph on $FN, only below $ROOT (the pool's
# allocation of one page) and only in this shell: the write that grows the
# pool also allocates other compound pages (slabs), which a plain filter on
# $FN would time too (seen: 67 calls for 64 pages). irq_enter_rcu() is
# traced too (funcgraph-irqs on), only to mark the calls an interrupt hit.
# 0, or 1 with $why.
graph_setup_2m() {
  local root
  [ -w "$T/current_tracer" ] || { why="no tracefs at $T"; return 1; }
  grep -qw function_graph "$T/available_tracers" || { why="function_graph not in $T/available_tracers"; return 1; }
  grep -q "^$FN\( \|$\)" "$T/available_filter_functions" || { why="$FN not in available_filter_functions"; return 1; }
  root=$(grep -o "^$ROOT[.a-z0-9]*" "$T/available_filter_functions" | head -n 1)
  [ -n "$root" ] || { why="$ROOT not in available_filter_functions (inlined in this kernel?)"; return 1; }
  grep -q "^irq_enter_rcu\( \|$\)" "$T/available_filter_functions" \
    || { why="irq_enter_rcu not in available_filter_functions: interrupted calls cannot be told apart"; return 1; }
  sysw "$T/tracing_on" 0 && sysw "$T/current_tracer" nop && sysw "$T/set_ftrace_filter" "$FN $root irq_enter_rcu" \
    && sysw "$T/set_graph_function" "$root" && sysw "$T/set_ftrace_pid" $$ \
    && sysw "$T/current_tracer" function_graph || { why=$(err); return 1; }
  sysw "$T/options/funcgraph-tail" 1 || { why=$(err); return 1; }
  sysw "$T/options/funcgraph-irqs" 1 || { why=$(err); return 1; }
  echo >"$T/trace"
  sysw "$T/tracing_on" 1 || { why=$(err); return 1; }
}
graph_teardown_2m() {
  echo 0 >"$T/tracing_on"; echo nop >"$T/current_tracer"
  echo >"$T/set_ftrace_filter"; echo >"$T/set_graph_function"; echo >"$T/set_ftrace_pid"; echo >"$T/trace"
}

run_2m() {
  local before after added n hit i kind value why
  FN=prep_compound_page ROOT=alloc_pool_huge_folio
  graph_setup_2m || { fail 2M "function_graph on $FN below $ROOT: $why"; graph_teardown_2m; return; }
  before=$(cat "$HP/hugepages-2048kB/nr_hugepages")
  if ! sysw "$HP/hugepages-2048kB/nr_hugepages" $((before + pages2m)); then
    fail 2M "$(err)"; graph_teardown_2m; return
  fi
  echo 0 >"$T/tracing_on"
  after=$(cat "$HP/hugepages-2048kB/nr_hugepages")
  added=$((after - before))
  cat "$T/trace" >/tmp/graph-trace-2m.txt && kseries_put graph-trace-2m /tmp/graph-trace-2m.txt
  graph_durations_ns >/tmp/durations-2m.txt
  n=$(grep -c . /tmp/durations-2m.txt)
  hit=$(grep -c '^interrupted' /tmp/durations-2m.txt)
  i=0
  while read -r kind value; do
    i=$((i + 1))
    [ "$kind" = clean ] && kseries_measure 2M "$i" tail_init_ns "$value" ns kind=page pages=511
  done </tmp/durations-2m.txt
  graph_teardown_2m
  if [ "$added" != "$pages2m" ]; then
    fail 2M "asked for $pages2m more 2 MiB pages, the pool grew by $added"
  elif [ "$n" != "$added" ]; then
    fail 2M "$added 2 MiB pages allocated but $n calls of $FN traced below $ROOT (lost events?)"
  elif [ "$hit" -gt $((n / 4)) ]; then
    fail 2M "$hit of $n calls of $FN were interrupted: too few clean samples"
  else
    kseries_result pass 2M "$added 2 MiB pages added to the pool: $((n - hit)) calls of $FN below $ROOT timed (function_graph), $hit interrupted ones left out"
  fi
}

for s in $setups; do
  case "$s" in
    1G) run_1g ;;
    2M) run_2m ;;
    *) fail "$s" "unknown setup (1G 2M)" ;;
  esac
done
exit 0
