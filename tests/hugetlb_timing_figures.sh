# hugetlb-timing's trace readers (testcases/hugetlb-timing/*.awk), run with
# the guest's awk (busybox) on traces recorded from a real boot of the base
# hugetlb-nohvo kernel (tests/data/hugetlb-timing/, from the run's bulk disk)
# and on edits of them: the per-folio figures, interrupts and other tasks
# left out, gcc's clone suffixes, a missing bracket named, the interrupted
# 2 MiB call told apart.
source "$(dirname "$0")/lib.bash"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
CASE=$SRC/testcases/hugetlb-timing
DATA=$SRC/tests/data/hugetlb-timing
figures() { busybox awk -f "$CASE/boot-figures.awk" "$1" >"$TMP/fig" || fail "boot-figures.awk failed on $1"; }
expect_line() { grep -qx -- "$1" "$TMP/fig" || { cat "$TMP/fig"; fail "no line '$1'"; }; }

# The recorded boot: 8 gigantic pages, 8 calls before HVO and 8 after; the
# first folio from 0.529676 to the second's 0.542853, the last to _printk.
figures "$DATA/boot-trace.txt"
expect_line "calls 8 8"
expect_line "folio 1 13177000"
expect_line "folio 8 13130000"
[ "$(grep -c '^folio ' "$TMP/fig")" = 8 ] || fail "not 8 folio figures: $(cat "$TMP/fig")"
start=$(sed -n 's/.* \([0-9.]*\): hugetlb_bootmem_struct_page_init .*/\1/p' "$DATA/boot-trace.txt")
end=$(awk '/hugetlb_bootmem_struct_page_init/ { on = 1 } on && / _printk / { print $4; exit }' "$DATA/boot-trace.txt" | tr -d :)
expect_line "gather $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.0f", (e - s) * 1e9 }')"
cp "$TMP/fig" "$TMP/recorded"

# A traced call in an interrupt of the same task and one of another task,
# in the middle of the fallback loop, change nothing; nor do gcc's clone
# suffixes.
awk '/prep_and_add_bootmem_folios/ && ++n == 4 {
       print "            init-1       [000] d.h1.     0.569000: _printk <-some_irq_handler"
       print "     kworker/1:1-30      [001] .....     0.569001: _printk <-other_task" }
     { print }' "$DATA/boot-trace.txt" | sed 's/hugetlb_folio_init_tail_vmemmap </hugetlb_folio_init_tail_vmemmap.constprop.0 </' >"$TMP/noisy.txt"
grep -q 'constprop.0 <' "$TMP/noisy.txt" || fail "the edit did not rename"
figures "$TMP/noisy.txt"
cmp -s "$TMP/fig" "$TMP/recorded" || { diff "$TMP/recorded" "$TMP/fig"; fail "interrupts, other tasks or clone suffixes changed the figures"; }

# The same _printk in task context ends the gather early: the figures change
# (the edit is seen, so the test above can fail).
awk '/prep_and_add_bootmem_folios/ && ++n == 4 {
       print "            init-1       [000] .....     0.569000: _printk <-somewhere" } { print }' \
  "$DATA/boot-trace.txt" >"$TMP/early.txt"
figures "$TMP/early.txt"
cmp -s "$TMP/fig" "$TMP/recorded" && fail "a task-context _printk inside the loop went unnoticed"

# Inlined tail init: no per-folio figure, the phase figures remain.
grep -v hugetlb_folio_init_tail_vmemmap "$DATA/boot-trace.txt" >"$TMP/inlined.txt"
figures "$TMP/inlined.txt"
expect_line "calls 0 0"
grep -q '^folio ' "$TMP/fig" && fail "folio figures without tail init entries"
grep -q '^tails ' "$TMP/fig" || fail "no whole-fallback figure"

