# boot-figures.awk: the 1G figures of hugetlb-timing from a boot-time
# function tracer trace (/sys/kernel/tracing/trace with ftrace=function and
# case.conf's ftrace_filter). Run by guest.sh in the guest (busybox awk) and
# by tests/hugetlb_timing_figures.sh on recorded traces.
#
# Lines look like
#   swapper/0-1  [000] .....  1.234567: hugetlb_folio_init_tail_vmemmap <-gather_bootmem_prealloc_parallel
# (TASK-PID, CPU, flags irqs-off / need-resched / hardirq-softirq /
# preempt-depth / migrate-disable, timestamp in s with us, function, parent).
# Only entries are recorded, so a duration is entry to next entry of the same
# task, in task context (the third flag is '.'; h, H, s, z, Z are interrupts).
#
# Prints "gather NS", "tails NS", "calls SMALL BIG" and "folio K NS" per
# fallback call, or one "missing WHY" line.
#
# The fallback starts at hugetlb_vmemmap_optimize_folios(). A kernel built
# without HVO support (CONFIG_HUGETLB_PAGE_OPTIMIZE_VMEMMAP=n: arm64 in 6.12)
# has no such function (an empty inline); given -v folios=N, its 2N tail init
# calls are then N small ones (tails 1..63, one per folio in the gather loop)
# followed by N fallback ones, and the fallback starts at call N+1 ("start
# <how>" says which rule applied).
# busybox awk reads a number with a leading 0 as octal ("000400" is 256):
# strip the zeros first.
function dec(x) { sub(/^0+/, "", x); return x + 0 }
function ns(ts, p) { sub(/:$/, "", ts); split(ts, p, "."); return dec(p[1]) * 1000000000 + dec(p[2]) * 1000 }
/^#/ { next }
{
  at = 0
  for (i = 3; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { at = i; break }
  if (!at) next
  task = $1; flags = $(at - 1); fn = $(at + 1); t = ns($at)
  sub(/\..*/, "", fn)   # gcc clones: name.constprop.0, name.isra.0
  if (length(flags) >= 3 && substr(flags, 3, 1) != ".") next
  if (state == 0) {
    if (fn == "hugetlb_bootmem_struct_page_init") { state = 1; who = task; s = t }
    next
  }
  if (state != 1 || task != who) next
  if (fn == "hugetlb_vmemmap_optimize_folios") { if (!h) h = t; next }
  if (fn == "hugetlb_folio_init_tail_vmemmap") {
    if (h) big[++nbig] = t; else call[++nsmall] = t
    next
  }
  if (fn == "_printk") { e = t; state = 2 }
}
END {
  if (state == 0) { print "missing no hugetlb_bootmem_struct_page_init entry in the boot trace"; exit }
  how = "hugetlb_vmemmap_optimize_folios"
  if (!h && folios > 0 && nsmall == 2 * folios) {
    # No HVO in this kernel: the second half of the calls is the fallback.
    for (k = 1; k <= folios; k++) big[k] = call[folios + k]
    nbig = folios; nsmall = folios; h = big[1]
    how = "call " (folios + 1) " of " (2 * folios) " (no hugetlb_vmemmap_optimize_folios in this kernel)"
  }
  if (!h) { print "missing no hugetlb_vmemmap_optimize_folios entry after hugetlb_bootmem_struct_page_init" (folios > 0 ? " and not 2 x " folios " tail init calls (" nsmall ")" : ""); exit }
  if (state != 2) { print "missing no _printk entry after the gather (mem_init_print_info)"; exit }
  printf "gather %.0f\ntails %.0f\ncalls %d %d\nstart %s\n", e - s, e - h, nsmall, nbig, how
  for (k = 1; k <= nbig; k++) printf "folio %d %.0f\n", k, (k < nbig ? big[k + 1] : e) - big[k]
}
