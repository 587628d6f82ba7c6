#!/bin/busybox sh
# hugetlb-tails: dump every boot-time HugeTLB folio's struct pages, with one
# neighbour on each side, for the host oracle (framework/oracle/hugetlb_tails):
# memmap_dump.ko's huge_heads lists the folios (head PFN, order) by walking
# every online node's PFNs; dump_range dumps [head - 1, head + 2^order + 1)
# (without a neighbour that is not a valid PFN, e.g. past the end of RAM).
# The pages were initialised at boot (hugetlb_folio_init_tail_vmemmap() with
# HVO off for gigantic pages; the buddy allocator's prep_compound_page() for
# 2 MiB pages), so there is nothing to poison: the host checks the invariants
# and compares with the base kernel's boot instead.
#
# Also every zone's zone->contiguous, compared with the base's by the host.
#
# If the kernel has the empty-range test hook (hook-v2/hook-v3 in this
# directory) and the command line switched it on, its console line names the
# folio it ran on: reported as the measure empty_range_folio.
#
# Arguments: setups=1G+2M (sizes to dump)  module=PATH

ERR=/tmp/hugetlb-tails.err
. /testcases/lib/kseries.sh
. /testcases/lib/pmem.sh
. /testcases/lib/memmap.sh

OUT=/tmp/hugetlb-tails

setups=""
module=""
in_setups=0
for arg in "$@"; do
  case "$arg" in
    setups=*) setups="$setups $(echo "${arg#setups=}" | tr '+:' '  ')"; in_setups=1 ;;
    module=*) module=${arg#module=}; in_setups=0 ;;
    '') ;;
    *=*) fail arguments "unknown argument '$arg' (known: setups module)"; exit 2 ;;
    *) if [ "$in_setups" = 1 ]; then setups="$setups $arg"; else fail arguments "unexpected word '$arg'"; exit 2; fi ;;
  esac
done
[ -n "$(echo $setups)" ] || setups="1G 2M"
mkdir -p "$OUT"

mmd_load "$module" $setups || exit 0

# The test hook's line: "kseries: hugetlb_folio_init_tail_vmemmap(folio pfn 0x..., N, N): empty range"
hook=$(dmesg | sed -n 's/.*kseries: hugetlb_folio_init_tail_vmemmap(folio pfn \(0x[0-9a-f]*\),.*/\1/p' | head -n 1)
if [ -n "$hook" ]; then
  kseries_measure hook 0 empty_range_folio "$((hook))" pfn note=empty-tail-range-hook-ran
fi
dmesg | grep -E 'HugeTLB: (registered|allocation|Ignoring)|kseries: empty tail range hook' >/tmp/hugetlb.log
registered="$(tr '\n' ' ' </tmp/hugetlb.log)"

# Every zone's zone->contiguous (memmap_dump.ko's state file), as the
# measures zone_contiguous setup=zones: set_zone_contiguous() reads the
# first and last struct page of every pageblock at the end of boot, so a
# gigantic page's tails read there before hugetlb initialised them make
# the zone not contiguous (the host compares with the base kernel's).
if cat "$MMD/state" >/tmp/state 2>"$ERR"; then
  i=0
  while read -r word name _ _ _ _ _ _ _ contiguous; do
    [ "$word" = zone ] || continue
    kseries_measure zones "$i" zone_contiguous "$contiguous" flag zone="$name"
    i=$((i + 1))
  done </tmp/state
fi

if ! cat "$MMD/huge_heads" >/tmp/heads 2>"$ERR"; then
  for s in $setups; do fail "$s" "huge_heads: $(err)"; done
  exit 0
fi

for size in $setups; do
  case "$size" in
    1G) want=18 ;;
    2M) want=9 ;;
    *) fail "$size" "unknown setup (1G 2M)"; continue ;;
  esac
  problems=""
  i=0
  while read -r pfn order first end; do
    [ "$order" = "$want" ] || continue
    echo $((first)) >"$PARAMS/dump_start_pfn"
    echo $((end - first)) >"$PARAMS/dump_nr_pages"
    f="$OUT/huge-$size-$i.mmd"
    if cat "$MMD/dump_range" >"$f" 2>"$ERR"; then
      kseries_measure "$size" "$i" dump_bytes "$(wc -c <"$f")" bytes head_pfn="$pfn"
      kseries_put "huge-$size-$i" "$f" || problems="$problems kseries_put huge-$size-$i failed;"
    else
      problems="$problems dump of the folio at pfn $pfn: $(err);"
    fi
    rm -f "$f"
    i=$((i + 1))
  done </tmp/heads
  if [ -n "$problems" ]; then
    fail "$size" "$problems"
  elif [ "$i" = 0 ]; then
    fail "$size" "no $size HugeTLB folio found (kernel said: $registered)"
  else
    kseries_result pass "$size" "$i folio(s) dumped ($registered): the verdict is the host oracle's"
  fi
done
rmmod memmap_dump 2>/dev/null
exit 0
