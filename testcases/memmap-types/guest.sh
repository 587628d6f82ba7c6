#!/bin/busybox sh
# memmap-types: for each setup private-<shift>, map NR pages of
# MEMORY_DEVICE_PRIVATE with memremap_pages() (memmap_dump.ko's private file,
# the way lib/test_hmm.c creates its device memory) and dump what
# memmap_init_zone_device() wrote, fast path and slow path, same PFNs:
#   1. create with page_ref_set off (the series' fast path)  -> <setup>-fast
#   2. destroy, enable page_ref_set, create (slow path)        -> <setup>-slow
#   3. (proof) destroy, unwritten_index=K, create (fast path)  -> <setup>-unwritten
#   4. rounds=R more create/destroy cycles, tracepoint off: memremap_pages ns
# The host judges the dumps exactly as memmap-equivalence's (framework/oracle):
# refcount 0 is the 6.12 policy for DEVICE_PRIVATE (pagemap_resets_refcount).
#
# Arguments: setups=private-0+private-9  pages=N (default 65536, 256 MiB)
#            unwritten=K|off (default 513)  rounds=R (default 5)  module=PATH

ERR=/tmp/memmap-types.err
. /testcases/lib/kseries.sh
. /testcases/lib/pmem.sh
. /testcases/lib/memmap.sh

T=/sys/kernel/tracing

setups=""
pages=65536
unwritten=513
rounds=5
module=""
in_setups=0
for arg in "$@"; do
  case "$arg" in
    setups=*) setups="$setups $(echo "${arg#setups=}" | tr '+:' '  ')"; in_setups=1 ;;
    pages=*) pages=${arg#pages=}; in_setups=0 ;;
    unwritten=*) unwritten=${arg#unwritten=}; in_setups=0 ;;
    rounds=*) rounds=${arg#rounds=}; in_setups=0 ;;
    module=*) module=${arg#module=}; in_setups=0 ;;
    '') ;;
    *=*) fail arguments "unknown argument '$arg' (known: setups pages unwritten rounds module)"; exit 2 ;;
    *) if [ "$in_setups" = 1 ]; then setups="$setups $arg"; else fail arguments "unexpected word '$arg'"; exit 2; fi ;;
  esac
done
[ -n "$(echo $setups)" ] || setups="private-0 private-9"
case "$unwritten" in off | [0-9]*) ;; *) fail arguments "unwritten must be a number or off"; exit 2 ;; esac

mmd_load "$module" $setups || exit 0
if [ ! -e "$MMD/private" ]; then
  for s in $setups; do skip "$s" "this kernel has no CONFIG_DEVICE_PRIVATE (memmap_dump has no private file)"; done
  rmmod memmap_dump 2>/dev/null
  exit 0
fi

tp_setup
work_setup
slowinit_setup

# The series' fast-path function, counted by a kprobe event during the fast
# create (informational: the host's verdict is the dump comparison). GCC may
# clone it (.constprop.0): take the first symbol that is it or a clone.
FP=$T/instances/kseries-fastpath
fastpath=zone_device_page_init_from_template
fp_sym=$(awk -v f="$fastpath" '$3 == f || index($3, f ".") == 1 { print $3; exit }' /proc/kallsyms 2>/dev/null)
have_fp=0
if [ -n "$fp_sym" ] && echo "p:kseries/fastpath $fp_sym" >>"$T/kprobe_events" 2>/dev/null; then
  mkdir -p "$FP" 2>/dev/null
  [ -w "$FP/events/kseries/fastpath/enable" ] && have_fp=1
fi
fp_count() { cat "$FP"/per_cpu/cpu*/stats | awk '/^entries:/ || /^overrun:/ { n += $2 } END { print n + 0 }'; }

# field KEY: KEY=value from the private file.
field() { tr ' ' '\n' <"$MMD/private" | sed -n "s/^$1=//p"; }

# create SETUP KIND SHIFT TRACE ITER: memremap_pages(); measures its ns.
create() {
  local setup=$1 kind=$2 shift_=$3 trace=$4 iter=$5 k
  [ "$trace" = on ] && tp_on
  if [ "$have_fp" = 1 ] && [ "$kind" = fast ]; then
    echo >"$FP/trace"; echo 1 >"$FP/events/kseries/fastpath/enable"
  fi
  sysw "$MMD/private" "$shift_ $pages"
  local rc=$?
  if [ "$have_fp" = 1 ] && [ "$kind" = fast ]; then
    echo 0 >"$FP/events/kseries/fastpath/enable"
    fp_calls=$(fp_count)
    kseries_measure "$setup" 0 fastpath_calls "$fp_calls" count kind=fast
  fi
  if [ "$rc" != 0 ]; then
    tp_off
    problems="$problems $kind create: $(err) $(dmesg | tail -n 3 | tr '\n' ' ');"
    return 1
  fi
  if [ "$trace" = on ]; then
    tp_off
    kseries_measure "$setup" 0 page_ref_set_events "$(tp_count)" count kind="$kind"
  fi
  case "$kind" in fast) k=first ;; *) k=$kind ;; esac
  kseries_measure "$setup" "$iter" memremap_ns "$(field memremap_ns)" ns kind="$k" pages="$pages"
  return 0
}

destroy() { sysw "$MMD/private" destroy || problems="$problems destroy: $(err);"; }

run_setup() {
  local name=$1 shift_ i
  problems=""
  case "$name" in
    private-[0-9] | private-[0-9][0-9]) shift_=${name#private-} ;;
    *) fail "$name" "unknown setup (private-<vmemmap_shift>, e.g. private-0 private-9)"; return ;;
  esac
  if [ $((pages % (1 << shift_))) != 0 ]; then
    fail "$name" "pages=$pages is not a multiple of 2^$shift_"; return
  fi
  echo -1 >"$PARAMS/unwritten_index"
  work_begin
  create "$name" fast "$shift_" off 1 && work_end "$name" && mmd_dump "$name" fast
  destroy
  if [ "$have_tp" = 1 ]; then
    slowinit_begin
    create "$name" slow "$shift_" on 0 && slowinit_end "$name" slow && mmd_dump "$name" slow
    destroy
  else
    problems="$problems no page_ref/page_ref_set event (CONFIG_DEBUG_PAGE_REF off?): no slow-path dump;"
  fi
  if [ "$unwritten" != off ]; then
    echo "$unwritten" >"$PARAMS/unwritten_index"
    slowinit_begin
    create "$name" unwritten "$shift_" off 0 && slowinit_end "$name" fast && mmd_dump "$name" unwritten
    echo -1 >"$PARAMS/unwritten_index"
    destroy
  fi
  i=2
  while [ "$i" -le $((rounds + 1)) ]; do
    create "$name" rebind "$shift_" off "$i" && destroy
    i=$((i + 1))
  done
  if [ -n "$problems" ]; then
    fail "$name" "$problems"
  else
    local fp_note="no $fastpath symbol to count (absent, renamed or inlined; the evidence that the fast path ran is the host's: the fast create's work against the base's)"
    [ "$have_fp" = 1 ] && fp_note="fast path ($fp_sym) called $fp_calls times in the fast create"
    kseries_result pass "$name" "dumps collected (fast slow$([ "$unwritten" != off ] && echo " unwritten")), $rounds timing rounds, $fp_note: the verdict is the host oracle's"
  fi
}

for s in $setups; do
  run_setup "$s"
done
tp_off
trace_teardown
slowinit_teardown
[ "$have_fp" = 1 ] && echo "-:kseries/fastpath" >>"$T/kprobe_events" 2>/dev/null
rmmod memmap_dump 2>/dev/null
exit 0