# A missing bracket is named, never a figure.
for fn in hugetlb_bootmem_struct_page_init hugetlb_vmemmap_optimize_folios; do
  grep -v " $fn " "$DATA/boot-trace.txt" >"$TMP/missing.txt"
  figures "$TMP/missing.txt"
  grep -q "^missing no $fn" "$TMP/fig" || { cat "$TMP/fig"; fail "a trace without $fn is not named as such"; }
  grep -q '^folio ' "$TMP/fig" && fail "figures from a trace without $fn"
done
awk '/hugetlb_bootmem_struct_page_init/ { on = 1 } !(on && / _printk /) { print }' "$DATA/boot-trace.txt" >"$TMP/noend.txt"
figures "$TMP/noend.txt"
expect_line "missing no _printk entry after the gather (mem_init_print_info)"

# A kernel without HVO support (arm64 in 6.12: hugetlb_vmemmap_optimize_folios
# is an empty inline) has no such entry: given the folio count, the second
# half of the 2N calls is the fallback, the same per-folio figures from its
# first call on; without the count, or with another number of calls, it
# stays "missing".
grep -v " hugetlb_vmemmap_optimize_folios " "$DATA/boot-trace.txt" >"$TMP/nohvo.txt"
busybox awk -v folios=8 -f "$CASE/boot-figures.awk" "$TMP/nohvo.txt" >"$TMP/fig" || fail "awk failed"
expect_line "calls 8 8"
expect_line "start call 9 of 16 (no hugetlb_vmemmap_optimize_folios in this kernel)"
for k in 1 8; do
  expect_line "$(grep "^folio $k " "$TMP/recorded")"
done
[ "$(grep -c '^folio ' "$TMP/fig")" = 8 ] || fail "not 8 folio figures without the HVO marker"
busybox awk -v folios=7 -f "$CASE/boot-figures.awk" "$TMP/nohvo.txt" >"$TMP/fig"
expect_line "missing no hugetlb_vmemmap_optimize_folios entry after hugetlb_bootmem_struct_page_init and not 2 x 7 tail init calls (16)"

# Leading zeros in the microseconds are decimal (busybox awk reads "000400"
# as octal 256).
printf '%s\n' \
  "  init-1 [000] .....     2.000100: hugetlb_bootmem_struct_page_init <-x" \
  "  init-1 [000] .....     2.000200: hugetlb_vmemmap_optimize_folios <-x" \
  "  init-1 [000] .....     2.000300: hugetlb_folio_init_tail_vmemmap <-x" \
  "  init-1 [000] .....     2.000900: _printk <-x" >"$TMP/zeros.txt"
figures "$TMP/zeros.txt"
expect_line "folio 1 600000"
expect_line "gather 800000"

# function_graph, 2 MiB: 63 leaf calls of prep_compound_page and one an
# interrupt hit (irq_enter_rcu() nested, 15.837 us on its closing line).
busybox awk -v fn=prep_compound_page -f "$CASE/graph-durations.awk" "$DATA/graph-trace-2m.txt" >"$TMP/dur"
[ "$(grep -c '^clean ' "$TMP/dur")" = 63 ] || fail "not 63 clean calls: $(sort "$TMP/dur" | uniq -c)"
grep -qx 'interrupted 15837' "$TMP/dur" || fail "the interrupted call is not 15837 ns: $(grep -v clean "$TMP/dur")"
awk '$1 == "clean" && ($2 < 3780 || $2 > 3790) { bad = 1 } END { exit bad }' "$TMP/dur" \
  || fail "a clean call outside 3780..3790 ns: $(sort -k2n "$TMP/dur" | uniq -c)"
# Sub-microsecond digits: "8.012" is 8012 ns, "8.1" is 8100 ns.
printf ' 0)   8.012 us    |    prep_compound_page();\n 0)   8.1 us    |    prep_compound_page();\n' >"$TMP/g.txt"
busybox awk -v fn=prep_compound_page -f "$CASE/graph-durations.awk" "$TMP/g.txt" >"$TMP/dur"
[ "$(tr '\n' ' ' <"$TMP/dur")" = "clean 8012 clean 8100 " ] || fail "digits misread: $(cat "$TMP/dur")"
echo "PASS"
