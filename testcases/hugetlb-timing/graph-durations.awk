# graph-durations.awk: the calls of function FN (awk -v fn=NAME) in a
# function_graph trace (funcgraph-tail on), one a line:
#   clean NS        a leaf line, nothing traced inside the call:
#                   " 1)   3.785 us    |  prep_compound_page();"
#   interrupted NS  a call with something traced inside it (hugetlb-timing
#                   traces irq_enter_rcu() only to mark these), its duration
#                   on the closing line " 1) ! 10.027 us | } /* prep_compound_page */"
# Under icount a timer interrupt adds 2-3x a 2 MiB page's tail init to the one
# call it lands in, about one call in 64: left in, it would decide the mean.
# function_graph prints at most 7 digits: the sub-microsecond part is cut to
# its leading digits, so pad it on the right ("8.12" is 8120 ns), as
# testcases/lib/fgraph.sh does. Run by guest.sh (busybox awk) and by
# tests/hugetlb_timing_figures.sh.
index($0, fn) && / us / {
  kind = index($0, fn "();") ? "clean" : index($0, "/* " fn " */") ? "interrupted" : ""
  if (kind == "") next
  for (i = 1; i < NF; i++) if ($(i + 1) == "us") {
    f = $i; sub(/^[^0-9]*/, "", f); np = split(f, p, ".")
    frac = (np > 1) ? p[2] : ""; while (length(frac) < 3) frac = frac "0"
    sub(/^0+/, "", frac)   # busybox awk reads "012" as octal 10
    printf "%s %.0f\n", kind, p[1] * 1000 + frac; break }
}
