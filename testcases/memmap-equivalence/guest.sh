#!/bin/busybox sh
# memmap-equivalence: per pmem setup, dump the struct pages the fast path
# wrote and the ones the slow path wrote, for the host oracle to compare
# (framework/oracle). Same boot, same device:
#   1. configure + first bind (tracepoint off), then unbind
#   2. rebind with page_ref_set off (the series' fast path)   -> dump <setup>-fast
#   3. unbind, enable page_ref_set, rebind (slow path), off   -> dump <setup>-slow
#   4. (proof) unbind, unwritten_index=K, rebind (fast path)  -> dump <setup>-unwritten
#      one struct page re-poisoned after the init: the host must flag it.
# memmap_dump.ko poisons every struct page memmap_init_zone_device() is about
# to initialise (kretprobe at entry), so a page no path writes reads back as
# 0xc3 bytes, not as the previous bind's contents.
#
# Arguments (key=value words; /init splits kseries.args on commas):
#   setups=A+B+...   default fsdax-mem fsdax-dev devdax-mem devdax-dev
#   unwritten=K|off  index (in the init range) of the page left unwritten in
#                    step 4 (default 513: tail 1 of the second compound page
#                    for 2 MiB devdax, an ordinary page for fsdax)
#   module=PATH      memmap_dump.ko (default: the one kseries put in this
#                    kernel's initramfs, /testcases/memmap-dump/memmap_dump.ko)
# Per setup: blobs <setup>-fast, <setup>-slow[, <setup>-unwritten], measures
# page_ref_set_events (slow bind; proof the slow path ran), memmap_init_ns
# kind=work (the fast bind's memmap_init_zone_device() work: with the base
# kernel's, the proof the fast path ran) and dump_bytes,
# and one result: pass = dumps collected (the verdict is the host's), fail =
# a bind or a dump failed, skip = the setup cannot run on this target.

ERR=/tmp/memmap-eq.err
. /testcases/lib/kseries.sh
. /testcases/lib/pmem.sh
. /testcases/lib/memmap.sh

setups=""
unwritten=513
module=""
in_setups=0


for arg in "$@"; do
  case "$arg" in
    setups=*) setups="$setups $(echo "${arg#setups=}" | tr '+:' '  ')"; in_setups=1 ;;
    unwritten=*) unwritten=${arg#unwritten=}; in_setups=0 ;;
    module=*) module=${arg#module=}; in_setups=0 ;;
    '') ;;
    *=*) fail arguments "unknown argument '$arg' (known: setups unwritten module)"; exit 2 ;;
    *) if [ "$in_setups" = 1 ]; then setups="$setups $arg"; else fail arguments "unexpected word '$arg'"; exit 2; fi ;;
  esac
done
[ -n "$(echo $setups)" ] || setups="fsdax-mem fsdax-dev devdax-mem devdax-dev"
case "$unwritten" in off | [0-9]*) ;; *) fail arguments "unwritten must be a number or off"; exit 2 ;; esac

mmd_load "$module" $setups || exit 0
tp_setup
work_setup
slowinit_setup

# rebind SETUP KIND TRACE: unbind and bind again, tracepoint on or off.
rebind() {
  local setup=$1 kind=$2 trace=$3
  kseries_step "$setup" "$kind unbind"
  sysw "$unbindfile" "$bdev" || { problems="$problems $kind unbind: $(err);"; return 1; }
  [ "$trace" = on ] && tp_on
  kseries_step "$setup" "$kind bind"
  if ! sysw "$bindfile" "$bdev"; then
    tp_off
    problems="$problems $kind bind: $(err) $(dmesg | tail -n 3 | tr '\n' ' ');"
    return 1
  fi
  if [ "$trace" = on ]; then
    tp_off
    kseries_measure "$setup" 0 page_ref_set_events "$(tp_count)" count kind="$kind"
  fi
  return 0
}

run_setup() {
  local name=$1 rc
  problems=""
  case "$name" in
    fsdax*-mem | fsdax*-dev | devdax*-mem | devdax*-dev | fsdax*-*@* | devdax*-*@*) ;;
    *) fail "$name" "unknown setup (<fsdax|devdax>[4k|2m|1g]-<mem|dev>[@LAYOUT])"; return ;;
  esac
  pmem_configure "$name"
  rc=$?
  [ "$rc" = 2 ] && { skip "$name" "$setup_skip"; return; }
  [ "$rc" = 0 ] || { fail "$name" "$setup_error"; return; }
  echo -1 >"$PARAMS/unwritten_index"
  kseries_step "$name" "first bind"
  if ! sysw "$ND/drivers/$drv/bind" "$dev"; then
    fail "$name" "first bind: $(err) $(dmesg | grep -i -m 3 -E 'error|fail|busy|invalid|unsupported' | tr '\n' ' ')"
    free_ns; return
  fi
  pmem_bound || { fail "$name" "$setup_error"; free_ns; return; }

  work_begin
  rebind "$name" fast off && work_end "$name" && mmd_dump "$name" fast
  # page_ref_set enabled outside this script (the top trace instance, e.g.
  # trace_event= on the command line): the fast bind was a slow bind by the
  # series' contract, and the host says "not applicable".
  [ "$(cat /sys/kernel/tracing/events/page_ref/page_ref_set/enable 2>/dev/null)" = 1 ] \
    && kseries_measure "$name" 0 tracepoint_on_in_fast_bind 1 count
  if [ "$have_tp" = 1 ]; then
    slowinit_begin
    rebind "$name" slow on && slowinit_end "$name" slow && mmd_dump "$name" slow
  else
    problems="$problems no page_ref/page_ref_set event (CONFIG_DEBUG_PAGE_REF off?): no slow-path dump;"
  fi
  if [ "$unwritten" != off ]; then
    echo "$unwritten" >"$PARAMS/unwritten_index"
    slowinit_begin
    rebind "$name" unwritten off && slowinit_end "$name" fast && mmd_dump "$name" unwritten
    echo -1 >"$PARAMS/unwritten_index"
  elif [ "$have_si" = 1 ]; then
    slowinit_begin
    rebind "$name" counted off && slowinit_end "$name" fast
  fi

  kseries_step "$name" teardown
  pmem_teardown || problems="$problems teardown: $(err);"
  if [ -n "$problems" ]; then
    fail "$name" "$problems"
  else
    kseries_result pass "$name" "$(clean "dumps collected (fast slow$([ "$unwritten" != off ] && echo " unwritten")): the verdict is the host oracle's${layout_facts:+; layout $layout: $layout_facts}")"
  fi
}

for s in $setups; do
  run_setup "$s"
done
tp_off
trace_teardown
slowinit_teardown
rmmod memmap_dump 2>/dev/null
exit 0
