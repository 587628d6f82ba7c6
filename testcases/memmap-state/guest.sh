#!/bin/busybox sh
# memmap-state: per pmem setup (and layout: lib/pmem.sh), what the kernel
# keeps beside the struct pages, at four moments (issue 46):
#   before     the device configured, not bound
#   bound      after the bind (memmap_init_zone_device() ran)
#   unbound    after the unbind (memunmap_pages(): the teardown)
#   destroyed  after the namespace is reconfigured (its claim dropped)
# At each: /proc/vmstat's nr_memmap_pages and nr_memmap_boot_pages, and
# memmap_dump.ko's state file (every zone of the node: start pfn, spanned,
# present, zone->contiguous; while bound, the migratetype of every pageblock
# of the device range). The text goes to the bulk disk as blob <setup>-state;
# the host compares it with the base kernel's (oracle memmap-state).
# Markers "kseries-step: SETUP STEP" go to the kernel log before each bind
# and unbind, so a splat (a DEBUG_VM kernel) is attributed to its step.
#
# Arguments: setups=A+B+... (default: the case's), module=PATH.

ERR=/tmp/memmap-state.err
. /testcases/lib/kseries.sh
. /testcases/lib/pmem.sh
. /testcases/lib/memmap.sh

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
[ -n "$(echo $setups)" ] || setups="fsdax-mem fsdax-dev devdax-mem devdax-dev"
mmd_load "$module" $setups || exit 0

# snapshot FILE MOMENT: the counters and the module's state, appended.
snapshot() {
  {
    echo "moment $2"
    grep -E '^nr_memmap(_boot)?_pages ' /proc/vmstat | sed 's/^/vmstat /'
    cat "$MMD/state"
  } >>"$1"
}

run_setup() {
  local name=$1 f="/tmp/$1-state.txt" rc
  problems=""
  rm -f "$f"
  pmem_configure "$name"
  rc=$?
  [ "$rc" = 2 ] && { skip "$name" "$setup_skip"; return; }
  [ "$rc" = 0 ] || { fail "$name" "$setup_error"; return; }
  echo "setup $name layout $layout" >"$f"
  snapshot "$f" before
  kseries_step "$name" bind
  if ! sysw "$ND/drivers/$drv/bind" "$dev"; then
    fail "$name" "bind: $(err) $(dmesg | grep -i -m 3 -E 'error|fail|busy|invalid|unsupported' | tr '\n' ' ')"
    free_ns; return
  fi
  pmem_bound || { fail "$name" "$setup_error"; free_ns; return; }
  snapshot "$f" bound
  kseries_step "$name" unbind
  sysw "$ND/drivers/$drv/unbind" "$dev" || problems="$problems unbind: $(err);"
  snapshot "$f" unbound
  kseries_step "$name" reconfigure
  sysw "$D/namespace" "" || problems="$problems namespace reconfiguration: $(err);"
  free_ns
  snapshot "$f" destroyed
  kseries_step "$name" done
  kseries_put "$name-state" "$f" || problems="$problems kseries_put failed;"
  rm -f "$f"
  if [ -n "$problems" ]; then
    fail "$name" "$problems"
  else
    kseries_result pass "$name" "$(clean "state at 4 moments collected: the verdict is the host oracle's${layout_facts:+; layout $layout: $layout_facts}")"
  fi
}

for s in $setups; do
  run_setup "$s"
done
rmmod memmap_dump 2>/dev/null
exit 0
