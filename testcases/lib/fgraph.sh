# function_graph timing of one kernel function ($FN), for guest scripts.
# The caller sets T (tracefs) and FN, and has err() and sysw() (from
# pmem.sh). trace_setup sets have_ns=1, or have_ns=0 and ns_skip to why.
# The function_graph tracer is global (the top-level instance): one user
# at a time.

have_ns=0
ns_skip=""
trace_setup() {
  [ -d "$T" ] && [ -w "$T/current_tracer" ] || { ns_skip="no tracefs at $T"; return; }
  grep -qw function_graph "$T/available_tracers" || { ns_skip="function_graph not in $T/available_tracers"; return; }
  grep -q "^$FN\( \|$\)" "$T/available_filter_functions" || { ns_skip="$FN not in available_filter_functions (inlined or notrace)"; return; }
  sysw "$T/tracing_on" 0 && sysw "$T/current_tracer" nop && sysw "$T/set_ftrace_filter" "$FN" \
    && sysw "$T/current_tracer" function_graph || { ns_skip="$(err)"; return; }
  echo 1 >"$T/options/funcgraph-tail" 2>/dev/null
  echo 0 >"$T/options/funcgraph-irqs" 2>/dev/null
  echo >"$T/trace"
  sysw "$T/tracing_on" 1 || { ns_skip="$(err)"; return; }
  have_ns=1
}
trace_teardown() {
  [ "$have_ns" = 1 ] || return 0
  echo 0 >"$T/tracing_on"; echo nop >"$T/current_tracer"; echo >"$T/set_ftrace_filter"; echo >"$T/trace"
}
# "count ns": the number of memmap_init_zone_device calls in the trace and
# the sum of their durations. Leaf lines look like
#   1) ! 34567.12 us  |  memmap_init_zone_device();
# and closing braces like "1) ! 34567.12 us  |  } /* memmap_init_zone_device */".
# function_graph prints at most 7 digits: the sub-microsecond part is cut to
# its leading digits (3 below 10 ms, 2 below 100 ms, 1 below 1 s, none
# above), so pad it on the right: "34567.12" is 34567120 ns.
trace_read_ns() {
  awk -v fn="$FN" '
    index($0, fn) && / us / {
      for (i = 1; i < NF; i++) if ($(i + 1) == "us") {
        f = $i; sub(/^[^0-9]*/, "", f); np = split(f, p, ".")
        frac = (np > 1) ? p[2] : ""; while (length(frac) < 3) frac = frac "0"
        sub(/^0+/, "", frac)   # busybox awk reads "012" as octal 10
        ns += p[1] * 1000 + frac; n++; break }
    }
    END { printf "%d %.0f\n", n, ns }' "$T/trace"
}
